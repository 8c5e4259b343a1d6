#!/usr/bin/env python3
"""OpenVINO's output error against PyTorch's f32 outputs, at its default precision (bf16
on CPUs with AVX512_BF16) and at f32: max |y - y_ref| / max |y_ref| on the full-size
exports' inputs.

Usage (a Python with openvino and numpy; the ONNX models are the ones `compare.py`
exports):

    python benchmarks/peers/ov_error.py --models /tmp/full --onnx /tmp/tcc-compare-onnx \\
        resnet50 mobilenet_v2 vgg11 bert_layer
"""

import argparse
import os

import numpy as np
import openvino as ov


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models", required=True, help="directory of NAME.in0.npy and NAME.out0.npy")
    p.add_argument("--onnx", required=True, help="directory of NAME.onnx")
    p.add_argument("names", nargs="+")
    args = p.parse_args()
    core = ov.Core()
    for name in args.names:
        x = np.load(os.path.join(args.models, f"{name}.in0.npy"))
        ref = np.load(os.path.join(args.models, f"{name}.out0.npy")).astype(np.float64)
        for hint in [None, "f32"]:
            config = {"PERFORMANCE_HINT": "LATENCY", "INFERENCE_NUM_THREADS": 1}
            if hint:
                config["INFERENCE_PRECISION_HINT"] = hint
            model = core.compile_model(os.path.join(args.onnx, f"{name}.onnx"), "CPU", config)
            y = model(x)[0].astype(np.float64)
            error = np.abs(y - ref).max() / np.abs(ref).max()
            print(f"{name} OpenVINO {model.get_property('INFERENCE_PRECISION_HINT')}: {error:.3e}")


if __name__ == "__main__":
    main()
