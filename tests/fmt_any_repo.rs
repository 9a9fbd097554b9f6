//! `kyaml fmt -w` on a repository that is not only Kubernetes manifests
//! (SPEC-YAML.md §8): a workflow and a dependabot file in `.github/`, a
//! compose file, `.codecov.yml`, `mkdocs.yml` with a Python tag,
//! `.gitlab-ci.yml` with anchors and a merge, a Helm chart (its values and
//! a template), a kustomization and manifests. Kubernetes objects are read
//! as kubectl reads them; every other file is either left byte for byte
//! as written (with one line saying why) or reads as the same data under
//! PyYAML (YAML 1.1) and ruamel.yaml (YAML 1.2), checked by
//! `tools/same_data.py` when both are importable. Three ways of running
//! are held to the same outcome: the walk (`fmt -w .`, which enters hidden
//! folders), the hooks of `.pre-commit-hooks.yaml` as pre-commit calls them
//! (their entry and the files their `types` and `exclude` select, named),
//! and pre-commit itself when it is installed.

use std::fs;
use std::path::Path;
use std::process::Command;

mod common;
use common::{kyaml, text, Dir};

const WORKFLOW: &str = "\
name: ci
on:
  push:
    branches: [main]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: cargo test
";
const COMPOSE: &str = "\
services:
  ssh:
    image: alpine:3.20
    ports:
      - 22:22
";
const CODECOV: &str = "\
codecov:
  require_ci_to_pass: yes
coverage:
  mode: 0644
";
const MKDOCS: &str = "\
site_name: docs
markdown_extensions:
  - pymdownx.emoji:
      emoji_index: !!python/name:material.extensions.emoji.twemoji
";
const GITLAB: &str = "\
.defaults: &defaults
  image: rust:1.87
  tags: [docker]
test:
  <<: *defaults
  script: [cargo test]
";
const VALUES: &str = "\
# Default values.
replicaCount: 2
image:
  repository: nginx # the image
  tag: \"1.27\"
";
const KUSTOMIZATION: &str = "\
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - deploy.yaml
";
const MANIFEST: &str = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: flags
data:
  enabled: on
---
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  volumes:
    - name: config
      configMap:
        name: flags
        defaultMode: 0777
";

/// pre-commit's own configuration, as tekton-pipeline's has it: `\\/` in
/// double quotes, which PyYAML (pre-commit's reader) and YAML 1.2 read as
/// `/` and kubectl refuses.
const PRE_COMMIT_CONFIG: &str = "\
repos:
  - repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v4.6.0
    hooks:
      - id: detect-private-key
        exclude: \"^examples\\/private.yaml$\"
";

/// The files left as written, with the start of the line that says why.
const LEFT: [(&str, &str); 6] = [
    (".pre-commit-config.yaml", ".pre-commit-config.yaml:6:28: left as written: only kubectl's reading refuses it, and this file is not Kubernetes objects: expected '/' without a backslash"),
    (".codecov.yml", ".codecov.yml:2:23: left as written: plain scalar 'yes' is the boolean true under schema kubectl but the string \"yes\" under yaml-1.2; quote it to keep the string, or set its schema"),
    (".github/workflows/ci.yml", ".github/workflows/ci.yml:2:1: left as written: plain scalar 'on' is the boolean true under schema kubectl"),
    (".gitlab-ci.yml", ".gitlab-ci.yml:5:3: left as written: merge key `<<` merged"),
    ("docker-compose.yml", "docker-compose.yml:5:9: left as written: plain scalar '22:22' is a base-60 number to YAML 1.1 readers such as PyYAML"),
    ("mkdocs.yml", "mkdocs.yml:4:20: left as written: tag !!python/name:material.extensions.emoji.twemoji dropped"),
];

const DEPENDABOT: &str = "\
version: 2
updates:
  - package-ecosystem: cargo # crates
    directory: /
    schedule:
      interval: weekly
";
const CHART: &str = "apiVersion: v2\nname: web\nversion: 0.1.0\n";
/// A Helm template: Go template text, not YAML.
const TEMPLATE: &str = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
";

fn repository(dir: &Dir) {
    dir.write(".github/workflows/ci.yml", WORKFLOW);
    dir.write(".github/dependabot.yml", DEPENDABOT);
    dir.write("docker-compose.yml", COMPOSE);
    dir.write(".codecov.yml", CODECOV);
    dir.write(".pre-commit-config.yaml", PRE_COMMIT_CONFIG);
    dir.write("mkdocs.yml", MKDOCS);
    dir.write(".gitlab-ci.yml", GITLAB);
    dir.write("charts/web/Chart.yaml", CHART);
    dir.write("charts/web/values.yaml", VALUES);
    dir.write("charts/web/templates/deploy.yaml", TEMPLATE);
    dir.write("deploy/kustomization.yaml", KUSTOMIZATION);
    dir.write("deploy/deploy.yaml", MANIFEST);
}

/// Every file under `dir`, relative to it, sorted (as `git ls-files`
/// lists a repository's files for pre-commit).
fn files(dir: &Path) -> Vec<String> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, base, out);
            } else {
                let rel = path.strip_prefix(base).unwrap();
                out.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Runs `tools/same_data.py BEFORE AFTER`: `None` (said) when PyYAML or
/// ruamel.yaml cannot be imported.
fn same_data(before: &Path, after: &Path) -> Option<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/same_data.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(before)
        .arg(after)
        .arg("--comments")
        .output();
    let out = match out {
        Ok(out) if out.status.code() != Some(77) => out,
        _ => {
            println!("skipped the data check: python3 with PyYAML and ruamel.yaml is needed (pip install pyyaml ruamel.yaml)");
            return None;
        }
    };
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "data changed:\n{report}");
    Some(report)
}

/// What one run over the scratch repository left: for each file named in
/// `LEFT`, the bytes as written and a line saying why (`output` holds
/// the run's standard error); the rest formatted, the Helm template
/// untouched.
fn check_outcome(before: &Dir, after: &Dir, output: &str) {
    for (file, why) in LEFT {
        assert_eq!(
            after.read(file),
            before.read(file),
            "{file} is left as written"
        );
        assert!(
            output
                .lines()
                .any(|l| l.trim_start_matches("./").starts_with(why)),
            "{file}: {why}\nin:\n{output}"
        );
    }
    // In a hidden folder, reached and formatted: both readings agree.
    assert_eq!(
        after.read(".github/dependabot.yml"),
        "---\n{\n  version: 2,\n  updates: [{\n    package-ecosystem: \"cargo\", # crates\n    directory: \"/\",\n    schedule: {\n      interval: \"weekly\",\n    },\n  }],\n}\n"
    );
    // Helm: the chart and its values formatted, comments kept; the
    // template (Go template text) never read.
    assert_eq!(
        after.read("charts/web/Chart.yaml"),
        "---\n{\n  apiVersion: \"v2\",\n  name: \"web\",\n  version: \"0.1.0\",\n}\n"
    );
    let values = after.read("charts/web/values.yaml");
    assert_eq!(
        values,
        "---\n{\n  # Default values.\n  replicaCount: 2,\n  image: {\n    repository: \"nginx\", # the image\n    tag: \"1.27\",\n  },\n}\n"
    );
    assert_eq!(after.read("charts/web/templates/deploy.yaml"), TEMPLATE);
    assert!(!output.contains("templates/deploy.yaml"), "{output}");
    // The manifests: kubectl's reading (`on` is true, `0777` is 511),
    // with its warnings.
    let manifest = after.read("deploy/deploy.yaml");
    assert!(manifest.contains("    enabled: true,\n"), "{manifest}");
    assert!(manifest.contains("defaultMode: 511,\n"), "{manifest}");
    assert!(
        output.contains("deploy.yaml:6:12: warning: plain scalar 'on'"),
        "{output}"
    );
    let kustomization = after.read("deploy/kustomization.yaml");
    assert!(
        kustomization.starts_with("---\n{\n  apiVersion: \"kustomize.config.k8s.io/v1beta1\",\n")
    );
    if let Some(report) = same_data(&before.0, &after.0) {
        println!("{report}");
    }
}

/// The names `--check` lists (a leading `./` dropped), sorted.
fn listed(stdout: &[u8]) -> Vec<&str> {
    let mut listed: Vec<&str> = text(stdout)
        .lines()
        .map(|l| l.trim_start_matches("./"))
        .collect();
    listed.sort();
    listed
}

/// The files of `LEFT`, sorted.
fn left_files() -> Vec<&'static str> {
    let mut left: Vec<&str> = LEFT.iter().map(|(f, _)| *f).collect();
    left.sort();
    left
}

#[test]
fn a_walk_formats_what_both_readings_agree_on_and_leaves_the_rest() {
    let before = Dir::new("any-before");
    repository(&before);
    let after = Dir::new("any-after");
    repository(&after);
    // The walk enters `.github/` (hidden folders are the repository's
    // too) and skips the chart's templates.
    let out = kyaml(&["fmt", "-w", "."]).dir(&after.0).output();
    let stderr = text(&out.stderr).to_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    check_outcome(&before, &after, &stderr);
    // A second run changes nothing; `--check` lists each file left as
    // written (a finding) and exits 1.
    let again = kyaml(&["fmt", "--check", "."]).dir(&after.0).output();
    assert_eq!(again.status.code(), Some(1));
    assert_eq!(listed(&again.stdout), left_files());
}

/// One hook of `.pre-commit-hooks.yaml`.
#[derive(Clone, Debug, Default)]
struct Hook {
    id: String,
    entry: String,
    language: String,
    types: Vec<String>,
    exclude: String,
}

/// The hooks of the crate's `.pre-commit-hooks.yaml`, read from its KYAML
/// layout (`kyaml fmt --check` holds the file to it: one `KEY: VALUE,` a
/// line, each value a JSON string or a list of them).
fn hooks() -> Vec<Hook> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml");
    let text = fs::read_to_string(path).unwrap();
    let string = |value: &str| -> String {
        serde_json::from_str(value.trim().trim_end_matches(','))
            .unwrap_or_else(|_| panic!("a string: {value}"))
    };
    let mut hooks = Vec::new();
    let mut lines = text.lines().map(str::trim);
    while let Some(line) = lines.next() {
        match line.split_once(": ") {
            _ if line == "{" => hooks.push(Hook::default()),
            Some(("types", "[")) => {
                let hook = hooks.last_mut().unwrap();
                for item in lines.by_ref().take_while(|l| *l != "],") {
                    hook.types.push(string(item));
                }
            }
            Some((key, value)) => {
                let Some(hook) = hooks.last_mut() else {
                    continue;
                };
                match key {
                    "id" => hook.id = string(value),
                    "entry" => hook.entry = string(value),
                    "language" => hook.language = string(value),
                    "exclude" => hook.exclude = string(value),
                    _ => {}
                }
            }
            None => {}
        }
    }
    hooks
}

/// The hook `id` of `.pre-commit-hooks.yaml`, checked to select files as
/// [`selected`] does: its `language: python` twin calls the same entry
/// on the same files.
fn hook(id: &str) -> Hook {
    let hooks = hooks();
    let find = |id: &str| hooks.iter().find(|h| h.id == id);
    let hook = find(id).unwrap_or_else(|| panic!("no hook {id} in {hooks:?}"));
    let twin = find(&format!("{id}-python")).expect("its python twin");
    assert_eq!(
        (&twin.entry, &twin.types, &twin.exclude),
        (&hook.entry, &hook.types, &hook.exclude)
    );
    // `selected` implements these: a change to the hooks' file needs one
    // there.
    assert_eq!(hook.types, ["yaml"], "{hook:?}");
    assert_eq!(hook.exclude, "(^|/)templates/", "{hook:?}");
    hook.clone()
}

/// The files pre-commit hands a hook of `types: [yaml]` and `exclude:
/// (^|/)templates/` (identify's `yaml` tag is the extension `.yaml` or
/// `.yml`).
fn selected(files: &[String]) -> Vec<&str> {
    files
        .iter()
        .map(String::as_str)
        .filter(|f| f.ends_with(".yaml") || f.ends_with(".yml"))
        .filter(|f| !(f.starts_with("templates/") || f.contains("/templates/")))
        .collect()
}

/// Runs `hook`'s entry, its `kyaml` this build's, on `files` in `dir`,
/// as pre-commit runs it (the entry's words, then the file names).
fn run_hook(hook: &Hook, dir: &Dir, files: &[&str]) -> std::process::Output {
    let mut words = hook.entry.split_whitespace();
    assert_eq!(words.next(), Some("kyaml"), "{hook:?}");
    let mut args: Vec<&str> = words.collect();
    args.extend(files);
    kyaml(&args).dir(&dir.0).output()
}

#[test]
fn the_hooks_as_pre_commit_calls_them_get_the_same_rules() {
    let before = Dir::new("hook-before");
    repository(&before);
    let after = Dir::new("hook-after");
    repository(&after);
    let (check, write) = (hook("kyaml-fmt-check"), hook("kyaml-fmt"));
    let all = files(&after.0);
    let named = selected(&all);
    assert!(named.contains(&".github/workflows/ci.yml"), "{named:?}");
    assert!(!named.contains(&"charts/web/templates/deploy.yaml"));
    // The checking hook fails, listing what it wants fixed.
    let out = run_hook(&check, &after, &named);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    // (None is KYAML yet: each would change, or is left as written.)
    let mut every = named.clone();
    every.sort();
    assert_eq!(listed(&out.stdout), every);
    // The writing hook formats what both readings agree on.
    let out = run_hook(&write, &after, &named);
    let stderr = text(&out.stderr).to_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    check_outcome(&before, &after, &stderr);
    // Then the checking hook lists the files left as written alone.
    let out = run_hook(&check, &after, &named);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(listed(&out.stdout), left_files());
    // Standard input standing for a file gets its rules: printed as it is.
    let out = kyaml(&["fmt", "--stdin-filepath", ".gitlab-ci.yml"])
        .dir(&after.0)
        .stdin(GITLAB)
        .output();
    assert_eq!(text(&out.stdout), GITLAB);
    assert!(text(&out.stderr).starts_with(".gitlab-ci.yml:5:3: left as written: "));
}

/// Whether `program --version` runs.
fn have(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// pre-commit itself, when installed, with the two hooks of
/// `.pre-commit-hooks.yaml` as a local repository's hooks: their entry
/// (this build's `kyaml`), `types` and `exclude`, `language: system` (the
/// published `rust` and `python` ones build or install kyaml first:
/// `tests/pre_commit.rs` and `python/test.sh` try those).
#[test]
fn pre_commit_itself_gets_the_same_outcome() {
    if !have("pre-commit") || !have("git") {
        println!("skipped: no `pre-commit` or `git` (pip install pre-commit)");
        return;
    }
    let before = Dir::new("pre-commit-before");
    repository(&before);
    let after = Dir::new("pre-commit-after");
    repository(&after);
    let home = Dir::new("pre-commit-home");
    let hooks: Vec<serde_json::Value> = [hook("kyaml-fmt-check"), hook("kyaml-fmt")]
        .iter()
        .map(|h| {
            let entry = h.entry.replacen("kyaml", common::KYAML, 1);
            serde_json::json!({"id": h.id, "name": h.id, "entry": entry,
                "language": "system", "types": h.types, "exclude": h.exclude})
        })
        .collect();
    // Outside the repository, so that no hook reads it (JSON is YAML).
    let config = home.write(
        "config.yaml",
        serde_json::json!({"repos": [{"repo": "local", "hooks": hooks}]}).to_string(),
    );
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(&after.0)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    };
    git(&["init", "-q"]);
    git(&["add", "."]);
    let run = |id: &str| {
        let out = Command::new("pre-commit")
            .args(["run", "--all-files", "--verbose", "-c"])
            .arg(&config)
            .arg(id)
            .env("PRE_COMMIT_HOME", &home.0)
            .current_dir(&after.0)
            .output()
            .unwrap();
        // A hook's output, its standard output and error together.
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, output) = run("kyaml-fmt-check");
    assert_eq!(code, Some(1), "{output}");
    assert!(output.contains("kyaml-fmt-check.....") && output.contains("Failed"));
    assert!(output.contains("\n.github/workflows/ci.yml\n"), "{output}");
    let (code, output) = run("kyaml-fmt");
    assert_eq!(code, Some(1), "{output}");
    assert!(
        output.contains("files were modified by this hook"),
        "{output}"
    );
    check_outcome(&before, &after, &output);
    // The files left as written still fail the check, and only they.
    let (code, output) = run("kyaml-fmt-check");
    assert_eq!(code, Some(1), "{output}");
    let (_, listing) = output.split_once("- duration: ").unwrap();
    let mut listed: Vec<&str> = listing
        .lines()
        .skip(1)
        .filter(|l| !l.is_empty() && !l.contains(": "))
        .collect();
    listed.sort();
    assert_eq!(listed, left_files(), "{output}");
}

#[test]
fn a_configured_schema_settles_the_reading_and_excludes_hold_for_named_files() {
    let dir = Dir::new("configured");
    repository(&dir);
    dir.write(
        ".kyaml.yaml",
        "# kyaml fmt's settings\nexclude: [mkdocs.yml, \"*.gen.yaml\"]\nschema:\n  .github/**: yaml-1.2\n",
    );
    let out = kyaml(&["fmt", "-w", ".github/workflows/ci.yml", "mkdocs.yml"])
        .dir(&dir.0)
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // `on` is the string "on" to GitHub's reader, YAML 1.2's reading.
    let workflow = dir.read(".github/workflows/ci.yml");
    assert!(
        workflow.starts_with("---\n{\n  name: \"ci\",\n  \"on\": {\n"),
        "{workflow}"
    );
    assert_eq!(dir.read("mkdocs.yml"), MKDOCS, "excluded, though named");
    let shown = kyaml(&["fmt", "--print-config", ".github/workflows/ci.yml"])
        .dir(&dir.0)
        .output();
    assert_eq!(
        text(&shown.stdout),
        "file: .github/workflows/ci.yml\nconfig: .kyaml.yaml\nexcluded: false\nschema: yaml-1.2 (glob \".github/**\")\nmarkdown in walks: false\n"
    );
    // A bad configuration is an error at its place, and nothing is done.
    dir.write(".kyaml.yaml", "schema:\n  \"*.yml\": yaml-1.1\n");
    let out = kyaml(&["fmt", "--check", "mkdocs.yml"])
        .dir(&dir.0)
        .output();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(".kyaml.yaml:2:12: a schema is kubectl or yaml-1.2"),
        "{}",
        text(&out.stderr)
    );
}

/// Markdown: a block whose reading is not settled and not safe is left
/// as written, and the line names its place on the page.
#[test]
fn a_markdown_block_that_is_not_safe_is_left_as_written() {
    let dir = Dir::new("markdown");
    let page = "# CI\n\n```yaml\non: push\n```\n\n```yaml\na:   1\n```\n";
    dir.write("README.md", page);
    let out = kyaml(&["fmt", "-w", "README.md"]).dir(&dir.0).output();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        dir.read("README.md"),
        "# CI\n\n```yaml\non: push\n```\n\n```yaml\n---\n{\n  a: 1,\n}\n```\n"
    );
    assert!(text(&out.stderr)
        .starts_with("README.md:4:1: this YAML block is left as written: plain scalar 'on'"));
}

/// A file is read as kubectl reads it only if every document (empty ones
/// aside) is a map with `apiVersion` and `kind` at its top. (Standard
/// input decides each document alone: tests/fmt_stream.rs.)
#[test]
fn only_files_of_kubernetes_objects_get_kubectls_reading() {
    let dir = Dir::new("objects");
    let object = "apiVersion: v1\nkind: ConfigMap\ndata: {x: on}\n";
    for (input, formatted) in [
        (format!("{object}---\n"), true),
        (format!("# c\n---\n{object}---\n{object}"), true),
        (format!("{object}---\nname: on\n"), false),
        (
            "metadata: {kind: x, apiVersion: y}\nx: on\n".to_owned(),
            false,
        ),
        ("[apiVersion, kind, on]\n".to_owned(), false),
        ("\"apiVersion\": \"kind: x\"\nx: on\n".to_owned(), false),
    ] {
        dir.write("x.yaml", &input);
        let out = kyaml(&["fmt", "x.yaml"]).dir(&dir.0).output();
        assert_eq!(out.status.code(), Some(0));
        let stdout = text(&out.stdout);
        match formatted {
            true => assert!(stdout.contains("x: true,"), "{input}\n{stdout}"),
            false => {
                assert_eq!(stdout, input);
                assert!(text(&out.stderr).contains(": left as written: "));
            }
        }
    }
}

/// What kubectl's reading alone refuses (a `\\/` escape, a directive,
/// content after `...`) leaves a file that is not Kubernetes objects as
/// written (its readers take it), and stays an error in a manifest.
#[test]
fn kubectls_refusals_are_errors_for_kubernetes_objects_alone() {
    let object = "apiVersion: v1\nkind: ConfigMap\n";
    for (input, at, manifest) in [
        ("a: \"x\\/y\"\n", "1:6", format!("{object}a: \"x\\/y\"\n")),
        (
            "%YAML 1.2\n---\na: 1\n",
            "1:1",
            format!("%YAML 1.2\n---\n{object}"),
        ),
        // An object first: kubectl would read it, and drop the rest.
        ("a: 1\n...\nb: 2\n", "3:1", format!("{object}...\nb: 2\n")),
    ] {
        for (mode, code) in [("-", 0), ("-w", 0), ("--check", 1)] {
            let dir = Dir::new("refused");
            dir.write("x.yaml", input);
            let out = kyaml(&["fmt", mode, "x.yaml"]).dir(&dir.0).output();
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(code), "{input} {mode}: {stderr}");
            let why = format!("x.yaml:{at}: left as written: only kubectl's reading refuses it");
            assert!(stderr.starts_with(&why), "{input} {mode}: {stderr}");
            assert_eq!(dir.read("x.yaml"), input);
            let shown = match mode {
                "-" => input,
                "--check" => "x.yaml\n",
                _ => "",
            };
            assert_eq!(text(&out.stdout), shown, "{input} {mode}");
        }
        // A manifest: kubectl is its reader, and refuses it.
        let dir = Dir::new("refused-manifest");
        dir.write("m.yaml", &manifest);
        let out = kyaml(&["fmt", "m.yaml"]).dir(&dir.0).output();
        assert_eq!(out.status.code(), Some(2), "{manifest}");
        assert_eq!(text(&out.stdout), "");
        assert!(
            text(&out.stderr).starts_with("m.yaml:") && !text(&out.stderr).contains("left as"),
            "{}",
            text(&out.stderr)
        );
    }
}
