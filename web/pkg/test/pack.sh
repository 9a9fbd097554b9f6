#!/usr/bin/env bash
# The npm package as a user gets it: `npm pack` in web/pkg (after
# web/build.sh), installed into a scratch project from the tarball, and
# used there with `require('kyaml-rs')`. Prints the tarball's size.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npm pack --silent --pack-destination "$tmp" >/dev/null
tarball=$(ls "$tmp"/kyaml-rs-*.tgz)
mkdir "$tmp/project"
cd "$tmp/project"
npm init -y >/dev/null
npm install --silent --no-audit --no-fund "$tarball"
node -e '
const assert = require("assert");
const { toKyaml, fmt } = require("kyaml-rs");
assert.strictEqual(toKyaml("{\"a\": [1, 2]}", { compact: true }).output, "---\n{a: [1, 2]}\n");
const { output, warnings } = fmt("a: on # kubectl: true\n");
assert.strictEqual(output, "---\n{\n  a: true, # kubectl: true\n}\n");
assert.deepStrictEqual([warnings[0].line, warnings[0].column], [1, 4]);
assert.throws(() => fmt("a: [\n"), (e) => e.line === 2 && e.column === 1);
'
test -f node_modules/kyaml-rs/index.d.ts
echo "npm pack: $(basename "$tarball"), $(($(stat -c %s "$tarball") / 1024)) KiB, installed and used from a scratch project"
