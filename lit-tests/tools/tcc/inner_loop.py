#!/usr/bin/env python3
"""Finds the innermost loop with the most FMAs in an assembly listing (tcc --emit=asm,
Cranelift's disassembly or LLVM's assembly) and prints what a lit test checks about it:

    FMAS: <vector FMAs in the loop body>
    STEPS: <FMAs / --per, when a whole multiple>
    STACK: <instructions addressing the stack (spills and reloads) in the loop body>

followed by the loop's instructions. Used by the conv kernel assembly tests.
"""
import re
import sys


def main():
    per = int(sys.argv[sys.argv.index("--per") + 1]) if "--per" in sys.argv else None
    lines = [l.rstrip() for l in sys.stdin if l.strip()]
    # Positions: a Cranelift line starts with its hex address; an LLVM label ends with ':'.
    pos = {}
    insts = []
    for l in lines:
        m = re.match(r"\s*([0-9a-fA-F]+):\s+(.*)", l)
        if m:
            pos["0x" + m.group(1).lower().lstrip("0")] = len(insts)
            insts.append(m.group(2))
        elif re.match(r"^\.?[\w.$]+:", l):
            pos[l.split(":")[0]] = len(insts)
        elif l.startswith(("\t", " ")) and not l.strip().startswith((".", "#")):
            insts.append(l.strip())
    loops = []
    for i, text in enumerate(insts):
        m = re.match(r"j\w+\s+(\S+)", text)
        if not m:
            continue
        target = m.group(1)
        if target.startswith("0x"):
            target = "0x" + target[2:].lower().lstrip("0")
        t = pos.get(target)
        if t is not None and t <= i:
            loops.append((t, i))
    innermost = [l for l in loops if not any(o != l and l[0] <= o[0] and o[1] <= l[1] for o in loops)]
    fma = lambda t: re.match(r"vfn?madd\d*p[sd]", t) is not None
    best = max(innermost, key=lambda l: sum(fma(t) for t in insts[l[0]:l[1] + 1]), default=None)
    if best is None:
        print("no loop found")
        return
    body = insts[best[0]:best[1] + 1]
    n = sum(fma(t) for t in body)
    print(f"FMAS: {n}")
    if per:
        print(f"STEPS: {n // per}" if n % per == 0 else f"STEPS: not a multiple of {per}")
    stack = re.compile(r"\((%rsp|%rbp)")
    print(f"STACK: {sum(bool(stack.search(t)) for t in body)}")
    print("\n".join(body))


if __name__ == "__main__":
    main()
