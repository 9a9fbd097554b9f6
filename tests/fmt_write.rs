//! `kyaml fmt -w` loses nothing and leaks nothing: the temporary file is
//! never more readable than the original (looked at while the run is
//! paused before the rename, a hook of debug builds), a file changed
//! between the read and the replace is left with the change (exit 1);
//! after `kill -9` at any moment, or at each step of every write path
//! (strace), each file holds its old text or its new one, or (written in
//! place) a mix with its backup beside it, which the next run puts back;
//! an error at each step (a full disk) leaves the file as the message
//! says; a file that may not be written is refused; ACLs, extended
//! attributes and owners are kept; and what a kill leaves beside a file
//! is settled by the next run on the file or its folder.
//!
//! The tests that need strace, `setfacl`/`getfattr`, root or `mount` skip
//! without them, saying so.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
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
        // Looked at until the run ends (it may start late on a busy
        // machine): it pauses with the file written.
        let mut seen = Vec::new();
        while seen.is_empty() && child.try_wait().unwrap().is_none() {
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

/// A later `-w` removes what such a kill left (a `.NAME.kyaml-tmp-PID-N`
/// file whose process is gone): beside each file it is given, and in every
/// folder it walks, saying so; it keeps the file of a process that runs,
/// every name that is not exactly one of ours, and all of them under
/// `--check`, printing and `-d`.
#[test]
fn a_later_write_removes_what_a_kill_left() {
    let dir = Dir::new("leftovers");
    let gone = gone_pid();
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
        format!("sub/.b.yaml.kyaml-tmp-{runs}-0"),
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
        &["fmt", "--check", "a.yaml", "sub/b.yaml"],
        &["fmt", "a.yaml"],
    ] {
        dir.write("a.yaml", MESSY);
        dir.write("sub/b.yaml", MESSY);
        let out = kyaml(args).dir(&dir.0).output();
        assert!(!text(&out.stderr).contains("removed"), "{args:?}");
        for name in all() {
            assert!(dir.0.join(name).exists(), "{args:?}: {name}");
        }
    }
    let removed = |shown: &str| {
        format!(
            "kyaml fmt: {shown}: removed: a temporary file of `kyaml fmt -w` left by process {gone}, which is gone\n"
        )
    };
    // A file given alone: what is beside it, and nothing else.
    let out = kyaml(&["fmt", "-w", "sub/b.yaml"]).dir(&dir.0).output();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stderr), removed(&left[1]));
    assert!(!dir.0.join(&left[1]).exists());
    assert!(dir.0.join(&left[0]).exists());
    // A symbolic link given: what is beside its target.
    dir.write(&left[1], TIDY);
    std::os::unix::fs::symlink("sub/b.yaml", dir.0.join("link.yml")).unwrap();
    let out = kyaml(&["fmt", "-w", "link.yml"]).dir(&dir.0).output();
    fs::remove_file(dir.0.join("link.yml")).unwrap();
    assert_eq!(out.status.code(), Some(0));
    let shown = fs::canonicalize(&dir.0).unwrap().join(&left[1]);
    assert_eq!(text(&out.stderr), removed(shown.to_str().unwrap()));
    assert!(!dir.0.join(&left[1]).exists());
    // A walk: what is under it.
    dir.write(&left[1], TIDY);
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
        let line = removed(&format!("./{name}"));
        assert!(
            said.lines().any(|l| format!("{l}\n") == line),
            "{line}\n{said}"
        );
    }
    assert_eq!(said.lines().count(), left.len(), "{said}");
    for name in &kept {
        assert!(dir.0.join(name).exists(), "{name}");
    }
}

/// The number of a process that has ended.
fn gone_pid() -> u32 {
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

/// Whether this process runs as root.
fn root() -> bool {
    fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// `kyaml fmt`'s new text for `old`.
fn formatted(old: &str) -> String {
    let out = kyaml(&["fmt"]).stdin(old).output();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// A file whose new text is longer than it (three pages against five),
/// and one whose new text is shorter.
fn growing() -> String {
    (0..400).map(|i| format!("k{i}: [v, {i}]\n")).collect()
}

fn shrinking() -> String {
    (0..300)
        .map(|i| format!("k{i}:     {i}        # {i}                    \n"))
        .collect()
}

/// The names in `dir` other than those given (what a run left).
fn left_in(dir: &Dir, except: &[&str]) -> Vec<String> {
    let mut names = dir.names();
    names.retain(|name| !except.contains(&name.as_str()));
    names
}

/// strace, where it is installed and may trace: it injects a `kill -9`
/// or an error at any system call of a run.
struct Strace;

/// The system calls that change files (and `openat`, which makes them):
/// where a kill or an error is injected.
const CHANGES: &str = "openat,write,pwrite64,writev,copy_file_range,sendfile,fsync,fdatasync,\
linkat,link,rename,renameat,renameat2,unlink,unlinkat,ftruncate,fchown,fchmod,fsetxattr,fremovexattr";

impl Strace {
    fn here() -> Option<Strace> {
        let works = std::process::Command::new("strace")
            .args(["-o", "/dev/null", "true"])
            .output()
            .is_ok_and(|out| out.status.success());
        if !works {
            println!("skipped: no strace that may trace here (apt package strace)");
        }
        works.then_some(Strace)
    }

    /// Runs `kyaml args` in `dir` with `env` under strace, with `inject`
    /// (`CALL:signal=KILL:when=N`, ...); its log in `log`.
    fn run(
        &self,
        dir: &Dir,
        args: &[&str],
        env: &[(&str, &str)],
        inject: Option<&str>,
        log: &str,
    ) -> std::process::Output {
        let mut command = std::process::Command::new("strace");
        command.args(["-o", log, "-e", &format!("trace={CHANGES}")]);
        if let Some(inject) = inject {
            command.args(["-e", &format!("inject={inject}")]);
        }
        command
            .arg(common::KYAML)
            .args(args)
            .current_dir(&dir.0)
            .envs(env.iter().copied())
            .output()
            .unwrap()
    }

    /// The steps of `kyaml args` from the making of its first temporary
    /// file on: each call of [`CHANGES`] with its number among the calls
    /// of its name (counted from the start, as strace's `when` counts).
    fn steps(&self, dir: &Dir, args: &[&str], env: &[(&str, &str)]) -> Vec<(String, usize)> {
        let log = format!("{}.strace", dir.0.display());
        assert!(self.run(dir, args, env, None, &log).status.success());
        let log_text = fs::read_to_string(&log).unwrap();
        let _ = fs::remove_file(&log);
        let mut counts = std::collections::HashMap::new();
        let mut steps = Vec::new();
        for line in log_text.lines() {
            let Some((call, _)) = line.split_once('(') else {
                continue;
            };
            let count = counts.entry(call.to_string()).or_insert(0);
            *count += 1;
            if !steps.is_empty() || line.contains("O_TMPFILE") || line.contains(".kyaml-tmp-") {
                steps.push((call.to_string(), *count));
            }
        }
        steps
    }
}

/// The write paths: renamed over the original (one name), or copied into
/// it (two names), each with an unnamed temporary file or a named one,
/// and for the copy a file that grows and one that shrinks (a kill
/// before the cut leaves the new text then the old tail).
fn write_paths() -> Vec<(bool, bool, String)> {
    vec![
        (false, false, growing()),
        (true, false, growing()),
        (true, false, shrinking()),
        (false, true, growing()),
        (true, true, growing()),
    ]
}

/// `kill -9` at each step of every write path (injected by strace at
/// each call that changes a file): the file holds its old text or its
/// new, or (written in place) a mix, with a backup of the old text beside
/// it. Then `--check` says what it is (a mix: `HALF WRITTEN`, exit 2) and
/// changes nothing, and `-w` puts the old text back into a mix, removes
/// what the kill left and writes the new text, under both names.
#[test]
fn kill_9_at_each_step_of_every_write_path_leaves_a_whole_file_or_one_the_next_run_restores() {
    let Some(strace) = Strace::here() else {
        return;
    };
    let dir = Dir::new("kill-steps");
    let args = ["fmt", "-w", "f.yaml"];
    let (mut kills, mut halves) = (0, 0);
    for (linked, named, old) in write_paths() {
        let new = formatted(&old);
        let env: &[(&str, &str)] = match named {
            true => &[("KYAML_FMT_NAMED_TEMP", "1")],
            false => &[],
        };
        let names: &[&str] = if linked {
            &["f.yaml", "g.yaml"]
        } else {
            &["f.yaml"]
        };
        let set_up = || {
            for name in dir.names() {
                fs::remove_file(dir.0.join(name)).unwrap();
            }
            dir.write("f.yaml", &old);
            if linked {
                fs::hard_link(dir.0.join("f.yaml"), dir.0.join("g.yaml")).unwrap();
            }
        };
        let inode = |name: &str| fs::metadata(dir.0.join(name)).unwrap().ino();
        set_up();
        let steps = strace.steps(&dir, &args, env);
        let last = if linked { "unlink" } else { "rename" };
        assert!(steps.iter().any(|(call, _)| call == last), "{steps:?}");
        for (call, n) in steps {
            let case = format!("linked {linked}, named {named}, kill at {call} {n}");
            set_up();
            let ino = inode("f.yaml");
            let inject = format!("{call}:signal=KILL:when={n}");
            let out = strace.run(&dir, &args, env, Some(&inject), "/dev/null");
            assert!(!out.status.success(), "{case}");
            kills += 1;
            let now = dir.read("f.yaml");
            if linked {
                assert_eq!(inode("g.yaml"), ino, "{case}");
            }
            let left = left_in(&dir, names);
            let half = now != old && now != new;
            if half {
                // A mix, and beside it the whole old text and the new.
                assert!(linked, "{case}");
                let backup = left.iter().find(|name| name.ends_with(".old"));
                let backup = backup.unwrap_or_else(|| panic!("{case}: no backup in {left:?}"));
                assert_eq!(dir.read(backup), old, "{case}");
                assert_eq!(
                    dir.read(backup.strip_suffix(".old").unwrap()),
                    new,
                    "{case}"
                );
                halves += 1;
            }
            if half {
                let check = kyaml(&["fmt", "--check", "f.yaml"]).dir(&dir.0).output();
                let said = text(&check.stderr);
                assert_eq!(check.status.code(), Some(2), "{case}: {said}");
                assert!(
                    said.starts_with("kyaml fmt: f.yaml: HALF WRITTEN: "),
                    "{case}: {said}"
                );
                assert_eq!(dir.read("f.yaml"), now, "{case}");
                assert_eq!(left_in(&dir, names), left, "{case}");
            }
            let write = kyaml(&args).dir(&dir.0).output();
            let said = text(&write.stderr);
            assert_eq!(write.status.code(), Some(0), "{case}: {said}");
            assert_eq!(
                said.contains("old text was put back"),
                half,
                "{case}: {said}"
            );
            for name in names {
                assert_eq!(dir.read(name), new, "{case}: {name}");
            }
            assert_eq!(dir.names(), names, "{case}");
        }
    }
    // Every path was cut at its every step, some in the midst of the copy.
    assert!(kills > 60 && halves >= 2, "{kills} kills, {halves} halves");
}

/// A full disk (`ENOSPC` injected by strace at each step of every write
/// path; then from that step on, so that putting the old text back fails
/// too): the message says what the file holds, and it does: `left as it
/// was` or `its old text put back`, with nothing beside it; `HALF
/// WRITTEN`, with the backup named; or no error (a failed clean-up, which
/// the next run finishes). The next `-w` leaves the new text alone.
#[test]
fn an_error_at_each_step_leaves_the_file_as_its_message_says() {
    let Some(strace) = Strace::here() else {
        return;
    };
    let dir = Dir::new("error-steps");
    let args = ["fmt", "-w", "f.yaml"];
    let mut said_kinds = std::collections::BTreeSet::new();
    for (linked, named, old) in write_paths().into_iter().filter(|p| !p.1) {
        let new = formatted(&old);
        let names: &[&str] = if linked {
            &["f.yaml", "g.yaml"]
        } else {
            &["f.yaml"]
        };
        let set_up = || {
            for name in dir.names() {
                fs::remove_file(dir.0.join(name)).unwrap();
            }
            dir.write("f.yaml", &old);
            if linked {
                fs::hard_link(dir.0.join("f.yaml"), dir.0.join("g.yaml")).unwrap();
            }
        };
        set_up();
        for (call, n) in strace.steps(&dir, &args, &[]) {
            // From that step on too, for the calls that putting the old
            // text back makes.
            let again = ["copy_file_range", "ftruncate", "fsync"].contains(&call.as_str());
            for from_on in ["", "+"].into_iter().filter(|on| on.is_empty() || again) {
                let case = format!("linked {linked}, named {named}, ENOSPC at {call} {n}{from_on}");
                set_up();
                let inject = format!("{call}:error=ENOSPC:when={n}{from_on}");
                let out = strace.run(&dir, &args, &[], Some(&inject), "/dev/null");
                let said = text(&out.stderr);
                let now = dir.read("f.yaml");
                if linked {
                    assert_eq!(dir.read("g.yaml"), now, "{case}");
                }
                let kind = match out.status.code() {
                    Some(0) => {
                        assert_eq!(now, new, "{case}");
                        "done"
                    }
                    Some(2) if said.contains("HALF WRITTEN: No space left on device, and putting back its old text failed") => {
                        let backup = left_in(&dir, names).into_iter().find(|n| n.ends_with(".old"));
                        let backup = backup.unwrap_or_else(|| panic!("{case}: no backup"));
                        assert!(said.contains(&format!("{backup}, the new in ")), "{case}: {said}");
                        assert_eq!(dir.read(&backup), old, "{case}");
                        "half written"
                    }
                    Some(2) => {
                        let kind = match said.strip_prefix("kyaml fmt: f.yaml: not rewritten (") {
                            Some(rest) if rest.starts_with("left as it was): ") => "left",
                            Some(rest) if rest.starts_with("its old text put back): ") => "put back",
                            _ => panic!("{case}: {said}"),
                        };
                        assert!(said.ends_with("No space left on device\n"), "{case}: {said}");
                        assert_eq!(said.lines().count(), 1, "{case}: {said}");
                        assert_eq!(now, old, "{case}");
                        assert_eq!(dir.names(), names, "{case}");
                        kind
                    }
                    _ => panic!("{case}: {said}"),
                };
                said_kinds.insert(kind);
                let write = kyaml(&args).dir(&dir.0).output();
                let said = text(&write.stderr);
                assert_eq!(write.status.code(), Some(0), "{case}: {said}");
                for name in names {
                    assert_eq!(dir.read(name), new, "{case}: {name}");
                }
                assert_eq!(dir.names(), names, "{case}");
            }
        }
    }
    let all = ["done", "half written", "left", "put back"];
    assert_eq!(said_kinds.into_iter().collect::<Vec<_>>(), all);
}

/// Runs `command` (a program and its arguments) as a check of what this
/// machine has: whether it succeeded.
fn succeeds(command: &[&str]) -> bool {
    std::process::Command::new(command[0])
        .args(&command[1..])
        .output()
        .is_ok_and(|out| out.status.success())
}

/// A folder mounted on `Mounted.0` (a file system made for the test),
/// unmounted when dropped.
struct Mounted(std::path::PathBuf);

impl Mounted {
    /// `mount ARGS... PATH`, if this process may (root, in a sandbox that
    /// allows it); `None`, said on standard output, if not.
    fn new(path: &std::path::Path, args: &[&str]) -> Option<Mounted> {
        fs::create_dir_all(path).unwrap();
        let target = path.to_str().unwrap();
        let mounted = root() && succeeds(&[&["mount"], args, &[target]].concat());
        if !mounted {
            println!(
                "skipped: cannot `mount {}` here (not root?)",
                args.join(" ")
            );
        }
        mounted.then(|| Mounted(path.to_path_buf()))
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        succeeds(&["umount", self.0.to_str().unwrap()]);
    }
}

/// A hard-linked file on a full disk (a 256 KiB tmpfs filled up, then
/// 0 to 12 pages freed, so that each step of the writing in place runs
/// out of space in turn: the new text, the backup, the growth of the
/// file): it holds its old text or its new under both names, the message
/// says which, and nothing is left beside it. Before, both names held a
/// truncated file.
#[test]
fn a_hard_linked_file_on_a_full_disk_is_never_left_part_written() {
    let dir = Dir::new("full-disk");
    let Some(disk) = Mounted::new(
        &dir.0.join("disk"),
        &["-t", "tmpfs", "-o", "size=256k", "tmpfs"],
    ) else {
        return;
    };
    let disk = Dir(disk.0.clone());
    let old = growing();
    let new = formatted(&old);
    let page: u64 = 4096;
    let mut seen = std::collections::BTreeSet::new();
    for free in 0..=12 {
        for name in disk.names() {
            fs::remove_file(disk.0.join(name)).unwrap();
        }
        disk.write("f.yaml", &old);
        fs::hard_link(disk.0.join("f.yaml"), disk.0.join("g.yaml")).unwrap();
        let mut filler = fs::File::create(disk.0.join("filler")).unwrap();
        let mut size = 0;
        while std::io::Write::write_all(&mut filler, &[b'x'; 4096]).is_ok() {
            size += page;
        }
        filler.set_len(size.saturating_sub(free * page)).unwrap();
        drop(filler);
        let out = kyaml(&["fmt", "-w", "f.yaml"]).dir(&disk.0).output();
        let said = text(&out.stderr);
        let now = disk.read("f.yaml");
        assert_eq!(disk.read("g.yaml"), now, "{free} pages free");
        let kind = match out.status.code() {
            Some(0) => "written",
            Some(2) if said == "kyaml fmt: f.yaml: not rewritten (left as it was): No space left on device\n" => "left",
            Some(2) if said == "kyaml fmt: f.yaml: not rewritten (its old text put back): No space left on device\n" => "put back",
            _ => panic!("{free} pages free: {said}"),
        };
        let expected = if kind == "written" { &new } else { &old };
        assert!(
            now == *expected,
            "{free} pages free: {kind}, yet the file differs"
        );
        assert_eq!(
            disk.names(),
            ["f.yaml", "filler", "g.yaml"],
            "{free} pages free"
        );
        seen.insert(kind);
    }
    // Each way out was met: out of space before the original was
    // touched, while it was overwritten, and not at all.
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        ["left", "put back", "written"]
    );
    // Not mounted in the directory removed.
    drop(disk);
}

/// A file this process may not write is refused, `permission denied`,
/// exit 2, and left as it is: a mode without a write bit (even for root,
/// whom the system lets write it), the immutable flag, a read-only mount.
/// The other files are still written.
#[test]
fn a_file_that_may_not_be_written_is_refused() {
    let dir = Dir::new("read-only");
    let refused = |name: &str, why: &str| {
        dir.write("other.yaml", MESSY);
        let out = kyaml(&["fmt", "-w", name, "other.yaml"])
            .dir(&dir.0)
            .output();
        assert_eq!(out.status.code(), Some(2), "{name}");
        let line =
            format!("kyaml fmt: {name}: not rewritten (left as it was): permission denied{why}\n");
        assert_eq!(text(&out.stderr), line);
        assert_eq!(dir.read(name), MESSY, "{name}");
        assert_eq!(dir.read("other.yaml"), TIDY, "{name}");
    };
    let file = dir.write("r.yaml", MESSY);
    fs::set_permissions(&file, fs::Permissions::from_mode(0o444)).unwrap();
    refused("r.yaml", ": its mode, 0444, lets no one write it");
    assert_eq!(fs::metadata(&file).unwrap().mode() & 0o7777, 0o444);
    let file = dir.write("i.yaml", MESSY);
    match succeeds(&["chattr", "+i", file.to_str().unwrap()]) {
        true => {
            refused(
                "i.yaml",
                ": it is marked immutable or append-only (`lsattr`)",
            );
            succeeds(&["chattr", "-i", file.to_str().unwrap()]);
        }
        false => println!("skipped: `chattr +i` fails here (not root, or no such flag)"),
    }
    let ro = dir.0.join("ro");
    fs::create_dir_all(&ro).unwrap();
    fs::write(ro.join("m.yaml"), MESSY).unwrap();
    if let Some(mounted) = Mounted::new(&ro, &["--bind", ro.to_str().unwrap()]) {
        if succeeds(&["mount", "-o", "remount,bind,ro", ro.to_str().unwrap()]) {
            refused("ro/m.yaml", ": it is on a read-only file system");
        }
        drop(mounted);
    }
    assert_eq!(dir.read("ro/m.yaml"), MESSY);
}

/// The ACL and the extended attributes of a file (all that `getfattr -m
/// -` lists) are the same after `-w`, which replaced the file (another
/// inode): they were given to the new file. A file with none gets none,
/// even in a folder whose default ACL gives new files one.
#[test]
fn acls_and_extended_attributes_are_kept() {
    if !(succeeds(&["setfacl", "--version"]) && succeeds(&["getfattr", "--version"])) {
        println!("skipped: no setfacl or getfattr (apt packages acl, attr)");
        return;
    }
    let dir = Dir::new("attrs");
    let file = dir.write("acl.yaml", MESSY);
    let plain = dir.write("plain.yaml", MESSY);
    let path = |file: &std::path::Path| file.to_str().unwrap().to_owned();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).unwrap();
    let set = succeeds(&["setfacl", "-m", "u:1234:rw-", &path(&file)])
        && succeeds(&["setfattr", "-n", "user.note", "-v", "kept", &path(&file)])
        && succeeds(&["setfacl", "-d", "-m", "u:4321:rwx", &path(&dir.0)]);
    if !set {
        println!("skipped: this file system takes no ACL or user.* attribute");
        return;
    }
    let attrs = |file: &std::path::Path| {
        let out = std::process::Command::new("getfattr")
            .args(["-d", "-m", "-", "--absolute-names", &path(file)])
            .output()
            .unwrap();
        let meta = fs::metadata(file).unwrap();
        let listed = String::from_utf8(out.stdout).unwrap();
        (listed, meta.mode() & 0o7777, meta.ino())
    };
    for file in [file, plain] {
        let before = attrs(&file);
        assert_eq!(before.0.contains("user.note"), file.ends_with("acl.yaml"));
        let out = kyaml(&["fmt", "-w", &path(&file)]).output();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(fs::read_to_string(&file).unwrap(), TIDY);
        let after = attrs(&file);
        assert_eq!((&after.0, after.1), (&before.0, before.1), "{file:?}");
        assert_ne!(after.2, before.2, "{file:?} was replaced");
    }
}

/// As a user who cannot give a new file the original's owner or group
/// (not root: `fchown` is not permitted), `-w` writes the file in place,
/// through its backup: the owner, group, mode and inode stay. A file of
/// the user's own is replaced as usual, and one the user may not write is
/// refused. Before, a root-owned 0666 file became the user's.
#[test]
fn a_file_whose_owner_cannot_be_kept_is_written_in_place() {
    if !root() {
        println!("skipped: not root, so no other user to run as");
        return;
    }
    let Some(dir) = Dir::reachable_by_others("owners") else {
        return;
    };
    fs::set_permissions(&dir.0, fs::Permissions::from_mode(0o777)).unwrap();
    let chown = |name: &str, uid, gid| {
        std::os::unix::fs::chown(dir.0.join(name), Some(uid), Some(gid)).unwrap();
    };
    // (file, owner, group, mode, written in place, refused)
    let files = [
        ("shared.yaml", 0, 0, 0o666, true, false),
        ("theirs.yaml", 1234, 0, 0o664, true, false),
        ("own.yaml", 1234, 1234, 0o640, false, false),
        ("root.yaml", 0, 0, 0o644, false, true),
    ];
    for (name, uid, gid, mode, ..) in files {
        dir.write(name, MESSY);
        chown(name, uid, gid);
        fs::set_permissions(dir.0.join(name), fs::Permissions::from_mode(mode)).unwrap();
    }
    let before: Vec<u64> = files
        .iter()
        .map(|f| fs::metadata(dir.0.join(f.0)).unwrap().ino())
        .collect();
    let Some((_bin_dir, bin)) = Dir::kyaml_for_others() else {
        return;
    };
    let out = std::process::Command::new(bin)
        .args(["fmt", "-w"])
        .args(files.map(|f| f.0))
        .current_dir(&dir.0)
        .uid(1234)
        .gid(1234)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "kyaml fmt: root.yaml: not rewritten (left as it was): permission denied\n"
    );
    for ((name, uid, gid, mode, in_place, refused), ino) in files.into_iter().zip(before) {
        let meta = fs::metadata(dir.0.join(name)).unwrap();
        let text = if refused { MESSY } else { TIDY };
        assert_eq!(dir.read(name), text, "{name}");
        let kept = (meta.uid(), meta.gid(), meta.mode() & 0o7777);
        assert_eq!(kept, (uid, gid, mode), "{name}");
        assert_eq!(meta.ino() == ino, in_place || refused, "{name}");
    }
    assert_eq!(dir.names().len(), files.len());
}

/// What an overwriting in place stopped by a kill left (a backup of the
/// old text, the new text, and the file: a mix of the two), as every mode
/// of a later run sees it: `--check`, printing and `-d` say it is half
/// written and skip it (exit 2), of a file named or walked; `-w` puts the
/// old text back, removes the two files and formats it. A file whole (old
/// or new) has its leftovers removed by `-w`, named by the other modes;
/// one that is neither (changed since) is skipped by every mode, the
/// files kept; so is one whose process still runs.
#[test]
fn what_a_stopped_overwriting_left_is_settled_by_the_next_run() {
    let dir = Dir::new("settle");
    let gone = gone_pid();
    let old = shrinking();
    let new = formatted(&old);
    // `new`, then the old tail: a kill before the cut.
    let half = format!("{new}{}", &old[new.len()..]);
    let leave = |name: &str, now: &str, pid: u32| {
        dir.write(name, now);
        dir.write(&format!(".{name}.kyaml-tmp-{pid}-3.old"), &old);
        dir.write(&format!(".{name}.kyaml-tmp-{pid}-3"), &new);
    };
    let backup = format!(".f.yaml.kyaml-tmp-{gone}-3.old");
    for args in [
        &["fmt", "--check", "f.yaml"][..],
        &["fmt", "f.yaml"],
        &["fmt", "-d", "f.yaml"],
        &["fmt", "--check", "."],
    ] {
        leave("f.yaml", &half, gone);
        let out = kyaml(args).dir(&dir.0).output();
        let shown = if args.contains(&".") { "./" } else { "" };
        let said = format!(
            "kyaml fmt: {shown}f.yaml: HALF WRITTEN: `kyaml fmt -w` (process {gone}) was stopped while it wrote it; skipped: its old text is in {shown}{backup}, and `kyaml fmt -w {shown}f.yaml` puts it back\n"
        );
        assert_eq!(text(&out.stderr), said, "{args:?}");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(dir.read("f.yaml"), half, "{args:?}");
        assert_eq!(dir.names().len(), 3, "{args:?}");
    }
    let out = kyaml(&["fmt", "-w", "f.yaml"]).dir(&dir.0).output();
    assert_eq!(
        text(&out.stderr),
        format!("kyaml fmt: f.yaml: `kyaml fmt -w` (process {gone}) was stopped while it wrote it: its old text was put back from {backup}; the files it left are removed\n")
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(dir.read("f.yaml"), new);
    assert_eq!(dir.names(), ["f.yaml"]);
    // A file that grows, stopped in the midst of the copy: longer than
    // its old text, shorter than its new.
    let grown = growing();
    let grown_new = formatted(&grown);
    let at = (grown.len() + grown_new.len()) / 2;
    dir.write("g.yaml", &grown_new[..at]);
    dir.write(&format!(".g.yaml.kyaml-tmp-{gone}-0.old"), &grown);
    dir.write(&format!(".g.yaml.kyaml-tmp-{gone}-0"), &grown_new);
    let out = kyaml(&["fmt", "-w", "."]).dir(&dir.0).output();
    assert!(text(&out.stderr).contains("its old text was put back"));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(dir.read("g.yaml"), grown_new);
    fs::remove_file(dir.0.join("g.yaml")).unwrap();
    // Whole: said by `--check`, removed by `-w`.
    for (now, state) in [
        (&old, "before it changed it: it holds its old text"),
        (&new, "once it had written it whole"),
    ] {
        leave("f.yaml", now, gone);
        let stopped =
            format!("kyaml fmt: f.yaml: `kyaml fmt -w` (process {gone}) was stopped {state}");
        let out = kyaml(&["fmt", "--check", "f.yaml"]).dir(&dir.0).output();
        let said = text(&out.stderr);
        assert!(
            said.starts_with(&format!(
                "{stopped}; `kyaml fmt -w` removes the files it left ("
            )),
            "{said}"
        );
        assert_eq!(out.status.code(), Some(i32::from(now == &old)), "{said}");
        assert_eq!(dir.names().len(), 3);
        let out = kyaml(&["fmt", "-w", "f.yaml"]).dir(&dir.0).output();
        assert_eq!(
            text(&out.stderr),
            format!("{stopped}; the files it left are removed\n")
        );
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(
            (dir.read("f.yaml"), dir.names()),
            (new.clone(), vec!["f.yaml".into()])
        );
    }
    // Neither, or its process runs: skipped, in every mode.
    let mut running = std::process::Command::new("sleep")
        .arg("60")
        .spawn()
        .unwrap();
    for (pid, now, why) in [
        (gone, "a: changed\n", "it holds neither"),
        (
            running.id(),
            half.as_str(),
            "skipped: `kyaml fmt -w` process",
        ),
    ] {
        leave("f.yaml", now, pid);
        for mode in ["--check", "-w"] {
            let out = kyaml(&["fmt", mode, "."]).dir(&dir.0).output();
            let said = text(&out.stderr);
            assert!(said.contains(why), "{mode} {why}: {said}");
            assert_eq!(out.status.code(), Some(2), "{mode} {why}: {said}");
            assert_eq!(dir.read("f.yaml"), now);
            assert_eq!(dir.names().len(), 3);
        }
        for name in dir.names() {
            fs::remove_file(dir.0.join(name)).unwrap();
        }
    }
    let _ = running.kill();
    let _ = running.wait();
}
