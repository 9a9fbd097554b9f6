//! `kyaml fmt -w` loses nothing and leaks nothing: the temporary file is
//! never more readable than the original (looked at while the run is
//! paused before the rename, a hook of debug builds), a file changed
//! between the read and the replace is left with the change (exit 1), and
//! after `kill -9` at any moment each file holds its old text or its new
//! one, and a temporary file is left only between its link and its rename,
//! holding the whole new text, which a later `-w` walk removes once its
//! process is gone.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::time::{Duration, Instant};

mod common;
use common::{kyaml, text, Dir, MESSY, TIDY};

/// The modes of the files `pid` has open for writing in `dir` other than
/// `except` (its temporary file: unnamed, `dir/#N (deleted)`, or named).
fn temp_modes(pid: u32, dir: &std::path::Path, except: &std::path::Path) -> Vec<u32> {
    let mut modes = Vec::new();
    let Ok(fds) = fs::read_dir(format!("/proc/{pid}/fd")) else {
        return modes;
    };
    for fd in fds.flatten() {
        let Ok(target) = fs::read_link(fd.path()) else {
            continue;
        };
        if target.starts_with(dir) && target != except {
            if let Ok(meta) = fs::metadata(fd.path()) {
                modes.push(meta.mode() & 0o7777);
            }
        }
    }
    modes
}

#[test]
fn the_temporary_file_is_never_more_readable_than_the_original() {
    for named in [false, true] {
        let dir = Dir::new(if named { "mode-named" } else { "mode" });
        let file = dir.0.join("secret.yaml");
        fs::write(&file, MESSY).unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o600)).unwrap();
        let mut env = vec![("KYAML_FMT_PAUSE_BEFORE_RENAME", "1500")];
        if named {
            env.push(("KYAML_FMT_NAMED_TEMP", "1"));
        }
        let mut child = kyaml(&["fmt", "-w", "secret.yaml"])
            .dir(&dir.0)
            .env(&env)
            .spawn();
        let mut seen = Vec::new();
        let start = Instant::now();
        while start.elapsed() < Duration::from_millis(1200) && seen.is_empty() {
            seen = temp_modes(child.id(), &dir.0, &file);
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(child.wait().unwrap().success());
        assert_eq!(seen, [0o600], "named: {named}");
        assert_eq!(fs::read_to_string(&file).unwrap(), TIDY);
        assert_eq!(fs::metadata(&file).unwrap().mode() & 0o7777, 0o600);
        assert_eq!(dir.names(), ["secret.yaml"]);
    }
}

#[test]
fn a_file_changed_while_it_is_formatted_is_left_with_the_change() {
    let dir = Dir::new("changed");
    let file = dir.0.join("a.yaml");
    fs::write(&file, MESSY).unwrap();
    fs::write(dir.0.join("b.yaml"), MESSY).unwrap();
    let child = kyaml(&["fmt", "-w", "a.yaml", "b.yaml"])
        .dir(&dir.0)
        .env(&[("KYAML_FMT_PAUSE_BEFORE_RENAME", "700")])
        .spawn();
    std::thread::sleep(Duration::from_millis(300));
    let edited = format!("{MESSY}c: 3\n");
    fs::write(&file, &edited).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "kyaml fmt: a.yaml: changed while it was being formatted; left as it is\n"
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), edited);
    assert_eq!(fs::read_to_string(dir.0.join("b.yaml")).unwrap(), TIDY);
    assert_eq!(dir.names(), ["a.yaml", "b.yaml"]);
    // The same for a file with two names, which is rewritten in place.
    fs::write(&file, MESSY).unwrap();
    fs::hard_link(&file, dir.0.join("c.yaml")).unwrap();
    let mut child = kyaml(&["fmt", "-w", "a.yaml"])
        .dir(&dir.0)
        .env(&[("KYAML_FMT_PAUSE_BEFORE_RENAME", "700")])
        .spawn();
    std::thread::sleep(Duration::from_millis(300));
    fs::write(&file, &edited).unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(1));
    assert_eq!(fs::read_to_string(dir.0.join("c.yaml")).unwrap(), edited);
}

#[test]
fn kill_9_at_any_moment_leaves_old_or_new_text_and_no_partial_file() {
    let dir = Dir::new("kill");
    // Files big enough that a run takes a while (and differ, so that a
    // half-written one would show).
    let olds: Vec<String> = (0..12)
        .map(|n| {
            let mut text = String::new();
            for i in 0..1500 {
                text.push_str(&format!("k{i}: [v{n}, {i}] # c\n"));
            }
            text
        })
        .collect();
    let news: Vec<String> = olds
        .iter()
        .map(|old| {
            let out = kyaml(&["fmt"]).stdin(old).output();
            String::from_utf8(out.stdout).unwrap()
        })
        .collect();
    let names: Vec<String> = (0..olds.len()).map(|n| format!("f{n:02}.yaml")).collect();
    let full = {
        for (name, old) in names.iter().zip(&olds) {
            fs::write(dir.0.join(name), old).unwrap();
        }
        let start = Instant::now();
        assert!(kyaml(&["fmt", "-w", "."])
            .dir(&dir.0)
            .output()
            .status
            .success());
        start.elapsed()
    };
    // Kill at moments spread over a whole run (a simple generator: the
    // test is the same every time).
    let mut seed = 0x2545_f491_u64;
    let (mut old_seen, mut new_seen) = (0, 0);
    for _ in 0..16 {
        for (name, old) in names.iter().zip(&olds) {
            fs::write(dir.0.join(name), old).unwrap();
        }
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let at = full.mul_f64((seed >> 33) as f64 / (1u64 << 31) as f64);
        let mut child = kyaml(&["fmt", "-w", "."]).dir(&dir.0).spawn();
        std::thread::sleep(at);
        let _ = child.kill();
        let _ = child.wait();
        for ((name, old), new) in names.iter().zip(&olds).zip(&news) {
            let now = fs::read_to_string(dir.0.join(name)).unwrap();
            assert!(now == *old || now == *new, "{name} is neither old nor new");
            old_seen += usize::from(now == *old);
            new_seen += usize::from(now == *new);
        }
        // The one window in which `kill -9` leaves a temporary file: after
        // the unnamed file is linked in and before the rename (two system
        // calls). What is left then is the whole new text, under a name no
        // walk reads, as readable as the original.
        for left in dir.names().iter().filter(|name| !names.contains(name)) {
            let of = left
                .strip_prefix('.')
                .and_then(|rest| rest.split_once(".kyaml-tmp-"))
                .map(|(of, _)| of)
                .unwrap_or_else(|| panic!("{left} is not a temporary file"));
            let n = names.iter().position(|name| name == of).unwrap();
            let path = dir.0.join(left);
            assert_eq!(fs::read_to_string(&path).unwrap(), news[n], "{left}");
            let mode = |p: &std::path::Path| fs::metadata(p).unwrap().mode() & 0o7777;
            assert_eq!(mode(&path), mode(&dir.0.join(of)), "{left}");
            fs::remove_file(path).unwrap();
        }
    }
    // The kills fell both before and after files were replaced.
    assert!(old_seen > 0 && new_seen > 0, "{old_seen} {new_seen}");
}

/// A later `-w` walk removes what such a kill left (a
/// `.NAME.kyaml-tmp-PID-N` file whose process is gone), in every folder
/// it walks, and says so; it keeps the file of a process that runs, every
/// name that is not exactly one of ours, and all of them under `--check`,
/// printing, `-d`, and `-w` of a file named alone (no walk).
#[test]
fn a_later_write_walk_removes_what_a_kill_left() {
    let dir = Dir::new("leftovers");
    let gone = {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    };
    let mut running = std::process::Command::new("sleep")
        .arg("60")
        .spawn()
        .unwrap();
    let runs = running.id();
    let left = [
        format!(".a.yaml.kyaml-tmp-{gone}-0"),
        format!("sub/.b.yaml.kyaml-tmp-{gone}-12"),
    ];
    let kept = [
        format!(".a.yaml.kyaml-tmp-{runs}-0"),
        format!("a.yaml.kyaml-tmp-{gone}-0"),
        format!(".a.yaml.kyaml-tmp-0{gone}-0"),
        format!(".a.yaml.kyaml-tmp-{gone}-0.bak"),
        format!("..kyaml-tmp-{gone}-1"),
    ];
    let all = || left.iter().chain(&kept);
    for name in all() {
        dir.write(name, TIDY);
    }
    for args in [
        &["fmt", "--check", "."][..],
        &["fmt", "."],
        &["fmt", "-d", "."],
        &["fmt", "-w", "a.yaml"],
    ] {
        dir.write("a.yaml", MESSY);
        dir.write("sub/b.yaml", MESSY);
        let out = kyaml(args).dir(&dir.0).output();
        assert!(!text(&out.stderr).contains("removed"), "{args:?}");
        for name in all() {
            assert!(dir.0.join(name).exists(), "{args:?}: {name}");
        }
    }
    dir.write("a.yaml", MESSY);
    let out = kyaml(&["fmt", "-w", "."]).dir(&dir.0).output();
    let _ = running.kill();
    let _ = running.wait();
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert_eq!(
        (dir.read("a.yaml"), dir.read("sub/b.yaml")),
        (TIDY.into(), TIDY.into())
    );
    for name in &left {
        assert!(!dir.0.join(name).exists(), "{name}");
        let line = format!(
            "kyaml fmt: ./{name}: removed: a temporary file of `kyaml fmt -w` left by process {gone}, which is gone"
        );
        assert!(said.lines().any(|l| l == line), "{line}\n{said}");
    }
    assert_eq!(said.lines().count(), left.len(), "{said}");
    for name in &kept {
        assert!(dir.0.join(name).exists(), "{name}");
    }
}
