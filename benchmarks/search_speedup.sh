#!/bin/bash
# The rewrite search's speed-up on models it rewrites: `tcc bench` with the search off
# and on, alternating, median of ROUNDS medians of 30 runs, per backend and thread
# count. By default lora_linear (x @ W + x @ (A @ B)) and repvgg_block (a 3x3 and a 1x1
# convolution added) with the default search, lora_adapter (x @ W + (x @ A) @ B) with
# equality saturation. Prints markdown rows.
#
# Usage: benchmarks/search_speedup.sh TCC MODELS_DIR [ROUNDS [MODEL:MODE ...]]
#   MODELS_DIR holds the models' .mlir files (python benchmarks/models/export.py
#   --full --out DIR --only lora_linear,lora_adapter,repvgg_block)
set -euo pipefail
BIN=$1; DIR=$2; ROUNDS=${3:-3}
shift $(( $# < 3 ? $# : 3 ))
MODELS=("$@")
[ ${#MODELS[@]} -gt 0 ] || MODELS=(lora_linear:taso lora_adapter:eqsat repvgg_block:taso)
median() { "$BIN" bench "$1" --backend "$2" --threads "$3" --runs 30 --rewrite-search "$4" --json 2>/dev/null |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["latency_ms"]["median"])'; }
echo "| model | backend | threads | search off ms | mode | search on ms | speed-up |"
echo "|---|---|---|---|---|---|---|"
for M in "${MODELS[@]}"; do
  model=${M%%:*}; mode=${M##*:}
  for B in cranelift llvm; do
    "$BIN" --print-target --backend "$B" >/dev/null 2>&1 || continue
    for T in 1 2; do
      off=(); on=()
      for _ in $(seq "$ROUNDS"); do
        off+=("$(median "$DIR/$model.mlir" "$B" "$T" off)")
        on+=("$(median "$DIR/$model.mlir" "$B" "$T" "$mode")")
      done
      python3 - "$model" "$mode" "$B" "$T" "${off[*]}" "${on[*]}" <<'PY'
import statistics as s, sys
m, mode, b, t, off, on = sys.argv[1:]
off, on = s.median(map(float, off.split())), s.median(map(float, on.split()))
print(f"| {m} | {b} | {t} | {off:.3f} | {mode} | {on:.3f} | {off / on:.2f}x |")
PY
    done
  done
done
