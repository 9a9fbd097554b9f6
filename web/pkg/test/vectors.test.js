// The npm package against the `kyaml` command, byte for byte, on the
// conformance vectors in tests/data (the ones tests/conformance.rs holds
// the library to: copies of ../shared/conformance, but deviations.jsonl,
// which is ours): the JSON ones through toKyaml, and the 497 commented
// manifests of yaml-comments.jsonl through fmt, both layouts. Both sides
// must also equal the vector where its README calls it byte-exact.
//
//   KYAML=path/to/kyaml node --test web/pkg/test/   (default target/debug/kyaml)
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const { execFile, execFileSync } = require('child_process');
const { toKyaml, fmt, KyamlError } = require('..');

const root = path.resolve(__dirname, '../../..');
const kyaml = process.env.KYAML || path.join(root, 'target/debug/kyaml');
const dir = path.join(root, 'tests/data');

function cases(name) {
  return fs.readFileSync(path.join(dir, `${name}.jsonl`), 'utf8')
    .split('\n').filter((l) => l).map((l) => JSON.parse(l));
}

// The command's output on `input` (one spawn for a file of cases would
// blur which case failed).
function cli(args, input) {
  return execFileSync(kyaml, args, { input, encoding: 'utf8' });
}

// The command's outputs on each [args, input] of `runs`, four at a time.
async function cliAll(runs) {
  const outputs = new Array(runs.length);
  let next = 0;
  const worker = async () => {
    while (next < runs.length) {
      const i = next++;
      outputs[i] = await new Promise((resolve, reject) => {
        const child = execFile(kyaml, runs[i][0], { encoding: 'utf8' }, (err, stdout) =>
          err ? reject(err) : resolve(stdout));
        child.stdin.end(runs[i][1]);
      });
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return outputs;
}

// Value-form vectors are the document's body (tests/data/README.md).
const JSON_FILES = [['values', true], ['escapes', true], ['keys', true], ['documents', false], ['deviations', false]];

for (const [name, valueForm] of JSON_FILES) {
  test(`${name}.jsonl: toKyaml is kyaml's output and the vector`, async () => {
    const all = cases(name);
    assert.ok(all.length > 0);
    for (const compact of [false, true]) {
      const args = compact ? ['-c', '--from', 'json'] : ['--from', 'json'];
      const wants = await cliAll(all.map((c) => [args, c.json]));
      all.forEach((c, i) => {
        const vector = compact ? c.compact : c.regular;
        assert.strictEqual(wants[i], valueForm ? `---\n${vector}\n` : vector, `the CLI on ${c.name}`);
        const got = toKyaml(c.json, { compact });
        assert.strictEqual(got.output, wants[i], `${name} ${c.name} compact=${compact}`);
        assert.deepStrictEqual(got.warnings, []);
      });
    }
  });
}

test('yaml-comments.jsonl: fmt is `kyaml fmt` and the vector, comments kept', async () => {
  const all = cases('yaml-comments');
  assert.ok(all.length >= 497);
  const wants = await cliAll(all.map((c) => [['fmt'], c.yaml]));
  all.forEach((c, i) => {
    assert.strictEqual(wants[i], c.regular, `the CLI on ${c.name}`);
    assert.strictEqual(fmt(c.yaml).output, wants[i], c.name);
    assert.strictEqual(fmt(c.yaml, { compact: true }).output, c.compact, c.name);
  });
});

test('warnings and the schema, as the CLI gives them', () => {
  const yaml = 'a: yes\nb: 0777\n';
  const run = (schema) => {
    const { output, warnings } = fmt(yaml, { schema });
    assert.strictEqual(output, cli(['fmt', '--schema', schema], yaml));
    return { output, warnings };
  };
  const kubectl = run('kubectl');
  assert.strictEqual(kubectl.output, '---\n{\n  a: true,\n  b: 511,\n}\n');
  assert.deepStrictEqual(kubectl.warnings.map((w) => [w.line, w.column]), [[1, 4], [2, 4]]);
  assert.match(kubectl.warnings[0].message, /^plain scalar 'yes' is the boolean true under schema kubectl/);
  assert.strictEqual(run('yaml-1.2').output, '---\n{\n  a: "yes",\n  b: 777,\n}\n');
});

test('an invalid input throws a KyamlError with the CLI line, column and message', () => {
  for (const [input, options, args] of [
    ['a: [1,\nb: 2\n', {}, ['fmt']],
    ['{"a": 1,}', { input: 'json' }, ['--from', 'json']],
    ['a: 1\na: 2\n', { input: 'yaml' }, ['--from', 'yaml']],
  ]) {
    let said;
    try {
      execFileSync(kyaml, args, { input, stdio: 'pipe' });
    } catch (e) {
      said = e.stderr.toString().split('\n')[0];
    }
    const [, line, column, reason] = said.match(/^<stdin>:(\d+):(\d+): (.*)$/);
    const run = () => (args[0] === 'fmt' ? fmt(input, options) : toKyaml(input, options));
    assert.throws(run, (e) => {
      assert.ok(e instanceof KyamlError);
      assert.deepStrictEqual([e.line, e.column, e.reason], [Number(line), Number(column), reason]);
      assert.strictEqual(e.message, `${reason} at line ${line}, column ${column}`);
      return true;
    });
  }
});

test('input: auto reads JSON as JSON and anything else as YAML', () => {
  // 1e400: past float64's range, refused as JSON (as kubectl and the CLI
  // refuse it), a string to kubectl's YAML.
  assert.throws(() => toKyaml('{"b": 1e400}', { input: 'auto' }), /number 1e400 is past float64's range .* at line 1, column 7$/);
  assert.strictEqual(toKyaml('{"b": 1e400}', { input: 'yaml', compact: true }).output, '---\n{b: "1e400"}\n');
  assert.strictEqual(toKyaml('a: 1 # one\n', { input: 'auto' }).output, '---\n{\n  a: 1, # one\n}\n');
  assert.throws(() => toKyaml('a: 1'), KyamlError);
  assert.throws(() => toKyaml('x', { schema: 'yaml-1.1' }), /unknown schema 'yaml-1.1'/);
  // Bytes work as text does.
  assert.strictEqual(fmt(Buffer.from('é: 1\n')).output, '---\n{\n  é: 1,\n}\n');
});
