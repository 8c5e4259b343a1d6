#!/usr/bin/env python3
"""tcc (ahead of time) against OpenVINO in one process, one inference each in turn.

On a machine whose speed changes from second to second (a shared host: on the Xeon with
AMX of 2026-11-29, one core's AMX throughput moved between 0.55 and 2.2 TFLOP/s from one
run of the same program to the next), rounds of several runs each (`compare.py`) still
catch the two sides in different states. Here each pair of inferences, one of tcc and
one of OpenVINO, runs back to back, thousands of times apart from each other by
microseconds; the report gives each side's median and minimum and the median of the
pairs' ratios.

tcc runs a model compiled ahead of time into a shared library:

    tcc MODEL.mlir --emit=staticlib --backend llvm --precision bf16 -o libM.a --name M
    cc -shared -o libM.so -Wl,--whole-archive libM.a -Wl,--no-whole-archive -lpthread -lm -ldl

and OpenVINO the ONNX export of the same model (`compare.py` writes them), at its
default precision (bf16 on CPUs with AVX512_BF16) or `--ov-precision f32`, with
`PERFORMANCE_HINT=LATENCY` and `INFERENCE_NUM_THREADS` = tcc's threads.

    python benchmarks/peers/interleaved.py --lib libM.so --name M --onnx M.onnx \\
        --threads 1 --pairs 300
"""

import argparse
import ctypes
import statistics
import time

import numpy as np


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lib", required=True, help="the model as a shared library (see above)")
    p.add_argument("--name", required=True, help="the model's name in the library (--name of tcc)")
    p.add_argument("--onnx", required=True, help="the same model as ONNX, for OpenVINO")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--pairs", type=int, default=300)
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--ov-precision", default="default", choices=["default", "f32"])
    a = p.parse_args()

    import openvino as ov

    config = {"PERFORMANCE_HINT": "LATENCY", "INFERENCE_NUM_THREADS": a.threads}
    if a.ov_precision != "default":
        config["INFERENCE_PRECISION_HINT"] = a.ov_precision
    model = ov.Core().compile_model(a.onnx, "CPU", config)
    request = model.create_infer_request()
    # (The sizes from OpenVINO's model: the header's tables are not in the library.)
    shape = [d.get_length() for d in model.inputs[0].get_partial_shape()]
    out_numel = int(np.prod([d.get_length() for d in model.outputs[0].get_partial_shape()]))
    x = np.random.rand(*shape).astype(np.float32)
    y = np.zeros(out_numel, dtype=np.float32)

    lib = ctypes.CDLL(a.lib)
    inputs = (ctypes.c_void_p * 1)(x.ctypes.data)
    outputs = (ctypes.c_void_p * 1)(y.ctypes.data)
    run = getattr(lib, f"{a.name}_run_threads")
    run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]

    def tcc():
        status = run(inputs, outputs, a.threads)
        if status != 0:
            raise SystemExit(f"tcc: status {status}")

    def openvino():
        request.infer({0: x})

    for _ in range(a.warmup):
        tcc()
        openvino()
    times = {"tcc": [], "ov": []}
    for i in range(a.pairs):
        # Alternate which side goes first.
        order = [("tcc", tcc), ("ov", openvino)] if i % 2 == 0 else [("ov", openvino), ("tcc", tcc)]
        for side, f in order:
            t = time.perf_counter()
            f()
            times[side].append((time.perf_counter() - t) * 1e3)
    ratios = [t / o for t, o in zip(times["tcc"], times["ov"])]
    med = {s: statistics.median(v) for s, v in times.items()}
    low = {s: min(v) for s, v in times.items()}
    print(
        f"{a.name} t{a.threads}: tcc median {med['tcc']:.2f} ms (min {low['tcc']:.2f}), "
        f"OpenVINO median {med['ov']:.2f} ms (min {low['ov']:.2f}), "
        f"tcc/OV median of pairs {statistics.median(ratios):.3f}, of minima {low['tcc'] / low['ov']:.3f} "
        f"({a.pairs} pairs)"
    )


if __name__ == "__main__":
    main()
