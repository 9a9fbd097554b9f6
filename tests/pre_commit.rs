//! The hooks of `.pre-commit-hooks.yaml`, tried with `pre-commit try-repo`
//! on a scratch repository (skipped, saying so, without `pre-commit` and
//! `git`; `pip install pre-commit` brings it). A try builds the crate
//! (`language: rust`), about a minute, so it runs in CI (`CI` set) or
//! when `KYAML_TEST_PRE_COMMIT=1` asks for it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const MESSY: &str = "# head\na: 1 # one\n";
const TIDY: &str = "---\n{\n  # head\n  a: 1, # one\n}\n";

struct Dir(PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn have(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn run(dir: &Path, program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("it runs")
}

#[test]
fn the_hooks_check_and_write_a_repository() {
    // A try builds the crate in release (a minute of CPU): in CI, or when
    // asked for.
    let asked = ["CI", "KYAML_TEST_PRE_COMMIT"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|v| !v.is_empty() && v != "false"));
    if !asked {
        println!("skipped: set KYAML_TEST_PRE_COMMIT=1 (CI does) to try the hooks");
        return;
    }
    if !have("pre-commit") || !have("git") {
        println!("skipped: no `pre-commit` or `git` (pip install pre-commit)");
        return;
    }
    let dir = Dir(std::env::temp_dir().join(format!("kyaml-pre-commit-{}", std::process::id())));
    let _ = fs::remove_dir_all(&dir.0);
    fs::create_dir_all(dir.0.join("chart/templates")).unwrap();
    fs::write(dir.0.join("a.yaml"), MESSY).unwrap();
    fs::write(dir.0.join("b.yaml"), TIDY).unwrap();
    fs::write(
        dir.0.join("chart/Chart.yaml"),
        "---\n{\n  name: \"c\",\n}\n",
    )
    .unwrap();
    let template = "x: {{ .Values.x }}\n";
    fs::write(dir.0.join("chart/templates/t.yaml"), template).unwrap();
    assert!(run(&dir.0, "git", &["init", "-q"]).status.success());
    assert!(run(&dir.0, "git", &["add", "."]).status.success());
    let crate_root = env!("CARGO_MANIFEST_DIR");
    // Both hooks in one try (each try builds the crate anew; pre-commit
    // runs them by id): the writing hook formats a.yaml alone and fails, as
    // hooks that change files do; the checking one then passes. The
    // `language: python` twins install the PyPI wheel (python/test.sh
    // tries them with one built here): skipped, so not installed.
    let out = Command::new("pre-commit")
        .args(["try-repo", crate_root, "--all-files", "--verbose"])
        .env("SKIP", "kyaml-fmt-python,kyaml-fmt-check-python")
        .current_dir(&dir.0)
        .output()
        .expect("it runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let (write, check) = stdout
        .split_once("kyaml fmt --check.....")
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(write.contains("- hook id: kyaml-fmt\n"), "{stdout}");
    assert!(
        write.contains("files were modified by this hook"),
        "{stdout}"
    );
    assert!(
        check.starts_with(".") && check.contains("Passed"),
        "{stdout}"
    );
    assert_eq!(fs::read_to_string(dir.0.join("a.yaml")).unwrap(), TIDY);
    assert_eq!(fs::read_to_string(dir.0.join("b.yaml")).unwrap(), TIDY);
    assert_eq!(
        fs::read_to_string(dir.0.join("chart/templates/t.yaml")).unwrap(),
        template
    );
}
