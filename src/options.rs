//! What a rendering is asked to do: [`Options`] and the choices it holds
//! ([`Form`], [`Input`], [`Schema`], the [`MAX_DEPTH`] ceiling).
//!
//! Plain data with setters and getters, below every module that reads it
//! (the encoder, the emitter, the readers, diff, the serde driver). The
//! entry points that run a rendering (`Options::to_fmt`, `to_string`, ...)
//! are in `lib.rs`, beside the free functions they back; what a [`Schema`]
//! means for a plain scalar is in `scan/resolve/plain.rs`.

/// Which reading of YAML's plain (unquoted) scalars applies
/// ([`Options::schema`](crate::Options::schema)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Schema {
    /// kubectl's (go-yaml v2, YAML 1.1 flavoured): `yes`/`on` are booleans,
    /// `0777` is octal, `_` separates digits, `.inf` is refused.
    Kubectl,
    /// The YAML 1.2 core schema.
    Yaml12,
}

/// The deepest nesting of containers any [`Options`] allows.
///
/// ```
/// assert_eq!(kyaml::Options::new().max_depth(1 << 20), kyaml::Options::new().max_depth(kyaml::MAX_DEPTH));
/// ```
pub const MAX_DEPTH: usize = 4096;

/// What a rendering looks like around its value.
///
/// ```
/// use kyaml::{Form, Options};
/// let value = Options::new().form(Form::Value).to_string("[1]")?;
/// assert_eq!(value, "[\n  1,\n]");
/// # Ok::<(), kyaml::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Form {
    /// A `---` header and a final line feed around every document; a stream
    /// of JSON values (concatenated, or JSON Lines) becomes a multi-document
    /// stream. What `kubectl get -o kyaml` prints.
    #[default]
    Document,
    /// Exactly one value, no header, no final line feed: for embedding in
    /// logs and messages.
    Value,
}

/// The language of the input.
///
/// **YAML needs the `alloc` feature** (on by default, and with `std`):
/// without it `Input::Yaml` does not exist (the compiler says "no variant
/// named `Yaml`"); turn on `alloc` (`default-features = false, features =
/// ["alloc"]` for a `no_std` build with an allocator).
///
/// ```
/// use kyaml::{Input, Options};
/// let opts = Options::new().input(Input::Yaml).compact(true);
/// assert_eq!(opts.to_string("a: on\nb: 0x1F\n")?, "---\n{a: true, b: 31}\n");
/// # Ok::<(), kyaml::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Input {
    /// JSON: one value, a stream of values, or JSON Lines (the default).
    /// Byte-exact strings and numbers, and the fastest path.
    #[default]
    Json,
    /// YAML 1.2 syntax (block and flow style, KYAML itself, many
    /// documents), read as data by the [`Schema`] chosen. Needs the
    /// `alloc` feature: the reader keeps a document's events (to expand
    /// aliases and merge keys); every entry point that takes `Options`
    /// then allocates, `to_fmt` included.
    #[cfg(feature = "alloc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
    Yaml,
}

/// How to render: [`Form`], compact or regular, and the depth limit.
///
/// A small `Copy` value with chained setters; [`Options::new`] is the
/// default: document form, regular layout, depth limit 1,000.
///
/// ```
/// use kyaml::Options;
/// let opts = Options::new().compact(true);
/// assert_eq!(opts.to_string(r#"{"a": [1, 2]}"#)?, "---\n{a: [1, 2]}\n");
/// # Ok::<(), kyaml::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    form: Form,
    compact: bool,
    max_depth: usize,
    input: Input,
    schema: Schema,
    comments: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options::new()
    }
}

impl Options {
    /// The default options: document form, regular layout, depth limit 1,000.
    ///
    /// ```
    /// assert_eq!(kyaml::Options::new(), kyaml::Options::default());
    /// ```
    pub const fn new() -> Options {
        Options {
            form: Form::Document,
            compact: false,
            max_depth: 1000,
            input: Input::Json,
            schema: Schema::Kubectl,
            comments: true,
        }
    }

    /// Document form (the default) or value form.
    ///
    /// ```
    /// let opts = kyaml::Options::new().form(kyaml::Form::Value);
    /// assert_eq!(opts.to_string("true")?, "true");
    /// # Ok::<(), kyaml::Error>(())
    /// ```
    pub const fn form(mut self, form: Form) -> Options {
        self.form = form;
        self
    }

    /// Everything on one line (`{a: 1, b: [2, 3]}`) instead of one member
    /// per line.
    ///
    /// ```
    /// let opts = kyaml::Options::new().compact(true).form(kyaml::Form::Value);
    /// assert_eq!(opts.to_string("[{\"a\":\"x\\ny\"}]")?, "[{a: \"x\\ny\"}]");
    /// # Ok::<(), kyaml::Error>(())
    /// ```
    pub const fn compact(mut self, compact: bool) -> Options {
        self.compact = compact;
        self
    }

    /// The deepest nesting of containers accepted (default 1,000; at most
    /// [`MAX_DEPTH`], larger values count as `MAX_DEPTH`). Deeper input is
    /// an [`ErrorKind::TooDeep`](crate::ErrorKind::TooDeep) error, never a stack overflow.
    ///
    /// ```
    /// let opts = kyaml::Options::new().max_depth(2);
    /// assert!(opts.to_string("[[1]]").is_ok());
    /// assert_eq!(opts.to_string("[[[1]]]").unwrap_err().kind(), kyaml::ErrorKind::TooDeep);
    /// ```
    pub const fn max_depth(mut self, depth: usize) -> Options {
        self.max_depth = if depth > MAX_DEPTH { MAX_DEPTH } else { depth };
        self
    }

    /// The input language: [`Input::Json`] (the default) or `Input::Yaml`
    /// (with `alloc`).
    ///
    /// ```
    /// let opts = kyaml::Options::new().input(kyaml::Input::Json);
    /// assert_eq!(opts.input_language(), kyaml::Input::Json);
    /// ```
    pub const fn input(mut self, input: Input) -> Options {
        self.input = input;
        self
    }

    /// How YAML input's plain scalars read ([`Schema::Kubectl`], the
    /// default, or [`Schema::Yaml12`]); JSON input is unaffected.
    ///
    /// ```
    /// use kyaml::{Input, Options, Schema};
    /// let opts = Options::new().input(Input::Yaml).compact(true).form(kyaml::Form::Value);
    /// assert_eq!(opts.to_string("[yes, 0777]")?, "[true, 511]");
    /// assert_eq!(opts.schema(Schema::Yaml12).to_string("[yes, 0777]")?, "[\"yes\", 777]");
    /// # Ok::<(), kyaml::Error>(())
    /// ```
    pub const fn schema(mut self, schema: Schema) -> Options {
        self.schema = schema;
        self
    }

    /// Whether YAML input's comments and blank lines are written (the
    /// default; the regular form only: the compact one has no room for
    /// them).
    ///
    /// ```
    /// use kyaml::{Input, Options};
    /// let opts = Options::new().input(Input::Yaml);
    /// assert_eq!(opts.to_string("a: 1 # one\n")?, "---\n{\n  a: 1, # one\n}\n");
    /// assert_eq!(opts.comments(false).to_string("a: 1 # one\n")?, "---\n{\n  a: 1,\n}\n");
    /// # Ok::<(), kyaml::Error>(())
    /// ```
    pub const fn comments(mut self, on: bool) -> Options {
        self.comments = on;
        self
    }

    // The getters: each names the setting its setter sets, as a noun
    // phrase (`depth_limit` for `max_depth`, `compact_layout` for `compact`).

    /// The form chosen.
    ///
    /// ```
    /// assert_eq!(kyaml::Options::new().output_form(), kyaml::Form::Document);
    /// ```
    pub const fn output_form(&self) -> Form {
        self.form
    }

    /// Whether the compact layout is chosen.
    ///
    /// ```
    /// assert!(!kyaml::Options::new().compact_layout());
    /// ```
    pub const fn compact_layout(&self) -> bool {
        self.compact
    }

    /// The depth limit.
    ///
    /// ```
    /// assert_eq!(kyaml::Options::new().depth_limit(), 1000);
    /// ```
    pub const fn depth_limit(&self) -> usize {
        self.max_depth
    }

    /// The input language chosen (see [`Options::input`]).
    pub const fn input_language(&self) -> Input {
        self.input
    }

    /// The schema chosen.
    ///
    /// ```
    /// assert_eq!(kyaml::Options::new().yaml_schema(), kyaml::Schema::Kubectl);
    /// ```
    pub const fn yaml_schema(&self) -> Schema {
        self.schema
    }

    /// Whether YAML input's comments and blank lines are written (see
    /// [`Options::comments`]).
    ///
    /// ```
    /// assert!(kyaml::Options::new().comment_output());
    /// assert!(!kyaml::Options::new().comments(false).comment_output());
    /// ```
    pub const fn comment_output(&self) -> bool {
        self.comments
    }
}
