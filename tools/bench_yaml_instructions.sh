#!/usr/bin/env bash
# Instructions per call of the YAML row's contenders, counted by
# callgrind: deterministic, for a shared machine where the timings of
# tools/bench_yaml.py swing with the load.
#
#     tools/bench_yaml_instructions.sh [--cache] [FILE...]   (names: twitter citm_catalog canada k8s_swagger kubectl_pods compose)
#
# kyaml (YAML -> KYAML), its three readers that write nothing (kyaml-syntax:
# scanner and parser; kyaml-load: and the data reader; kyaml-check: and the
# checking pass; see benches/yaml-parsers/src/main.rs) and saphyr-parser
# (events) from benches/yaml-parsers, rapidyaml (parse_in_arena, through
# its Python binding, and its conversion: parse, resolve, emit_json) from
# tools/bench_rapidyaml.py; each run once and
# three times, half the difference is one call without the process's
# start-up (for rapidyaml, without the interpreter's). Needs valgrind;
# rapidyaml is skipped when `import ryml` fails.
#
# `--cache`: cachegrind instead (`--cache-sim=yes --branch-sim=yes`, its
# simulated caches sized from the host's, its branch predictor a simple
# model, not the CPU's), one table per contender and file: I refs, D1 and
# LL data misses, branch mispredicts (conditional + indirect), per call
# as above.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cache=
if [[ ${1:-} == --cache ]]; then
  cache=yes
  shift
fi
files=("$@")
[[ ${#files[@]} -gt 0 ]] || files=(twitter citm_catalog canada k8s_swagger kubectl_pods compose)
cargo build --release --quiet --manifest-path benches/yaml-parsers/Cargo.toml
bench=benches/yaml-parsers/target/release/yaml-parsers-bench
# One call's counts: space-separated numbers (callgrind: instructions;
# cachegrind: I refs, D1 misses, LLd misses, mispredicts).
count() {
  if [[ -n $cache ]]; then
    valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
      sed -n -e 's/,//g' \
        -e 's/.*I   refs: *\([0-9]*\).*/\1/p' \
        -e 's/.*D1  misses: *\([0-9]*\).*/\1/p' \
        -e 's/.*LLd misses: *\([0-9]*\).*/\1/p' \
        -e 's/.*Mispredicts: *\([0-9]*\).*/\1/p' | tr '\n' ' '
  else
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
      sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
  fi
}
# Half the difference of two runs' counts, field by field.
per_call() {
  local -a one=($1) three=($2)
  local out=() i
  for i in "${!one[@]}"; do
    out+=("$(((three[i] - one[i]) / 2))")
  done
  echo "${out[*]}"
}
# The interpreter itself, not a shim script that would start it (callgrind
# follows the first process only).
python=$(python3 -c 'import sys; print(sys.executable)')
ryml=yes
"$python" -c 'import ryml' 2>/dev/null || ryml=
kyaml=(kyaml kyaml-syntax kyaml-load kyaml-check saphyr)
if [[ -n $cache ]]; then
  echo "| file | contender | I refs | D1 misses | LLd misses | branch mispredicts |"
  echo "|---|---|---:|---:|---:|---:|"
else
  echo "| file | kyaml YAML → KYAML | kyaml syntax events | kyaml load | kyaml check | saphyr-parser events | rapidyaml parse_in_arena | rapidyaml parse + emit_json |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
fi
for file in "${files[@]}"; do
  row="| $file |"
  for who in "${kyaml[@]}" rapidyaml rapidyaml-json; do
    if [[ $who == rapidyaml* ]]; then
      if [[ -z $ryml ]]; then
        counts="(no rapidyaml)"
      else
        counts=$(per_call "$(count "$python" tools/bench_rapidyaml.py --file "$file" --only "$who" --rounds 1 --raw)" \
          "$(count "$python" tools/bench_rapidyaml.py --file "$file" --only "$who" --rounds 3 --raw)")
      fi
    else
      counts=$(per_call "$(count "$bench" --only "$who" --file "$file" --rounds 1 --raw)" \
        "$(count "$bench" --only "$who" --file "$file" --rounds 3 --raw)")
    fi
    if [[ -n $cache ]]; then
      echo "| $file | $who | ${counts// / | } |"
    else
      row+=" $counts |"
    fi
  done
  [[ -n $cache ]] || echo "$row"
done
