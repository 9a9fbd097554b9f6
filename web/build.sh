#!/usr/bin/env bash
# Builds kyaml for the web from web/wasm (the library, `alloc` only, as
# WebAssembly):
#   web/dist/       the playground page: index.html and playground.js (the
#                   wasm inside, in base64: it loads nothing, so it works
#                   from file:// and any static host)
#   web/pkg/        the npm package's generated files: kyaml.wasm and the
#                   licences (`npm pack` there makes the tarball)
# Prints the sizes. The build is release, optimised for size
# (web/wasm/Cargo.toml); its target directory is target/wasm.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo build --quiet --release --target wasm32-unknown-unknown \
  --manifest-path web/wasm/Cargo.toml --target-dir target/wasm
wasm=target/wasm/wasm32-unknown-unknown/release/kyaml_wasm.wasm

cp "$wasm" web/pkg/kyaml.wasm
cp LICENSE-MIT LICENSE-APACHE web/pkg/

rm -rf web/dist
mkdir -p web/dist
cp web/page/index.html web/dist/index.html
{
  cat web/pkg/core.js
  printf 'const KYAML_WASM = "'
  base64 -w 0 "$wasm"
  printf '";\n'
  cat web/page/page.js
} >web/dist/playground.js

bytes() { stat -c %s "$1"; }
gzipped() { gzip -9c "$1" | wc -c; }
echo "kyaml.wasm $(bytes "$wasm") bytes ($(gzipped "$wasm") gzipped);" \
  "web/dist: index.html $(bytes web/dist/index.html) + playground.js" \
  "$(bytes web/dist/playground.js) bytes ($(($(gzipped web/dist/index.html) + $(gzipped web/dist/playground.js))) gzipped)"
