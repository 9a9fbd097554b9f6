//! One table: each failure gives the same message, named by the mode, and
//! the same exit status in `kyaml` (convert), `kyaml fmt` and `kyaml diff`.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;

mod common;
use common::{Dir, KYAML};

/// Runs `kyaml` with `mode`'s words, then `args`, and for `diff` a valid
/// second input; as user 1234 when `other_user` (with the copy of the
/// binary that user can run).
fn run(dir: &Dir, mode: &str, args: &[&str], other_user: Option<&Path>) -> (Option<i32>, String) {
    let mut command = Command::new(other_user.unwrap_or(Path::new(KYAML)));
    command.current_dir(&dir.0);
    if !mode.is_empty() {
        command.arg(mode);
    }
    command.args(args);
    if mode == "diff" {
        command.arg("ok.yaml");
    }
    if other_user.is_some() {
        command.uid(1234).gid(1234);
    }
    let out = command.output().expect("kyaml runs");
    let stderr = String::from_utf8(out.stderr).unwrap();
    (out.status.code(), stderr)
}

#[test]
fn each_failure_is_reported_alike_in_every_mode() {
    // Root reads anything: the unreadable file is tried as another user,
    // who needs to reach the directory.
    let reachable = Dir::reachable_by_others("failures");
    let others_reach = reachable.is_some();
    let for_others = Dir::kyaml_for_others();
    let dir = reachable.unwrap_or_else(|| Dir::new("failures"));
    fs::create_dir_all(dir.0.join("empty")).unwrap();
    dir.write("ok.yaml", "a: 1\n");
    dir.write("bad.yaml", "a: [1\n");
    let locked = dir.write("locked.yaml", "a: 1\n");
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    let root = fs::metadata("/proc/self")
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0)
        .unwrap_or(false);

    // (arguments, as another user, the message with TOOL for the mode's
    // name; `None`: only its start is fixed, then the line and a caret).
    type Case<'a> = (&'a [&'a str], bool, &'a str, bool);
    let cases: [Case; 7] = [
        (
            &["missing.yaml"],
            false,
            "TOOL: cannot read missing.yaml: No such file or directory\n",
            true,
        ),
        (
            &["locked.yaml"],
            true,
            "TOOL: cannot read locked.yaml: Permission denied\n",
            true,
        ),
        (
            &["--bogus", "ok.yaml"],
            false,
            "TOOL: unknown option `--bogus`; try 'TOOL --help'\n",
            true,
        ),
        (
            &["--schema", "yaml-1.1", "ok.yaml"],
            false,
            "TOOL: `--schema` takes kubectl or yaml-1.2, not `yaml-1.1`; try 'TOOL --help'\n",
            true,
        ),
        (
            &["--schema=yaml-1.1", "ok.yaml"],
            false,
            "TOOL: `--schema` takes kubectl or yaml-1.2, not `yaml-1.1`; try 'TOOL --help'\n",
            true,
        ),
        (&["bad.yaml"], false, "bad.yaml:2:1: expected ", false),
        (&["empty"], false, "TOOL: cannot read empty: ", false),
    ];
    for (args, other_user, message, exact) in cases {
        let bin = for_others.as_ref().map(|(_, bin)| bin.as_path());
        if other_user && !(root && others_reach && bin.is_some()) {
            println!("not root, or no folder others reach: {args:?} is not tried as another user");
            continue;
        }
        for (mode, tool) in [("", "kyaml"), ("fmt", "kyaml fmt"), ("diff", "kyaml diff")] {
            let (status, stderr) = run(&dir, mode, args, bin.filter(|_| other_user));
            let message = message.replace("TOOL", tool);
            assert_eq!(status, Some(2), "{tool} {args:?}: {stderr}");
            match exact {
                true => assert_eq!(stderr, message, "{tool} {args:?}"),
                false => assert!(stderr.starts_with(&message), "{tool} {args:?}: {stderr}"),
            }
        }
    }
    // A directory: not a file to convert or compare, and for `fmt` a tree
    // with no YAML in it; the same shape and status either way.
    for (mode, why) in [
        ("", "Is a directory"),
        ("fmt", "no YAML files under it"),
        ("diff", "Is a directory"),
    ] {
        let (_, stderr) = run(&dir, mode, &["empty"], None);
        assert!(
            stderr.ends_with(&format!("empty: {why}\n")),
            "{mode}: {stderr}"
        );
    }
}

/// Every flag that takes a value takes it either way, in every mode.
#[test]
fn values_are_taken_joined_or_apart_in_every_mode() {
    for schema in [&["--schema=yaml-1.2"][..], &["--schema", "yaml-1.2"]] {
        for mode in [&[][..], &["fmt"]] {
            let out = common::kyaml(mode)
                .args(schema)
                .args(&["-c"])
                .stdin("a: on\n")
                .output();
            assert_eq!(common::text(&out.stdout), "---\n{a: \"on\"}\n", "{mode:?}");
        }
    }
    // Under yaml-1.2 `on` is the string "on"; under kubectl, true.
    let dir = Dir::new("values");
    let yaml = dir.file("a.yaml", "a: on\n");
    let json = dir.file("a.json", "{\"a\": \"on\"}");
    for (schema, status) in [
        (&["--schema=yaml-1.2"][..], 0),
        (&["--schema", "yaml-1.2"], 0),
        (&["--schema=kubectl"], 1),
    ] {
        let out = common::kyaml(&["diff"])
            .args(schema)
            .args(&[&yaml, &json])
            .output();
        assert_eq!(out.status.code(), Some(status), "{schema:?}");
    }
}
