#!/usr/bin/env python3
"""tcc against ONNX Runtime on the same models, alternating the two in one run.

The machine these numbers come from is shared and noisy (its speed changes by tens of
percent from minute to minute), so a fair comparison runs the two back to back, many
times: each round times ONNX Runtime (`--runs` runs after a warm-up) and then `tcc bench`
on the same model and thread count, and the report gives each one's median over the
rounds' medians, and the ratio tcc / ORT of the rounds taken pairwise (below 1: tcc is
faster), and the ratio of the two sides' fastest rounds (their medians' minima: on a
host whose speed drifts in phases of minutes, the rounds both sides ran in a fast
phase).

The ONNX models are exported once per model from the same PyTorch modules as
`benchmarks/models/export.py` (same seeds, so the same weights as the TOSA exports tcc
compiles).

Usage (a Python with torch, torchvision, onnx and onnxruntime; keep it outside the
repository):

    python benchmarks/peers/compare.py --models /tmp/full --tcc target/release/tcc \\
        --only resnet50 --threads 1,2 --backend llvm --rounds 5 --runs 10

`--backend cranelift,llvm` times both backends in every round (with ratios of the
second to the first); a backend written `llvm:4x4` (or `:2x2`, `:off`) is timed with
that Winograd policy (`--winograd 4x4`), a plain one with tcc's default (`auto`). `--precision bf16` passes tcc's precision policy; `--openvino
default` (its own precision: bf16 on CPUs with AVX512_BF16) or `--openvino f32` times
OpenVINO (a Python with openvino) in every round too, with the ratio tcc / OpenVINO.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
import export  # noqa: E402  (the corpus definition)
import interleaved  # noqa: E402  (the ONNX Runtime session, alike in both; this directory)


def ort_session(name, threads, path):
    if not os.path.exists(path):
        model, x = export.build(name, True)
        with torch.no_grad():
            try:
                torch.onnx.export(model, (x,), path, input_names=["x"], dynamo=False)
            except Exception:  # the TorchScript exporter cannot trace some models (attention)
                torch.onnx.export(model, (x,), path, input_names=["x"], dynamo=True)
    return ort_runner(path, threads)


def ort_runner(path, threads):
    """A function running the ONNX model at `path` with ONNX Runtime on `threads` threads
    (all graph optimizations, one inter-op thread) on a random input."""
    session = interleaved.ort_session(path, threads)
    shape = [d if isinstance(d, int) else 1 for d in session.get_inputs()[0].shape]
    feed = {session.get_inputs()[0].name: torch.rand(shape).numpy()}
    return lambda: session.run(None, feed)


def ov_runner(path, threads, hint):
    """A function running the ONNX model at `path` with OpenVINO on `threads` threads, at
    its default inference precision (`hint` "default") or f32, on a random input."""
    import numpy as np
    import openvino as ov

    config = {"PERFORMANCE_HINT": "LATENCY", "INFERENCE_NUM_THREADS": threads}
    if hint != "default":
        config["INFERENCE_PRECISION_HINT"] = hint
    model = ov.Core().compile_model(path, "CPU", config)
    request = model.create_infer_request()
    shape = [d.get_length() if d.is_static else 1 for d in model.inputs[0].get_partial_shape()]
    x = np.random.rand(*shape).astype(np.float32)
    return lambda: request.infer({0: x})


def ort_median(run, runs, warmup):
    for _ in range(warmup):
        run()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        run()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def tcc_bench(tcc, model, threads, backend, runs, warmup, precision):
    """`tcc bench --json`; `backend` is a backend's name, or `NAME:POLICY` for that
    Winograd policy (`--winograd POLICY`; else tcc's default, `auto`)."""
    backend, _, winograd = backend.partition(":")
    out = subprocess.run(
        [tcc, "bench", model, "--threads", str(threads), "--backend", backend, "--runs", str(runs),
         "--warmup", str(warmup), "--precision", precision, "--winograd", winograd or "auto", "--json"],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models", required=True, help="directory of the full-size exports (export.py --full --out)")
    p.add_argument("--tcc", default="target/release/tcc")
    p.add_argument("--only", help="comma-separated model names (default: the CNNs)")
    p.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    p.add_argument("--backend", default="llvm",
                   help="tcc backend, or a comma-separated list timed in turn in every round (ratios to the first); "
                        "NAME:TILE adds --winograd TILE")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--precision", default="fp32", help="tcc's precision policy: fp32 or bf16")
    p.add_argument("--openvino", default="none", choices=["none", "default", "f32"],
                   help="time OpenVINO too, at its default precision or f32")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    a = p.parse_args()
    names = a.only.split(",") if a.only else ["resnet18", "resnet50", "vgg11", "squeezenet1_0", "mobilenet_v2"]
    onnx_dir = os.path.join(tempfile.gettempdir(), "tcc-compare-onnx")
    os.makedirs(onnx_dir, exist_ok=True)
    for name in names:
        for threads in [int(t) for t in a.threads.split(",")]:
            torch.set_num_threads(threads)
            onnx = os.path.join(onnx_dir, f"{name}.onnx")
            run = ort_session(name, threads, onnx)
            ov_run = ov_runner(onnx, threads, a.openvino) if a.openvino != "none" else None
            ov_ms = []
            backends = a.backend.split(",")
            ort_ms = []
            tcc_ms = {b: [] for b in backends}
            ratios = {b: [] for b in backends}
            to_first = {b: [] for b in backends}
            compile_ms = {b: [] for b in backends}
            peak = {}
            for r in range(a.rounds):
                o = ort_median(run, a.runs, a.warmup)
                ort_ms.append(o)
                if ov_run:
                    ov_ms.append(ort_median(ov_run, a.runs, a.warmup))
                # The backends in turn, each one first in some rounds: whichever runs
                # right after ONNX Runtime meets its spinning threads.
                for b in backends[r % len(backends):] + backends[:r % len(backends)]:
                    t = tcc_bench(a.tcc, os.path.join(a.models, f"{name}.mlir"), threads, b, a.runs, a.warmup,
                                  a.precision)
                    ms = t["latency_ms"]["median"]
                    tcc_ms[b].append(ms)
                    ratios[b].append(ms / o)

                    compile_ms[b].append(t["compile_ms"])
                    peak[b] = t.get("peak_percent")
            for b in backends:
                to_first[b] = [x / y for x, y in zip(tcc_ms[b], tcc_ms[backends[0]])]
                row = {
                    "model": name, "threads": threads, "backend": b, "rounds": a.rounds,
                    "tcc_ms": statistics.median(tcc_ms[b]), "ort_ms": statistics.median(ort_ms),
                    "ratio": statistics.median(ratios[b]), "ratio_of_minima": min(tcc_ms[b]) / min(ort_ms),
                    "compile_ms": statistics.median(compile_ms[b]),
                    "tcc_peak_percent": peak[b],
                    "tcc_rounds_ms": [round(v, 3) for v in tcc_ms[b]], "ort_rounds_ms": [round(v, 3) for v in ort_ms],
                }
                if b != backends[0]:
                    row[f"ratio_to_{backends[0]}"] = statistics.median(to_first[b])
                if ov_ms:
                    row["precision"] = a.precision
                    row["openvino"] = a.openvino
                    row["ov_ms"] = statistics.median(ov_ms)
                    row["ratio_ov"] = statistics.median([x / y for x, y in zip(tcc_ms[b], ov_ms)])
                    row["ov_rounds_ms"] = [round(v, 3) for v in ov_ms]
                if a.json:
                    print(json.dumps(row))
                else:
                    extra = f"  {b}/{backends[0]} {row[f'ratio_to_{backends[0]}']:.3f}" if b != backends[0] else ""
                    if ov_ms:
                        extra += f"  OV({a.openvino}) {row['ov_ms']:8.2f} ms  tcc/OV {row['ratio_ov']:.3f}"
                    print(f"{name:14} {b:9} t{threads}: tcc {row['tcc_ms']:8.2f} ms  ORT {row['ort_ms']:8.2f} ms  "
                          f"tcc/ORT {row['ratio']:.3f} (of minima {row['ratio_of_minima']:.3f}){extra}  "
                          f"(compile {row['compile_ms']:.0f} ms, {a.rounds} rounds)")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
