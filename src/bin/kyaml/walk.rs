//! Which files `kyaml fmt` reads under a directory: the walk, as git sees
//! the tree. `.gitignore` files (nested, with negations) and the
//! repository's `.git/info/exclude` are honoured, then `--exclude` globs,
//! then the `exclude` of the nearest `.kyaml.yaml` (`config.rs`);
//! version control folders and `node_modules` ([`NEVER_WALKED`]), symbolic
//! links and the `templates/` folder of a Helm chart (a directory holding
//! `Chart.yaml`) are skipped. Hidden folders are walked (`.github/`,
//! `.gitlab/`: their YAML is a repository's too), as prettier and yamlfmt
//! walk them. This module also owns the glob matching of gitignore
//! patterns.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::config::Configs;

/// What a file is read as.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum FileKind {
    Yaml,
    Markdown,
}

impl FileKind {
    /// The kind of a file named on the command line: Markdown for `.md`
    /// and `.markdown`, else YAML.
    pub(crate) fn of(path: &Path) -> FileKind {
        match path.extension().and_then(|e| e.to_str()) {
            Some("md" | "markdown") => FileKind::Markdown,
            _ => FileKind::Yaml,
        }
    }
}

/// The part of a temporary file's name that `kyaml fmt -w` writes
/// (`.NAME.kyaml-tmp-…`): a walk never reads one, but lists it
/// ([`Found::temps`]).
pub(crate) const TEMP_MARK: &str = ".kyaml-tmp-";

/// The names a walk never enters: version control folders (the list
/// prettier skips: git's, Sapling's, Subversion's, Mercurial's,
/// Jujutsu's) and `node_modules` (installed packages, not the
/// repository's). A directory named on the command line is walked
/// whatever its name.
const NEVER_WALKED: [&str; 6] = [".git", ".sl", ".svn", ".hg", ".jj", "node_modules"];

/// What walks found.
#[derive(Default)]
pub(crate) struct Found {
    /// The files to read, in order.
    pub(crate) files: Vec<(PathBuf, FileKind)>,
    /// The files under walked directories whose names hold [`TEMP_MARK`]
    /// (temporary files of `-w`, or what a kill left of them), as shown.
    pub(crate) temps: Vec<PathBuf>,
    /// The files named on the command line (not `-`), as named: the
    /// temporary files beside them are looked for too (`leftover`).
    pub(crate) named: Vec<PathBuf>,
}

/// The settings of a walk.
pub(crate) struct Walk {
    /// `--exclude` globs, matched against the path as shown.
    pub(crate) excludes: Rules,
    /// Whether walks take `*.md` files too (`--markdown`).
    pub(crate) markdown: bool,
    /// The configuration files met (their `exclude` and `markdown`).
    pub(crate) configs: Configs,
}

impl Walk {
    /// Adds what `path` stands for to `found`: itself if it is not a
    /// directory (always read, whatever the rules), else the files the
    /// walk takes under it, in order. Returns how many files to read were
    /// added.
    pub(crate) fn expand(&mut self, path: &Path, found: &mut Found) -> io::Result<usize> {
        if path.as_os_str() == "-" || !fs::metadata(path)?.is_dir() {
            found.files.push((path.to_path_buf(), FileKind::of(path)));
            if path.as_os_str() != "-" {
                found.named.push(path.to_path_buf());
            }
            return Ok(1);
        }
        let root = fs::canonicalize(path)?;
        let before = found.files.len();
        let rules = inherited_rules(&root);
        self.walk_dir(&root, path, rules, found)?;
        Ok(found.files.len() - before)
    }

    /// Walks `dir` (absolute) shown as `shown`, under `rules`.
    fn walk_dir(
        &mut self,
        dir: &Path,
        shown: &Path,
        mut rules: Vec<Rc<Rules>>,
        found: &mut Found,
    ) -> io::Result<()> {
        let mut entries = fs::read_dir(dir)?.collect::<io::Result<Vec<_>>>()?;
        entries.sort_by_key(|e| e.file_name());
        // Known from the listing, without a look-up each.
        let named = |name: &str| entries.iter().any(|e| e.file_name() == name);
        if named(".gitignore") {
            if let Ok(text) = fs::read(dir.join(".gitignore")) {
                rules.push(Rc::new(Rules::parse(dir, &text)));
            }
        }
        let chart = named("Chart.yaml");
        let config = self.configs.nearest(dir).map_err(io::Error::other)?;
        let markdown = self.markdown || config.as_ref().is_some_and(|c| c.markdown);
        for entry in entries {
            let name = entry.file_name();
            let name_text = name.to_string_lossy();
            let file_type = entry.file_type()?;
            // Links are not followed: a link out of the tree is not the
            // tree's, and a target in it is met by its own name.
            if file_type.is_symlink() || NEVER_WALKED.iter().any(|n| name == *n) {
                continue;
            }
            let is_dir = file_type.is_dir();
            let path = dir.join(&name);
            let shown_path = shown.join(&name);
            if (is_dir && chart && name == "templates")
                || ignored(&rules, &path, is_dir)
                || self
                    .excludes
                    .decide(&shown_text(&shown_path), &name_text, is_dir)
                    == Some(true)
                || config.as_ref().is_some_and(|c| c.excludes(&path, is_dir))
            {
                continue;
            }
            if is_dir {
                self.walk_dir(&path, &shown_path, rules.clone(), found)?;
                continue;
            }
            if name_text.contains(TEMP_MARK) {
                if file_type.is_file() {
                    found.temps.push(shown_path);
                }
                continue;
            }
            let kind = match Path::new(&name).extension().and_then(|e| e.to_str()) {
                Some("yaml" | "yml") => FileKind::Yaml,
                Some("md") if markdown => FileKind::Markdown,
                _ => continue,
            };
            if file_type.is_file() {
                found.files.push((shown_path, kind));
            }
        }
        Ok(())
    }
}

/// A path as `--exclude` sees it: as shown, without a leading `./`.
fn shown_text(path: &Path) -> String {
    let text = path.to_string_lossy();
    match text.strip_prefix("./") {
        Some(rest) => rest.to_owned(),
        None => text.into_owned(),
    }
}

/// The rules that apply to `root` from above it: the repository's
/// `.git/info/exclude` and the `.gitignore` of each directory from the
/// repository's top down to `root`'s parent (none outside a repository).
fn inherited_rules(root: &Path) -> Vec<Rc<Rules>> {
    let Some(top) = root.ancestors().find(|dir| dir.join(".git").exists()) else {
        return Vec::new();
    };
    let mut rules = Vec::new();
    if let Ok(text) = fs::read(top.join(".git/info/exclude")) {
        rules.push(Rc::new(Rules::parse(top, &text)));
    }
    let mut above: Vec<&Path> = root
        .ancestors()
        .skip(1)
        .take_while(|d| d.starts_with(top))
        .collect();
    above.reverse();
    for dir in above {
        if let Ok(text) = fs::read(dir.join(".gitignore")) {
            rules.push(Rc::new(Rules::parse(dir, &text)));
        }
    }
    rules
}

/// Whether `path` is ignored: the last pattern that matches it, in the
/// deepest file that has one, decides.
fn ignored(rules: &[Rc<Rules>], path: &Path, is_dir: bool) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    for set in rules.iter().rev() {
        let Ok(relative) = path.strip_prefix(&set.base) else {
            continue;
        };
        if let Some(verdict) = set.decide(&relative.to_string_lossy(), &name, is_dir) {
            return verdict;
        }
    }
    false
}

/// The patterns of one `.gitignore` (or of `--exclude`), relative to
/// `base`.
#[derive(Default)]
pub(crate) struct Rules {
    base: PathBuf,
    patterns: Vec<Pattern>,
}

/// One gitignore pattern.
struct Pattern {
    glob: Vec<u8>,
    negated: bool,
    dir_only: bool,
    /// Matched against the whole relative path (it had a `/` before its
    /// end); else against the name alone, at any depth.
    anchored: bool,
}

impl Rules {
    /// Reads the patterns of a `.gitignore` in `base`.
    pub(crate) fn parse(base: &Path, text: &[u8]) -> Rules {
        let mut rules = Rules {
            base: base.to_path_buf(),
            patterns: Vec::new(),
        };
        for line in text.split(|&b| b == b'\n') {
            rules.add(line);
        }
        rules
    }

    /// Adds one line of gitignore syntax.
    pub(crate) fn add(&mut self, line: &[u8]) {
        let mut line = line.strip_suffix(b"\r").unwrap_or(line);
        // Trailing spaces go, unless escaped.
        while line.ends_with(b" ") && !line.ends_with(b"\\ ") {
            line = &line[..line.len() - 1];
        }
        if line.is_empty() || line[0] == b'#' {
            return;
        }
        let negated = line[0] == b'!';
        if negated {
            line = &line[1..];
        }
        if line.starts_with(b"\\!") || line.starts_with(b"\\#") {
            line = &line[1..];
        }
        let dir_only = line.ends_with(b"/");
        if dir_only {
            line = &line[..line.len() - 1];
        }
        let anchored = line.contains(&b'/');
        let line = line.strip_prefix(b"/").unwrap_or(line);
        if line.is_empty() {
            return;
        }
        self.patterns.push(Pattern {
            glob: line.to_vec(),
            negated,
            dir_only,
            anchored,
        });
    }

    /// `Some(true)` if the last pattern matching `relative` (whose last
    /// component is `name`) ignores it, `Some(false)` if it is a negation,
    /// `None` if none matches.
    pub(crate) fn decide(&self, relative: &str, name: &str, is_dir: bool) -> Option<bool> {
        self.patterns.iter().rev().find_map(|p| {
            if p.dir_only && !is_dir {
                return None;
            }
            let text = if p.anchored { relative } else { name };
            glob_match(&p.glob, text.as_bytes()).then_some(!p.negated)
        })
    }
}

/// Whether `text` matches the gitignore glob `glob`: `*` and `?` never
/// match `/`, `**/` matches any number of whole directories, a trailing
/// `/**` everything inside, `[a-z]`, `[!x]` classes, `\` escapes.
pub(crate) fn glob_match(glob: &[u8], text: &[u8]) -> bool {
    match glob {
        [] => text.is_empty(),
        [b'*', b'*'] => true,
        [b'*', b'*', b'/', rest @ ..] => {
            let mut text = text;
            loop {
                if glob_match(rest, text) {
                    return true;
                }
                match text.iter().position(|&b| b == b'/') {
                    Some(slash) => text = &text[slash + 1..],
                    None => return false,
                }
            }
        }
        [b'*', rest @ ..] => {
            for i in 0..=text.len() {
                if glob_match(rest, &text[i..]) {
                    return true;
                }
                if text.get(i) == Some(&b'/') {
                    return false;
                }
            }
            false
        }
        [b'?', rest @ ..] => match text {
            [c, tail @ ..] if *c != b'/' => glob_match(rest, tail),
            _ => false,
        },
        [b'[', class @ ..] => {
            let Some((&c, tail)) = text.split_first() else {
                return false;
            };
            match class_match(class, c) {
                Some((matched, rest)) => matched && c != b'/' && glob_match(rest, tail),
                // No closing `]`: a literal `[`.
                None => c == b'[' && glob_match(class, tail),
            }
        }
        [b'\\', c, rest @ ..] => text.first() == Some(c) && glob_match(rest, &text[1..]),
        [c, rest @ ..] => text.first() == Some(c) && glob_match(rest, &text[1..]),
    }
}

/// Whether `c` is in the class that `class` starts (just past its `[`),
/// and the glob after the class; `None` if the class is not closed.
fn class_match(class: &[u8], c: u8) -> Option<(bool, &[u8])> {
    let (negated, mut at) = match class.first() {
        Some(b'!' | b'^') => (true, 1),
        _ => (false, 0),
    };
    let mut found = false;
    let mut first = true;
    while at < class.len() {
        let b = class[at];
        if b == b']' && !first {
            return Some((found != negated, &class[at + 1..]));
        }
        first = false;
        if at + 2 < class.len() && class[at + 1] == b'-' && class[at + 2] != b']' {
            found |= (b..=class[at + 2]).contains(&c);
            at += 3;
        } else {
            found |= b == c;
            at += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_as_git_does() {
        let yes = [
            ("*.yaml", "a.yaml"),
            ("a/**/b", "a/b"),
            ("a/**/b", "a/x/y/b"),
            ("**/gen", "x/gen"),
            ("**/gen", "gen"),
            ("a/**", "a/b/c"),
            ("zz_*.yaml", "zz_generated.yaml"),
            ("[a-c]?.yml", "bx.yml"),
            ("[!a]", "b"),
            ("\\#x", "#x"),
        ];
        for (glob, text) in yes {
            assert!(
                glob_match(glob.as_bytes(), text.as_bytes()),
                "{glob} {text}"
            );
        }
        let no = [
            ("*.yaml", "a/b.yaml"),
            ("a/**/b", "a/bc"),
            ("a/**", "a"),
            ("?", "/"),
            ("[!a]", "a"),
            ("a*", "b/a"),
        ];
        for (glob, text) in no {
            assert!(
                !glob_match(glob.as_bytes(), text.as_bytes()),
                "{glob} {text}"
            );
        }
    }

    #[test]
    fn the_last_matching_pattern_decides() {
        let rules = Rules::parse(Path::new(""), b"*.yaml\n!keep.yaml\n/top/\n# c\nbuild/\n");
        assert_eq!(rules.decide("x/a.yaml", "a.yaml", false), Some(true));
        assert_eq!(rules.decide("x/keep.yaml", "keep.yaml", false), Some(false));
        assert_eq!(rules.decide("top", "top", true), Some(true));
        assert_eq!(rules.decide("x/top", "top", true), None);
        assert_eq!(rules.decide("build", "build", false), None);
        assert_eq!(rules.decide("a/build", "build", true), Some(true));
    }
}
