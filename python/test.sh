#!/usr/bin/env bash
# The wheel end to end: built with maturin (into target/wheels), installed
# into a fresh venv (`kyaml --version`), and the `language: python` hooks
# of .pre-commit-hooks.yaml tried with `pre-commit try-repo` on a scratch
# repository, the built wheel standing in for PyPI's (PIP_FIND_LINKS):
# the check lists the unformatted file, the writing hook formats it.
# Checks first that the root pyproject.toml (what pre-commit installs)
# pins the crate's version. Prints each part's time. Needs maturin and
# pre-commit (pip install maturin pre-commit), and PyPI for setuptools.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
grep -qx "version = \"$version\"" pyproject.toml ||
  { echo "pyproject.toml: its version is not Cargo.toml's $version"; exit 1; }
grep -qx "dependencies = \[\"kyaml-rs==$version\"\]" pyproject.toml ||
  { echo "pyproject.toml: it does not pin kyaml-rs==$version"; exit 1; }

start=$SECONDS
rm -rf target/wheels
(cd python && maturin build --quiet --out ../target/wheels)
wheel=$(ls target/wheels/kyaml_rs-"$version"-*.whl)
echo "wheel: $(basename "$wheel"), $(($(stat -c %s "$wheel") / 1024)) KiB, built in $((SECONDS - start)) s"

start=$SECONDS
# No pip of its own (seconds saved): this pip installs into it.
python3 -m venv --without-pip "$tmp/venv"
python3 -m pip --python "$tmp/venv/bin/python" install --quiet --no-index "$wheel"
said=$("$tmp/venv/bin/kyaml" --version)
[[ "$said" == "kyaml $version" ]] || { echo "kyaml --version: $said"; exit 1; }
printf 'a: 1 # one\n' | "$tmp/venv/bin/kyaml" fmt | grep -qx '  a: 1, # one'
echo "venv install: $said in $((SECONDS - start)) s"

# The hooks, as tests/pre_commit.rs tries the Rust ones.
repo=$tmp/repo
mkdir -p "$repo/chart/templates"
printf '# head\na: 1 # one\n' >"$repo/a.yaml"
printf -- '---\n{\n  # head\n  a: 1, # one\n}\n' >"$repo/b.yaml"
printf -- '---\n{\n  name: "c",\n}\n' >"$repo/chart/Chart.yaml"
printf 'x: {{ .Values.x }}\n' >"$repo/chart/templates/t.yaml"
git -C "$repo" init -q
git -C "$repo" add .
export PRE_COMMIT_HOME=$tmp/pre-commit PIP_FIND_LINKS=$root/target/wheels
try() { (cd "$repo" && pre-commit try-repo "$root" "$1" --all-files 2>&1); }
start=$SECONDS
if out=$(try kyaml-fmt-check-python); then echo "$out"; echo "the check passed an unformatted file"; exit 1; fi
grep -qx 'a.yaml' <<<"$out" || { echo "$out"; exit 1; }
grep -q 'b.yaml\|t.yaml' <<<"$out" && { echo "$out"; exit 1; }
first=$((SECONDS - start))
if out=$(try kyaml-fmt-python); then echo "$out"; echo "the hook passed, changing a file"; exit 1; fi
grep -q 'files were modified by this hook' <<<"$out" || { echo "$out"; exit 1; }
[[ "$(cat "$repo/a.yaml")" == "$(cat "$repo/b.yaml")" ]] || { cat "$repo/a.yaml"; exit 1; }
[[ "$(cat "$repo/chart/templates/t.yaml")" == 'x: {{ .Values.x }}' ]]
echo "pre-commit try-repo (each installs the hook anew): kyaml-fmt-check-python ${first} s, kyaml-fmt-python $((SECONDS - start - first)) s"
