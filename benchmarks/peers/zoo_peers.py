#!/usr/bin/env python3
"""tcc against ONNX Runtime on torchvision models, alternating the two in one run.

The models are the ones `benchmarks/models/zoo.py` exports (same names, seeds and
perturbed normalization, so the same weights): run zoo.py first for the TOSA exports,
then this script builds each model again, exports it to ONNX once (next to the TOSA
export) and, round after round, times ONNX Runtime (`--runs` runs after a warm-up) and
then `tcc bench` on each backend, for each thread count. It reports each one's median
over the rounds and the ratios tcc / ORT (below 1: tcc is faster) and LLVM / Cranelift.

Usage (a Python with torch, torchvision, onnx and onnxruntime; a release build of tcc
with `--features llvm`):

    python benchmarks/models/zoo.py --only regnet_x_3_2gf --sizes 224 --out /tmp/zoo
    python benchmarks/peers/zoo_peers.py --zoo /tmp/zoo --size 224 --only regnet_x_3_2gf \\
        --tcc target/release/tcc --threads 1,2 --rounds 3 --runs 10
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
import zoo  # noqa: E402  (the zoo's model definitions)
from compare import ort_median, ort_runner  # noqa: E402  (the same ONNX Runtime setup and timing)


def ort_session(name, size, threads, path):
    """`compare.ort_runner` on the model's ONNX export, made at `path` first if missing."""
    if not os.path.exists(path):
        model = zoo.build(name, size)
        zoo.perturb(model)
        x = torch.rand(1, 3, size, size)
        with torch.no_grad():
            torch.onnx.export(model, (x,), path, input_names=["x"], dynamo=False)
    return ort_runner(path, threads)


def tcc_median(tcc, model, backend, threads, runs, warmup):
    out = subprocess.run(
        [tcc, "bench", model, "--json", "--backend", backend, "--threads", str(threads), "--runs", str(runs),
         "--warmup", str(warmup)],
        capture_output=True, text=True, check=True)
    j = json.loads(out.stdout)
    naive = [k["name"] for k in j["kernels"] if k.get("naive")]
    return j["latency_ms"]["median"], naive


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--zoo", required=True, help="zoo.py's --out directory (the TOSA exports)")
    p.add_argument("--size", type=int, default=224)
    p.add_argument("--only", required=True, help="comma-separated model names")
    p.add_argument("--tcc", required=True)
    p.add_argument("--backends", default="cranelift,llvm")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--warmup", type=int, default=2)
    a = p.parse_args()
    backends = a.backends.split(",")
    print(f"| model | threads | ORT ms | " + " | ".join(f"{b} ms | {b}/ORT" for b in backends)
          + (" | llvm/cranelift |" if len(backends) == 2 else " |"))
    print("|---" * (3 + 2 * len(backends) + (1 if len(backends) == 2 else 0)) + "|")
    for name in a.only.split(","):
        model = os.path.join(a.zoo, f"{name}.{a.size}.mlir")
        onnx_path = os.path.join(a.zoo, f"{name}.{a.size}.onnx")
        for threads in [int(t) for t in a.threads.split(",")]:
            session = ort_session(name, a.size, threads, onnx_path)
            ort, tcc = [], {b: [] for b in backends}
            naive = set()
            for _ in range(a.rounds):
                ort.append(ort_median(session, a.runs, a.warmup))
                for b in backends:
                    ms, n = tcc_median(a.tcc, model, b, threads, a.runs, a.warmup)
                    tcc[b].append(ms)
                    naive.update(n)
            o = statistics.median(ort)
            cells = [f"{statistics.median(tcc[b]):.2f} | "
                     f"{statistics.median(t / r for t, r in zip(tcc[b], ort)):.2f}" for b in backends]
            ratio = ""
            if len(backends) == 2:
                ratio = f" {statistics.median(l / c for l, c in zip(tcc[backends[1]], tcc[backends[0]])):.2f} |"
            note = f" (naive: {', '.join(sorted(naive))})" if naive else ""
            print(f"| {name}{note} | {threads} | {o:.2f} | " + " | ".join(cells) + " |" + ratio, flush=True)


if __name__ == "__main__":
    main()
