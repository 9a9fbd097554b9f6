// kyaml for Node: KYAML (the YAML of `kubectl get -o kyaml`) from JSON and
// YAML, and `kyaml fmt` with comments kept, byte for byte what the Rust
// crate kyaml-rs and its `kyaml` command write (the same code, as
// WebAssembly: kyaml.wasm, compiled once when this module loads).
'use strict';
const fs = require('fs');
const path = require('path');
const { kyamlApi } = require('./core.js');

const bytes = fs.readFileSync(path.join(__dirname, 'kyaml.wasm'));
const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), {});
module.exports = kyamlApi(instance.exports);
