#!/usr/bin/env python3
"""tcc against ONNX Runtime on the convolution blocks of issue 28, alternating.

Each block is a grouped 3x3 convolution, a ReLU, a depthwise 3x3 convolution with a
channel multiplier of 2 and a ReLU (random weights, seed 0), exported once by
torch-mlir (TOSA) and to ONNX into `--dir`. Round after round, ONNX Runtime runs
(`--runs` runs after a warm-up), then `tcc bench` on each backend for each given tcc
binary; prints the medians over the rounds and the ratios to ONNX Runtime.

Usage (a Python with torch, torch-mlir, onnx and onnxruntime):

    python benchmarks/peers/block_peers.py --dir /tmp/blocks --tcc target/release/tcc [--tcc OLD_TCC]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import ort_median, ort_runner  # noqa: E402  (the same ONNX Runtime setup and timing)


class Block(torch.nn.Module):
    def __init__(self, channels, groups, multiplier):
        super().__init__()
        self.grouped = torch.nn.Conv2d(channels, channels, 3, padding=1, groups=groups)
        self.depthwise = torch.nn.Conv2d(channels, channels * multiplier, 3, padding=1, groups=channels)

    def forward(self, x):
        return torch.relu(self.depthwise(torch.relu(self.grouped(x))))


# name: (channels, groups, multiplier, height = width)
BLOCKS = {
    "grouped3_mult2_c120_56": (120, 3, 2, 56),
    "grouped4_mult2_c48_56": (48, 4, 2, 56),
    "grouped8_mult2_c64_28": (64, 8, 2, 28),
}


def export(name, directory):
    """The block's TOSA and ONNX files, written on first use."""
    from torch_mlir import fx

    channels, groups, multiplier, hw = BLOCKS[name]
    mlir, onnx_path = os.path.join(directory, f"{name}.mlir"), os.path.join(directory, f"{name}.onnx")
    if not os.path.exists(mlir):
        torch.manual_seed(0)
        model = Block(channels, groups, multiplier).eval()
        x = torch.rand(1, channels, hw, hw)
        with open(mlir, "w") as f:
            f.write(str(fx.export_and_import(model, x, output_type="tosa", func_name="main")))
        torch.onnx.export(model, (x,), onnx_path, input_names=["x"], dynamo=False)
    return mlir, onnx_path


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dir", required=True, help="where the exports are written (and reused)")
    p.add_argument("--tcc", action="append", required=True, help="a tcc binary (repeat to compare builds)")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--runs", type=int, default=20)
    a = p.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    for name in BLOCKS:
        mlir, onnx_path = export(name, a.dir)
        for threads in [int(t) for t in a.threads.split(",")]:
            times = {"ort": []}
            run = ort_runner(onnx_path, threads)
            for _ in range(a.rounds):
                times["ort"].append(ort_median(run, a.runs, 3))
                for i, tcc in enumerate(a.tcc):
                    for backend in ("llvm", "cranelift"):
                        out = subprocess.run(
                            [tcc, "bench", mlir, "--json", "--backend", backend, "--threads", str(threads),
                             "--runs", str(a.runs), "--warmup", "3"], capture_output=True, text=True, check=True)
                        times.setdefault(f"tcc{i} {backend}", []).append(json.loads(out.stdout)["latency_ms"]["median"])
            med = {k: statistics.median(v) for k, v in times.items()}
            cells = " ".join(f"{k} {v:.3f} ({v / med['ort']:.2f}x)" for k, v in med.items() if k != "ort")
            print(f"{name} threads {threads}: ORT {med['ort']:.3f} {cells}", flush=True)


if __name__ == "__main__":
    main()
