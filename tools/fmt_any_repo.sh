#!/usr/bin/env bash
# `kyaml fmt -w .` over a copy of a repository (default ../shared/corpus-yaml),
# as issue 30 asks: which files were rewritten, which were left as written
# and why (counted by reason), how many failed to parse, whether the data
# of every non-Kubernetes file rewritten is the same under PyYAML (YAML 1.1)
# and ruamel.yaml (YAML 1.2) and every comment was kept (tools/same_data.py),
# and whether a second run changes nothing.
#
#     tools/fmt_any_repo.sh [DIR]
#
# Exit 0: no data changed, no comment lost, idempotent (or skipped: no DIR,
# or no PyYAML/ruamel.yaml, said); 1 otherwise.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
src=${1:-../shared/corpus-yaml}
if [ ! -d "$src" ]; then
  echo "fmt_any_repo.sh: skipped: no $src"
  exit 0
fi
cargo build --release --quiet --bin kyaml
kyaml=$PWD/target/release/kyaml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src" "$work/before"
cp -r "$src" "$work/after"
# A read-only copy (shared/ is laid without write bits) would be refused.
chmod -R u+w "$work"
(cd "$work/after" && "$kyaml" fmt -w . >/dev/null 2>"$work/stderr") || true
left=$(grep -c ': left as written: ' "$work/stderr" || true)
# An error is a FILE:LINE:COLUMN line that is neither a warning nor a file
# left as written.
invalid=$(grep -E '^[^ ]+:[0-9]+:[0-9]+: ' "$work/stderr" | grep -vc ': warning: \|: left as written: ' || true)
echo "left as written: $left files; by reason:"
grep ': left as written: ' "$work/stderr" | sed -E '
  s/.*left as written: plain scalar .* under schema kubectl but .*/  schemas disagree (YAML 1.1 and 1.2)/
  s/.*left as written: plain scalar .* to YAML 1.1 readers such as PyYAML.*/  PyYAML reads otherwise (base-60, date, float)/
  s/.*left as written: tag .*/  tag dropped/
  s/.*left as written: alias .*/  alias expanded/
  s/.*left as written: merge key .*/  merge key merged/
  s/.*left as written: only kubectl.s reading refuses it.*/  only kubectl refuses it (not Kubernetes objects)/
  s/.*left as written: .*/  other/' | sort | uniq -c || true
echo "errors reported (invalid files): $invalid"
status=0
if report=$(python3 tools/same_data.py "$work/before" "$work/after" --comments); then
  echo "$report"
else
  code=$?
  echo "$report"
  [ "$code" = 77 ] || status=1
fi
cp -r "$work/after" "$work/again"
(cd "$work/again" && "$kyaml" fmt -w . >/dev/null 2>&1) || true
if diff -rq "$work/after" "$work/again" >/dev/null; then
  echo "idempotent: a second run changed nothing"
else
  echo "NOT idempotent:"
  diff -rq "$work/after" "$work/again" | head
  status=1
fi
exit $status
