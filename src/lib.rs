//! Render JSON and YAML as [KYAML], the flow-style YAML dialect of
//! `kubectl get -o kyaml`: JSON with comments allowed that every YAML parser
//! reads back as the data that went in.
//!
//! What it does for you:
//!
//! - **JSON or YAML to KYAML.** [`to_string`], [`to_fmt`] and [`to_writer`]
//!   take JSON text ([`Text`]: `&str`, `&[u8]`, anything `AsRef<[u8]>`);
//!   with [`Options::input`]`(`[`Input::Yaml`]`)` they take YAML (the
//!   `alloc` feature), read as kubectl reads it. From an `io::Read`,
//!   [`transcode`] writes each document as soon as it is complete: a
//!   filter for pipes and `tail -f`.
//! - **Re-formatting YAML, comments kept.** YAML input keeps every comment
//!   and blank line in place ([`Options::comments`]); this is what
//!   `kyaml fmt` does to files.
//! - **Logs and tests.** [`Dump`] shows JSON as one KYAML line in a log
//!   message (`{:#}`: the regular layout); [`Diff`] and [`assert_kyaml_eq!`]
//!   compare two inputs as data, one key or item a line with invisible
//!   characters escaped, in a unified diff whose hunks name the KYAML path.
//!   Unlike `assert_eq!` on strings, a failure never shows two escaped
//!   one-line blobs, stalls on large inputs, or prints an empty diff.
//! - **Your own types.** With the `serde` feature, [`value`] does all of the
//!   above for any `serde::Serialize` value, with no JSON text in between:
//!   `kyaml::value::to_string(&pod)`, `value::Dump`, `value::Diff`,
//!   `assert_kyaml_eq!(value: old, new)`.
//!
//! | feature | default | adds |
//! |---|---|---|
//! | (none) | | `no_std`, no allocation, no dependencies: [`to_fmt`], [`Options::to_fmt`], [`Dump`] of JSON |
//! | `alloc` | yes | `String` output ([`to_string`]), YAML input, [`Diff`], [`assert_kyaml_eq!`] |
//! | `std` | yes | `io::Write` output ([`to_writer`]), `io::Read` input ([`transcode`]), the `kyaml` command |
//! | `serde` | no | [`value`]: any `Serialize` value as KYAML; the one dependency (`serde`, without its defaults: `no_std` + `alloc` builds) |
//!
//! JSON to KYAML, in the layout kubectl prints:
//!
//! ```
//! let json = r#"{"kind": "Pod", "metadata": {"name": "web", "labels": {"app.kubernetes.io/name": "web"}},
//!               "spec": {"containers": [{"name": "nginx", "ports": [80, 443]}]}}"#;
//! assert_eq!(kyaml::to_string(json)?, r#"---
//! {
//!   kind: "Pod",
//!   metadata: {
//!     name: "web",
//!     labels: {
//!       app.kubernetes.io/name: "web",
//!     },
//!   },
//!   spec: {
//!     containers: [{
//!       name: "nginx",
//!       ports: [
//!         80,
//!         443,
//!       ],
//!     }],
//!   },
//! }
//! "#);
//! # Ok::<(), kyaml::Error>(())
//! ```
//!
//! YAML to KYAML, comments kept and plain scalars read as kubectl reads
//! them (`on` is `true`, `0777` is 511):
//!
#![cfg_attr(feature = "alloc", doc = "```")]
#![cfg_attr(not(feature = "alloc"), doc = "```ignore")]
//! use kyaml::{Input, Options};
//! let yaml = "# the web tier\nreplicas: 3 # for now\nenabled: on\nmode: 0777\n";
//! let kyaml = Options::new().input(Input::Yaml).to_string(yaml)?;
//! assert_eq!(kyaml, "---\n{\n  # the web tier\n  replicas: 3, # for now\n  enabled: true,\n  mode: 511,\n}\n");
//! # Ok::<(), kyaml::Error>(())
//! ```
//!
//! YAML is read under the schema [`Schema::Kubectl`] (the default: what
//! `kubectl apply` reads, YAML 1.1 flavoured) or [`Schema::Yaml12`] (the
//! core schema), and written in the one spelling every parser reads alike;
//! a plain scalar the two read differently gets a warning with its line,
//! column and both readings. Aliases are expanded, merge keys merged, tags
//! applied; a null or complex key is an error. The syntax is kubectl's too
//! (go-yaml v2): what kubectl reads and YAML 1.2 does not is read the same
//! way, with a warning; what kubectl refuses (control characters, a Helm
//! template's `{{`) is an error that says why and where.
//!
//! The options, streams and errors:
//!
#![cfg_attr(feature = "std", doc = "```")]
#![cfg_attr(not(feature = "std"), doc = "```ignore")]
//! use kyaml::{Form, Input, Options, Schema};
//! // Compact layout, value form (no `---` header), a depth limit, the
//! // input's language and its schema.
//! let opts = Options::new().compact(true).form(Form::Value).max_depth(64);
//! assert_eq!(opts.to_string(br#"{"a": [1, {"b": null}]}"#)?, "{a: [1, {b: null}]}");
//! let from_yaml = opts.input(Input::Yaml);
//! assert_eq!(from_yaml.to_string("{a: on, b: 0777, on: x}")?, r#"{a: true, b: 511, "true": "x"}"#);
//! assert_eq!(from_yaml.schema(Schema::Yaml12).to_string("[on, 0777]")?, r#"["on", 777]"#);
//! // From any `io::Read`, each document written as soon as it is complete.
//! kyaml::transcode(&b"{\"a\": 1}\n{\"b\": 2}\n"[..], std::io::sink()).unwrap();
//! // Errors say where, and what was expected; `check` validates, writing nothing.
//! let err = kyaml::to_string("{\"a\": [1,,2]}").unwrap_err();
//! assert_eq!(Options::new().check("{\"a\": [1,,2]}"), Err(err.clone()));
//! assert_eq!(format!("{err:?}"), r#"Error(Syntax, "expected a value", line: 1, column: 10)"#);
//! # Ok::<(), kyaml::Error>(())
//! ```
//!
//! In a log line, and in a test:
//!
#![cfg_attr(feature = "alloc", doc = "```")]
#![cfg_attr(not(feature = "alloc"), doc = "```ignore")]
//! let event = r#"{"user": "ana", "roles": ["admin", "dev"]}"#;
//! assert_eq!(format!("{}", kyaml::Dump(event)), r#"{user: "ana", roles: ["admin", "dev"]}"#);
//!
//! let (old, new) = (r#"{"spec": {"replicas": 2}}"#, r#"{"spec": {"replicas": 3}}"#);
//! assert_eq!(
//!     kyaml::Diff::new(old, new).context(0).to_string(),
//!     "--- left\n+++ right\n@@ -3 +3 @@ spec.replicas\n-    replicas: 2,\n+    replicas: 3,\n"
//! );
//! kyaml::assert_kyaml_eq!(old, r#"{ "spec" : { "replicas" : 2 } }"#);
//! ```
//!
//! Your own types (the `serde` feature):
//!
#![cfg_attr(feature = "serde", doc = "```")]
#![cfg_attr(not(feature = "serde"), doc = "```ignore")]
//! use serde::Serialize;
//!
//! #[derive(Serialize)]
//! struct Port { name: &'static str, port: u16 }
//!
//! let ports = [Port { name: "http", port: 80 }, Port { name: "https", port: 443 }];
//! assert_eq!(kyaml::value::to_string(&ports)?, "---\n[{\n  name: \"http\",\n  port: 80,\n}, {\n  name: \"https\",\n  port: 443,\n}]\n");
//! assert_eq!(kyaml::value::Dump(&ports[0]).to_string(), r#"{name: "http", port: 80}"#);
//! kyaml::assert_kyaml_eq!(value: ports[1], Port { name: "https", port: 443 });
//! let diff = kyaml::value::Diff::new(&[80], &[80, 443]).context(0);
//! assert_eq!(diff.to_string(), "--- left\n+++ right\n@@ -2,0 +3 @@ [1]\n+  443,\n");
//! # Ok::<(), kyaml::value::Error>(())
//! ```
//!
//! **As in serde_json:**
//!
//! - *The sink comes first*: `to_writer(writer, input)`, `to_fmt(out,
//!   input)`, `value::to_writer(writer, &value)`, as
//!   `serde_json::to_writer(writer, &value)` and serde_yaml's. A reader
//!   comes before the writer it is copied to ([`transcode`]`(reader,
//!   writer)`), as in `std::io::copy`. (Until this version the text entry
//!   points took the input first. There is no deprecated alias in the old
//!   order: one name cannot take both orders, and an alias under another
//!   name helps no caller. A call in the old order does not compile,
//!   except `to_writer(json_vec, &mut out_vec)` with two byte vectors,
//!   which now renders `out_vec` into `json_vec`: look for it when
//!   upgrading.)
//! - *Text here, values in [`value`]*: `kyaml::to_string(json)` takes text
//!   and `kyaml::value::to_string(&value)` a `Serialize` value (the `serde`
//!   feature); a `&str` is both, so one generic function cannot take both.
//!   A value given to `kyaml::to_string` fails to compile with "`&Pod` is not
//!   JSON or YAML text" and a note that names `kyaml::value` ([`Text`]).
//! - *One [`Error`]* for every entry point that returns `Result<_, Error>`,
//!   text or value (`kyaml::value::Error` is the same type).
//!   [`Error::kind`] is serde_json's `classify()`, finer;
//!   [`line`](Error::line) and [`column`](Error::column) are 1-based, and
//!   0 for an error in a value, which has no place in a text (serde_json's
//!   convention); `io::Error::from(err)` (and `?` in an `io::Result`
//!   function) converts it, keeping it inside. The `io::Write` and
//!   `io::Read` entry points ([`to_writer`], [`transcode`], [`Transcoder`],
//!   `value::to_writer`) return `io::Error`, as `std::io` does: a failed
//!   read or write is the reader's or writer's own error, passed on as it
//!   is (kind, OS code), which `Error` (`Clone`, `Eq`, `no_std`, holding
//!   no allocation for text) cannot hold; an invalid document is an
//!   `io::Error` of kind `InvalidData` whose inner error is the `Error`.
//! - *JSON errors say when the input is YAML*: a syntax error in JSON
//!   input whose first line is no JSON (`a: 1`, `- web`, `# note`) ends
//!   with "(the input looks like YAML: read it with
//!   `Options::new().input(Input::Yaml)`)".
//!
#![cfg_attr(feature = "std", doc = "```")]
#![cfg_attr(not(feature = "std"), doc = "```ignore")]
//! let mut out = Vec::new();
//! kyaml::to_writer(&mut out, r#"{"replicas": 3}"#)?;
//! assert_eq!(out, b"---\n{\n  replicas: 3,\n}\n");
//!
//! let err = kyaml::to_string("replicas: 3\n").unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "expected a value at line 1, column 1 \
//!      (the input looks like YAML: read it with `Options::new().input(Input::Yaml)`)"
//! );
//! // `?` turns it into an `io::Error`, with the `Error` inside.
//! let io = std::io::Error::from(err);
//! assert_eq!(io.kind(), std::io::ErrorKind::InvalidData);
//! let inner = io.get_ref().and_then(|e| e.downcast_ref::<kyaml::Error>()).unwrap();
//! assert_eq!((inner.line(), inner.column()), (1, 1));
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! With the `serde` feature, values take the same order and the same error:
//!
#![cfg_attr(all(feature = "serde", feature = "std"), doc = "```")]
#![cfg_attr(not(all(feature = "serde", feature = "std")), doc = "```ignore")]
//! #[derive(serde::Serialize)]
//! struct Pod { replicas: u32 }
//!
//! let mut out = Vec::new();
//! kyaml::value::to_writer(&mut out, &Pod { replicas: 3 })?;
//! assert_eq!(out, b"---\n{\n  replicas: 3,\n}\n");
//!
//! fn both(json: &str, pod: &Pod) -> Result<(String, String), kyaml::Error> {
//!     Ok((kyaml::to_string(json)?, kyaml::value::to_string(pod)?))
//! }
//! let map = std::collections::BTreeMap::from([((1, 2), "a tuple key")]);
//! let err = kyaml::value::to_string(&map).unwrap_err();
//! assert_eq!((err.line(), err.column(), err.to_string().as_str()), (0, 0, "key must be a string"));
//! assert!(both("[1]", &Pod { replicas: 1 }).is_ok());
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! Every document is checked completely before any of it reaches your
//! sink: on an error, the documents before the bad one have been written
//! whole and nothing of the bad one has. The [`Error`] names the byte
//! offset, line and column, and what was expected there. Nesting is
//! limited ([`Options::max_depth`]), never a stack overflow. The core path
//! ([`to_fmt`], [`Options::to_fmt`], [`Dump`]) neither allocates nor
//! recurses.
//!
//! [KYAML]: https://github.com/kubernetes/enhancements/tree/master/keps/sig-cli/5295-kyaml
#![cfg_attr(feature = "alloc", doc = "[`to_string`]: crate::to_string")]
#![cfg_attr(
    not(feature = "alloc"),
    doc = "[`to_string`]: https://docs.rs/kyaml-rs/latest/kyaml/fn.to_string.html"
)]
#![cfg_attr(feature = "alloc", doc = "[`Diff`]: crate::Diff")]
#![cfg_attr(
    not(feature = "alloc"),
    doc = "[`Diff`]: https://docs.rs/kyaml-rs/latest/kyaml/struct.Diff.html"
)]
#![cfg_attr(
    feature = "alloc",
    doc = "[`assert_kyaml_eq!`]: crate::assert_kyaml_eq"
)]
#![cfg_attr(
    not(feature = "alloc"),
    doc = "[`assert_kyaml_eq!`]: https://docs.rs/kyaml-rs/latest/kyaml/macro.assert_kyaml_eq.html"
)]
#![cfg_attr(feature = "alloc", doc = "[`Input::Yaml`]: crate::Input::Yaml")]
#![cfg_attr(
    not(feature = "alloc"),
    doc = "[`Input::Yaml`]: https://docs.rs/kyaml-rs/latest/kyaml/enum.Input.html#variant.Yaml"
)]
#![cfg_attr(feature = "std", doc = "[`to_writer`]: crate::to_writer")]
#![cfg_attr(
    not(feature = "std"),
    doc = "[`to_writer`]: https://docs.rs/kyaml-rs/latest/kyaml/fn.to_writer.html"
)]
#![cfg_attr(feature = "std", doc = "[`transcode`]: crate::transcode")]
#![cfg_attr(feature = "std", doc = "[`Transcoder`]: crate::Transcoder")]
#![cfg_attr(
    not(feature = "std"),
    doc = "[`Transcoder`]: https://docs.rs/kyaml-rs/latest/kyaml/struct.Transcoder.html"
)]
#![cfg_attr(
    not(feature = "std"),
    doc = "[`transcode`]: https://docs.rs/kyaml-rs/latest/kyaml/fn.transcode.html"
)]
#![cfg_attr(feature = "serde", doc = "[`value`]: crate::value")]
#![cfg_attr(
    not(feature = "serde"),
    doc = "[`value`]: https://docs.rs/kyaml-rs/latest/kyaml/value/index.html"
)]
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

/// How much of the expensive sweeps the unit tests cover, and whether
/// they read ../shared (`KYAML_FULL_SWEEP=1`); shared with the integration
/// tests.
#[cfg(test)]
#[allow(dead_code)]
#[path = "../tests/common/sweep.rs"]
mod sweep;

/// Outputs held to stored digests (`tests/data`); shared with the
/// integration tests.
#[cfg(test)]
#[allow(dead_code)]
#[path = "../tests/common/stored.rs"]
mod stored;

/// The README's examples run as doctests, as written: whole programs, with
/// no hidden lines (crates.io and GitHub would show them), one of them
/// needing `serde` (tests/readme.rs holds the README to that).
#[cfg(all(doctest, feature = "serde"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

#[cfg(feature = "alloc")]
mod diff;
mod dump;
mod emit;
mod encode;
mod error;
#[cfg(feature = "std")]
mod io;
mod number;
mod options;
mod plan;
mod scan;
#[cfg(feature = "std")]
mod stream;
mod swar;
mod tiered;
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub mod value;

use core::fmt;

pub use crate::options::{Form, Input, Options, Schema, MAX_DEPTH};
#[cfg(feature = "alloc")]
#[doc(hidden)]
pub use diff::assert_kyaml_eq_impl;
#[cfg(feature = "alloc")]
pub use diff::{Diff, LineDiff};
pub use dump::Dump;
pub use error::{Error, ErrorKind};
#[cfg(feature = "alloc")]
pub use error::{Warning, WarningKind};
#[cfg(feature = "std")]
pub use stream::Transcoder;

/// JSON or YAML text, what the text entry points take: anything
/// `AsRef<[u8]>` (`&str`, `&[u8]`, `String`, `Vec<u8>`, `&String`, ...).
///
/// It is `AsRef<[u8]>` under a name of its own, for the compiler's
/// message: a `serde::Serialize` value given to `kyaml::to_string` is reported
/// as "not JSON or YAML text", with a note that values go to `kyaml::value`
/// (where an `AsRef<[u8]>` bound alone would only say that the type is not
/// `AsRef<[u8]>`). Every `AsRef<[u8]>` type has it; it is sealed, so no
/// other type can.
///
/// ```compile_fail
/// struct Pod { replicas: u32 } // `#[derive(serde::Serialize)]`
/// // error[E0277]: `&Pod` is not JSON or YAML text
/// // note: a `serde::Serialize` value goes to `kyaml::value` ...: `kyaml::value::to_string(&value)`
/// kyaml::to_string(&Pod { replicas: 3 });
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not JSON or YAML text",
    label = "JSON or YAML text expected here (`&str`, `&[u8]`, `String`, `Vec<u8>`)",
    note = "a `serde::Serialize` value goes to `kyaml::value` (the `serde` feature): \
            `kyaml::value::to_string(&value)`, `value::to_writer(writer, &value)`, \
            `value::Dump`, `value::Diff`, `assert_kyaml_eq!(value: left, right)`"
)]
pub trait Text: AsRef<[u8]> + sealed::Sealed {}

impl<T: AsRef<[u8]> + ?Sized> Text for T {}

/// Keeps [`Text`] to the types the blanket implementation gives it.
mod sealed {
    pub trait Sealed {}
    impl<T: AsRef<[u8]> + ?Sized> Sealed for T {}
}

// The entry points that run a rendering, beside the free functions they
// back; the settings themselves are in `options.rs`.
impl Options {
    /// The warnings YAML input gives under these options, in input order:
    /// each plain scalar the two schemas read differently (`yes`, `0777`,
    /// `1_000`: the schema's reading is written, the warning names both),
    /// and each tag dropped. Empty for JSON input. It reads the input
    /// again; a tool prints them as `FILE:LINE:COLUMN: warning: MESSAGE`.
    ///
    /// ```
    /// let opts = kyaml::Options::new().input(kyaml::Input::Yaml);
    /// let warnings = opts.warnings("a: 1\nb: yes\n");
    /// assert_eq!((warnings[0].line, warnings[0].column), (2, 4));
    /// assert_eq!(
    ///     warnings[0].message,
    ///     "plain scalar 'yes' is the boolean true under schema kubectl but the string \"yes\" under yaml-1.2; quote it to keep the string"
    /// );
    /// ```
    #[cfg(feature = "alloc")]
    pub fn warnings(&self, input: impl Text) -> alloc::vec::Vec<Warning> {
        match self.input_language() {
            Input::Json => alloc::vec::Vec::new(),
            Input::Yaml => scan::warnings(input.as_ref(), *self),
        }
    }

    /// Writes the KYAML for `json` into any `fmt::Write`, allocating nothing
    /// (for JSON input; `Input::Yaml` needs the `alloc` feature and
    /// allocates, on every entry point).
    ///
    /// Each document is checked completely before any of it is written: on
    /// an error, the documents before the bad one are in `out`, complete,
    /// and nothing of the bad one is. An input of up to 2 KiB is written in
    /// one pass into a buffer on the stack, which `out` then gets in one
    /// write; larger ones (or their output past 2 KiB) are read twice,
    /// checked and then written. Without allocation, duplicate keys are
    /// checked for the first 512 keys of the maps open at once (see the
    /// README's limits); `Options::to_string` (with `alloc`) checks them all.
    ///
    /// ```
    /// let mut out = String::new();
    /// kyaml::Options::new().compact(true).to_fmt(&mut out, "[1] [2").unwrap_err();
    /// assert_eq!(out, "---\n[1]\n");
    /// ```
    pub fn to_fmt<W: fmt::Write + ?Sized>(
        &self,
        out: &mut W,
        json: impl Text,
    ) -> Result<(), Error> {
        encode::encode_fixed(json.as_ref(), *self, out)
    }

    /// Checks `input` as an encoding would, writing nothing: `Ok` when every
    /// document is valid, else the error [`Options::to_fmt`] would return.
    /// It runs the checking pass alone (no output is formatted).
    ///
    /// ```
    /// let yaml = kyaml::Options::new().input(kyaml::Input::Yaml);
    /// assert!(yaml.check("a: 1\n").is_ok());
    /// let err = yaml.check("a: 1\na: 2\n").unwrap_err();
    /// assert_eq!((err.line(), err.kind()), (2, kyaml::ErrorKind::DuplicateKey));
    /// ```
    pub fn check(&self, input: impl Text) -> Result<(), Error> {
        encode::check(input.as_ref(), *self)
    }

    /// Not part of the API: the number of YAML syntax events in `input`
    /// (the scanner and the parser alone, nothing loaded, checked beyond
    /// the syntax, or written), or the first syntax error. For the
    /// parse-only row of `benches/yaml-parsers`, like-for-like with the
    /// parse-only parsers it is measured against.
    #[cfg(feature = "alloc")]
    #[doc(hidden)]
    pub fn yaml_syntax_events(&self, input: impl AsRef<[u8]>) -> Result<usize, Error> {
        let input = input.as_ref();
        scan::yaml_syntax_events(input, self.depth_limit()).map_err(|f| f.locate(input, None))
    }

    /// Renders `json` into a new `String`.
    ///
    /// ```
    /// let yaml = kyaml::Options::new().to_string("{\"a\": \"b\\nc\"}")?;
    /// assert_eq!(yaml, "---\n{\n  a: \"\\\n     b\\n\\\n     c\\\n    \",\n}\n");
    /// # Ok::<(), kyaml::Error>(())
    /// ```
    #[cfg(feature = "alloc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
    pub fn to_string(&self, json: impl Text) -> Result<alloc::string::String, Error> {
        let json = json.as_ref();
        // Twice the input: the regular layout of a float-heavy file runs to
        // 1.7 times its input (canada), and growing the buffer midway copies
        // it: 7-9% of canada's time, which the instruction count hardly
        // shows (docs/performance.md). Room never written is address
        // space only.
        let mut out = emit::TextBuf::with_capacity(json.len().saturating_mul(2));
        encode::encode_into_string(json, *self, &mut out)?;
        Ok(out.into_string())
    }

    /// Writes the KYAML for `json` to an `io::Write`, through a buffer, so
    /// `out` sees few, large writes.
    ///
    /// An invalid document is an `io::Error` of kind `InvalidData` whose
    /// inner error is the [`Error`]; the documents before it have been
    /// written, and nothing of it.
    ///
    /// ```
    /// let mut out = Vec::new();
    /// kyaml::Options::new().to_writer(&mut out, "{\"a\": 1}\n{\"b\": 2}")?;
    /// assert_eq!(out, b"---\n{\n  a: 1,\n}\n---\n{\n  b: 2,\n}\n");
    ///
    /// let err = kyaml::Options::new().to_writer(&mut out, "[1,]").unwrap_err();
    /// let inner = err.get_ref().and_then(|e| e.downcast_ref::<kyaml::Error>()).unwrap();
    /// assert_eq!(inner.column(), 4);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn to_writer<W: std::io::Write>(&self, out: W, json: impl Text) -> std::io::Result<()> {
        io::to_writer(json.as_ref(), *self, out, encode::OnInvalid::KeepBefore)
    }

    /// Reads JSON from `input` and writes each document to `output` as
    /// soon as it is complete and valid: a filter for pipes and streams
    /// that never end (`tail -f`, `kubectl get -w -o json`), in memory
    /// bounded by the largest document plus a fixed buffer.
    ///
    /// The output is flushed whenever the input has no complete document
    /// ready, so each document is written before the next one is read. An
    /// invalid document is an `io::Error` of kind `InvalidData` whose
    /// inner error is the [`Error`], positioned in the whole input; the
    /// documents before it have been written and flushed, and nothing of
    /// it. Reads and writes that fail return their own errors. To go on
    /// after an invalid document, use a [`Transcoder`].
    ///
    /// ```
    /// let mut out = Vec::new();
    /// kyaml::Options::new().compact(true).transcode(&b"{\"a\":1}\n[2]"[..], &mut out)?;
    /// assert_eq!(out, b"---\n{a: 1}\n---\n[2]\n");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn transcode<R: std::io::Read, W: std::io::Write>(
        &self,
        input: R,
        output: W,
    ) -> std::io::Result<()> {
        let mut docs = self.transcoder(input, output);
        while docs.next_document()? {}
        Ok(())
    }

    /// A [`Transcoder`] from `input` to `output`, to read and write one
    /// document at a time.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn transcoder<R: std::io::Read, W: std::io::Write>(
        &self,
        input: R,
        output: W,
    ) -> Transcoder<R, W> {
        Transcoder::new(*self, input, output)
    }

    /// [`Options::to_writer`], and for YAML input its warnings
    /// ([`Options::warnings`]) appended to `warnings`, from the same
    /// reading of the input (the warnings come first, complete, even when
    /// a document is invalid).
    ///
    /// ```
    /// let opts = kyaml::Options::new().input(kyaml::Input::Yaml).compact(true);
    /// let (mut out, mut warnings) = (Vec::new(), Vec::new());
    /// opts.to_writer_with_warnings(&mut out, "a: off\n", &mut warnings)?;
    /// assert_eq!(out, b"---\n{a: false}\n");
    /// assert_eq!((warnings.len(), warnings[0].column), (1, 4));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn to_writer_with_warnings<W: std::io::Write>(
        &self,
        out: W,
        input: impl Text,
        warnings: &mut alloc::vec::Vec<Warning>,
    ) -> std::io::Result<()> {
        self.write_with_warnings(input.as_ref(), out, warnings, encode::OnInvalid::KeepBefore)
    }

    /// [`Options::to_writer_with_warnings`], all or nothing: an invalid
    /// input leaves nothing in `out`, not even the valid documents before
    /// the bad one (to print a file, or to replace one). An input of one
    /// document is read as `to_writer` reads it; whether a second one
    /// follows is known once the first is checked (as the parser reads
    /// it: a `---` inside a string or a block scalar is no document), and
    /// an input of several is then checked whole before the first is
    /// written, a second reading. `kyaml fmt` prints files with it.
    ///
    /// ```
    /// let opts = kyaml::Options::new().input(kyaml::Input::Yaml).compact(true);
    /// let (mut out, mut warnings) = (Vec::new(), Vec::new());
    /// opts.to_writer_all_or_nothing(&mut out, "a: 1\n---\nb: [\n", &mut warnings).unwrap_err();
    /// assert_eq!(out, b"");
    /// opts.to_writer_with_warnings(&mut out, "a: 1\n---\nb: [\n", &mut warnings).unwrap_err();
    /// assert_eq!(out, b"---\n{a: 1}\n");
    /// ```
    #[cfg(feature = "std")]
    pub fn to_writer_all_or_nothing<W: std::io::Write>(
        &self,
        out: W,
        input: impl Text,
        warnings: &mut alloc::vec::Vec<Warning>,
    ) -> std::io::Result<()> {
        self.write_with_warnings(
            input.as_ref(),
            out,
            warnings,
            encode::OnInvalid::KeepNothing,
        )
    }

    /// The writing of [`Options::to_writer_with_warnings`] and
    /// [`Options::to_writer_all_or_nothing`].
    #[cfg(feature = "std")]
    fn write_with_warnings<W: std::io::Write>(
        &self,
        input: &[u8],
        out: W,
        warnings: &mut alloc::vec::Vec<Warning>,
        on_invalid: encode::OnInvalid,
    ) -> std::io::Result<()> {
        match self.input_language() {
            Input::Json => io::to_writer(input, *self, out, on_invalid),
            Input::Yaml => io::yaml_to_writer(input, *self, out, warnings, on_invalid),
        }
    }
}

/// The comments of the YAML stream `input` as its parser reads them (a
/// `#` inside a string is no comment), in input order, up to the first
/// syntax error: each one's 0-based document and its text after the `#`,
/// without trailing white space. `kyaml fmt` writes each of them once.
///
/// ```
/// let yaml = "# head\na: 1 # one\ns: |\n  # text\n---\nb: 2 #two\n";
/// assert_eq!(kyaml::yaml_comments(yaml), [(0, " head"), (0, " one"), (1, "two")]);
/// ```
#[cfg(feature = "alloc")]
pub fn yaml_comments<T: AsRef<[u8]> + ?Sized>(input: &T) -> alloc::vec::Vec<(usize, &str)> {
    scan::yaml_comments(input.as_ref())
}

/// Whether the YAML stream `input` holds a comment (see [`yaml_comments`]).
#[cfg(feature = "alloc")]
pub fn has_comments<T: AsRef<[u8]> + ?Sized>(input: &T) -> bool {
    !yaml_comments(input).is_empty()
}

/// Renders `json` as a KYAML document (or stream of documents) in a new
/// `String`: document form, regular layout.
///
/// `json` is text ([`Text`]: `&str`, `&[u8]`, `String`, `Vec<u8>`, ...);
/// a `serde::Serialize` value goes to `kyaml::value::to_string` (the
/// `serde` feature). YAML text: [`Options::input`]`(`[`Input::Yaml`]`)`;
/// a syntax error in JSON that looks like YAML says so.
///
/// ```
/// assert_eq!(kyaml::to_string("[1e10, \"x\"]")?, "---\n[\n  1.0e+10,\n  \"x\",\n]\n");
/// assert_eq!(kyaml::to_string("[1, 2").unwrap_err().to_string(), "expected `,` or `]` after a list element at line 1, column 6");
/// let yaml = kyaml::to_string("a: 1").unwrap_err().to_string();
/// assert!(yaml.ends_with("(the input looks like YAML: read it with `Options::new().input(Input::Yaml)`)"));
/// # Ok::<(), kyaml::Error>(())
/// ```
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub fn to_string(json: impl Text) -> Result<alloc::string::String, Error> {
    Options::new().to_string(json)
}

/// Writes `json` as KYAML (document form, regular layout) into any
/// `fmt::Write`, the sink first, allocating nothing. See [`Options::to_fmt`].
///
/// ```
/// let mut out = String::new();
/// kyaml::to_fmt(&mut out, "{\"on\": true}")?;
/// assert_eq!(out, "---\n{\n  \"on\": true,\n}\n");
/// # Ok::<(), kyaml::Error>(())
/// ```
pub fn to_fmt<W: fmt::Write + ?Sized>(out: &mut W, json: impl Text) -> Result<(), Error> {
    Options::new().to_fmt(out, json)
}

/// Writes `json` as KYAML (document form, regular layout) to an
/// `io::Write`: the writer first, as `serde_json::to_writer`. See
/// [`Options::to_writer`].
///
/// ```
/// let mut out = Vec::new();
/// kyaml::to_writer(&mut out, "null")?;
/// assert_eq!(out, b"---\nnull\n");
/// # Ok::<(), std::io::Error>(())
/// ```
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn to_writer<W: std::io::Write>(out: W, json: impl Text) -> std::io::Result<()> {
    Options::new().to_writer(out, json)
}

/// Reads JSON from `input` and writes each document as KYAML (document
/// form, regular layout) to `output` as soon as it is complete. See
/// [`Options::transcode`].
///
/// ```no_run
/// // A filter: standard input to standard output, document by document.
/// kyaml::transcode(std::io::stdin().lock(), std::io::stdout().lock())?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn transcode<R: std::io::Read, W: std::io::Write>(input: R, output: W) -> std::io::Result<()> {
    Options::new().transcode(input, output)
}
