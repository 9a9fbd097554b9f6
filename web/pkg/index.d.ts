/** A warning about the input: a plain scalar the two schemas read
 * differently, or a tag dropped. Lines and columns are 1-based; columns
 * count characters. */
export interface Warning {
  line: number;
  column: number;
  message: string;
}

/** The KYAML text, and the input's warnings (YAML input only). */
export interface Result {
  output: string;
  warnings: Warning[];
}

export interface FmtOptions {
  /** How plain scalars read: kubectl's (the default) or YAML 1.2's core schema. */
  schema?: 'kubectl' | 'yaml-1.2';
  /** One line per document (no comments). */
  compact?: boolean;
}

export interface ToKyamlOptions extends FmtOptions {
  /** The input language: 'json' (the default), 'yaml', or 'auto' (JSON if
   * the whole input has JSON's syntax, else YAML; a JSON number past
   * float64's range is an error, as in kubectl). */
  input?: 'json' | 'yaml' | 'auto';
}

/** Thrown for an invalid input; nothing of it is written. */
export class KyamlError extends Error {
  /** What was expected, e.g. "expected `,` or `}`". */
  reason: string;
  line: number;
  column: number;
  warnings: Warning[];
}

/** KYAML of JSON (or YAML) text, as `kyaml` writes it. Throws a
 * KyamlError for an invalid input. */
export function toKyaml(text: string | Uint8Array, options?: ToKyamlOptions): Result;

/** `kyaml fmt`: YAML (or KYAML) text re-formatted as KYAML, every comment
 * kept. Throws a KyamlError for an invalid input. */
export function fmt(text: string | Uint8Array, options?: FmtOptions): Result;
