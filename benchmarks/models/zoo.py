#!/usr/bin/env python3
"""Runs tcc on every torchvision classification and segmentation model.

For each model and input size, a subprocess builds the model with random weights (a
fixed seed per model, normalization layers perturbed so outputs are non-trivial), runs
it in PyTorch and exports it to TOSA with torch-mlir, writing

    <out>/<name>.<size>.mlir        the model, as `fx.export_and_import(..., output_type="tosa")`
    <out>/<name>.<size>.in0.npy     a random 1x3xSxS input
    <out>/<name>.<size>.out0.npy    PyTorch's output on it (segmentation models: `out["out"]`)
    <out>/<name>.<size>.export.json what happened (parameter count, errors, warnings)

Models that cannot take a requested size (Inception v3, MaxViT) run at their smallest
one instead (SMALLEST_SIZE); models over --max-params are listed as skipped.

Then, for each backend, `tcc run -e` checks tcc's output against PyTorch's and
`tcc bench --json` measures compile time and latency. The results go to a markdown
table (stdout and <out>/zoo.md, or --results FILE) and <out>/zoo.json, rewritten after
every model so an interrupted run keeps what it has. Artefacts stay out of the repository.

Usage (any Python with torch, torchvision and torch-mlir; a release build of tcc):

    python benchmarks/models/zoo.py                          # everything, sizes 64 and 72
    python benchmarks/models/zoo.py --only resnet18,fcn_resnet50 --sizes 64
    python benchmarks/models/zoo.py --backends cranelift --out /tmp/zoo --reuse

Exits with 0 if every exported model matched PyTorch on every backend, 1 otherwise.
"""

import argparse
import datetime
import json
import os
import re
import shlex
import subprocess
import sys
import time
import zlib

import numpy as np
import torch
import torch.nn as nn
import torchvision

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAILED_STAGE = {"build": "torchvision cannot build it", "pytorch": "PyTorch cannot run it",
                "torch-mlir": "torch-mlir cannot export", "process": "the export process failed"}
# Models that cannot take the small sizes: they run at their smallest size instead
# (Inception v3's stem needs 75 pixels; MaxViT's windows of 7 need 7 * 32; ViT-H/14's
# patches need a multiple of 14).
SMALLEST_SIZE = {"inception_v3": 80, "maxvit_t": 224, "vit_h_14": 70}
MATCH_RE = re.compile(r"max error (\S+) \((\S+) of the reference's scale\): (\w+)")

torch.set_num_threads(1)


class SegmentationOut(nn.Module):
    """A torchvision segmentation model returning only its main output, `out["out"]`."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


def list_models():
    """Every torchvision classification and segmentation model name, in that order."""
    return (torchvision.models.list_models(module=torchvision.models)
            + torchvision.models.list_models(module=torchvision.models.segmentation))


def build(name, size):
    """Model `name` for size x size inputs, in eval mode, with random weights from a fixed seed.

    ViT and MaxViT take the input size as a constructor argument; the others adapt to it.
    """
    torch.manual_seed(zlib.crc32(name.encode()))
    if name in torchvision.models.list_models(module=torchvision.models.segmentation):
        model = torchvision.models.get_model(name, weights=None, weights_backbone=None, aux_loss=False)
        return SegmentationOut(model).eval()
    kwargs = {}
    if name.startswith("vit_"):
        kwargs["image_size"] = size
    elif name.startswith("maxvit_"):
        kwargs["input_size"] = (size, size)
    return torchvision.models.get_model(name, weights=None, **kwargs).eval()


def perturb(model):
    """Random normalization statistics and affine parameters, so no layer is an identity,
    and random weights where a layer starts at zero."""
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.modules.batchnorm._BatchNorm) and m.track_running_stats:
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2.0)
            norm = (nn.modules.batchnorm._BatchNorm, nn.LayerNorm, nn.GroupNorm)
            if isinstance(m, norm) and getattr(m, "weight", None) is not None:
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.5, 0.5)
            # Layers initialized to zero (ViT's classification head) would make the
            # output constant.
            if isinstance(m, nn.Linear) and not m.weight.any():
                m.weight.normal_(0.0, 0.02)


def first_line(text, limit=150):
    """The first non-empty line of `text`, truncated to `limit` characters."""
    line = next((s.strip() for s in str(text).splitlines() if s.strip()), "")
    return line if len(line) <= limit else line[: limit - 3] + "..."


def export_one(name, size, out, max_params):
    """The --export-one mode: builds, runs and exports one model, recording what happened.

    The record (<out>/<name>.<size>.export.json) has `status` ok, skipped or failed, with
    `stage` (build, pytorch or torch-mlir) and `error` on failure.
    """
    stem = os.path.join(out, f"{name}.{size}")
    record = {"status": "failed", "stage": "build"}
    try:
        model = build(name, size)
        record["params"] = sum(p.numel() for p in model.parameters())
        if record["params"] > max_params:
            record["status"] = "skipped"
            return
        perturb(model)
        record["stage"] = "pytorch"
        x = torch.randn(1, 3, size, size)
        with torch.no_grad():
            y = model(x).float()
        record["out_shape"] = list(y.shape)
        if not torch.isfinite(y).all():
            record["warning"] = "PyTorch's output is not finite"
        elif y.std() == 0:
            record["warning"] = f"PyTorch's output is constant ({y.flatten()[0].item():g})"
        record["stage"] = "torch-mlir"
        from torch_mlir import fx

        module = fx.export_and_import(model, x, output_type="tosa", func_name="main")
        with open(stem + ".mlir", "w") as f:
            module.operation.print(file=f, large_elements_limit=None)
        np.save(stem + ".in0.npy", x.numpy())
        np.save(stem + ".out0.npy", y.numpy())
        record.update(status="ok", mlir_mb=round(os.path.getsize(stem + ".mlir") / 1e6, 2))
        del record["stage"]
    except Exception as e:
        record["error"] = first_line(f"{type(e).__name__}: {e}")
    finally:
        with open(stem + ".export.json", "w") as f:
            json.dump(record, f)


def run_command(cmd, timeout):
    """Runs `cmd`; returns (exit code, or None on timeout, stdout, stderr, wall seconds)."""
    start = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr, time.time() - start
    except subprocess.TimeoutExpired:
        return None, "", f"timed out after {timeout} s", time.time() - start


def error_line(code, stderr, out):
    """The first error line of a failed command, with paths relative to the output directory."""
    lines = [s for s in stderr.splitlines() if s.strip()]
    line = next((s for s in lines if "error" in s), lines[0] if lines else f"exit code {code}")
    return first_line(line.replace(out.rstrip("/") + "/", ""))


def export(name, size, a):
    """Exports one model in a subprocess (see export_one) and returns its record and wall time."""
    stem = os.path.join(a.out, f"{name}.{size}")
    if a.reuse and os.path.exists(stem + ".export.json"):
        with open(stem + ".export.json") as f:
            return json.load(f), 0.0
    if os.path.exists(stem + ".export.json"):
        os.remove(stem + ".export.json")
    cmd = [sys.executable, os.path.abspath(__file__), "--export-one", name, str(size),
           "--out", a.out, "--max-params", str(a.max_params)]
    code, _, stderr, secs = run_command(cmd, a.timeout)
    if os.path.exists(stem + ".export.json"):
        with open(stem + ".export.json") as f:
            record = json.load(f)
        # torch-mlir's exception says only that lowering failed; MLIR printed the
        # diagnostic ("loc(...): error: failed to legalize ...") to stderr.
        diagnostic = next((s.split("error: ", 1)[1] for s in stderr.splitlines() if "error: " in s), None)
        if record.get("stage") == "torch-mlir" and diagnostic:
            record["error"] = first_line(f"{record['error'].split(':', 1)[0]}: {diagnostic}")
            with open(stem + ".export.json", "w") as f:
                json.dump(record, f)
        return record, secs
    why = stderr if code is None else f"export process died (exit code {code}): {error_line(code, stderr, a.out)}"
    return {"status": "failed", "stage": "process", "error": first_line(why)}, secs


def check(name, size, backend, a):
    """`tcc run -e` then (if it compiled) `tcc bench` of one exported model on one backend."""
    stem = os.path.join(a.out, f"{name}.{size}")
    common = [stem + ".mlir", "--backend", backend]
    code, stdout, stderr, secs = run_command(
        [a.tcc, "run", *common, "-i", stem + ".in0.npy", "-e", stem + ".out0.npy",
         "--tolerance", str(a.tolerance)], a.timeout)
    matches = MATCH_RE.findall(stdout)
    r = {"run_s": round(secs, 2), "compiled": bool(matches), "matched": code == 0 and bool(matches)}
    if matches:
        r["max_error"] = max(float(m[0]) for m in matches)
        r["max_rel_error"] = max(float(m[1]) for m in matches)
    if code != 0:
        r["error"] = error_line(code, stderr, a.out)
    log(f"  {backend} run: {'ok' if r['matched'] else r['error']} ({secs:.1f} s)")
    if not r["compiled"]:
        return r
    code, stdout, stderr, secs = run_command(
        [a.tcc, "bench", *common, "--runs", "5", "--warmup", "1", "--json"], a.timeout)
    r["bench_s"] = round(secs, 2)
    if code == 0:
        bench = json.loads(stdout)
        r.update(compile_ms=bench["compile_ms"], latency_ms=bench["latency_ms"]["median"],
                 threads=bench["threads"])
    else:
        r["bench_error"] = error_line(code, stderr, a.out)
    log(f"  {backend} bench: {r.get('bench_error', 'ok')} ({secs:.1f} s)")
    return r


def log(msg):
    """Progress, to stderr."""
    print(msg, file=sys.stderr, flush=True)


def cpu_model():
    """The CPU's name from /proc/cpuinfo."""
    try:
        with open("/proc/cpuinfo") as f:
            return next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        return "unknown"


def fmt(value, spec, unit=""):
    """`value` formatted with `spec` (and `unit`), or a dash if missing."""
    return "—" if value is None else format(value, spec) + unit


def columns(backends):
    """The table's column titles."""
    both = ["llvm/cranelift compile ratio"] if {"cranelift", "llvm"} <= set(backends) else []
    return (["model", "size", "params", "export", f"import+compile ({' / '.join(backends)})",
             "match (max rel. error)"] + [f"compile ms {b}" for b in backends] + both
            + [f"latency ms {b}" for b in backends])


def row(result, backends):
    """One model's table cells, matching columns(backends)."""
    e, runs = result["export"], result.get("backends", {})
    params = e.get("params")
    cells = [result["model"], str(result["size"]), fmt(params and params / 1e6, ".1f", "M"), e["status"]]
    get = lambda b, key: runs.get(b, {}).get(key)
    if runs:
        cells.append(" / ".join("ok" if get(b, "compiled") else "error" for b in backends))
        cells.append(" / ".join(("ok " if get(b, "matched") else "MISMATCH ") + fmt(get(b, "max_rel_error"), ".1e")
                                if get(b, "compiled") else "—" for b in backends))
    else:
        cells += ["—", "—"]
    cells += [fmt(get(b, "compile_ms"), ".0f") for b in backends]
    if {"cranelift", "llvm"} <= set(backends):
        llvm, cranelift = get("llvm", "compile_ms"), get("cranelift", "compile_ms")
        cells.append(fmt(llvm / cranelift if llvm and cranelift else None, ".1f"))
    cells += [fmt(get(b, "latency_ms"), ".3f") for b in backends]
    return cells


def markdown(results, a, header):
    """The results table, then lists of tcc errors, models not exported, skipped models and warnings."""
    cols = columns(a.backends)
    lines = header + ["", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    failures, not_exported, skipped, warnings = [], [], [], []
    for r in results:
        e, label = r["export"], f"{r['model']} ({r['size']})"
        lines.append("| " + " | ".join(row(r, a.backends)) + " |")
        if e["status"] == "skipped":
            skipped.append(f"- {label}: {e['params'] / 1e6:.1f}M parameters")
        elif e["status"] == "failed":
            not_exported.append(f"- {label}: {FAILED_STAGE[e['stage']]}: `{e['error']}`")
        if e.get("warning"):
            warnings.append(f"- {label}: {e['warning']}")
        for b, run in r.get("backends", {}).items():
            failures += [f"- {label} {b}: `{run[k]}`" for k in ("error", "bench_error") if k in run]
    for title, items in [("tcc errors and mismatches", failures),
                         ("Not exported (torch-mlir or PyTorch failed)", not_exported),
                         (f"Skipped: more than {a.max_params / 1e6:.0f}M parameters", skipped),
                         ("Warnings", warnings)]:
        lines += ["", f"## {title}", ""] + (items or ["none"])
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", help="comma-separated model names (default: all)")
    p.add_argument("--sizes", default="64,72", help="comma-separated input sizes (default: 64,72)")
    p.add_argument("--out", default="/tmp/tcc-zoo", help="directory for the exports and results")
    p.add_argument("--results", help="markdown output file (default: <out>/zoo.md)")
    p.add_argument("--max-params", type=float, default=150e6,
                   help="skip larger models (default: 1.5e8, which keeps every VGG and leaves out ViT-L/H, "
                   "ConvNeXt-L and RegNetY-128GF)")
    p.add_argument("--timeout", type=float, default=600, help="seconds per export and per tcc command")
    p.add_argument("--backends", default="cranelift,llvm", help="comma-separated tcc backends")
    p.add_argument("--tolerance", type=float, default=1e-4, help="`tcc run --tolerance` (default: 1e-4)")
    p.add_argument("--tcc", default=os.path.join(REPO, "target", "release", "tcc"), help="the tcc binary")
    p.add_argument("--reuse", action="store_true", help="keep exports from an earlier run of the same --out")
    p.add_argument("--export-one", nargs=2, metavar=("NAME", "SIZE"), help=argparse.SUPPRESS)
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    if a.export_one:
        export_one(a.export_one[0], int(a.export_one[1]), a.out, a.max_params)
        return
    a.backends = a.backends.split(",")
    known = list_models()
    names = a.only.split(",") if a.only else known
    unknown = [n for n in names if n not in known]
    if unknown:
        sys.exit(f"unknown model(s) {', '.join(unknown)}; known: {', '.join(known)}")
    sizes = [int(s) for s in a.sizes.split(",")]
    version = subprocess.run([a.tcc, "--version"], capture_output=True, text=True).stdout.strip()
    header = ["# tcc on the torchvision model zoo", "",
              f"- command: `{shlex.join(['python', *sys.argv])}`",
              f"- date: {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}",
              f"- CPU: {cpu_model()} ({os.cpu_count()} logical CPUs)",
              f"- versions: torch {torch.__version__}, torchvision {torchvision.__version__}, {version}",
              "- weights: random (fixed seed per model), normalization statistics and affine parameters "
              "perturbed; input: one random 1x3xSxS tensor",
              f"- match: `tcc run -e`, max error relative to the reference's max |value|, tolerance {a.tolerance:g}",
              "- compile ms: `compile_ms` (read + parse + compile); latency ms: `latency_ms.median` "
              "(`tcc bench --runs 5 --warmup 1`, per-kernel profiling on)"]
    results, all_matched, start = [], True, time.time()
    jobs = list(dict.fromkeys((n, max(s, SMALLEST_SIZE.get(n, 0))) for n in names for s in sizes))
    for i, (name, size) in enumerate(jobs, 1):
        record, secs = export(name, size, a)
        log(f"[{i}/{len(jobs)}] {name} {size}: export {record['status']} ({secs:.1f} s)"
            + (f": {record['error']}" if "error" in record else ""))
        result = {"model": name, "size": size, "export": record, "export_s": round(secs, 2)}
        if record["status"] == "ok":
            result["backends"] = {b: check(name, size, b, a) for b in a.backends}
            all_matched &= all(r["matched"] for r in result["backends"].values())
        results.append(result)
        table = markdown(results, a, header + [f"- wall time: {(time.time() - start) / 60:.1f} min"])
        with open(a.results or os.path.join(a.out, "zoo.md"), "w") as f:
            f.write(table)
        with open(os.path.join(a.out, "zoo.json"), "w") as f:
            json.dump(results, f, indent=1)
    print(table, end="")
    sys.exit(0 if all_matched else 1)


if __name__ == "__main__":
    main()
