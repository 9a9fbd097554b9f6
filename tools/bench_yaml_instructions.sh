#!/usr/bin/env bash
# Instructions per call of the YAML row's three contenders, counted by
# callgrind: deterministic, for a shared machine where the timings of
# tools/bench_yaml.py swing with the load.
#
#     tools/bench_yaml_instructions.sh [FILE...]   (names: twitter citm_catalog canada k8s_swagger)
#
# kyaml (YAML -> KYAML) and saphyr-parser (events) from benches/yaml-parsers,
# rapidyaml (parse_in_arena, through its Python binding) from
# tools/bench_rapidyaml.py; each run once and three times, half the
# difference is one call without the process's start-up (for rapidyaml,
# without the interpreter's). Needs valgrind; rapidyaml is skipped when
# `import ryml` fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
files=("$@")
[[ ${#files[@]} -gt 0 ]] || files=(twitter citm_catalog canada k8s_swagger)
cargo build --release --quiet --manifest-path benches/yaml-parsers/Cargo.toml
bench=benches/yaml-parsers/target/release/yaml-parsers-bench
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
# The interpreter itself, not a shim script that would start it (callgrind
# follows the first process only).
python=$(python3 -c 'import sys; print(sys.executable)')
ryml=yes
"$python" -c 'import ryml' 2>/dev/null || ryml=
echo "| file | kyaml YAML → KYAML | saphyr-parser events | rapidyaml parse_in_arena |"
echo "|---|---:|---:|---:|"
for file in "${files[@]}"; do
  row="| $file |"
  for who in kyaml saphyr; do
    one=$(count "$bench" --only "$who" --file "$file" --rounds 1 --raw)
    three=$(count "$bench" --only "$who" --file "$file" --rounds 3 --raw)
    row+=" $(((three - one) / 2)) |"
  done
  if [[ -n $ryml ]]; then
    one=$(count "$python" tools/bench_rapidyaml.py --file "$file" --rounds 1 --raw)
    three=$(count "$python" tools/bench_rapidyaml.py --file "$file" --rounds 3 --raw)
    row+=" $(((three - one) / 2)) |"
  else
    row+=" (no rapidyaml) |"
  fi
  echo "$row"
done
