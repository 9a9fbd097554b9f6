//! [`Diff`]: a unified diff of two inputs' regular KYAML renderings, for
//! test failures and logs; and the [`assert_kyaml_eq!`](crate::assert_kyaml_eq) macro.
//!
//! This module owns the diff's pipeline: render both sides (`render`, with
//! maps sorted by key first for [`Diff::unordered`], `sorted.rs`), take off
//! the common head and tail of the two texts as bytes, diff the lines in
//! between (`myers.rs`), group the changes into hunks and write them, with
//! each hunk's KYAML path (`path.rs`) and, in colour, the changed words of
//! changed lines highlighted.

mod color;
mod hunks;
mod myers;
mod path;
mod sorted;
#[cfg(test)]
mod tests;
mod words;

use alloc::string::String;
use core::fmt;

use crate::dump::write_invalid;
use crate::options::{Form, Input, Options, Schema};
use hunks::{HunkStyle, Window};

/// A unified diff of two inputs (JSON, or YAML with [`input`]) as their
/// regular KYAML renderings: `{}` writes it plain, `{:#}` in ANSI colour;
/// equal renderings write nothing.
///
/// Options are chained setters on this small `Copy` value: [`context`]
/// lines (default 3), [`labels`] (default `left` and `right`), [`color`]
/// (default off), [`unordered`] maps (default off), the [`form`] of the
/// renderings (default [`Form::Value`], which reads best in messages;
/// [`Form::Document`] compares streams document by document and gives a
/// patch for `kyaml`'s output, as `kyaml diff` prints), and the input
/// language of both sides ([`input`], [`inputs`], [`schema`]; default JSON).
///
/// In the value form, which is read (a test's failure, a log), each
/// character that prints nothing is written as its YAML escape: a TAB as
/// `\t`, a no-break space as `\_`, a zero-width space as `\u200b`, in
/// strings and in comments alike (where KYAML writes a TAB raw: a folded
/// string's lines, a comment). The document form is a patch, so its lines
/// are the renderings' own bytes.
///
/// ```
/// let old = r#"{"spec": {"replicas": 2, "image": "nginx:1.25"}}"#;
/// let new = r#"{"spec": {"replicas": 3, "image": "nginx:1.25"}}"#;
/// assert_eq!(kyaml::Diff::new(old, new).to_string(), "\
/// --- left
/// +++ right
/// @@ -1,6 +1,6 @@ spec.replicas
///  {
///    spec: {
/// -    replicas: 2,
/// +    replicas: 3,
///      image: \"nginx:1.25\",
///    },
///  }
/// ");
/// assert!(kyaml::Diff::new("[1, 2]", "[1,2]").is_equal());
/// ```
///
/// Each hunk header ends with the KYAML path of its first changed line
/// (keys and list indices from the top, `spec.containers[0].image`;
/// keys that are not identifiers as `["app.kubernetes.io/name"]`), the way
/// git names the function a hunk is in. Input that is not valid shows as
/// [`Dump`](crate::Dump) shows it (one string and a comment naming the
/// error) and is compared as that text; it never panics and never hides the
/// other side.
///
/// The lines are compared with Myers' algorithm in linear memory, with a
/// budget of work (counted, never timed): within it the diff is minimal;
/// past it, as on two unrelated files of 100,000 lines, it is still a
/// complete and valid diff, found in time linear in the input. The same
/// inputs always give the same bytes.
///
/// [`context`]: Diff::context
/// [`labels`]: Diff::labels
/// [`color`]: Diff::color
/// [`unordered`]: Diff::unordered
/// [`form`]: Diff::form
/// [`input`]: Diff::input
/// [`inputs`]: Diff::inputs
/// [`schema`]: Diff::schema
#[derive(Clone, Copy, Debug)]
pub struct Diff<'a> {
    left: &'a [u8],
    right: &'a [u8],
    labels: [&'a str; 2],
    context: usize,
    color: bool,
    unordered: bool,
    /// The renderings' options: form, schema, comments (the input
    /// language is each side's, in `inputs`).
    opts: Options,
    /// The language of each side.
    inputs: [Input; 2],
}

impl<'a> Diff<'a> {
    /// The diff of `left` against `right` (JSON: `&str`, `&[u8]`, `&String`,
    /// `&Vec<u8>`, ...), with the default options.
    pub fn new<L, R>(left: &'a L, right: &'a R) -> Diff<'a>
    where
        L: crate::Text + ?Sized,
        R: crate::Text + ?Sized,
    {
        Diff {
            left: left.as_ref(),
            right: right.as_ref(),
            labels: ["left", "right"],
            context: 3,
            color: false,
            unordered: false,
            opts: Options::new().form(Form::Value),
            inputs: [Input::Json; 2],
        }
    }

    /// How many unchanged lines to show around each change (default 3).
    ///
    /// ```
    /// let diff = kyaml::Diff::new("[1, 2, 3]", "[1, 2, 4]").context(0);
    /// assert_eq!(diff.to_string(), "--- left\n+++ right\n@@ -4 +4 @@ [2]\n-  3,\n+  4,\n");
    /// ```
    pub const fn context(mut self, lines: usize) -> Diff<'a> {
        self.context = lines;
        self
    }

    /// The names in the `---` and `+++` lines (default `left` and `right`).
    ///
    /// ```
    /// let diff = kyaml::Diff::new("1", "2").labels("expected", "actual");
    /// assert_eq!(diff.to_string(), "--- expected\n+++ actual\n@@ -1 +1 @@\n-1\n+2\n");
    /// ```
    pub const fn labels(mut self, left: &'a str, right: &'a str) -> Diff<'a> {
        self.labels = [left, right];
        self
    }

    /// ANSI colour (as `{:#}` gives): headers bold, hunk ranges cyan,
    /// removed lines red, added lines green, and inside a changed line the
    /// words that changed in reverse video.
    ///
    /// ```
    /// let diff = kyaml::Diff::new(r#"{"image": "nginx:1.25"}"#, r#"{"image": "nginx:1.26"}"#);
    /// let plain = diff.to_string();
    /// assert_eq!(format!("{:#}", diff), diff.color(true).to_string());
    /// assert!(diff.color(true).to_string().contains("\u{1b}[31m-  image: \"nginx:1.\u{1b}[7m25\u{1b}[27m\",\u{1b}[0m"));
    /// assert!(!plain.contains('\u{1b}'));
    /// ```
    pub const fn color(mut self, on: bool) -> Diff<'a> {
        self.color = on;
        self
    }

    /// Compares maps as JSON defines them, unordered: both sides are
    /// rendered with each map's keys sorted (by code point), so key order
    /// alone is never a difference. Lists keep their order.
    ///
    /// ```
    /// let diff = kyaml::Diff::new(r#"{"a": 1, "b": 2}"#, r#"{"b": 2, "a": 1}"#);
    /// assert!(!diff.is_equal());
    /// assert!(diff.unordered(true).is_equal());
    /// ```
    pub const fn unordered(mut self, on: bool) -> Diff<'a> {
        self.unordered = on;
        self
    }

    /// The renderings' form: [`Form::Value`] (the default; one value per
    /// side, a stream is invalid input) or [`Form::Document`] (`---`
    /// headers; streams are compared document by document, and the diff
    /// applies with `patch` to the left side's `kyaml` output).
    ///
    /// ```
    /// let diff = kyaml::Diff::new("1 2", "1 3").form(kyaml::Form::Document).context(1);
    /// assert_eq!(diff.to_string(), "--- left\n+++ right\n@@ -3,2 +3,2 @@ document 2\n ---\n-2\n+3\n");
    /// ```
    pub const fn form(mut self, form: Form) -> Diff<'a> {
        self.opts = self.opts.form(form);
        self
    }

    /// The language of both inputs: [`Input::Json`] (the default) or
    /// [`Input::Yaml`], read as [`Options::input`] reads it. YAML comments
    /// are part of the rendering, so they count as lines, unless
    /// [`comments`] is off; [`unordered`] compares the data alone.
    ///
    /// [`comments`]: Diff::comments
    /// [`unordered`]: Diff::unordered
    ///
    /// ```
    /// use kyaml::{Diff, Input};
    /// let diff = Diff::new("a: on\nb: [1]\n", "{b: [1], a: true}").input(Input::Yaml);
    /// assert!(!diff.is_equal());
    /// assert!(diff.unordered(true).is_equal());
    /// ```
    pub const fn input(mut self, input: Input) -> Diff<'a> {
        self.inputs = [input, input];
        self
    }

    /// The language of each side, when they differ: is this YAML the same
    /// data as that JSON?
    ///
    /// ```
    /// use kyaml::{Diff, Input};
    /// let diff = Diff::new("{\"a\": [1, true]}", "a:\n- 1\n- yes\n");
    /// assert!(diff.inputs(Input::Json, Input::Yaml).is_equal());
    /// ```
    pub const fn inputs(mut self, left: Input, right: Input) -> Diff<'a> {
        self.inputs = [left, right];
        self
    }

    /// How YAML input's plain scalars read (see [`Options::schema`]).
    ///
    /// ```
    /// use kyaml::{Diff, Input, Schema};
    /// let diff = Diff::new("a: on", "a: true").input(Input::Yaml);
    /// assert!(diff.is_equal());
    /// assert!(!diff.schema(Schema::Yaml12).is_equal());
    /// ```
    pub const fn schema(mut self, schema: Schema) -> Diff<'a> {
        self.opts = self.opts.schema(schema);
        self
    }

    /// Whether YAML input's comments and blank lines are in the renderings
    /// (the default, as `kyaml` writes them; see [`Options::comments`]).
    /// Off, only the data is compared.
    ///
    /// ```
    /// use kyaml::{Diff, Input};
    /// let diff = Diff::new("a: 1 # one\n", "a: 1\n").input(Input::Yaml);
    /// assert!(!diff.is_equal());
    /// assert!(diff.comments(false).is_equal());
    /// ```
    pub const fn comments(mut self, on: bool) -> Diff<'a> {
        self.opts = self.opts.comments(on);
        self
    }

    /// Whether the two renderings are the same, so the diff is empty.
    ///
    /// ```
    /// assert!(kyaml::Diff::new("{\"a\": \"\\u00e9\"}", "{ \"a\" : \"é\" }").is_equal());
    /// assert!(!kyaml::Diff::new("1", "1.0").is_equal());
    /// ```
    pub fn is_equal(&self) -> bool {
        self.render(0) == self.render(1)
    }

    /// Whether the renderings are in document form.
    fn is_document(&self) -> bool {
        self.opts.output_form() == Form::Document
    }

    /// One side's regular rendering (`0` left, `1` right), or for invalid
    /// input what `Dump` shows.
    fn render(&self, side: usize) -> String {
        let (input, language) = match side {
            0 => (self.left, self.inputs[0]),
            _ => (self.right, self.inputs[1]),
        };
        let opts = self.opts.input(language);
        if self.unordered {
            let sorted = sorted::sort_keys(input, opts);
            let json = opts.input(Input::Json);
            if let Some(text) = sorted.and_then(|sorted| json.to_string(sorted).ok()) {
                return text;
            }
        }
        match opts.to_string(input) {
            Ok(text) => text,
            Err(err) => {
                let mut out = String::new();
                let document = self.is_document();
                if document {
                    out.push_str("---\n");
                }
                let _ = write_invalid(&mut out, input, language, &err);
                if document {
                    out.push('\n');
                }
                out
            }
        }
    }
}

impl fmt::Display for Diff<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let left = self.render(0);
        let right = self.render(1);
        let Some(window) = Window::new(&left, &right, self.context, self.is_document()) else {
            return Ok(()); // the renderings are the same
        };
        let style = HunkStyle {
            color: self.color || f.alternate(),
            context: self.context,
            documents: self.is_document()
                && [&left, &right]
                    .iter()
                    .any(|t| t.get(3..).is_some_and(|t| t.contains("\n---\n"))),
            paths: true,
            eof_marker: self.is_document(),
            escaped: !self.is_document(),
        };
        window.write(f, self.labels, style)
    }
}

/// A unified diff of two texts by their lines, as they are (nothing is
/// rendered): `---`/`+++`/`@@` hunks that `patch` applies, with the same
/// line diff as [`Diff`]. For tools that rewrite files (`kyaml fmt -d`).
///
/// ```
/// let diff = kyaml::LineDiff::new("a: 1\nb: 2\n", "{\n  a: 1,\n  b: 2,\n}\n").context(0);
/// assert_eq!(
///     diff.labels("old", "new").to_string(),
///     "--- old\n+++ new\n@@ -1,2 +1,4 @@\n-a: 1\n-b: 2\n+{\n+  a: 1,\n+  b: 2,\n+}\n"
/// );
/// assert_eq!(kyaml::LineDiff::new("x\n", "x\n").to_string(), "");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct LineDiff<'a> {
    left: &'a str,
    right: &'a str,
    labels: [&'a str; 2],
    context: usize,
}

impl<'a> LineDiff<'a> {
    /// The diff of text `left` against text `right`, 3 lines of context,
    /// labelled `left` and `right`.
    pub fn new(left: &'a str, right: &'a str) -> LineDiff<'a> {
        LineDiff {
            left,
            right,
            labels: ["left", "right"],
            context: 3,
        }
    }

    /// How many unchanged lines to show around each change (default 3).
    pub const fn context(mut self, lines: usize) -> LineDiff<'a> {
        self.context = lines;
        self
    }

    /// The names in the `---` and `+++` lines.
    pub const fn labels(mut self, left: &'a str, right: &'a str) -> LineDiff<'a> {
        self.labels = [left, right];
        self
    }
}

impl fmt::Display for LineDiff<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(window) = Window::new(self.left, self.right, self.context, false) else {
            return Ok(());
        };
        let style = HunkStyle {
            color: false,
            context: self.context,
            documents: false,
            paths: false,
            eof_marker: true,
            escaped: false,
        };
        window.write(f, self.labels, style)
    }
}

/// Panics with the diff unless `left` and `right` render the same; the
/// body of [`assert_kyaml_eq!`](crate::assert_kyaml_eq).
#[doc(hidden)]
#[track_caller]
pub fn assert_kyaml_eq_impl<L, R>(
    left: &L,
    right: &R,
    unordered: bool,
    message: Option<fmt::Arguments<'_>>,
) where
    L: crate::Text + ?Sized,
    R: crate::Text + ?Sized,
{
    let diff = Diff::new(left, right).unordered(unordered);
    let order_only = || diff.unordered(true).is_equal();
    let order = || Order::of(unordered, order_only, "unordered");
    fail_unless_equal(diff.is_equal(), diff, order, message);
}

/// How [`fail_unless_equal`]'s first line speaks of key order.
pub(crate) enum Order {
    /// Maps were compared in their order, and differ in more than that.
    Kept,
    /// Maps were compared unordered.
    Ignored,
    /// Maps were compared in their order and differ in nothing else; the
    /// arm of `assert_kyaml_eq!` that ignores it.
    OnlyDifference(&'static str),
}

impl Order {
    /// The order of a failed comparison: `order_only` (asked only when the
    /// maps were ordered) says whether key order is all that differs.
    pub(crate) fn of(
        unordered: bool,
        order_only: impl FnOnce() -> bool,
        arm: &'static str,
    ) -> Order {
        match (unordered, unordered || order_only()) {
            (true, _) => Order::Ignored,
            (false, true) => Order::OnlyDifference(arm),
            (false, false) => Order::Kept,
        }
    }
}

/// Panics with `diff` unless `equal`: the one message of
/// [`assert_kyaml_eq!`](crate::assert_kyaml_eq), for text and for values.
#[track_caller]
pub(crate) fn fail_unless_equal(
    equal: bool,
    diff: impl fmt::Display,
    order: impl FnOnce() -> Order,
    message: Option<fmt::Arguments<'_>>,
) {
    if equal {
        return;
    }
    let how = match order() {
        Order::Kept => String::new(),
        Order::Ignored => String::from(" (maps unordered)"),
        Order::OnlyDifference(arm) => alloc::format!(
            " (only the order of map keys differs, as between two equal `HashMap`s: \
             `assert_kyaml_eq!({arm}: left, right)` compares maps unordered)"
        ),
    };
    match message {
        Some(message) => {
            panic!("assertion `left == right` failed as KYAML{how}: {message}\n{diff}")
        }
        None => panic!("assertion `left == right` failed as KYAML{how}\n{diff}"),
    }
}

/// Asserts that two JSON inputs are the same data, comparing their regular
/// KYAML renderings; on failure, panics like `assert_eq!` with a unified
/// diff of the two (labels `left` and `right`) as the message.
///
/// The inputs are text, anything `AsRef<[u8]>` (`&str`, `String`,
/// `Vec<u8>`, ...; [`Text`](crate::Text)); `Serialize` values take `value:`.
/// Inputs that differ only as text (white space, `\u00e9` against `é`) are
/// equal. `assert_kyaml_eq!(unordered: left, right)` compares maps without
/// regard to key order. A format string and arguments may follow, as for
/// `assert_eq!`.
///
/// With the `serde` feature, `assert_kyaml_eq!(value: left, right)` (and
/// `value, unordered:`) compares two `Serialize` values the same way, by
/// their renderings (see `kyaml::value::Diff`).
///
/// Maps are compared in the order they come in, as KYAML writes them. A
/// `HashMap`'s order is not defined, so two equal ones may fail
/// `value:`; compare them with `value, unordered:`. A failure that key
/// order alone makes says so on its first line:
///
#[cfg_attr(feature = "serde", doc = "```")]
#[cfg_attr(not(feature = "serde"), doc = "```ignore")]
/// use std::collections::HashMap;
/// let ports: HashMap<String, u16> = (0..20).map(|i| (format!("port-{i}"), 8000 + i)).collect();
/// let same: HashMap<String, u16> = ports.clone().into_iter().collect();
/// kyaml::assert_kyaml_eq!(value, unordered: ports, same);
/// // Each HashMap has its own random order: two equal ones rarely agree.
/// let caught = std::panic::catch_unwind(|| kyaml::assert_kyaml_eq!(value: ports, same));
/// if let Err(panic) = caught {
///     let message = panic.downcast::<String>().unwrap();
///     assert!(message.starts_with(
///         "assertion `left == right` failed as KYAML (only the order of map keys differs, \
///          as between two equal `HashMap`s: `assert_kyaml_eq!(value, unordered: left, right)` \
///          compares maps unordered)\n--- left\n"
///     ));
/// }
/// ```
///
/// ```
/// kyaml::assert_kyaml_eq!(r#"{"a": [1, 2]}"#, "{\"a\":[1,2]}");
/// kyaml::assert_kyaml_eq!(unordered: r#"{"a": 1, "b": 2}"#, r#"{"b": 2, "a": 1}"#);
/// let caught = std::panic::catch_unwind(|| {
///     kyaml::assert_kyaml_eq!(r#"{"replicas": 2}"#, r#"{"replicas": 3}"#, "in {}", "web");
/// });
/// let message = *caught.unwrap_err().downcast::<String>().unwrap();
/// assert_eq!(message, "\
/// assertion `left == right` failed as KYAML: in web
/// --- left
/// +++ right
/// @@ -1,3 +1,3 @@ replicas
///  {
/// -  replicas: 2,
/// +  replicas: 3,
///  }
/// ");
/// ```
#[macro_export]
macro_rules! assert_kyaml_eq {
    (value: $left:expr, $right:expr $(,)?) => {
        $crate::value::assert_eq_impl(&$left, &$right, false, None)
    };
    (value: $left:expr, $right:expr, $($arg:tt)+) => {
        $crate::value::assert_eq_impl(&$left, &$right, false, Some(format_args!($($arg)+)))
    };
    (value, unordered: $left:expr, $right:expr $(,)?) => {
        $crate::value::assert_eq_impl(&$left, &$right, true, None)
    };
    (value, unordered: $left:expr, $right:expr, $($arg:tt)+) => {
        $crate::value::assert_eq_impl(&$left, &$right, true, Some(format_args!($($arg)+)))
    };
    (unordered: $left:expr, $right:expr $(,)?) => {
        match (&$left, &$right) {
            (left, right) => $crate::assert_kyaml_eq_impl(left, right, true, None),
        }
    };
    (unordered: $left:expr, $right:expr, $($arg:tt)+) => {
        match (&$left, &$right) {
            (left, right) => {
                $crate::assert_kyaml_eq_impl(left, right, true, Some(format_args!($($arg)+)))
            }
        }
    };
    ($left:expr, $right:expr $(,)?) => {
        match (&$left, &$right) {
            (left, right) => $crate::assert_kyaml_eq_impl(left, right, false, None),
        }
    };
    ($left:expr, $right:expr, $($arg:tt)+) => {
        match (&$left, &$right) {
            (left, right) => {
                $crate::assert_kyaml_eq_impl(left, right, false, Some(format_args!($($arg)+)))
            }
        }
    };
}
