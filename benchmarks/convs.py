#!/usr/bin/env python3
"""The convolution variants of issue 28 at realistic sizes, each alone in a model, and
the share of the FMA peak their convolution kernel reaches in `tcc bench`.

Each model is one `graph.conv2d` (random constant weights and bias, then a ReLU):
grouped convolutions (2 to 32 groups, 4 to 64 channels per group), depthwise with a
channel multiplier of 2 and 4 (one whose data fits L2, one on rows narrower than a 512-bit
vector), dilation 2, the stems of ResNet, VGG, EfficientNet and
ViT at 224x224, and a regular 3x3 convolution for reference. For each, `tcc bench
--json` (one thread) gives the convolution kernels' time; the share of the peak is the
convolution's FLOPs (as `tcc bench` counts them: the logical convolution, no padding)
over that time and the peak `tcc bench` measured after its runs. With `--before`, a
second tcc binary is timed on the same models against the same FLOPs and peak (its own
FLOP counts may be older and wrong).

Usage:

    python3 benchmarks/convs.py --tcc target/release/tcc --backend llvm [--before OLD_TCC]
        [--only grouped_g8_w8_28,...] [--dir /tmp/convs]
"""

import argparse
import json
import os
import random
import struct
import subprocess
import tempfile


def hexf(rng, n):
    values = [rng.uniform(-0.1, 0.1) for _ in range(n)]
    return "0x" + struct.pack("<%df" % n, *values).hex().upper()


def conv_model(rng, c, o, hw, k, stride=1, groups=1, dil=1, pad=None, relu=True):
    """One convolution as a graph-dialect model (NCHW input, OIHW filter)."""
    if pad is None:
        pad = dil * (k - 1) // 2
    oh = (hw + 2 * pad - dil * (k - 1) - 1) // stride + 1
    w = f"tensor<{o}x{c // groups}x{k}x{k}xf32>"
    x = f"tensor<1x{c}x{hw}x{hw}xf32>"
    y = f"tensor<1x{o}x{oh}x{oh}xf32>"
    lines = [
        f"func.func @main(%x: {x}) -> {y} {{",
        f'  %w = graph.constant {{value = dense<"{hexf(rng, o * (c // groups) * k * k)}"> : {w}}} : () -> {w}',
        f'  %b = graph.constant {{value = dense<"{hexf(rng, o)}"> : tensor<{o}xf32>}} : () -> tensor<{o}xf32>',
        f"  %0 = graph.conv2d %x, %w, %b {{dilations = [{dil}, {dil}], groups = {groups}, "
        f"pads = [{pad}, {pad}, {pad}, {pad}], strides = [{stride}, {stride}]}} : ({x}, {w}, tensor<{o}xf32>) -> {y}",
    ]
    if relu:
        lines += [f"  %1 = graph.relu %0 : ({y}) -> {y}", f"  return %1 : {y}"]
    else:
        lines += [f"  return %0 : {y}"]
    return "\n".join(lines + ["}"]) + "\n"


def variants():
    """(name, conv_model keyword arguments), in the order of the table."""
    v = []
    for g, width, hw in [(2, 64, 56), (3, 40, 56), (4, 32, 56), (8, 16, 56), (32, 4, 56), (8, 8, 28), (4, 64, 28),
                         (16, 24, 28)]:
        v.append((f"grouped_g{g}_w{width}_{hw}", dict(c=g * width, o=g * width, hw=hw, k=3, groups=g)))
    for c, m, hw in [(64, 2, 56), (32, 4, 56), (128, 2, 28), (64, 2, 28), (128, 2, 14)]:
        v.append((f"dwmult_c{c}_m{m}_{hw}", dict(c=c, o=c * m, hw=hw, k=3, groups=c)))
    v.append(("depthwise_c128_56", dict(c=128, o=128, hw=56, k=3, groups=128)))
    v.append(("dilated2_c128_56", dict(c=128, o=128, hw=56, k=3, dil=2)))
    v.append(("dilated2_c256_28", dict(c=256, o=256, hw=28, k=3, dil=2)))
    v.append(("stem_resnet_7x7s2", dict(c=3, o=64, hw=224, k=7, stride=2, pad=3)))
    v.append(("stem_vgg_3x3", dict(c=3, o=64, hw=224, k=3)))
    v.append(("stem_effnet_3x3s2", dict(c=3, o=32, hw=224, k=3, stride=2, pad=1)))
    v.append(("stem_vit_16x16s16", dict(c=3, o=192, hw=224, k=16, stride=16, pad=0, relu=False)))
    v.append(("regular_c128_56", dict(c=128, o=128, hw=56, k=3)))
    return v


def bench(tcc, model, backend, runs):
    out = subprocess.run([tcc, "bench", model, "--json", "--runs", str(runs), "--warmup", "3", "--backend", backend,
                          "--threads", "1"], capture_output=True, text=True)
    return json.loads(out.stdout) if out.returncode == 0 else None


def conv_ms(profile):
    return sum(k["ms"] for k in profile["kernels"] if "conv" in k["name"])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tcc", required=True)
    p.add_argument("--before", help="another tcc binary to time on the same models")
    p.add_argument("--backend", default="llvm")
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--only", help="comma-separated variant names")
    p.add_argument("--dir", help="where the models are written (default: a temporary directory)")
    a = p.parse_args()
    directory = a.dir or tempfile.mkdtemp(prefix="tcc-convs-")
    os.makedirs(directory, exist_ok=True)
    only = set(a.only.split(",")) if a.only else None
    before = " before ms | before % |" if a.before else ""
    print(f"| conv |{before} ms | % of peak | kernel |")
    print("|---" * (4 + (2 if a.before else 0)) + "|")
    rng = random.Random(1)
    for name, kwargs in variants():
        text = conv_model(rng, **kwargs)
        if only and name not in only:
            continue
        model = os.path.join(directory, name + ".mlir")
        with open(model, "w") as f:
            f.write(text)
        now = bench(a.tcc, model, a.backend, a.runs)
        if now is None:
            print(f"| {name} | error |", flush=True)
            continue
        flops = sum(k["flops"] for k in now["kernels"])
        peak = now["peak_gflops_per_core"]
        share = lambda ms: 100 * flops / (ms * 1e6) / peak
        kernels = sorted({k["name"].replace("graph.", "") + (" (naive)" if k.get("naive") else "")
                          for k in now["kernels"] if "conv" in k["name"]})
        cells = ""
        if a.before:
            old = bench(a.before, model, a.backend, a.runs)
            cells = f" {conv_ms(old):.3f} | {share(conv_ms(old)):.1f}% |" if old else " error | |"
        ms = conv_ms(now)
        print(f"| {name} |{cells} {ms:.3f} | {share(ms):.1f}% | {', '.join(kernels)} |", flush=True)


if __name__ == "__main__":
    main()
