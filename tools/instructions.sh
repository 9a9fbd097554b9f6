#!/usr/bin/env bash
# Instructions per conversion, counted by callgrind: deterministic, so it
# compares two versions of the code on a noisy machine where timings cannot.
#
#     tools/instructions.sh CONTENDER FILE...     (contenders: examples/repeat.rs)
#
# Each file is converted once and three times under callgrind; half the
# difference is one conversion without the process's start-up and the
# reading of the input. Needs valgrind (Debian package `valgrind`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
contender=$1
shift
cargo build --profile profiling --quiet --example repeat
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    target/profiling/examples/repeat "$1" "$contender" "$2" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for file in "$@"; do
  one=$(count "$file" 1)
  three=$(count "$file" 3)
  echo "$(basename "$file" .json) $contender $(((three - one) / 2))"
done
