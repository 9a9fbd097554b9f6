//! `kyaml fmt -w` on a repository that is not only Kubernetes manifests
//! (SPEC-YAML.md §8): a workflow, a compose file, `.codecov.yml`,
//! `mkdocs.yml` with a Python tag, `.gitlab-ci.yml` with anchors and a
//! merge, Helm values, a kustomization and manifests. Kubernetes objects
//! are read as kubectl reads them; every other file is either left byte
//! for byte as written (with one line saying why) or reads as the same
//! data under PyYAML (YAML 1.1) and ruamel.yaml (YAML 1.2), checked by
//! `tools/same_data.py` when both are importable. The walk (`fmt -w .`)
//! and pre-commit's way (every file named) are both run.

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

/// The files left as written, with the start of the line that says why.
const LEFT: [(&str, &str); 5] = [
    (".codecov.yml", ".codecov.yml:2:23: left as written: plain scalar 'yes' is the boolean true under schema kubectl but the string \"yes\" under yaml-1.2; quote it to keep the string, or set its schema"),
    (".github/workflows/ci.yml", ".github/workflows/ci.yml:2:1: left as written: plain scalar 'on' is the boolean true under schema kubectl"),
    (".gitlab-ci.yml", ".gitlab-ci.yml:5:3: left as written: merge key `<<` merged"),
    ("docker-compose.yml", "docker-compose.yml:5:9: left as written: plain scalar '22:22' is a base-60 number to YAML 1.1 readers such as PyYAML"),
    ("mkdocs.yml", "mkdocs.yml:4:20: left as written: tag !!python/name:material.extensions.emoji.twemoji dropped"),
];

fn repository(dir: &Dir) {
    dir.write(".github/workflows/ci.yml", WORKFLOW);
    dir.write("docker-compose.yml", COMPOSE);
    dir.write(".codecov.yml", CODECOV);
    dir.write("mkdocs.yml", MKDOCS);
    dir.write(".gitlab-ci.yml", GITLAB);
    dir.write("charts/web/values.yaml", VALUES);
    dir.write("deploy/kustomization.yaml", KUSTOMIZATION);
    dir.write("deploy/deploy.yaml", MANIFEST);
}

/// Every YAML file under `dir`, relative to it, sorted.
fn yaml_files(dir: &Path) -> Vec<String> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, base, out);
            } else if path.extension().is_some_and(|e| e == "yml" || e == "yaml") {
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
/// `LEFT`, the bytes as written and a line saying why; the rest
/// formatted.
fn check_outcome(before: &Dir, after: &Dir, stderr: &str) {
    for (file, why) in LEFT {
        assert_eq!(
            after.read(file),
            before.read(file),
            "{file} is left as written"
        );
        assert!(
            stderr
                .lines()
                .any(|l| l.trim_start_matches("./").starts_with(why)),
            "{file}: {why}\nin:\n{stderr}"
        );
    }
    // Helm values: formatted, their comments kept.
    let values = after.read("charts/web/values.yaml");
    assert_eq!(
        values,
        "---\n{\n  # Default values.\n  replicaCount: 2,\n  image: {\n    repository: \"nginx\", # the image\n    tag: \"1.27\",\n  },\n}\n"
    );
    // The manifests: kubectl's reading (`on` is true, `0777` is 511),
    // with its warnings.
    let manifest = after.read("deploy/deploy.yaml");
    assert!(manifest.contains("    enabled: true,\n"), "{manifest}");
    assert!(manifest.contains("defaultMode: 511,\n"), "{manifest}");
    assert!(
        stderr.contains("deploy.yaml:6:12: warning: plain scalar 'on'"),
        "{stderr}"
    );
    let kustomization = after.read("deploy/kustomization.yaml");
    assert!(
        kustomization.starts_with("---\n{\n  apiVersion: \"kustomize.config.k8s.io/v1beta1\",\n")
    );
    if let Some(report) = same_data(&before.0, &after.0) {
        println!("{report}");
    }
}

#[test]
fn a_walk_formats_what_both_readings_agree_on_and_leaves_the_rest() {
    let before = Dir::new("any-before");
    repository(&before);
    let after = Dir::new("any-after");
    repository(&after);
    // A walk skips hidden directories (.github): the workflow is named.
    let out = kyaml(&["fmt", "-w", ".", ".github/workflows/ci.yml"])
        .dir(&after.0)
        .output();
    let stderr = text(&out.stderr).to_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    check_outcome(&before, &after, &stderr);
    // A second run changes nothing; `--check` lists each file left as
    // written (a finding) and exits 1.
    let again = kyaml(&["fmt", "--check", ".", ".github/workflows/ci.yml"])
        .dir(&after.0)
        .output();
    assert_eq!(again.status.code(), Some(1));
    let mut listed: Vec<&str> = text(&again.stdout)
        .lines()
        .map(|l| l.trim_start_matches("./"))
        .collect();
    listed.sort();
    let mut left: Vec<&str> = LEFT.iter().map(|(f, _)| *f).collect();
    left.sort();
    assert_eq!(listed, left);
}

#[test]
fn named_files_as_pre_commit_passes_them_get_the_same_rules() {
    let before = Dir::new("named-before");
    repository(&before);
    let after = Dir::new("named-after");
    repository(&after);
    let files = yaml_files(&after.0);
    let mut args = vec!["fmt", "-w"];
    args.extend(files.iter().map(String::as_str));
    let out = kyaml(&args).dir(&after.0).output();
    let stderr = text(&out.stderr).to_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    check_outcome(&before, &after, &stderr);
    // Standard input standing for a file gets its rules: printed as it is.
    let out = kyaml(&["fmt", "--stdin-filepath", ".gitlab-ci.yml"])
        .dir(&after.0)
        .stdin(GITLAB)
        .output();
    assert_eq!(text(&out.stdout), GITLAB);
    assert!(text(&out.stderr).starts_with(".gitlab-ci.yml:5:3: left as written: "));
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
/// aside) is a map with `apiVersion` and `kind` at its top.
#[test]
fn only_files_of_kubernetes_objects_get_kubectls_reading() {
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
        let out = kyaml(&["fmt"]).stdin(&input).output();
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
