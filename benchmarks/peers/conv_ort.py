#!/usr/bin/env python3
"""ONNX Runtime's time for one convolution with bias and ReLU, as `benchmarks/convs.py`
writes them for tcc, so a kernel's share of the peak can be set against the peer's.

Builds the ONNX model in memory (random weights), runs it on one thread, and prints the
median of `runs` timed runs after 50 warm-up runs (ONNX Runtime's own layout changes
included) and the GFLOP/s that makes, counting only the kernel taps that land on the
image (as `tcc bench` counts them).

Usage (a Python with onnx and onnxruntime; keep it outside the repository):

    python benchmarks/peers/conv_ort.py C O HW GROUPS [K [STRIDE [DILATION [RUNS]]]]
    python benchmarks/peers/conv_ort.py 64 128 56 64     # multiplier 2 at 56x56
"""

import sys
import time

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    c, o, hw, g = map(int, sys.argv[1:5])
    extra = [int(a) for a in sys.argv[5:9]]
    k, s, d, runs = (extra + [3, 1, 1, 1000][len(extra):])[:4]
    p = d * (k - 1) // 2
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.standard_normal((o, c // g, k, k)).astype(np.float32) * 0.1, "W")
    b = numpy_helper.from_array(rng.standard_normal(o).astype(np.float32) * 0.1, "B")
    oh = (hw + 2 * p - d * (k - 1) - 1) // s + 1
    nodes = [
        helper.make_node("Conv", ["x", "W", "B"], ["y"], group=g, pads=[p] * 4, strides=[s, s],
                         dilations=[d, d], kernel_shape=[k, k]),
        helper.make_node("Relu", ["y"], ["z"]),
    ]
    graph = helper.make_graph(nodes, "conv", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c, hw, hw])],
                              [helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, o, oh, oh])], [w, b])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    x = rng.standard_normal((1, c, hw, hw)).astype(np.float32)
    for _ in range(50):
        session.run(None, {"x": x})
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        session.run(None, {"x": x})
        times.append(time.perf_counter() - start)
    ms = float(np.median(times)) * 1e3
    # Kernel rows (and columns) on the image, summed over the output rows.
    taps = sum(1 for i in range(oh) for kk in range(k) if 0 <= i * s - p + kk * d < hw)
    flops = 2 * o * (c // g) * taps * taps
    print(f"ORT {ms:.4f} ms  {flops / ms / 1e6:.1f} GFLOP/s")


if __name__ == "__main__":
    main()
