#!/usr/bin/env bash
# An installed tcc works from any directory: `cargo install` into a temporary root, then
# the README's AOT examples ("Compiling to an object file": an object linked with
# `--print-runtime-lib`, and a static library linked alone) are built and run in
# another, empty directory, with an empty cache directory. Both programs must print
# the same outputs.
#
# Usage: tools/tcc/tests/install.sh [extra `cargo install` arguments, e.g. --features llvm]
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A target directory of its own inside the repository's, so reruns are incremental.
cargo install --quiet --locked --path "$repo/tools/tcc" --root "$work/root" \
  --target-dir "$repo/target/install" "$@"
tcc="$work/root/bin/tcc"

# The README's example, run elsewhere with the installed tcc.
example=$(awk '/^## Compiling to an object file/ {on = 1} on && /^```sh$/ {code = 1; next}
               code && /^```$/ {exit} code {print}' "$repo/README.md")
if [ -z "$example" ]; then
  echo "install.sh: no sh example under 'Compiling to an object file' in README.md" >&2
  exit 1
fi
example=$(printf '%s\n' "$example" | grep -v '^cargo build' | sed "s|^TCC=.*|TCC=$tcc|; s| dialects/| $repo/dialects/|g")
mkdir "$work/elsewhere"
cd "$work/elsewhere"
export XDG_CACHE_HOME="$work/cache"
object_output=$(bash -euo pipefail -c "$example")

# The same program from a static library: one archive, `cc main.c libNAME.a -lpthread -lm`.
"$tcc" "$repo/dialects/graph/tests/reference/models/small_cnn.mlir" --emit=staticlib -o libsmall_cnn.a
test -f small_cnn.h
cc main.c libsmall_cnn.a -lpthread -lm -o main_static
library_output=$(./main_static)

if [ "$object_output" != "$library_output" ] || [ -z "$object_output" ]; then
  echo "install.sh: outputs differ: object '$object_output', static library '$library_output'" >&2
  exit 1
fi
echo "install.sh: installed tcc ($*): object and static library print: $object_output"
