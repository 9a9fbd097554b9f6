// The JavaScript side of web/wasm: `kyamlApi(exports)` turns the exports of
// an instantiated kyaml.wasm into `toKyaml` and `fmt`. Node (index.js) and
// the playground page (web/build.sh puts this file in its script) share it.
// The buffer layout it reads is web/wasm/src/lib.rs's.
'use strict';

/** An invalid input: `line` and `column` (1-based, in characters) say
 * where, `reason` what was expected; `warnings` are the input's warnings. */
class KyamlError extends Error {
  constructor(reason, line, column, warnings) {
    super(`${reason} at line ${line}, column ${column}`);
    this.name = 'KyamlError';
    this.reason = reason;
    this.line = line;
    this.column = column;
    this.warnings = warnings;
  }
}

const INPUTS = { json: 0, yaml: 1, auto: 2 };
const SCHEMAS = { kubectl: 0, 'yaml-1.2': 1 << 2 };
const COMPACT = 1 << 3;

function kyamlApi(wasm) {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  function choice(table, name, what) {
    if (!Object.prototype.hasOwnProperty.call(table, name)) {
      const names = Object.keys(table).map((n) => `'${n}'`).join(', ');
      throw new TypeError(`kyaml: unknown ${what} '${name}' (one of ${names})`);
    }
    return table[name];
  }

  // Runs kyaml_render on `text` (a string or UTF-8 bytes): {output,
  // warnings}, or a KyamlError thrown.
  function render(text, flags) {
    const bytes = typeof text === 'string' ? encoder.encode(text) : text;
    if (!(bytes instanceof Uint8Array)) {
      throw new TypeError('kyaml: the input is a string or a Uint8Array');
    }
    const input = wasm.kyaml_alloc(bytes.length);
    if (!input) throw new RangeError('kyaml: no memory for the input');
    new Uint8Array(wasm.memory.buffer, input, bytes.length).set(bytes);
    const result = wasm.kyaml_render(input, bytes.length, flags);
    if (!result) throw new RangeError('kyaml: no memory for the output');
    // The memory may have grown: views are taken after the call.
    const view = new DataView(wasm.memory.buffer, result);
    const total = view.getUint32(0, true);
    const all = new Uint8Array(wasm.memory.buffer, result, total);
    let at = 4;
    const u32 = () => {
      at += 4;
      return view.getUint32(at - 4, true);
    };
    const str = () => {
      const len = u32();
      at += len;
      return decoder.decode(all.subarray(at - len, at));
    };
    const status = u32();
    let output = null;
    let error = null;
    if (status === 0) {
      output = str();
    } else {
      const line = u32();
      const column = u32();
      error = { line, column, reason: str() };
    }
    const warnings = [];
    for (let n = u32(); n > 0; n--) {
      const line = u32();
      const column = u32();
      warnings.push({ line, column, message: str() });
    }
    wasm.kyaml_free(result, total);
    if (error) throw new KyamlError(error.reason, error.line, error.column, warnings);
    return { output, warnings };
  }

  /** KYAML of JSON or YAML `text`: input 'json' (the default), 'yaml' or
   * 'auto' (JSON if all of it has JSON's syntax, else YAML). */
  function toKyaml(text, options = {}) {
    const { input = 'json', schema = 'kubectl', compact = false } = options;
    const flags = choice(INPUTS, input, 'input') | choice(SCHEMAS, schema, 'schema');
    return render(text, flags | (compact ? COMPACT : 0));
  }

  /** `kyaml fmt`: YAML (or KYAML) `text` as KYAML, comments kept. */
  function fmt(text, options = {}) {
    const { schema = 'kubectl', compact = false } = options;
    return toKyaml(text, { input: 'yaml', schema, compact });
  }

  return { toKyaml, fmt, KyamlError };
}

if (typeof module !== 'undefined') module.exports = { kyamlApi, KyamlError };
