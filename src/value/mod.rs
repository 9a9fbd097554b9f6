//! Any [`serde::Serialize`] value as KYAML, with no JSON text in between
//! (the `serde` feature).
//!
//! These are the JSON-text entry points for your own types: where
//! [`kyaml::to_string`](crate::to_string) takes JSON text,
//! `kyaml::value::to_string` takes a value (a `&str` is both, so the two
//! cannot be one generic function). As in serde_json, the sink comes
//! first (`to_writer(writer, &value)`, `to_fmt(out, &value)`), and the
//! error is the crate's one [`Error`], without a position (line and
//! column 0). The output is byte for byte what
//! `serde_json::to_string(&value)` and then [`kyaml::to_string`](crate::to_string)
//! give, and a value fails exactly where that route fails: map keys that
//! serde_json cannot write (anything but strings, `char`s, numbers,
//! booleans and unit variants; non-finite floats), a key twice in one map,
//! nesting past [`Options::max_depth`], or the value's own `Serialize`
//! error. Like serde_json, NaN and the infinities are written as `null`,
//! bytes as a list of numbers, enums as their name or `{name: value}`.
//!
//! ```
//! use serde::Serialize;
//!
//! #[derive(Serialize)]
//! struct Container { name: &'static str, ports: Vec<u16> }
//!
//! let web = Container { name: "nginx", ports: vec![80, 443] };
//! assert_eq!(kyaml::value::to_string(&web)?, "---\n{\n  name: \"nginx\",\n  ports: [\n    80,\n    443,\n  ],\n}\n");
//! // What a logger writes: one line, or `{:#}` in the regular layout.
//! assert_eq!(kyaml::value::Dump(&web).to_string(), "{name: \"nginx\", ports: [80, 443]}");
//! # Ok::<(), kyaml::value::Error>(())
//! ```
//!
//! The value is written into a `String` as it is serialized; the other
//! sinks get that `String` (a `Serialize` cannot be read again from a
//! saved place, so a sink that cannot take back what it got cannot be
//! written first and checked later). A list whose layout the first pass
//! guessed wrong (`[{…}, 1]`, a container and then a scalar) takes a second
//! pass over the value: its `Serialize` must write the same thing twice.

mod error;
mod number;
mod ser;
mod shortest;

use alloc::string::String;
use core::fmt;

use serde::Serialize;

use crate::emit::TextBuf;
use crate::error::ErrorKind;
use crate::options::{Form, Input, Options};

/// The crate's one error type, [`kyaml::Error`](crate::Error), under the
/// name this module's entry points had for it. An error in a value has no
/// position: [`line`](crate::Error::line) and
/// [`column`](crate::Error::column) are 0, as serde_json's are for a
/// serialization error, and `Display` shows the message alone.
///
/// ```
/// use std::collections::BTreeMap;
/// let map = BTreeMap::from([((1, 2), "a tuple key")]);
/// let err: kyaml::Error = kyaml::value::to_string(&map).unwrap_err();
/// assert_eq!((err.kind(), err.line(), err.column()), (kyaml::ErrorKind::Data, 0, 0));
/// assert_eq!(err.to_string(), "key must be a string");
/// assert_eq!(format!("{err:?}"), r#"Error(Data, "key must be a string")"#);
/// ```
pub use crate::error::Error;

/// Appends the KYAML of `value` under `opts` to `out`; on an error `out`
/// is as it was. The one place every entry point of this module goes
/// through.
fn render<T: Serialize + ?Sized>(value: &T, opts: Options, out: &mut TextBuf) -> Result<(), Error> {
    let start = out.len();
    let mut verdicts = ser::Verdicts::default();
    let mut result = ser::write(value, opts, out, &mut verdicts, true);
    if result.is_ok() && verdicts.any() {
        // A list lost its bet: the verdicts are known now.
        out.truncate(start);
        result = ser::write(value, opts, out, &mut verdicts, false);
    }
    if result.is_err() {
        out.truncate(start);
    }
    result.map_err(Error::from)
}

impl Options {
    /// Renders a `Serialize` value into a new `String` (see [`value`](crate::value)).
    ///
    /// ```
    /// let opts = kyaml::Options::new().compact(true);
    /// assert_eq!(opts.value_to_string(&[(1, "a")])?, "---\n[[1, \"a\"]]\n");
    /// # Ok::<(), kyaml::value::Error>(())
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
    pub fn value_to_string<T: Serialize + ?Sized>(&self, value: &T) -> Result<String, Error> {
        let mut out = TextBuf::with_capacity(128);
        render(value, *self, &mut out)?;
        Ok(out.into_string())
    }

    /// Writes a `Serialize` value into any `fmt::Write`, in one write, only
    /// if the whole value has KYAML.
    ///
    /// ```
    /// let mut out = String::from("status: ");
    /// let opts = kyaml::Options::new().compact(true).form(kyaml::Form::Value);
    /// opts.value_to_fmt(&mut out, &Some(200))?;
    /// assert_eq!(out, "status: 200");
    /// # Ok::<(), kyaml::value::Error>(())
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
    pub fn value_to_fmt<W: fmt::Write + ?Sized, T: Serialize + ?Sized>(
        &self,
        out: &mut W,
        value: &T,
    ) -> Result<(), Error> {
        let text = self.value_to_string(value)?;
        out.write_str(&text)
            .map_err(|_| Error::in_value(ErrorKind::Write, "the output sink failed".into()))
    }

    /// Writes a `Serialize` value to an `io::Write`, in one write, only if
    /// the whole value has KYAML. An error is an `io::Error` whose inner
    /// error is the [`Error`].
    ///
    /// ```
    /// let mut out = Vec::new();
    /// kyaml::Options::new().value_to_writer(&mut out, &vec!["a"])?;
    /// assert_eq!(out, b"---\n[\n  \"a\",\n]\n");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(all(feature = "serde", feature = "std"))))]
    pub fn value_to_writer<W: std::io::Write, T: Serialize + ?Sized>(
        &self,
        mut out: W,
        value: &T,
    ) -> std::io::Result<()> {
        let text = self.value_to_string(value)?;
        out.write_all(text.as_bytes())
    }
}

/// Renders a `Serialize` value as a KYAML document (document form, regular
/// layout) in a new `String`: `kyaml::to_string` for values.
///
/// ```
/// use std::collections::BTreeMap;
/// let labels = BTreeMap::from([("app.kubernetes.io/name", "web"), ("tier", "front")]);
/// assert_eq!(
///     kyaml::value::to_string(&labels)?,
///     "---\n{\n  app.kubernetes.io/name: \"web\",\n  tier: \"front\",\n}\n"
/// );
/// # Ok::<(), kyaml::value::Error>(())
/// ```
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, Error> {
    Options::new().value_to_string(value)
}

/// Writes a `Serialize` value as KYAML (document form, regular layout)
/// into any `fmt::Write`, the sink first. See [`Options::value_to_fmt`].
///
/// ```
/// let mut out = String::new();
/// kyaml::value::to_fmt(&mut out, &())?;
/// assert_eq!(out, "---\nnull\n");
/// # Ok::<(), kyaml::value::Error>(())
/// ```
pub fn to_fmt<W: fmt::Write + ?Sized, T: Serialize + ?Sized>(
    out: &mut W,
    value: &T,
) -> Result<(), Error> {
    Options::new().value_to_fmt(out, value)
}

/// Writes a `Serialize` value as KYAML (document form, regular layout) to
/// an `io::Write`: the writer first, as `serde_json::to_writer(writer,
/// &value)`. See [`Options::value_to_writer`].
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Scale { replicas: u32, ratio: f64 }
///
/// let value = Scale { replicas: 3, ratio: 1.5e300 };
/// let mut out = Vec::new();
/// kyaml::value::to_writer(&mut out, &value)?;
/// assert_eq!(out, b"---\n{\n  replicas: 3,\n  ratio: 1.5e+300,\n}\n");
/// # Ok::<(), std::io::Error>(())
/// ```
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(all(feature = "serde", feature = "std"))))]
pub fn to_writer<W: std::io::Write, T: Serialize + ?Sized>(
    out: W,
    value: &T,
) -> std::io::Result<()> {
    Options::new().value_to_writer(out, value)
}

/// Displays a `Serialize` value as a KYAML value: `{}` compact on one line,
/// `{:#}` in the regular layout, for log lines and messages; what
/// [`kyaml::Dump`](crate::Dump) is for JSON text.
///
/// ```
/// use kyaml::value::Dump;
/// let roles = ["admin", "dev"];
/// assert_eq!(format!("{}", Dump(&roles)), r#"["admin", "dev"]"#);
/// assert_eq!(format!("{:#}", Dump(&roles)), "[\n  \"admin\",\n  \"dev\",\n]");
/// ```
///
/// A value without KYAML does not panic and is not silent: it shows as
/// `null` and a YAML comment that names the error, so the line still parses.
///
/// ```
/// use std::collections::BTreeMap;
/// let bad = BTreeMap::from([(vec![1], 2)]);
/// assert_eq!(kyaml::value::Dump(&bad).to_string(), "null # not KYAML: key must be a string");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Dump<'a, T: ?Sized>(pub &'a T);

impl<T: Serialize + ?Sized> fmt::Display for Dump<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&show(self.0, !f.alternate()))
    }
}

/// A value's KYAML in the value form, or `null` and a comment naming the
/// error: what [`Dump`] and [`Diff`] show.
fn show<T: Serialize + ?Sized>(value: &T, compact: bool) -> String {
    let opts = Options::new().form(Form::Value).compact(compact);
    let mut out = TextBuf::with_capacity(128);
    if let Err(err) = render(value, opts, &mut out) {
        let _ = fmt::write(&mut out, format_args!("null # not KYAML: {err}"));
    }
    out.into_string()
}

/// A unified diff of two `Serialize` values as their regular KYAML
/// renderings, with each hunk's path: [`kyaml::Diff`](crate::Diff) for
/// values. `{}` writes it plain, `{:#}` in colour; equal values write
/// nothing.
///
/// ```
/// use serde::Serialize;
/// #[derive(Serialize)]
/// struct Spec { replicas: u32, image: &'static str }
///
/// let old = Spec { replicas: 2, image: "nginx:1.25" };
/// let new = Spec { replicas: 3, image: "nginx:1.25" };
/// assert_eq!(kyaml::value::Diff::new(&old, &new).context(0).to_string(), "\
/// --- left
/// +++ right
/// @@ -2 +2 @@ replicas
/// -  replicas: 2,
/// +  replicas: 3,
/// ");
/// ```
#[derive(Clone, Debug)]
pub struct Diff<'a> {
    left: String,
    right: String,
    labels: [&'a str; 2],
    context: usize,
    color: bool,
    unordered: bool,
}

impl<'a> Diff<'a> {
    /// The diff of `left` against `right`, with [`kyaml::Diff`](crate::Diff)'s
    /// default options. Both are rendered here, once.
    pub fn new<L: Serialize + ?Sized, R: Serialize + ?Sized>(left: &L, right: &R) -> Diff<'a> {
        Diff {
            left: show(left, false),
            right: show(right, false),
            labels: ["left", "right"],
            context: 3,
            color: false,
            unordered: false,
        }
    }

    /// How many unchanged lines to show around each change (default 3).
    pub fn context(mut self, lines: usize) -> Diff<'a> {
        self.context = lines;
        self
    }

    /// The names in the `---` and `+++` lines (default `left` and `right`).
    pub fn labels(mut self, left: &'a str, right: &'a str) -> Diff<'a> {
        self.labels = [left, right];
        self
    }

    /// ANSI colour, as [`kyaml::Diff::color`](crate::Diff::color).
    pub fn color(mut self, on: bool) -> Diff<'a> {
        self.color = on;
        self
    }

    /// Compares maps unordered, as [`kyaml::Diff::unordered`](crate::Diff::unordered):
    /// a `HashMap`'s order is then no difference.
    ///
    /// ```
    /// use std::collections::HashMap;
    /// let a = HashMap::from([("x", 1), ("y", 2), ("z", 3)]);
    /// let b = HashMap::from([("z", 3), ("y", 2), ("x", 1)]);
    /// assert!(kyaml::value::Diff::new(&a, &b).unordered(true).is_equal());
    /// ```
    pub fn unordered(mut self, on: bool) -> Diff<'a> {
        self.unordered = on;
        self
    }

    /// Whether the two values render the same (the diff is empty).
    pub fn is_equal(&self) -> bool {
        self.text_diff().is_equal()
    }

    /// The diff of the two renderings, which are KYAML and so YAML: read
    /// back as YAML, their maps can be compared unordered.
    fn text_diff(&self) -> crate::diff::Diff<'_> {
        crate::diff::Diff::new(&self.left, &self.right)
            .input(Input::Yaml)
            .labels(self.labels[0], self.labels[1])
            .context(self.context)
            .color(self.color)
            .unordered(self.unordered)
    }
}

impl fmt::Display for Diff<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.text_diff(), f)
    }
}

/// The body of [`assert_kyaml_eq!`](crate::assert_kyaml_eq)`(value: …)`.
#[doc(hidden)]
#[track_caller]
pub fn assert_eq_impl<L: Serialize + ?Sized, R: Serialize + ?Sized>(
    left: &L,
    right: &R,
    unordered: bool,
    message: Option<fmt::Arguments<'_>>,
) {
    let diff = Diff::new(left, right).unordered(unordered);
    let order_only = || diff.clone().unordered(true).is_equal();
    let order = || crate::diff::Order::of(unordered, order_only, "value, unordered");
    crate::diff::fail_unless_equal(diff.is_equal(), &diff, order, message);
}
