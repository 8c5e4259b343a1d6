#!/usr/bin/env python3
"""Two or more tcc builds on whole models, alternating the builds round after round.

The machine these numbers come from is noisy, so builds are compared by running them in
turn: each round runs `tcc bench --json` (RUNS runs after 3 warm-up) of every build on
every model, and the report gives per model and build the median over the rounds of the
median latency, and each build's ratio to the first build's (below 1: faster).

Usage: python benchmarks/model_ab.py --models DIR --only resnet18,bert_layer \\
           --backend llvm --threads 1 --rounds 3 --runs 20 TCC_A TCC_B ...

A build may carry extra `tcc bench` flags after `::`, so one binary can be compared with
itself under other options: `target/release/tcc::--rewrite-search=off target/release/tcc`.
"""

import argparse
import json
import os
import shlex
import statistics
import subprocess


def latency(build, model, backend, threads, runs):
    tcc, _, flags = build.partition("::")
    out = subprocess.run(
        [tcc, "bench", model, "--backend", backend, "--threads", str(threads), "--runs", str(runs), "--json"]
        + shlex.split(flags),
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)["latency_ms"]["median"]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models", required=True, help="directory of MODEL.mlir files")
    p.add_argument("--only", required=True, help="comma-separated model names")
    p.add_argument("--backend", default="llvm")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("builds", nargs="+", help="tcc binaries, the first is the reference")
    a = p.parse_args()
    names = a.only.split(",")
    times = {(n, b): [] for n in names for b in a.builds}
    for _ in range(a.rounds):
        for n in names:
            for b in a.builds:
                times[(n, b)].append(latency(b, os.path.join(a.models, n + ".mlir"), a.backend, a.threads, a.runs))
    print(f"| model | {' | '.join(a.builds)} | ratios to the first |")
    print(f"|---|{'---|' * len(a.builds)}---|")
    for n in names:
        med = [statistics.median(times[(n, b)]) for b in a.builds]
        ratios = ", ".join(f"{m / med[0]:.3f}" for m in med[1:])
        cells = " | ".join(f"{m:.3f} ms" for m in med)
        print(f"| {n} | {cells} | {ratios} |")


if __name__ == "__main__":
    main()
