//! Scalar resolution: what a YAML scalar's text means as JSON data under a
//! schema (SPEC-YAML.md §1), and how that data is spelled.
//!
//! This module owns the schema rules, and nothing of YAML syntax: it is given
//! a scalar's decoded text (and its tag, if any) and answers null, a boolean,
//! a number, a string, or a refusal. Two schemas:
//!
//! - [`Schema::Kubectl`]: what `kubectl apply -f` reads (`sigs.k8s.io/yaml`'s
//!   `YAMLToJSON`, a go-yaml v2 resolver). The oracle is
//!   `../shared/compat/kubectl_read.py`; `tests/data/plain-scalars.jsonl` is
//!   its reading of 4,000 random plain scalars.
//! - [`Schema::Yaml12`]: the YAML 1.2 core schema.
//!
//! Numbers are written in the one spelling every parser reads the same way
//! (integers in decimal, floats as JSON numbers with the JSON path's exponent
//! rule), without a heap. The representation ([`Int`](number::Int),
//! [`Float`](number::Float)) is the source span plus what the edits need:
//!
//! - an integer whose value had to be worked out (another base, `_`
//!   separators, kubectl's 64-bit range) keeps its value as sign and `u128`
//!   magnitude, written by `core::fmt` (no heap); a decimal integer under
//!   `yaml-1.2`, of any length, keeps its digits' span and is written without
//!   the `+` and the leading zeros;
//! - a float keeps its source span and is written by
//!   [`Float::write_json`](number::Float::write_json): no `+`, no `_`, no
//!   superfluous leading zeros, a `0` before a leading `.` and after a
//!   trailing one, and the exponent by the JSON path's rule
//!   (`emit::write_exponent_form`: `1e3` → `1.0e+3`).
//!
//! Everything here is `no_std`, allocates nothing, never panics, and runs in
//! time linear in the text (float keys parse at most 800 significant digits
//! on the stack).
//!
//! Files: `plain.rs` reads a plain scalar (the entry points, the fast paths
//! and each schema's rules); `reading.rs` says what a reading is ([`Value`]
//! or [`Refusal`]); `number.rs` holds numbers, their reading and their JSON
//! spelling; `key.rs` turns a reading into key text; `tag.rs` applies tags
//! (and decodes `!!binary`); `warning.rs` decides when the schemas disagree
//! and words the warning; `tests.rs` tests them all. This file re-exports
//! what the YAML source uses.

mod key;
mod number;
mod plain;
mod reading;
mod tag;
#[cfg(test)]
mod tests;
mod warning;

// `Schema` is public and in every build; what it means is here
// (`plain.rs`, `reading.rs`), in builds with the YAML reader (`alloc`).
pub(crate) use crate::options::Schema;

pub(crate) use self::key::{key_of, plain_key, Key};
pub(crate) use self::number::Number;
pub(crate) use self::plain::resolve_plain_warned;
pub(crate) use self::reading::{Refusal, Value};
pub(crate) use self::tag::{resolve_tagged, TagKind, Tagged};
pub(crate) use self::warning::Ambiguity;
