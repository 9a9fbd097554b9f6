//! [`Diff`]: a unified diff of two inputs' regular KYAML renderings, for
//! test failures and logs; and the [`assert_kyaml_eq!`](crate::assert_kyaml_eq) macro.
//!
//! This module owns the diff's pipeline: render both sides (`render`, with
//! maps sorted by key first for [`Diff::unordered`], `sorted.rs`), take off
//! the common head and tail of the two texts as bytes, diff the lines in
//! between (`myers.rs`), group the changes into hunks and write them, with
//! each hunk's KYAML path (`path.rs`) and, in colour, the changed words of
//! changed lines highlighted.

mod myers;
mod path;
mod sorted;

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::{self, Write};

use crate::emit::write_text;
use crate::options::{Form, Input, Options, Schema};
use myers::{Budget, Interner, Span};
use path::PathWalker;

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
    form: Form,
    /// The language of each side.
    inputs: [Input; 2],
    schema: Schema,
    comments: bool,
}

impl<'a> Diff<'a> {
    /// The diff of `left` against `right` (JSON: `&str`, `&[u8]`, `&String`,
    /// `&Vec<u8>`, ...), with the default options.
    pub fn new<L, R>(left: &'a L, right: &'a R) -> Diff<'a>
    where
        L: AsRef<[u8]> + ?Sized,
        R: AsRef<[u8]> + ?Sized,
    {
        Diff {
            left: left.as_ref(),
            right: right.as_ref(),
            labels: ["left", "right"],
            context: 3,
            color: false,
            unordered: false,
            form: Form::Value,
            inputs: [Input::Json; 2],
            schema: Schema::Kubectl,
            comments: true,
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
        self.form = form;
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
        self.schema = schema;
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
        self.comments = on;
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

    /// One side's regular rendering (`0` left, `1` right), or for invalid
    /// input what `Dump` shows.
    fn render(&self, side: usize) -> String {
        let (input, language) = match side {
            0 => (self.left, self.inputs[0]),
            _ => (self.right, self.inputs[1]),
        };
        let opts = Options::new()
            .form(self.form)
            .input(language)
            .schema(self.schema)
            .comments(self.comments);
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
                let document = self.form == Form::Document;
                if document {
                    out.push_str("---\n");
                }
                let _ = write_text(&mut out, input);
                let language = match language {
                    Input::Json => "JSON",
                    Input::Yaml => "YAML",
                };
                let _ = write!(out, " # invalid {language}: {err}");
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
        let Some(window) = Window::new(&left, &right, self.context, self.form == Form::Document)
        else {
            return Ok(()); // the renderings are the same
        };
        let style = Style {
            color: self.color || f.alternate(),
            context: self.context,
            documents: self.form == Form::Document
                && [&left, &right]
                    .iter()
                    .any(|t| t.get(3..).is_some_and(|t| t.contains("\n---\n"))),
            paths: true,
            eof_marker: self.form == Form::Document,
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
        let style = Style {
            color: false,
            context: self.context,
            documents: false,
            paths: false,
            eof_marker: true,
        };
        window.write(f, self.labels, style)
    }
}

/// How to write the hunks.
#[derive(Clone, Copy)]
struct Style {
    color: bool,
    context: usize,
    /// Name the document in hunk headers.
    documents: bool,
    /// Name the KYAML path in hunk headers.
    paths: bool,
    /// Mark a last line without a line feed (`\ No newline at end of
    /// file`), so that `patch` gets it right; off for the value form, whose
    /// renderings never end in one.
    eof_marker: bool,
}

/// One side's lines that a hunk can show, and which of them changed.
struct Side<'t> {
    text: &'t str,
    lines: Vec<&'t str>,
    /// The 0-based line number of `lines[0]` in `text`.
    first: usize,
    changed: Vec<bool>,
}

/// The two sides' lines from a little before the first difference to a
/// little after the last, with the changed lines marked.
struct Window<'t> {
    left: Side<'t>,
    right: Side<'t>,
}

impl<'t> Window<'t> {
    /// The window of `left` against `right`; `None` when they are equal.
    fn new(left: &'t str, right: &'t str, context: usize, documents: bool) -> Option<Window<'t>> {
        let (l, r) = (left.as_bytes(), right.as_bytes());
        // The common head, back to a line start.
        let head = common_prefix(l, r);
        if head == l.len() && head == r.len() {
            return None;
        }
        let head = l[..head]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let (ml, mr) = (&l[head..], &r[head..]);
        // The common tail, forward to a line start on both sides.
        let tail = common_suffix(ml, mr);
        let starts_line = |text: &[u8], at: usize| at == 0 || text.get(at - 1) == Some(&b'\n');
        let mut end_l = ml.len() - tail;
        let mut end_r = mr.len() - tail;
        if !(starts_line(ml, end_l) && starts_line(mr, end_r)) {
            match ml[end_l..].iter().position(|&b| b == b'\n') {
                Some(i) => {
                    end_l += i + 1;
                    end_r += i + 1;
                }
                None => (end_l, end_r) = (ml.len(), mr.len()),
            }
        }
        // All cuts are at line starts or ends, so on character boundaries.
        let (mid_l, mid_r) = (&left[head..head + end_l], &right[head..head + end_r]);
        let (after_l, after_r) = (&left[head + end_l..], &right[head + end_r..]);
        let before_start = lines_back(&left[..head], context);
        let before: Vec<&str> = split_lines(&left[before_start..head]).collect();
        let after: Vec<&str> = split_lines(after_l).take(context).collect();
        debug_assert!(split_lines(after_r).take(context).eq(after.iter().copied()));
        let first = count_lines(&l[..before_start]);

        let mid_l: Vec<&str> = split_lines(mid_l).collect();
        let mid_r: Vec<&str> = split_lines(mid_r).collect();
        let mut interner = Interner::with_capacity(mid_l.len() + mid_r.len());
        let ids_l: Vec<u32> = mid_l.iter().map(|s| interner.id(s)).collect();
        let ids_r: Vec<u32> = mid_r.iter().map(|s| interner.id(s)).collect();
        let spans = document_spans(&mid_l, &mid_r, documents);
        let mut del = vec![false; mid_l.len()];
        let mut ins = vec![false; mid_r.len()];
        let mut budget = Budget::for_lines(mid_l.len() + mid_r.len());
        myers::diff(&ids_l, &ids_r, &spans, &mut del, &mut ins, &mut budget);

        let side = |text, mid: Vec<&'t str>, marks: Vec<bool>| {
            let mut lines = before.clone();
            lines.extend(mid);
            lines.extend(after.iter().copied());
            let mut changed = vec![false; before.len()];
            changed.extend(marks);
            changed.resize(lines.len(), false);
            Side {
                text,
                lines,
                first,
                changed,
            }
        };
        Some(Window {
            left: side(left, mid_l, del),
            right: side(right, mid_r, ins),
        })
    }

    /// The runs of changed lines: `(a0, a1, b0, b1)`, left lines `a0..a1`
    /// replaced by right lines `b0..b1`, in window coordinates.
    fn blocks(&self) -> Vec<[usize; 4]> {
        let (del, ins) = (&self.left.changed, &self.right.changed);
        let (mut i, mut j) = (0, 0);
        let mut blocks = Vec::new();
        while i < del.len() || j < ins.len() {
            if i < del.len() && j < ins.len() && !del[i] && !ins[j] {
                i += 1;
                j += 1;
                continue;
            }
            let (a0, b0) = (i, j);
            while i < del.len() && del[i] {
                i += 1;
            }
            while j < ins.len() && ins[j] {
                j += 1;
            }
            if (i, j) == (a0, b0) {
                break; // unreachable: the unchanged lines pair up
            }
            blocks.push([a0, i, b0, j]);
        }
        blocks
    }

    fn write(&self, f: &mut fmt::Formatter<'_>, labels: [&str; 2], style: Style) -> fmt::Result {
        let (bold, reset) = if style.color {
            ("\x1b[1m", "\x1b[0m")
        } else {
            ("", "")
        };
        writeln!(f, "{bold}--- {}{reset}", labels[0])?;
        writeln!(f, "{bold}+++ {}{reset}", labels[1])?;
        let blocks = self.blocks();
        let ctx = style.context;
        let mut walkers = [
            PathWalker::new(self.left.text),
            PathWalker::new(self.right.text),
        ];
        let mut rest = &blocks[..];
        while let Some(first) = rest.first() {
            // This hunk takes the blocks less than two contexts apart.
            let mut n = 1;
            while n < rest.len() && rest[n][0] - rest[n - 1][1] <= ctx.saturating_mul(2) {
                n += 1;
            }
            let (hunk, next) = rest.split_at(n);
            rest = next;
            let last = hunk[hunk.len() - 1];
            let lead = ctx.min(first[0]).min(first[2]);
            let trail = ctx
                .min(self.left.lines.len() - last[1])
                .min(self.right.lines.len() - last[3]);
            let (a0, b0) = (first[0] - lead, first[2] - lead);
            let (a1, b1) = (last[1] + trail, last[3] + trail);
            let (path, document) = if !style.paths {
                ("", 0)
            } else if first[1] > first[0] {
                walkers[0].path_at(self.left.first + first[0])
            } else {
                walkers[1].path_at(self.right.first + first[2])
            };
            let (cyan, plain) = if style.color {
                ("\x1b[36m", "\x1b[0m")
            } else {
                ("", "")
            };
            write!(
                f,
                "{cyan}@@ -{} +{} @@{plain}",
                Range(self.left.first + a0, a1 - a0),
                Range(self.right.first + b0, b1 - b0)
            )?;
            if style.documents {
                write!(f, " document {document}")?;
                if !path.is_empty() {
                    write!(f, ":")?;
                }
            }
            if !path.is_empty() {
                write!(f, " {path}")?;
            }
            f.write_char('\n')?;
            let mut i = a0;
            for block in hunk.iter().chain([&[a1, a1, b1, b1]]) {
                while i < block[0] {
                    write_line(f, " ", self.left.lines[i], style.eof_marker)?;
                    i += 1;
                }
                self.write_block(f, block, style)?;
                i = block[1];
            }
        }
        Ok(())
    }

    /// One block's removed lines, then its added lines; in colour, the
    /// words that differ between the `k`-th removed and `k`-th added line
    /// are highlighted.
    fn write_block(
        &self,
        f: &mut fmt::Formatter<'_>,
        block: &[usize; 4],
        style: Style,
    ) -> fmt::Result {
        let [a0, a1, b0, b1] = *block;
        let old = &self.left.lines[a0..a1];
        let new = &self.right.lines[b0..b1];
        if !style.color {
            for line in old {
                write_line(f, "-", line, style.eof_marker)?;
            }
            for line in new {
                write_line(f, "+", line, style.eof_marker)?;
            }
            return Ok(());
        }
        let pairs = old.len().min(new.len());
        let mut marks: Vec<(Vec<Word>, Vec<Word>)> = Vec::with_capacity(pairs);
        for k in 0..pairs {
            marks.push(changed_words(body(old[k]), body(new[k])));
        }
        for (k, line) in old.iter().enumerate() {
            let words = marks.get(k).map(|m| &m.0[..]);
            write_colored(f, "\x1b[31m-", body(line), words)?;
            write_missing_newline(f, line, style.eof_marker)?;
        }
        for (k, line) in new.iter().enumerate() {
            let words = marks.get(k).map(|m| &m.1[..]);
            write_colored(f, "\x1b[32m+", body(line), words)?;
            write_missing_newline(f, line, style.eof_marker)?;
        }
        Ok(())
    }
}

/// A unified diff's line range: `start,count` with the start 1-based, `start`
/// alone for one line, and for no lines the number of the line before.
struct Range(usize, usize);

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            0 => write!(f, "{},0", self.0),
            1 => write!(f, "{}", self.0 + 1),
            n => write!(f, "{},{n}", self.0 + 1),
        }
    }
}

/// A word of a line (byte range) and whether it changed.
type Word = (usize, usize, bool);

/// Splits both lines into words (runs of letters, digits and `_`; runs of
/// white space; any other character alone) and marks those not in the
/// common subsequence of the two.
fn changed_words(old: &str, new: &str) -> (Vec<Word>, Vec<Word>) {
    let (wo, wn) = (words(old), words(new));
    let mut interner = Interner::with_capacity(wo.len() + wn.len());
    let io: Vec<u32> = wo.iter().map(|&(s, e)| interner.id(&old[s..e])).collect();
    let inn: Vec<u32> = wn.iter().map(|&(s, e)| interner.id(&new[s..e])).collect();
    let (mut del, mut ins) = (vec![false; io.len()], vec![false; inn.len()]);
    let span = Span {
        a0: 0,
        a1: io.len(),
        b0: 0,
        b1: inn.len(),
    };
    let mut budget = Budget(4096 + 64 * (io.len() + inn.len()) as u64);
    myers::diff(&io, &inn, &[span], &mut del, &mut ins, &mut budget);
    let mark = |w: Vec<(usize, usize)>, m: Vec<bool>| {
        w.into_iter().zip(m).map(|((s, e), c)| (s, e, c)).collect()
    };
    (mark(wo, del), mark(wn, ins))
}

/// The byte ranges of `line`'s words.
fn words(line: &str) -> Vec<(usize, usize)> {
    let class = |c: char| {
        if c.is_alphanumeric() || c == '_' {
            1
        } else if c == ' ' || c == '\t' {
            2
        } else {
            0
        }
    };
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut last = 0;
    for (i, c) in line.char_indices() {
        let k = class(c);
        match out.last_mut() {
            Some(w) if k != 0 && k == last => w.1 = i + c.len_utf8(),
            _ => out.push((i, i + c.len_utf8())),
        }
        last = k;
    }
    out
}

/// Writes `lead` (colour and sign), the line with its changed words in
/// reverse video, and the reset.
fn write_colored(
    f: &mut fmt::Formatter<'_>,
    lead: &str,
    line: &str,
    words: Option<&[Word]>,
) -> fmt::Result {
    f.write_str(lead)?;
    match words {
        None => f.write_str(line)?,
        Some(words) => {
            let mut on = false;
            for &(s, e, changed) in words {
                if changed != on {
                    f.write_str(if changed { "\x1b[7m" } else { "\x1b[27m" })?;
                    on = changed;
                }
                f.write_str(line.get(s..e).unwrap_or(""))?;
            }
            if on {
                f.write_str("\x1b[27m")?;
            }
        }
    }
    f.write_str("\x1b[0m\n")
}

/// The spans to diff each on its own: one for value form; in document form,
/// the `k`-th document of the middle lines on each side against the other's.
fn document_spans(left: &[&str], right: &[&str], documents: bool) -> Vec<Span> {
    let starts = |lines: &[&str]| -> Vec<usize> {
        let mut starts = vec![0];
        if documents {
            starts.extend(
                lines
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| body(l) == "---")
                    .map(|(i, _)| i),
            );
        }
        starts.push(lines.len());
        starts
    };
    let (sl, sr) = (starts(left), starts(right));
    let count = sl.len().max(sr.len()) - 1;
    (0..count)
        .map(|k| {
            let range = |s: &[usize], len: usize| {
                (
                    s.get(k).copied().unwrap_or(len),
                    s.get(k + 1).copied().unwrap_or(len),
                )
            };
            let (a0, a1) = range(&sl, left.len());
            let (b0, b1) = range(&sr, right.len());
            Span { a0, a1, b0, b1 }
        })
        .collect()
}

/// The lines of `text`, each with its line feed (all but maybe the last
/// have one), so that a last line without one differs from the same text
/// with one.
fn split_lines(text: &str) -> impl Iterator<Item = &str> {
    text.split_inclusive('\n')
}

/// A line without its line feed.
fn body(line: &str) -> &str {
    line.strip_suffix('\n').unwrap_or(line)
}

/// Writes `sign` and the line; then, if the line has no line feed (the
/// text's last line) and `marker` is on, the unified format's marker that
/// says so.
fn write_line(f: &mut fmt::Formatter<'_>, sign: &str, line: &str, marker: bool) -> fmt::Result {
    f.write_str(sign)?;
    f.write_str(body(line))?;
    f.write_char('\n')?;
    write_missing_newline(f, line, marker)
}

fn write_missing_newline(f: &mut fmt::Formatter<'_>, line: &str, marker: bool) -> fmt::Result {
    if marker && !line.ends_with('\n') {
        f.write_str("\\ No newline at end of file\n")?;
    }
    Ok(())
}

/// Where the `n`-th last line of `text` starts (`text` ends at a line start).
fn lines_back(text: &str, n: usize) -> usize {
    let bytes = text.as_bytes();
    let mut at = bytes.len();
    for _ in 0..n {
        if at == 0 {
            break;
        }
        at = bytes[..at - 1]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
    }
    at
}

fn count_lines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// The length of the common prefix, compared a block at a time.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 128;
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + BLOCK <= n && a[i..i + BLOCK] == b[i..i + BLOCK] {
        i += BLOCK;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// The length of the common suffix, compared a block at a time.
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 128;
    let n = a.len().min(b.len());
    let (la, lb) = (a.len(), b.len());
    let mut i = 0;
    while i + BLOCK <= n && a[la - i - BLOCK..la - i] == b[lb - i - BLOCK..lb - i] {
        i += BLOCK;
    }
    while i < n && a[la - i - 1] == b[lb - i - 1] {
        i += 1;
    }
    i
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
    L: AsRef<[u8]> + ?Sized,
    R: AsRef<[u8]> + ?Sized,
{
    let diff = Diff::new(left, right).unordered(unordered);
    fail_unless_equal(diff.is_equal(), diff, unordered, message);
}

/// Panics with `diff` unless `equal`: the one message of
/// [`assert_kyaml_eq!`](crate::assert_kyaml_eq), for text and for values.
#[track_caller]
pub(crate) fn fail_unless_equal(
    equal: bool,
    diff: impl fmt::Display,
    unordered: bool,
    message: Option<fmt::Arguments<'_>>,
) {
    if equal {
        return;
    }
    let how = if unordered { " (maps unordered)" } else { "" };
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
/// The inputs are anything `AsRef<[u8]>` (`&str`, `String`, `Vec<u8>`, ...).
/// Inputs that differ only as text (white space, `\u00e9` against `é`) are
/// equal. `assert_kyaml_eq!(unordered: left, right)` compares maps without
/// regard to key order. A format string and arguments may follow, as for
/// `assert_eq!`.
///
/// With the `serde` feature, `assert_kyaml_eq!(value: left, right)` (and
/// `value, unordered:`) compares two `Serialize` values the same way, by
/// their renderings (see `kyaml::value::Diff`).
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

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn equal_renderings_write_nothing() {
        assert_eq!(Diff::new("[1,2]", " [ 1 , 2 ] ").to_string(), "");
        assert_eq!(Diff::new("x", "x").to_string(), "");
    }

    #[test]
    fn invalid_input_shows_as_dump_does_and_never_hides_the_other_side() {
        let diff = Diff::new("{\"a\": tru}", "{\"a\": true}").to_string();
        assert_eq!(
            diff,
            "--- left\n+++ right\n@@ -1 +1,3 @@\n-\"{\\\"a\\\": tru}\" # invalid JSON: expected `true` at line 1, column 10\n+{\n+  a: true,\n+}\n"
        );
        let bytes: &[u8] = b"[\"\xff\"]";
        let diff = Diff::new(bytes, "[]").to_string();
        assert!(
            diff.contains("-\"[\\\"\u{fffd}\\\"]\" # invalid JSON: "),
            "{diff}"
        );
        assert!(diff.contains("+[]"), "{diff}");
    }

    #[test]
    fn invisible_differences_show_escaped() {
        // `\r\n` against `\n`, and a no-break space against a space.
        let diff = Diff::new(r#"["a\r\nb", "x y"]"#, r#"["a\nb", "x\u00a0y"]"#).to_string();
        assert_eq!(
            diff,
            "--- left\n+++ right\n@@ -1,7 +1,7 @@ [0]\n [\n   \"\\\n-     a\\r\\n\\\n+     a\\n\\\n      b\\\n     \",\n-  \"x y\",\n+  \"x\\_y\",\n ]\n"
        );
    }

    #[test]
    fn hunks_merge_within_two_contexts_and_split_beyond() {
        let old: Vec<String> = (0..20).map(|i| i.to_string()).collect();
        let mut new = old.clone();
        new[2] = "-2".into();
        new[8] = "-8".into(); // 5 equal lines apart: one hunk with context 3
        new[18] = "-18".into(); // 9 apart: a second hunk
        let (old, new) = (
            alloc::format!("[{}]", old.join(",")),
            alloc::format!("[{}]", new.join(",")),
        );
        let text = Diff::new(&old, &new).to_string();
        let headers: Vec<&str> = text.lines().filter(|l| l.starts_with("@@")).collect();
        assert_eq!(headers, ["@@ -1,13 +1,13 @@ [2]", "@@ -17,6 +17,6 @@ [18]"]);
    }

    #[test]
    fn a_missing_final_line_feed_is_a_difference_and_is_marked() {
        let diff = LineDiff::new("a\nb\n", "a\nb").to_string();
        assert_eq!(
            diff,
            "--- left\n+++ right\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n"
        );
        let diff = LineDiff::new("x\ny", "x\nz").context(0).to_string();
        assert_eq!(
            diff,
            "--- left\n+++ right\n@@ -2 +2 @@\n-y\n\\ No newline at end of file\n+z\n\\ No newline at end of file\n"
        );
        // The value form's renderings never end in a line feed: no marker.
        assert_eq!(
            Diff::new("1", "2").to_string(),
            "--- left\n+++ right\n@@ -1 +1 @@\n-1\n+2\n"
        );
    }

    #[test]
    fn word_splitting() {
        let line = "  image: \"nginx:1.25\",";
        let words: Vec<&str> = words(line).into_iter().map(|(s, e)| &line[s..e]).collect();
        assert_eq!(
            words,
            ["  ", "image", ":", " ", "\"", "nginx", ":", "1", ".", "25", "\"", ","]
        );
    }

    #[test]
    fn line_helpers() {
        assert_eq!(split_lines("a\nb\n").collect::<Vec<_>>(), ["a\n", "b\n"]);
        assert_eq!(
            split_lines("a\n\nb").collect::<Vec<_>>(),
            ["a\n", "\n", "b"]
        );
        assert_eq!(split_lines("").count(), 0);
        assert_eq!(split_lines("\n").collect::<Vec<_>>(), ["\n"]);
        assert_eq!(lines_back("a\nb\nc\n", 2), 2);
        assert_eq!(lines_back("a\nb\n", 5), 0);
        let long: Vec<u8> = (0..1000).map(|i| (i % 7) as u8).collect();
        let mut other = long.clone();
        other[700] = 9;
        assert_eq!(common_prefix(&long, &other), 700);
        assert_eq!(common_suffix(&long, &other), 299);
        assert_eq!(common_suffix(&long[..10], &long), 0);
    }
}
