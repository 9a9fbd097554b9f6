//! `kyaml fmt` over a whole repository, as CI and pre-commit run it: the
//! walk as git sees the tree (ignore files, `--exclude`, version control
//! folders and `node_modules` skipped but other hidden folders walked,
//! Helm templates, symbolic links out of the tree, Markdown under
//! `--markdown`), and a `-w` that keeps line ends, mode, owner and
//! hard links, then a second `--check` that passes.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

mod common;
use common::{kyaml, text, Dir, MESSY, TIDY};

fn is_root() -> bool {
    fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// What `kyaml fmt` makes of `text` on standard input.
fn formatted(text: &str) -> String {
    let out = kyaml(&["fmt"]).stdin(text).output();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn check_and_write_a_repository_as_git_sees_it() {
    let outside = Dir::new("outside");
    let target = outside.write("target.yaml", MESSY);
    let repo = Dir::new("repo");
    repo.write(".git/info/exclude", "# local\nlocal.yaml\n");
    repo.write(".gitignore", "build/\n*.gen.yaml\n!keep.gen.yaml\n");
    repo.write("build/out.yaml", MESSY);
    repo.write("x.gen.yaml", MESSY);
    repo.write("keep.gen.yaml", MESSY);
    repo.write("local.yaml", MESSY);
    repo.write("sub/.gitignore", "secret.yaml\n");
    repo.write("sub/secret.yaml", MESSY);
    repo.write("sub/ok.yaml", TIDY);
    repo.write("tidy.yaml", TIDY);
    // Hidden folders are walked; version control ones and installed
    // packages are not.
    repo.write(".github/workflows/ci.yml", MESSY);
    repo.write(".git/hooks/x.yaml", MESSY);
    repo.write("sub/.hg/x.yaml", MESSY);
    repo.write("node_modules/pkg/action.yml", MESSY);
    repo.write("sub/node_modules/x.yaml", MESSY);
    repo.write("api/zz_generated.deepcopy.yaml", MESSY);
    // A Helm chart: its templates are Go templates, not YAML.
    repo.write("charts/web/Chart.yaml", "---\n{\n  name: \"web\",\n}\n");
    repo.write("charts/web/values.yaml", MESSY);
    let template = "spec:\n  replicas: {{ .Values.replicas }}\n{{- if .Values.x }}\n";
    repo.write("charts/web/templates/deploy.yaml", template);
    std::os::unix::fs::symlink(&target, repo.0.join("outside.yaml")).unwrap();
    let crlf = MESSY.replace('\n', "\r\n");
    repo.write("crlf.yaml", &crlf);
    let owned = repo.write("owned.yaml", MESSY);
    fs::set_permissions(&owned, fs::Permissions::from_mode(0o600)).unwrap();
    let root = is_root();
    if root {
        std::os::unix::fs::chown(&owned, Some(1234), Some(1234)).unwrap();
    } else {
        println!("not root: the owner is not changed to another user");
    }
    repo.write("linked.yaml", MESSY);
    let alias = outside.0.join("linked-alias.yaml");
    fs::hard_link(repo.0.join("linked.yaml"), &alias).unwrap();
    let page = "# Page\n\n```yaml\na:   1\n```\n\nText `a:  1`.\n";
    repo.write("docs/page.md", page);

    let needing = "./.github/workflows/ci.yml\n./charts/web/values.yaml\n./crlf.yaml\n./keep.gen.yaml\n./linked.yaml\n./owned.yaml\n";
    let out = kyaml(&["fmt", "--check", "."]).dir(&repo.0).output();
    assert_eq!(
        (out.status.code(), text(&out.stdout), text(&out.stderr)),
        (
            Some(1),
            &*needing.replace("./charts/", "./api/zz_generated.deepcopy.yaml\n./charts/"),
            ""
        )
    );
    let exclude = ["--exclude", "**/zz_generated*"];
    let out = kyaml(&["fmt", "--check", "."])
        .args(&exclude)
        .dir(&repo.0)
        .output();
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(1), needing));
    // `--exclude=GLOB`; a glob without `/` matches a name at any depth.
    let out = kyaml(&["fmt", "--check", "--exclude=zz_*", "."])
        .dir(&repo.0)
        .output();
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(1), needing));
    // A directory left with nothing to read is an error.
    let out = kyaml(&["fmt", "--check", "--exclude=zz_*", "api"])
        .dir(&repo.0)
        .output();
    assert_eq!(
        (out.status.code(), text(&out.stderr)),
        (
            Some(2),
            "kyaml fmt: cannot read api: no YAML files under it\n"
        )
    );
    // A directory inside the repository: the rules above it still hold.
    repo.write("charts/web/z.gen.yaml", MESSY);
    let out = kyaml(&["fmt", "--check", "charts"]).dir(&repo.0).output();
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (Some(1), "charts/web/values.yaml\n")
    );
    // A hidden directory named is walked.
    let out = kyaml(&["fmt", "--check", ".github"]).dir(&repo.0).output();
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (Some(1), ".github/workflows/ci.yml\n")
    );
    // Markdown pages under --markdown; a file named is always read.
    let out = kyaml(&["fmt", "--check", "--markdown", "docs", "build/out.yaml"])
        .dir(&repo.0)
        .output();
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (Some(1), "docs/page.md\nbuild/out.yaml\n")
    );

    let out = kyaml(&["fmt", "-w", "."])
        .args(&exclude)
        .dir(&repo.0)
        .output();
    // Each file changed is listed, as gofmt -l lists them.
    assert_eq!(
        (out.status.code(), text(&out.stdout), text(&out.stderr)),
        (Some(0), needing, "")
    );
    for name in [
        ".github/workflows/ci.yml",
        "charts/web/values.yaml",
        "keep.gen.yaml",
        "linked.yaml",
        "owned.yaml",
    ] {
        assert_eq!(repo.read(name), TIDY, "{name}");
    }
    assert_eq!(repo.read("crlf.yaml"), TIDY.replace('\n', "\r\n"));
    assert_eq!(formatted(&crlf), TIDY.replace('\n', "\r\n"));
    // Mode, owner and the other name of the hard link kept.
    let meta = fs::metadata(&owned).unwrap();
    assert_eq!(meta.mode() & 0o7777, 0o600);
    if root {
        assert_eq!((meta.uid(), meta.gid()), (1234, 1234));
    }
    assert_eq!(fs::read_to_string(&alias).unwrap(), TIDY);
    let linked = fs::metadata(repo.0.join("linked.yaml")).unwrap();
    assert_eq!(linked.ino(), fs::metadata(&alias).unwrap().ino());
    // Left alone: ignored, excluded, in version control folders and
    // installed packages, templates, the link's target, the page (not
    // under --markdown).
    for name in [
        "charts/web/z.gen.yaml",
        "build/out.yaml",
        "x.gen.yaml",
        "local.yaml",
        "sub/secret.yaml",
        ".git/hooks/x.yaml",
        "sub/.hg/x.yaml",
        "node_modules/pkg/action.yml",
        "sub/node_modules/x.yaml",
        "api/zz_generated.deepcopy.yaml",
    ] {
        assert_eq!(repo.read(name), MESSY, "{name}");
    }
    assert_eq!(repo.read("charts/web/templates/deploy.yaml"), template);
    assert_eq!(fs::read_to_string(&target).unwrap(), MESSY);
    assert_eq!(repo.read("docs/page.md"), page);
    // Nothing left behind.
    let leftovers = walk_names(&repo.0);
    assert!(
        !leftovers.iter().any(|n| n.contains(".kyaml-tmp-")),
        "{leftovers:?}"
    );

    let out = kyaml(&["fmt", "--check", "."])
        .args(&exclude)
        .dir(&repo.0)
        .output();
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(0), ""));

    // The page: only its YAML block changes.
    let out = kyaml(&["fmt", "-w", "docs/page.md"]).dir(&repo.0).output();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        repo.read("docs/page.md"),
        "# Page\n\n```yaml\n---\n{\n  a: 1,\n}\n```\n\nText `a:  1`.\n"
    );
}

/// Every name under `dir`, at any depth.
fn walk_names(dir: &Path) -> Vec<String> {
    let mut names = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            names.push(entry.file_name().to_string_lossy().into_owned());
            if entry.file_type().unwrap().is_dir() {
                dirs.push(entry.path());
            }
        }
    }
    names
}

#[test]
fn markdown_blocks_keep_their_fence_and_indentation_and_bad_ones_stay() {
    let dir = Dir::new("markdown");
    let page = concat!(
        "Steps:\r\n",
        "1. Apply:\r\n",
        "   ```yml\r\n",
        "   kind: Pod\r\n",
        "   spec: {containers: []}\r\n",
        "   ```\r\n",
        "~~~yaml\r\n",
        "a: [1\r\n",
        "~~~\r\n",
        "```json\r\n",
        "{\"a\":1}\r\n",
        "```\r\n",
    );
    dir.write("page.md", page);
    let out = kyaml(&["fmt", "page.md"]).dir(&dir.0).output();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        concat!(
            "Steps:\r\n",
            "1. Apply:\r\n",
            "   ```yml\r\n",
            "   ---\r\n",
            "   {\r\n",
            "     kind: \"Pod\",\r\n",
            "     spec: {\r\n",
            "       containers: [],\r\n",
            "     },\r\n",
            "   }\r\n",
            "   ```\r\n",
            "~~~yaml\r\n",
            "a: [1\r\n",
            "~~~\r\n",
            "```json\r\n",
            "{\"a\":1}\r\n",
            "```\r\n",
        )
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("page.md:9:1: warning: this YAML block is left as written: "),
        "{stderr}"
    );
    let out = kyaml(&["fmt", "-d", "page.md"]).dir(&dir.0).output();
    assert!(text(&out.stdout).starts_with("--- page.md\n+++ page.md\n"));
    let out = kyaml(&["fmt", "--check", "page.md"]).dir(&dir.0).output();
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (Some(1), "page.md\n")
    );
    assert_eq!(dir.read("page.md"), page);
}

#[test]
fn a_byte_order_mark_is_kept() {
    let out = kyaml(&["fmt"]).stdin("\u{FEFF}a: 1\n").output();
    assert_eq!(text(&out.stdout), "\u{FEFF}---\n{\n  a: 1,\n}\n");
    // The same guess in every mode: with a mark, `{` starts JSON.
    for args in [&[][..], &["diff", "-", "-"][..]] {
        let out = kyaml(args).stdin("\u{FEFF}{a: 1}").output();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).starts_with("<stdin>:1:2: "), "{args:?}");
    }
}
