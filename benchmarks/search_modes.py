#!/usr/bin/env python3
"""The rewrite search's modes side by side: search time and the cost they reach.

For each model, compiles with `tcc MODEL --emit=graph --timing --rewrite-search MODE`
for each mode, twice (the first run fills the cost database with what the mode
measures; the second is reported, so neither mode pays for measurements the other made
or did not make), and reads the search's report: the graph's cost before and after (the
cost model's milliseconds: measured ops, estimates for the rest), the search's own time,
and what the whole-model check said. Prints a markdown table.

Usage:

    python3 benchmarks/search_modes.py --tcc target/release/tcc [--modes taso,eqsat] DIR_OR_MODEL...
"""

import argparse
import os
import re
import subprocess
import sys


def models(paths):
    out = []
    for p in paths:
        out += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".mlir")) if os.path.isdir(p) else [p]
    return out


def search(tcc, model, mode, timeout):
    """(initial ms, final ms, search ms, verdict) from the search's report."""
    p = subprocess.run([tcc, model, "--emit=graph", "-o", os.devnull, "--timing", "--rewrite-search", mode],
                       capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        return None, None, None, "error: " + (p.stderr.strip().splitlines() or ["?"])[-1]
    for line in p.stderr.splitlines():
        m = re.match(r"rewrite-search: cost ([0-9.]+) -> ([0-9.]+) ms.*?, ([0-9.]+) ms; rules: (.*)$", line)
        if m:
            rest = m.group(4)
            if "rejected:" in rest:
                verdict = "rejected by the whole-model check"
            elif "saves too little" in line:
                verdict = "saves too little"
            elif rest.startswith("none"):
                verdict = "no rewrite"
            else:
                w = re.search(r"whole model ([0-9.]+) -> ([0-9.]+) ms: kept", rest)
                verdict = f"kept ({w.group(1)} -> {w.group(2)} ms whole)" if w else "kept"
            return float(m.group(1)), float(m.group(2)), float(m.group(3)), verdict
    return None, None, None, "no report"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tcc", default="target/release/tcc")
    ap.add_argument("--modes", default="taso,eqsat")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    modes = a.modes.split(",")
    head = ["model"] + [f"{m} {col}" for m in modes for col in ("cost ms", "search ms", "verdict")]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for path in models(a.paths):
        cells = [os.path.basename(path)[:-len(".mlir")]]
        for mode in modes:
            search(a.tcc, path, mode, a.timeout)
            before, after, ms, verdict = search(a.tcc, path, mode, a.timeout)
            print(f"{cells[0]} {mode}: {before} -> {after} ms, search {ms} ms, {verdict}", file=sys.stderr, flush=True)
            cells += ["—" if after is None else f"{before:.4f} -> {after:.4f}", "—" if ms is None else f"{ms:.0f}", verdict]
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
