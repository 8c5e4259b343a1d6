#!/usr/bin/env python3
"""Which rewrite rules fire on real models, and which pay.

Compiles each model with `tcc MODEL --emit=graph --timing` (the default search, or the
flags given after `--`) and reads the search's report from stderr: the rules that made
candidate graphs (a rule matched there), the rules on the way to the cheapest graph,
and whether the whole-model check kept it (the rewritten model, compiled whole, must be
faster). Prints two markdown tables: per model, and per rule (models it matched in,
candidates it made, models whose kept graph applies it).

Usage:

    python3 benchmarks/rules_fire.py --tcc target/release/tcc DIR_OR_MODEL... [-- TCC FLAGS]

Directories are searched for `*.mlir`. Rule names are as `tcc-opt --list-rules` gives
them (`matrix-NNNN` and `image-NNNN` are generated, the others hand-written).
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import time


def models(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            out += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".mlir"))
        else:
            out.append(p)
    return out


def rule_name(label):
    """A path entry's rule (the search appends the layouts it chose in brackets)."""
    return label.split(" [")[0].strip()


def report(tcc, model, flags, timeout):
    """The search's report on `model`: (candidates by rule, rules applied, verdict, seconds)."""
    start = time.time()
    try:
        p = subprocess.run([tcc, model, "--emit=graph", "-o", os.devnull, "--timing"] + flags,
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, [], "timeout", time.time() - start
    secs = time.time() - start
    if p.returncode != 0:
        return None, [], "error: " + (p.stderr.strip().splitlines() or ["?"])[-1], secs
    by_rule, path, verdict = {}, [], "no rewrite"
    for line in p.stderr.splitlines():
        if line.startswith("rewrite-search: candidates by rule: "):
            for item in line.split(": ", 2)[2].split(", "):
                name, n = item.rsplit(" ", 1)
                by_rule[name] = int(n)
        elif line.startswith("rewrite-search: cost "):
            line = re.sub(r", \d+ ops measured", "", line)
            rejected = re.search(r"; ([^;]*) rejected: (.*)$", line)
            if rejected:
                rules, verdict = rejected.group(1), "rejected by the whole-model check: " + rejected.group(2)
            else:
                rules = line.split("; rules: ", 1)[1].split("; ")[0]
                kept = re.search(r"whole model ([0-9.]+) -> ([0-9.]+) ms: kept", line)
                if "saves too little" in line:
                    verdict = "best found saves too little"
                elif rules != "none":
                    verdict = f"kept (whole model {kept.group(1)} -> {kept.group(2)} ms)" if kept else "kept"
            path = [] if rules == "none" else [rule_name(r) for r in rules.split(", ")]
    return by_rule, path, verdict, secs


def main():
    argv = sys.argv[1:]
    flags = []
    if "--" in argv:
        k = argv.index("--")
        argv, flags = argv[:k], argv[k + 1:]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tcc", default="target/release/tcc")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args(argv)
    per_rule = collections.defaultdict(lambda: {"models": 0, "candidates": 0, "applied": 0, "rejected": 0})
    rows = []
    for m in models(a.paths):
        name = os.path.basename(m)[:-len(".mlir")]
        by_rule, path, verdict, secs = report(a.tcc, m, flags, a.timeout)
        print(f"{name}: {verdict} ({secs:.1f} s)", file=sys.stderr, flush=True)
        if by_rule is None:
            rows.append((name, "—", "—", verdict, secs))
            continue
        for r, n in by_rule.items():
            per_rule[r]["models"] += 1
            per_rule[r]["candidates"] += n
        for r in set(path):
            per_rule[r]["applied" if verdict.startswith("kept") else "rejected"] += 1
        generated = sum(n for r, n in by_rule.items() if re.match(r"(matrix|image)-\d+$", r))
        rows.append((name, f"{sum(by_rule.values())} ({generated} generated)",
                     ", ".join(path) or "—", verdict, secs))
    print("| model | candidates (of them by generated rules) | rules on the way to the best graph | verdict | compile s |")
    print("|---|---|---|---|---|")
    for name, cands, path, verdict, secs in rows:
        print(f"| {name} | {cands} | {path} | {verdict} | {secs:.1f} |")
    print()
    print("| rule | models matched | candidates | models applying it (kept) | applied, rejected by the whole-model check |")
    print("|---|---|---|---|---|")
    for r, c in sorted(per_rule.items(), key=lambda kv: (-kv[1]["models"], -kv[1]["candidates"], kv[0])):
        print(f"| {r} | {c['models']} | {c['candidates']} | {c['applied']} | {c['rejected']} |")


if __name__ == "__main__":
    main()
