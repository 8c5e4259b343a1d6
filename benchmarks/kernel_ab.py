#!/usr/bin/env python3
"""Two or more tcc builds on one model, per convolution shape, alternating the builds.

The machine these numbers come from is noisy, so a comparison of builds runs them in
turn, round after round (`tcc bench --json`, RUNS runs after 2 warm-up each), and
reports per group of convolutions (grouped by shape as in kernel_table.py) the median
over the rounds of the group's GFLOP/s as a percentage of the FMA peak `tcc bench`
measured, then the same for all 1x1 and all 3x3 convolutions together, and the median
latency.

Usage: python benchmarks/kernel_ab.py MODEL.mlir BACKEND THREADS ROUNDS RUNS TCC...

A TCC may be a script that sets environment variables and runs a build.
"""
import collections
import json
import re
import statistics
import subprocess
import sys

model, backend, threads, rounds, runs = sys.argv[1:6]
builds = sys.argv[6:]
lines = open(model).read().split("\n")


def conv_class(line):
    """The shape of the nearest `tosa.conv2d` above `line`: window, stride, channels, output."""
    for l in range(line - 1, max(0, line - 40), -1):
        m = re.search(r"tosa\.conv2d .*stride = array<i64: (\d+), (\d+)>.*\(tensor<1x(\d+)x(\d+)x(\d+)xf32>, "
                      r"tensor<(\d+)x(\d+)x(\d+)x\d+xf32>.*-> tensor<1x(\d+)x(\d+)x(\d+)xf32>", lines[l])
        if m:
            s, _, ih, iw, ic, o, kh, kw, oh, ow, oc = map(int, m.groups())
            return f"{kh}x{kw}" + (f" s{s}" if s > 1 else "") + f" {ic}->{oc} {oh}x{ow}"
    return "?"


percent = {b: collections.defaultdict(list) for b in builds}
latency = {b: [] for b in builds}
for _ in range(int(rounds)):
    for b in builds:
        out = subprocess.run([b, "bench", model, "--backend", backend, "--threads", threads, "--runs", runs,
                              "--warmup", "2", "--json"], check=True, capture_output=True, text=True).stdout
        d = json.loads(out)
        peak = d["peak_gflops_per_core"] * int(threads)
        groups = collections.defaultdict(lambda: [0.0, 0.0])
        for k in d["kernels"]:
            if k["name"] == "graph.conv2d_nchwc":
                g = groups[conv_class(int(k["loc"].split(":")[-2]))]
                g[0] += k["ms"]
                g[1] += k["flops"]
        for c, (ms, flops) in groups.items():
            percent[b][c].append(100 * flops / ms / 1e6 / peak)
        for window in ("1x1", "3x3"):
            ms = sum(v[0] for c, v in groups.items() if c.startswith(window))
            flops = sum(v[1] for c, v in groups.items() if c.startswith(window))
            if ms:
                percent[b]["all " + window].append(100 * flops / ms / 1e6 / peak)
        latency[b].append(d["latency_ms"]["median"])
print("| conv | " + " | ".join(b.split("/")[-1] for b in builds) + " |")
print("|---|" + "---|" * len(builds))
for c in percent[builds[0]]:
    print(f"| {c} | " + " | ".join(f"{statistics.median(percent[b][c]):.1f}%" for b in builds) + " |")
print("| latency | " + " | ".join(f"{statistics.median(latency[b]):.2f} ms" for b in builds) + " |")
