#!/usr/bin/env python3
"""The convolutions of a torch-mlir TOSA model grouped by shape, from `tcc bench --json`:
count, time per run, GFLOP/s and percentage of the FMA peak `tcc bench` measured, as a
Markdown table (the per-kernel tables of benchmarks/RESULTS.md).

Usage: python benchmarks/kernel_table.py TCC MODEL.mlir BACKEND THREADS RUNS

Each kernel's location is the line of its last fused op; the table names it by the
nearest `tosa.conv2d` above that line (window, stride, channels, output size).
"""
import json, re, subprocess, sys, collections
tcc, model, backend, threads, runs = sys.argv[1:6]
out = subprocess.run([tcc, "bench", model, "--backend", backend, "--threads", threads, "--runs", runs,
                      "--warmup", "2", "--json"], check=True, capture_output=True, text=True).stdout
d = json.loads(out)
lines = open(model).read().split("\n")
def conv_class(line):
    for l in range(line - 1, max(0, line - 40), -1):
        m = re.search(r"tosa\.conv2d .*stride = array<i64: (\d+), (\d+)>.*\(tensor<1x(\d+)x(\d+)x(\d+)xf32>, tensor<(\d+)x(\d+)x(\d+)x\d+xf32>.*-> tensor<1x(\d+)x(\d+)x(\d+)xf32>", lines[l])
        if m:
            s, _, ih, iw, ic, o, kh, kw, oh, ow, oc = map(int, m.groups())
            return f"{kh}x{kw}" + (f" stride {s}" if s > 1 else "") + f", {ic}->{oc} ch, {oh}x{ow} out"
    return None
groups = collections.OrderedDict()
for k in d["kernels"]:
    if k["name"] != "graph.conv2d_nchwc":
        continue
    line = int(k["loc"].split(":")[-2])
    c = conv_class(line) or k["loc"]
    g = groups.setdefault(c, [0, 0.0, 0.0, []])
    g[0] += 1; g[1] += k["ms"]; g[2] += k["flops"]; g[3].append(k["peak_percent"])
peak = d["peak_gflops_per_core"]
print(f"backend {backend}, {threads} thread(s): median {d['latency_ms']['median']:.2f} ms, {d['gflops_per_s']:.1f} GFLOP/s = {d['peak_percent']:.1f}% of {peak:.1f} GFLOP/s x {threads}")
print("| conv | count | ms/run | GFLOP/s | % of peak (all) | % of peak (min-max per kernel) |")
print("|---|---|---|---|---|---|")
conv_ms = 0
for c, (n, ms, fl, pp) in sorted(groups.items(), key=lambda kv: -kv[1][1]):
    conv_ms += ms
    g = fl / ms / 1e6 if ms > 0 else float("nan")
    print(f"| {c} | {n} | {ms:.3f} | {g:.1f} | {100 * g / (peak * int(threads)):.1f}% | {min(pp):.0f}-{max(pp):.0f}% |")
print(f"convs: {conv_ms:.2f} ms of {d['kernels_ms']:.2f} ms in kernels")
