//! The README as crates.io and GitHub show it: its Rust examples run as
//! doctests (src/lib.rs includes it with `serde`), so they may hide no
//! line (a `# ` line inside a code block would be shown as code), and its
//! links are absolute, since the package's README is read away from the
//! repository.

const README: &str = include_str!("../README.md");

/// Each line inside a fenced code block, with its line number.
fn code_lines() -> Vec<(usize, &'static str)> {
    let mut inside = false;
    let mut out = Vec::new();
    for (i, line) in README.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            inside = !inside;
        } else if inside {
            out.push((i + 1, line));
        }
    }
    assert!(!inside, "a code block is not closed");
    out
}

#[test]
fn no_line_of_a_code_block_is_hidden() {
    let lines = code_lines();
    assert!(
        lines.len() > 50,
        "only {} lines in code blocks",
        lines.len()
    );
    let hidden: Vec<_> = lines
        .iter()
        .filter(|(_, l)| l.trim_start().starts_with("# ") || l.trim() == "#")
        .collect();
    assert!(hidden.is_empty(), "hidden doctest lines: {hidden:?}");
}

#[test]
fn every_link_is_absolute() {
    let mut links = 0;
    for (i, line) in README.lines().enumerate() {
        for (at, _) in line.match_indices("](") {
            let target = &line[at + 2..];
            links += 1;
            assert!(
                target.starts_with("https://"),
                "line {}: a relative link, which crates.io cannot follow: {line}",
                i + 1
            );
        }
    }
    assert!(links > 5, "only {links} links");
}

/// The pre-commit snippet names the repository the package names, at a
/// tag that docs/release.md's steps create (`v` and the version).
#[test]
fn the_pre_commit_snippet_names_the_repository_and_a_release_tag() {
    let manifest = include_str!("../Cargo.toml");
    let field = |name: &str| {
        let line = manifest
            .lines()
            .find(|l| l.starts_with(&format!("{name} = ")))
            .unwrap_or_else(|| panic!("no {name} in Cargo.toml"));
        line.split('"').nth(1).unwrap().to_string()
    };
    let snippet = format!(
        "{{repo: \"{}\", rev: \"v{}\", hooks: [{{id: \"kyaml-fmt\"}}]}}",
        field("repository"),
        field("version")
    );
    assert!(
        code_lines().iter().any(|(_, l)| l.contains(&snippet)),
        "the README's pre-commit snippet is not {snippet}"
    );
    let release = include_str!("../docs/release.md");
    assert!(
        release.contains("git tag v$version"),
        "docs/release.md tags no v$version"
    );
}
