#!/usr/bin/env node
// Write tests/data/plain-scalars-yaml12.jsonl: each scalar of
// tests/data/plain-scalars.jsonl as the YAML 1.2 core schema reads it, by
// eemeli's `yaml` (2.9.1, default schema: core; ints as BigInt, exact).
// One JSON line per scalar: {"scalar", "value": {"type": null|bool|int|float|str,
// "text": the value as text (a float by JS's String: Infinity, NaN, 1e+21)}}.
// The Rust test (src/scan/resolve/tests.rs) compares without Node.
//
// Usage: NODE_PATH=~/.cache/kyaml-compat/node/node_modules \
//        tools/gen_plain_scalars_yaml12.js < tests/data/plain-scalars.jsonl > tests/data/plain-scalars-yaml12.jsonl
const YAML = require('yaml');
const lines = require('fs').readFileSync(0, 'utf8').split('\n').filter(Boolean);
for (const line of lines) {
  const scalar = JSON.parse(line).scalar;
  const v = YAML.parse(`v: ${scalar}\n`, { intAsBigInt: true }).v;
  let value;
  if (v === null) value = { type: 'null', text: 'null' };
  else if (typeof v === 'boolean') value = { type: 'bool', text: String(v) };
  else if (typeof v === 'bigint') value = { type: 'int', text: v.toString() };
  else if (typeof v === 'number') value = { type: 'float', text: String(v) };
  else if (typeof v === 'string') value = { type: 'str', text: v };
  else throw new Error(`${scalar}: ${typeof v}`);
  console.log(JSON.stringify({ scalar, value }));
}
