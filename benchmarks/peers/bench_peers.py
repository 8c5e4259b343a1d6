#!/usr/bin/env python3
"""Latency of PyTorch (eager) and ONNX Runtime on the model corpus, for comparison
with `tcc bench` on the same models.

The models are built exactly as `benchmarks/models/export.py` builds them (same
seeds, same weights, same input shapes), so the numbers compare with `tcc bench` on
that script's exports. Each peer runs with the same number of threads as tcc.

Usage (a Python with torch, torchvision, onnx and onnxruntime; keep it outside the
repository):

    python benchmarks/peers/bench_peers.py --full --threads 2 --runs 5
    python benchmarks/peers/bench_peers.py --only resnet18 --json

Prints one line per model and peer: median / min latency in ms over the timed runs.
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
import export  # noqa: E402  (the corpus definition)


def timed(fn, runs, warmup):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times), min(times)


def bench(name, full, threads, runs, warmup):
    model, x = export.build(name, full)
    torch.set_num_threads(threads)
    results = {}
    with torch.no_grad():
        results["pytorch"] = timed(lambda: model(x), runs, warmup)
    import onnxruntime as ort

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, f"{name}.onnx")
        try:
            torch.onnx.export(model, (x,), path, input_names=["x"], dynamo=False)
        except Exception:  # the TorchScript exporter cannot trace some models (attention)
            try:
                torch.onnx.export(model, (x,), path, input_names=["x"], dynamo=True)
            except Exception as e:
                print(f"{name}: ONNX export failed, no onnxruntime number: {e}", file=sys.stderr)
                return results
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        session = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
        feed = {"x": x.numpy()}
        results["onnxruntime"] = timed(lambda: session.run(None, feed), runs, warmup)
    return results


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--full", action="store_true", help="full-size models (default: the small variants)")
    p.add_argument("--only", help="comma-separated model names")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    a = p.parse_args()
    names = a.only.split(",") if a.only else list(export.MODELS)
    for n in names:
        for peer, (median, best) in bench(n, a.full, a.threads, a.runs, a.warmup).items():
            if a.json:
                print(json.dumps({"model": n, "peer": peer, "threads": a.threads, "median_ms": median, "min_ms": best}))
            else:
                print(f"{n:16} {peer:12} median {median:9.3f} ms  min {best:9.3f} ms  ({a.threads} threads)")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
