#!/usr/bin/env python3
"""tcc (ahead of time) against ONNX Runtime and OpenVINO in one process, one inference each in turn.

On a machine whose speed changes from second to second (a shared host: on the Xeon with
AMX of 2026-11-29, one core's AMX throughput moved between 0.55 and 2.2 TFLOP/s from one
run of the same program to the next), rounds of several runs each (`compare.py`) still
catch the sides in different states. Here each round runs one inference of every side
back to back (the first side rotating from round to round), thousands of rounds apart
from each other by milliseconds; the report gives each side's median and minimum, and
for every tcc build the median of the rounds' ratios to each peer and to the first tcc
build.

tcc runs a model compiled ahead of time into a shared library, one per build or backend:

    tcc MODEL.mlir --emit=staticlib --backend llvm -o libM.a --name M
    cc -shared -o libM.so -Wl,--whole-archive libM.a -Wl,--no-whole-archive -lpthread -lm -ldl

and the peers the ONNX export of the same model (`compare.py` writes them): ONNX Runtime
(all graph optimizations, one inter-op thread) and OpenVINO at its default precision
(bf16 on CPUs with AVX512_BF16) or `--ov-precision f32`, with `PERFORMANCE_HINT=LATENCY`;
both on tcc's thread count.

    python benchmarks/peers/interleaved.py --name M --onnx M.onnx \\
        --tcc llvm=libM-llvm.so --tcc cranelift=libM-cranelift.so --peer ort \\
        --threads 2 --pairs 300

Without a peer (`--peer none`), tcc builds alone, A/B: `--shape 12x128x128` gives the
(single, f32) input's shape and `--out-numel` the output's size; ratios are to the
first build. A kernel's change measured this way repeats within a few percent where
separate `tcc bench` processes minutes apart differ by tens of percent.

Between two inferences the process sleeps `--gap-ms` (default 100 ms), so that a
runtime whose idle workers spin for a while after an inference does not take the cores
from the side after it: ONNX Runtime's do for longer than 25 ms (ResNet-18 on two
threads, tcc right after ONNX Runtime: median 26 ms with a 25 ms pause, 39 ms with 2 ms
or 10 ms, 16 ms with 100 ms, and 16-20 ms alone).
"""

import argparse
import ctypes
import os
import statistics
import time

import numpy as np


def tcc_side(path, name, x, out_numel, threads):
    # Each library binds its own copy of the runtime first (two builds in one process).
    lib = ctypes.CDLL(path, mode=os.RTLD_LOCAL | os.RTLD_DEEPBIND)
    run = getattr(lib, f"{name}_run_threads")
    run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
    y = np.zeros(out_numel, dtype=np.float32)
    inputs = (ctypes.c_void_p * 1)(x.ctypes.data)
    outputs = (ctypes.c_void_p * 1)(y.ctypes.data)

    def infer(keep=(x, y)):  # (the arrays the pointers point into live as long as this)
        status = run(inputs, outputs, threads)
        if status != 0:
            raise SystemExit(f"tcc ({path}): status {status}")

    return infer


def ort_session(onnx, threads):
    """ONNX Runtime's session of the model at `onnx` on `threads` threads (all graph
    optimizations, one inter-op thread), as every peer script here runs it."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(onnx, opts, providers=["CPUExecutionProvider"])


def ort_side(onnx, threads):
    session = ort_session(onnx, threads)
    shape = [d if isinstance(d, int) else 1 for d in session.get_inputs()[0].shape]
    out = session.get_outputs()[0].shape
    feed = {session.get_inputs()[0].name: np.random.rand(*shape).astype(np.float32)}
    return (lambda: session.run(None, feed)), shape, int(np.prod([d if isinstance(d, int) else 1 for d in out]))


def ov_side(onnx, threads, precision):
    import openvino as ov

    config = {"PERFORMANCE_HINT": "LATENCY", "INFERENCE_NUM_THREADS": threads}
    if precision != "default":
        config["INFERENCE_PRECISION_HINT"] = precision
    model = ov.Core().compile_model(onnx, "CPU", config)
    request = model.create_infer_request()
    shape = [d.get_length() for d in model.inputs[0].get_partial_shape()]
    out_numel = int(np.prod([d.get_length() for d in model.outputs[0].get_partial_shape()]))
    x = np.random.rand(*shape).astype(np.float32)
    return (lambda: request.infer({0: x})), shape, out_numel


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tcc", action="append", default=[], metavar="LABEL=LIB",
                   help="a tcc build: its label and the model as a shared library (see above); repeatable")
    p.add_argument("--lib", help="the same as --tcc tcc=LIB")
    p.add_argument("--name", required=True, help="the model's name in the libraries (--name of tcc)")
    p.add_argument("--onnx", help="the same model as ONNX, for the peers")
    p.add_argument("--peer", action="append", choices=["ort", "ov", "none"],
                   help="ONNX Runtime (ort), OpenVINO (ov) or none; repeatable (default: ov)")
    p.add_argument("--shape", help="without a peer: the input's shape, e.g. 1x3x224x224")
    p.add_argument("--out-numel", type=int, help="without a peer: the output's number of elements")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--pairs", type=int, default=300, help="rounds (one inference of every side each)")
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--gap-ms", type=float, default=100.0, help="pause between two inferences")
    p.add_argument("--ov-precision", default="default", choices=["default", "f32"])
    a = p.parse_args()

    builds = [t.split("=", 1) for t in a.tcc] + ([["tcc", a.lib]] if a.lib else [])
    if not builds or any(len(b) != 2 for b in builds):
        raise SystemExit("give at least one --tcc LABEL=LIB (or --lib LIB)")
    sides, shape, out_numel = {}, None, None
    peer_names = [p for p in a.peer or ["ov"] if p != "none"]
    if peer_names and not a.onnx:
        raise SystemExit("a peer needs --onnx")
    if not peer_names:
        if not a.shape or not a.out_numel:
            raise SystemExit("without a peer, give --shape and --out-numel")
        shape, out_numel = [int(d) for d in a.shape.split("x")], a.out_numel
    for peer in peer_names:
        if peer == "ort":
            sides["ORT"], shape, out_numel = ort_side(a.onnx, a.threads)
        else:
            sides["OpenVINO"], shape, out_numel = ov_side(a.onnx, a.threads, a.ov_precision)
    peers = list(sides)
    # (The sizes from a peer's model: the header's tables are not in the library.)
    x = np.random.rand(*shape).astype(np.float32)
    for label, path in builds:
        sides[label] = tcc_side(path, a.name, x, out_numel, a.threads)
    names = list(sides)

    for _ in range(a.warmup):
        for f in sides.values():
            f()
            time.sleep(a.gap_ms / 1e3)
    times = {s: [] for s in names}
    for i in range(a.pairs):
        for k in range(len(names)):
            side = names[(i + k) % len(names)]
            t = time.perf_counter()
            sides[side]()
            times[side].append((time.perf_counter() - t) * 1e3)
            time.sleep(a.gap_ms / 1e3)

    print(f"{a.name}, {a.threads} thread(s), {a.pairs} rounds:")
    for s in names:
        print(f"  {s:12s} median {statistics.median(times[s]):8.3f} ms   min {min(times[s]):8.3f} ms")
    for label, _ in builds:
        for ref in peers + [builds[0][0]]:
            if ref == label:
                continue
            ratios = [t / r for t, r in zip(times[label], times[ref])]
            print(f"  {label} / {ref}: median of rounds {statistics.median(ratios):.3f}, "
                  f"of minima {min(times[label]) / min(times[ref]):.3f}")


if __name__ == "__main__":
    main()
