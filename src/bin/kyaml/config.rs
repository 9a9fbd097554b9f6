//! `kyaml fmt`'s configuration file, `.kyaml.yaml`: found by walking up
//! from each file's directory (the nearest one applies, whole), read with
//! kyaml's own YAML reader, and what it says about one file ([`Applied`]).
//!
//! ```yaml
//! exclude: ["vendor/**", "*.generated.yaml"]   # gitignore globs
//! markdown: true                               # walks take *.md pages
//! schema: {".github/**": yaml-1.2, "deploy/**": kubectl}
//! ```
//!
//! Globs are gitignore patterns relative to the configuration's directory
//! (`walk::Rules`); in `schema`, the last glob that matches decides, and
//! `schema: NAME` alone covers every file. A bad configuration is an error
//! at its `FILE:LINE:COLUMN`.

use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::cli;
use crate::walk::Rules;

/// The file name looked for.
pub(crate) const FILE_NAME: &str = ".kyaml.yaml";

/// One configuration file, read.
pub(crate) struct Config {
    /// Where it is, as found.
    pub(crate) path: PathBuf,
    exclude: Rules,
    /// Each glob with its schema, in order (the last match decides).
    schemas: Vec<(String, Rules, kyaml::Schema)>,
    pub(crate) markdown: bool,
}

/// What applies to one file.
pub(crate) struct Applied {
    pub(crate) config: Option<Rc<Config>>,
    /// The configuration excludes it.
    pub(crate) excluded: bool,
    /// The schema the configuration names for it, and the glob that did.
    pub(crate) schema: Option<(kyaml::Schema, String)>,
}

/// The configurations met so far, by directory.
#[derive(Default)]
pub(crate) struct Configs {
    by_dir: HashMap<PathBuf, Option<Rc<Config>>>,
}

impl Configs {
    /// The configuration nearest the directory `dir` (absolute): its own
    /// `.kyaml.yaml`, or its parent's nearest. `Err` is the message of a
    /// bad one (`FILE:LINE:COLUMN: ...`).
    pub(crate) fn nearest(&mut self, dir: &Path) -> Result<Option<Rc<Config>>, String> {
        if let Some(found) = self.by_dir.get(dir) {
            return Ok(found.clone());
        }
        let file = dir.join(FILE_NAME);
        let found = match fs::read(&file) {
            Ok(text) => Some(Rc::new(Config::parse(dir, &file, &text)?)),
            Err(e)
                if e.kind() == io::ErrorKind::NotFound
                    || e.kind() == io::ErrorKind::NotADirectory =>
            {
                match dir.parent() {
                    Some(parent) => self.nearest(parent)?,
                    None => None,
                }
            }
            Err(e) => {
                return Err(format!(
                    "{}: cannot read: {}",
                    shown(&file),
                    cli::in_words(&e)
                ))
            }
        };
        self.by_dir.insert(dir.to_path_buf(), found.clone());
        Ok(found)
    }

    /// What applies to `file` (as named: relative to the working
    /// directory, or absolute), which `is_dir` says is a directory.
    pub(crate) fn applied(&mut self, file: &Path, is_dir: bool) -> Result<Applied, String> {
        let absolute = absolute(file);
        let dir = match is_dir {
            true => absolute.as_path(),
            false => absolute.parent().unwrap_or(Path::new("/")),
        };
        let config = self.nearest(dir)?;
        let (excluded, schema) = match &config {
            Some(c) => (c.excludes(&absolute, is_dir), c.schema_of(&absolute)),
            None => (false, None),
        };
        Ok(Applied {
            config,
            excluded,
            schema,
        })
    }
}

/// A configuration file's path as messages show it: relative to the
/// working directory when it is under it.
pub(crate) fn shown(path: &Path) -> String {
    let cwd = std::env::current_dir()
        .ok()
        .and_then(|d| fs::canonicalize(d).ok());
    match cwd.as_deref().and_then(|cwd| path.strip_prefix(cwd).ok()) {
        Some(relative) => cli::display_name(relative),
        None => cli::display_name(path),
    }
}

/// `path` made absolute without resolving links (the parent directory is
/// canonicalized where it exists, so `..` and links above it resolve).
pub(crate) fn absolute(path: &Path) -> PathBuf {
    let joined = match path.is_absolute() {
        true => path.to_path_buf(),
        false => std::env::current_dir().unwrap_or_default().join(path),
    };
    match (joined.parent(), joined.file_name()) {
        (Some(parent), Some(name)) => match fs::canonicalize(parent) {
            Ok(parent) => parent.join(name),
            Err(_) => joined,
        },
        _ => fs::canonicalize(&joined).unwrap_or(joined),
    }
}

impl Config {
    /// Whether the configuration's `exclude` leaves out `path` (absolute):
    /// the path itself or one of its directories up to the configuration's.
    pub(crate) fn excludes(&self, path: &Path, is_dir: bool) -> bool {
        let base = self.path.parent().unwrap_or(Path::new("/"));
        let Ok(relative) = path.strip_prefix(base) else {
            return false;
        };
        let mut so_far = PathBuf::new();
        let parts: Vec<_> = relative.components().collect();
        for (i, part) in parts.iter().enumerate() {
            so_far.push(part);
            let last = i + 1 == parts.len();
            let name = part.as_os_str().to_string_lossy();
            let verdict = self
                .exclude
                .decide(&so_far.to_string_lossy(), &name, !last || is_dir);
            if verdict == Some(true) {
                return true;
            }
        }
        false
    }

    /// The schema the configuration names for the file `path` (absolute),
    /// with the glob that named it.
    pub(crate) fn schema_of(&self, path: &Path) -> Option<(kyaml::Schema, String)> {
        let base = self.path.parent().unwrap_or(Path::new("/"));
        let relative = path.strip_prefix(base).ok()?;
        let name = relative.file_name()?.to_string_lossy();
        let relative = relative.to_string_lossy();
        self.schemas
            .iter()
            .rev()
            .find(|(_, rules, _)| rules.decide(&relative, &name, false) == Some(true))
            .map(|(glob, _, schema)| (*schema, glob.clone()))
    }

    /// Reads the configuration `text` of the file `file` in `dir`.
    fn parse(dir: &Path, file: &Path, text: &[u8]) -> Result<Config, String> {
        let name = shown(file);
        let at = |needle: &str, why: &str| {
            let (line, column) = position_of(text, needle);
            format!("{name}:{line}:{column}: {why}")
        };
        let opts = kyaml::Options::new()
            .input(kyaml::Input::Yaml)
            .compact(true);
        let mut compact = Vec::new();
        let mut warnings = Vec::new();
        if let Err(e) = opts.to_writer_with_warnings(&mut compact, text, &mut warnings) {
            return Err(match cli::invalid(&e) {
                Some(err) => format!("{name}:{}:{}: {}", err.line(), err.column(), err.message()),
                None => format!("{name}: {}", cli::in_words(&e)),
            });
        }
        let compact = String::from_utf8_lossy(&compact);
        let documents: Vec<&str> = compact.lines().filter(|l| *l != "---").collect();
        let top = match documents.as_slice() {
            [] | ["null"] => Data::Map(Vec::new()),
            [one] => Data::parse(one).ok_or_else(|| at("", "cannot read this configuration"))?,
            _ => return Err(at("---", "a configuration is one document")),
        };
        let Data::Map(entries) = top else {
            return Err(at(
                "",
                "a configuration is a map (`exclude:`, `schema:`, `markdown:`)",
            ));
        };
        let mut config = Config {
            path: file.to_path_buf(),
            exclude: Rules::parse(dir, b""),
            schemas: Vec::new(),
            markdown: false,
        };
        for (key, value) in entries {
            match (key.as_str(), value) {
                ("exclude", Data::List(globs)) => {
                    for glob in globs {
                        let Data::Str(glob) = glob else {
                            return Err(at("exclude", "`exclude` is a list of globs (strings)"));
                        };
                        config.exclude.add(glob.as_bytes());
                    }
                }
                ("exclude", Data::Str(glob)) => config.exclude.add(glob.as_bytes()),
                ("exclude", _) => return Err(at("exclude", "`exclude` is a list of globs")),
                ("markdown", Data::Bool(on)) => config.markdown = on,
                ("markdown", _) => return Err(at("markdown", "`markdown` is true or false")),
                ("schema", Data::Str(schema)) => {
                    let schema = schema_named(&schema).ok_or_else(|| at(&schema, SCHEMAS))?;
                    config
                        .schemas
                        .push(("**".into(), glob_rules(dir, "**"), schema));
                }
                ("schema", Data::Map(globs)) => {
                    for (glob, schema) in globs {
                        let schema = match schema {
                            Data::Str(s) => schema_named(&s).ok_or_else(|| at(&s, SCHEMAS))?,
                            _ => return Err(at(&glob, SCHEMAS)),
                        };
                        config
                            .schemas
                            .push((glob.clone(), glob_rules(dir, &glob), schema));
                    }
                }
                ("schema", _) => {
                    return Err(at(
                        "schema",
                        "`schema` is a schema name, or a map of globs to schema names",
                    ))
                }
                (other, _) => {
                    return Err(at(
                        other,
                        &format!(
                        "unknown setting `{other}` (the settings are exclude, schema and markdown)"
                    ),
                    ))
                }
            }
        }
        Ok(config)
    }
}

const SCHEMAS: &str = "a schema is kubectl or yaml-1.2";

fn schema_named(name: &str) -> Option<kyaml::Schema> {
    match name {
        "kubectl" => Some(kyaml::Schema::Kubectl),
        "yaml-1.2" => Some(kyaml::Schema::Yaml12),
        _ => None,
    }
}

/// The rules of one glob, relative to `dir`.
fn glob_rules(dir: &Path, glob: &str) -> Rules {
    let mut rules = Rules::parse(dir, b"");
    rules.add(glob.as_bytes());
    rules
}

/// The 1-based line and column of the first line of `text` that holds
/// `needle` (as a key, a value, or anywhere); 1:1 if none does.
fn position_of(text: &[u8], needle: &str) -> (usize, usize) {
    let text = String::from_utf8_lossy(text);
    if !needle.is_empty() {
        for (i, line) in text.lines().enumerate() {
            if line.trim_start().starts_with('#') {
                continue;
            }
            if let Some(at) = line.find(needle) {
                // Back to an opening quote, if any.
                let at = match line[..at].ends_with('"') || line[..at].ends_with('\'') {
                    true => at - 1,
                    false => at,
                };
                return (i + 1, line[..at].chars().count() + 1);
            }
        }
    }
    (1, 1)
}

/// The data of a configuration, read from its compact KYAML rendering
/// (one line: kyaml's own writer, so its spelling is known).
#[derive(Debug, PartialEq)]
pub(crate) enum Data {
    Null,
    Bool(bool),
    /// A number, as written.
    Number(String),
    Str(String),
    List(Vec<Data>),
    Map(Vec<(String, Data)>),
}

impl Data {
    /// Reads one compact KYAML value (all of `text`).
    pub(crate) fn parse(text: &str) -> Option<Data> {
        let mut reader = Reader {
            bytes: text.as_bytes(),
            at: 0,
        };
        let data = reader.value()?;
        (reader.at == reader.bytes.len()).then_some(data)
    }
}

/// A reader of compact KYAML: `{k: v, "k": v}`, `[a, b]`, `"string"`
/// (JSON escapes and `\xXX`), `true`, `false`, `null`, numbers.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn eat(&mut self, text: &str) -> bool {
        let found = self.bytes[self.at..].starts_with(text.as_bytes());
        if found {
            self.at += text.len();
        }
        found
    }

    fn value(&mut self) -> Option<Data> {
        match self.peek()? {
            b'{' => {
                self.at += 1;
                let mut entries = Vec::new();
                while !self.eat("}") {
                    if !entries.is_empty() && !self.eat(", ") {
                        return None;
                    }
                    let key = match self.peek()? {
                        b'"' => self.string()?,
                        _ => {
                            let start = self.at;
                            while self.peek().is_some_and(|b| b != b':') {
                                self.at += 1;
                            }
                            String::from_utf8_lossy(&self.bytes[start..self.at]).into_owned()
                        }
                    };
                    if !self.eat(": ") {
                        return None;
                    }
                    entries.push((key, self.value()?));
                }
                Some(Data::Map(entries))
            }
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                while !self.eat("]") {
                    if !items.is_empty() && !self.eat(", ") {
                        return None;
                    }
                    items.push(self.value()?);
                }
                Some(Data::List(items))
            }
            b'"' => self.string().map(Data::Str),
            _ if self.eat("true") => Some(Data::Bool(true)),
            _ if self.eat("false") => Some(Data::Bool(false)),
            _ if self.eat("null") => Some(Data::Null),
            _ => {
                let start = self.at;
                while self
                    .peek()
                    .is_some_and(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
                {
                    self.at += 1;
                }
                let number = std::str::from_utf8(&self.bytes[start..self.at]).ok()?;
                (!number.is_empty()).then(|| Data::Number(number.to_owned()))
            }
        }
    }

    /// A double-quoted string, its escapes decoded.
    fn string(&mut self) -> Option<String> {
        self.at += 1;
        let mut out = Vec::new();
        loop {
            match self.peek()? {
                b'"' => {
                    self.at += 1;
                    return String::from_utf8(out).ok();
                }
                b'\\' => {
                    self.at += 1;
                    let escape = self.peek()?;
                    self.at += 1;
                    let simple = match escape {
                        b'"' => Some(b'"'),
                        b'\\' => Some(b'\\'),
                        b'/' => Some(b'/'),
                        b'n' => Some(b'\n'),
                        b't' => Some(b'\t'),
                        b'r' => Some(b'\r'),
                        b'b' => Some(8),
                        b'f' => Some(12),
                        b'0' => Some(0),
                        _ => None,
                    };
                    if let Some(b) = simple {
                        out.push(b);
                        continue;
                    }
                    let digits = match escape {
                        b'x' => 2,
                        b'u' => 4,
                        b'U' => 8,
                        _ => return None,
                    };
                    let hex =
                        std::str::from_utf8(self.bytes.get(self.at..self.at + digits)?).ok()?;
                    self.at += digits;
                    let c = char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
                    out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                }
                b => {
                    out.push(b);
                    self.at += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_kyaml_reads_back() {
        let text = r#"{a: [1, "x\"y\u00e9"], "b c": {d: true, e: null}, f: -1.5e+3}"#;
        let want = Data::Map(vec![
            (
                "a".into(),
                Data::List(vec![Data::Number("1".into()), Data::Str("x\"yé".into())]),
            ),
            (
                "b c".into(),
                Data::Map(vec![
                    ("d".into(), Data::Bool(true)),
                    ("e".into(), Data::Null),
                ]),
            ),
            ("f".into(), Data::Number("-1.5e+3".into())),
        ]);
        assert_eq!(Data::parse(text), Some(want));
        assert_eq!(Data::parse("{a: 1"), None);
    }

    #[test]
    fn a_configuration_names_schemas_by_glob_and_excludes() {
        let dir = Path::new("/repo");
        let text = b"exclude: [vendor, '*.gen.yaml']\nschema:\n  .github/**: yaml-1.2\n  values.yaml: kubectl\nmarkdown: true\n";
        let config = Config::parse(dir, &dir.join(FILE_NAME), text).unwrap();
        assert!(config.markdown);
        assert!(config.excludes(Path::new("/repo/vendor/x/a.yaml"), false));
        assert!(config.excludes(Path::new("/repo/a/b.gen.yaml"), false));
        assert!(!config.excludes(Path::new("/repo/a/b.yaml"), false));
        let schema = |p: &str| config.schema_of(Path::new(p)).map(|(s, _)| s);
        assert_eq!(
            schema("/repo/.github/workflows/ci.yml"),
            Some(kyaml::Schema::Yaml12)
        );
        assert_eq!(
            schema("/repo/charts/web/values.yaml"),
            Some(kyaml::Schema::Kubectl)
        );
        assert_eq!(schema("/repo/deploy/a.yaml"), None);
    }

    #[test]
    fn a_bad_configuration_names_its_place() {
        let dir = Path::new("/repo");
        let file = dir.join(FILE_NAME);
        let err = |text: &str| Config::parse(dir, &file, text.as_bytes()).err().unwrap();
        assert_eq!(
            err("exclude: [a]\nschema:\n  x/**: yaml-1.1\n"),
            "/repo/.kyaml.yaml:3:9: a schema is kubectl or yaml-1.2"
        );
        assert_eq!(
            err("# c\nexlude: [a]\n"),
            "/repo/.kyaml.yaml:2:1: unknown setting `exlude` (the settings are exclude, schema and markdown)"
        );
        assert!(err("markdown: [\n").starts_with("/repo/.kyaml.yaml:2:1: expected a node"));
    }
}
