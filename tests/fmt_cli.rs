//! `kyaml fmt`: standard input, files, directories, `--check`, `-w`
//! (atomic: an injected failure before the rename leaves the original),
//! `-d` (a patch that applies), errors and usage.

use std::fs;
use std::io::Write;
use std::process::{Command, Stdio};

mod common;
use common::{kyaml, text, Dir, MESSY, TIDY};

#[test]
fn standard_input_to_standard_output() {
    let dir = Dir::new("stdin");
    for args in [&[][..], &["-"][..]] {
        let out = kyaml(&["fmt"]).args(args).dir(&dir.0).stdin(MESSY).output();
        assert_eq!(text(&out.stdout), TIDY);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
}

#[test]
fn files_to_standard_output_untouched() {
    let dir = Dir::new("stdout");
    dir.write("a.yaml", MESSY);
    let out = kyaml(&["fmt", "a.yaml"]).dir(&dir.0).output();
    assert_eq!(text(&out.stdout), TIDY);
    assert_eq!(dir.read("a.yaml"), MESSY);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn check_lists_what_would_change() {
    let dir = Dir::new("check");
    dir.write("messy.yaml", MESSY);
    dir.write("tidy.yaml", TIDY);
    let out = kyaml(&["fmt", "--check", "messy.yaml", "tidy.yaml"])
        .dir(&dir.0)
        .output();
    assert_eq!(text(&out.stdout), "messy.yaml\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(dir.read("messy.yaml"), MESSY);
    let out = kyaml(&["fmt", "--check", "tidy.yaml"]).dir(&dir.0).output();
    assert_eq!((text(&out.stdout), out.status.code()), ("", Some(0)));
}

#[test]
fn directories_sorted_yaml_only_hidden_walked_vcs_and_packages_skipped() {
    let dir = Dir::new("walk");
    dir.write("b.yml", MESSY);
    dir.write("a/z.yaml", MESSY);
    dir.write("a/c.yaml", TIDY);
    dir.write(".gitlab/ci.yml", MESSY);
    dir.write(".git/x.yaml", MESSY);
    dir.write("a/.svn/x.yaml", MESSY);
    dir.write("node_modules/p/x.yaml", MESSY);
    dir.write("notes.txt", MESSY);
    let out = kyaml(&["fmt", "--check", "."]).dir(&dir.0).output();
    assert_eq!(text(&out.stdout), "./.gitlab/ci.yml\n./a/z.yaml\n./b.yml\n");
    // A folder named is walked, whatever its name.
    let out = kyaml(&["fmt", "--check", "node_modules"])
        .dir(&dir.0)
        .output();
    assert_eq!(text(&out.stdout), "node_modules/p/x.yaml\n");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn write_rewrites_changed_files_only() {
    let dir = Dir::new("write");
    let messy = dir.write("messy.yaml", MESSY);
    let tidy = dir.write("tidy.yaml", TIDY);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&messy, fs::Permissions::from_mode(0o640)).expect("chmod");
    }
    let before = fs::metadata(&tidy)
        .and_then(|m| m.modified())
        .expect("a time");
    let out = kyaml(&["fmt", "-w", "."]).dir(&dir.0).output();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Listed as gofmt -l lists them.
    assert_eq!(text(&out.stdout), "./messy.yaml\n");
    assert_eq!(dir.read("messy.yaml"), TIDY);
    let after = fs::metadata(&tidy)
        .and_then(|m| m.modified())
        .expect("a time");
    assert_eq!(before, after, "an unchanged file is not written");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(&messy).expect("metadata").permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }
    assert_eq!(dir.names(), ["messy.yaml", "tidy.yaml"]);
    // A second run has nothing to do.
    let out = kyaml(&["fmt", "--check", "."]).dir(&dir.0).output();
    assert_eq!((text(&out.stdout), out.status.code()), ("", Some(0)));
}

#[cfg(unix)]
#[test]
fn write_follows_a_symbolic_link() {
    let dir = Dir::new("link");
    dir.write("real.yaml", MESSY);
    std::os::unix::fs::symlink("real.yaml", dir.0.join("link.yaml")).expect("a link");
    let out = kyaml(&["fmt", "-w", "link.yaml"]).dir(&dir.0).output();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(dir.read("real.yaml"), TIDY);
    let link = fs::symlink_metadata(dir.0.join("link.yaml")).expect("metadata");
    assert!(link.file_type().is_symlink());
}

/// A failure after the new contents are written and synced, before the
/// rename: the original is intact, the temporary file gone, the other
/// files still done, the exit status 2.
#[test]
fn write_is_atomic() {
    let dir = Dir::new("atomic");
    dir.write("a.yaml", MESSY);
    dir.write("b.yaml", MESSY);
    let fail = [("KYAML_FMT_FAIL_BEFORE_RENAME", "1")];
    let out = kyaml(&["fmt", "-w", "a.yaml", "b.yaml"])
        .dir(&dir.0)
        .env(&fail)
        .output();
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("a.yaml: not rewritten"), "{stderr}");
    assert!(stderr.contains("b.yaml: not rewritten"), "{stderr}");
    assert_eq!(dir.read("a.yaml"), MESSY);
    assert_eq!(dir.read("b.yaml"), MESSY);
    assert_eq!(dir.names(), ["a.yaml", "b.yaml"]);
}

#[test]
fn diff_applies_with_patch() {
    let dir = Dir::new("diff");
    dir.write("a.yaml", MESSY);
    dir.write("tidy.yaml", TIDY);
    let out = kyaml(&["fmt", "-d", "a.yaml", "tidy.yaml"])
        .dir(&dir.0)
        .output();
    assert_eq!(out.status.code(), Some(0));
    let diff = text(&out.stdout);
    assert!(
        diff.starts_with("--- a.yaml\n+++ a.yaml\n@@ -1,5 +1,9 @@\n"),
        "{diff}"
    );
    assert_eq!(dir.read("a.yaml"), MESSY);
    let patch = Command::new("patch")
        .args(["-s", "-p0"])
        .current_dir(&dir.0)
        .stdin(Stdio::piped())
        .spawn();
    let Ok(mut patch) = patch else {
        return; // no `patch` here: the header above is checked
    };
    let mut input = patch.stdin.take().expect("stdin");
    input.write_all(diff.as_bytes()).expect("the diff");
    drop(input);
    assert!(patch.wait().expect("patch ends").success());
    assert_eq!(dir.read("a.yaml"), TIDY);
}

#[test]
fn invalid_file_reported_left_alone_others_done() {
    let dir = Dir::new("invalid");
    dir.write("a.yaml", "a: [1\n");
    dir.write("b.yaml", MESSY);
    let out = kyaml(&["fmt", "-w", "a.yaml", "b.yaml"])
        .dir(&dir.0)
        .output();
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("a.yaml:2:1: "), "{stderr}");
    assert!(stderr.contains("\n  ^"), "{stderr}");
    assert_eq!(dir.read("a.yaml"), "a: [1\n");
    assert_eq!(dir.read("b.yaml"), TIDY);
}

#[test]
fn usage_errors_exit_2() {
    let dir = Dir::new("usage");
    for args in [
        &["--bogus"][..],
        &["--schema", "yaml-1.1"][..],
        &["--check", "-w"][..],
    ] {
        let out = kyaml(&["fmt"]).args(args).dir(&dir.0).output();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).ends_with("; try 'kyaml fmt --help'\n"));
    }
    let out = kyaml(&["fmt", "missing.yaml"]).dir(&dir.0).output();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn compact_warns_once_that_comments_go() {
    let dir = Dir::new("compact");
    let out = kyaml(&["fmt", "--compact", "-", "-"])
        .dir(&dir.0)
        .stdin(MESSY)
        .output();
    assert_eq!(text(&out.stdout), "---\n{a: 1, b: [\"x\"]}\n");
    assert_eq!(text(&out.stderr).matches("writes no comments").count(), 1);
}

/// A file without a final line feed: the diff says so, as `patch` needs,
/// even when that line feed is all that changes.
#[test]
fn diff_of_a_file_without_a_final_line_feed_applies() {
    let dir = Dir::new("open-end");
    for (input, marker_after) in [("a: 1", "-a: 1\n"), ("---\n{\n  a: 1,\n}", "-}\n")] {
        dir.write("a.yaml", input);
        let out = kyaml(&["fmt", "-d", "a.yaml"]).dir(&dir.0).output();
        let diff = text(&out.stdout);
        let marker = format!("{marker_after}\\ No newline at end of file\n");
        assert!(diff.contains(&marker), "{diff}");
        let Ok(mut patch) = Command::new("patch")
            .args(["-s", "-p0"])
            .current_dir(&dir.0)
            .stdin(Stdio::piped())
            .spawn()
        else {
            continue; // no `patch` here: the marker above is checked
        };
        let mut stdin = patch.stdin.take().expect("stdin");
        stdin.write_all(diff.as_bytes()).expect("the diff");
        drop(stdin);
        assert!(patch.wait().expect("patch ends").success());
        let formatted = kyaml(&["fmt"]).dir(&dir.0).stdin(input).output();
        assert_eq!(dir.read("a.yaml"), text(&formatted.stdout));
    }
}

/// Issue 31: `-w` lists what it changed (`-q`: nothing), `--check -d`
/// shows the diff and exits 1, short flags combine, a directory without
/// a mode says what to add, and a mistyped subcommand is named.
#[test]
fn reporting_like_gofmt_and_prettier() {
    let dir = Dir::new("report");
    dir.write("messy.yaml", MESSY);
    let out = kyaml(&["fmt", "--check", "-d", "messy.yaml"])
        .dir(&dir.0)
        .output();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).starts_with("--- messy.yaml\n+++ messy.yaml\n@@ "));
    assert_eq!(dir.read("messy.yaml"), MESSY);
    let out = kyaml(&["fmt", "-wq", "messy.yaml"]).dir(&dir.0).output();
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(0), ""));
    assert_eq!(dir.read("messy.yaml"), TIDY);
    dir.write("messy.yaml", MESSY);
    let out = kyaml(&["fmt", "-wd", "messy.yaml"]).dir(&dir.0).output();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("--- messy.yaml\n"));
    assert_eq!(dir.read("messy.yaml"), TIDY);
    let out = kyaml(&["fmt", "."]).dir(&dir.0).output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "");
    assert!(text(&out.stderr)
        .starts_with("kyaml fmt: . is a directory: add -w to rewrite its files, --check"));
    let out = kyaml(&["format", "."]).dir(&dir.0).output();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr)
        .starts_with("kyaml: unknown subcommand `format` (the subcommands are fmt and diff"));
}
