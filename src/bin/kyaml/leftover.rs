//! What a `kyaml fmt -w` stopped by a kill (or a crash) can leave beside
//! a file, and how a later `kyaml fmt` on that file or its folder settles
//! it. This module owns the names of `-w`'s temporary files:
//!
//! - `.NAME.kyaml-tmp-PID-N` ([`temp_name`]): a new text, whole (it is
//!   named once complete, or made under that name when `O_TMPFILE` fails,
//!   and then holds a part). The original holds its old text or, once the
//!   rename or the overwriting is done, the new: a `-w` run removes such a
//!   file once process PID is gone; other modes keep it;
//! - `.NAME.kyaml-tmp-PID-N.old` ([`backup_name`]): the whole old text of
//!   NAME, which process PID is overwriting in place (`replace`). It
//!   exists only while the new text above does. When PID is gone, NAME
//!   holds the old text, the new, or a mix of the two (each byte the old
//!   one or the new one, its length between the two texts'): a
//!   `-w` run puts the old text back into a mix and removes both files;
//!   other modes say so and skip a mixed file (exit 2). A NAME that is
//!   none of these (changed since?) is skipped and the two files kept, in
//!   every mode.
//!
//! Whether PID is gone is asked of the system (`kill(PID, 0)`); a run of
//! another PID namespace (a container) writing in the same folder looks
//! gone (its rename then fails, and its file is left as it was: nothing
//! is lost).

use std::collections::{HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::cli::{self, Tool};
use crate::replace;
use crate::walk::{Found, TEMP_MARK};

/// What ends a backup's name: [`backup_name`].
const BACKUP: &str = ".old";

/// A name for a temporary file beside `target`: `.NAME.kyaml-tmp-PID-N`.
pub(crate) fn temp_name(dir: &Path, target: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let mut name = OsString::from(".");
    name.push(target.file_name().unwrap_or_default());
    name.push(format!(
        "{TEMP_MARK}{}-{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    ));
    dir.join(name)
}

/// The name of the backup that goes with the new text named `new` (a
/// [`temp_name`]): `.NAME.kyaml-tmp-PID-N.old`.
pub(crate) fn backup_name(new: &Path) -> PathBuf {
    let mut name = new.as_os_str().to_owned();
    name.push(BACKUP);
    PathBuf::from(name)
}

/// A name [`temp_name`] or [`backup_name`] made, read back.
#[derive(PartialEq, Eq, Debug)]
struct Left {
    /// NAME: the file it is of.
    of: OsString,
    /// The process that made it.
    pid: u32,
    /// A backup (else a new text).
    backup: bool,
}

/// Reads `name` back if it is exactly one that [`temp_name`] or
/// [`backup_name`] makes: NAME not empty, PID and N decimal numbers as
/// `format!` writes them.
fn parse(name: &OsStr) -> Option<Left> {
    let name = name.to_str()?;
    let (name, backup) = match name.strip_suffix(BACKUP) {
        Some(new) => (new, true),
        None => (name, false),
    };
    let (of, numbers) = name.strip_prefix('.')?.rsplit_once(TEMP_MARK)?;
    let (pid, n) = numbers.split_once('-')?;
    // Digits, and no leading zero.
    let number = |text: &str| {
        let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        digits && (text == "0" || !text.starts_with('0'))
    };
    if of.is_empty() || !number(pid) || !number(n) || n.parse::<usize>().is_err() {
        return None;
    }
    let pid = pid.parse().ok().filter(|&pid| pid > 0)?;
    Some(Left {
        of: OsString::from(of),
        pid,
        backup,
    })
}

/// Whether no process numbered `pid` runs: `kill(pid, 0)` says there is
/// none (`ESRCH`; `EPERM` is one of another user's).
#[cfg(unix)]
fn process_gone(pid: u32) -> bool {
    extern "C" {
        fn kill(pid: i32, signal: i32) -> i32;
    }
    const ESRCH: i32 = 3;
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 sends nothing; the call only asks whether `pid`
    // exists.
    let status = unsafe { kill(pid, 0) };
    pid != 0 && status != 0 && io::Error::last_os_error().raw_os_error() == Some(ESRCH)
}

#[cfg(not(unix))]
fn process_gone(_: u32) -> bool {
    false
}

/// What [`settle`] did: the files that this run must not read (their
/// canonical paths), and whether it met trouble (exit status 2).
pub(crate) struct Settled {
    skipped: Vec<PathBuf>,
    pub(crate) trouble: bool,
}

impl Settled {
    /// Whether `file` is to be left alone: said already.
    pub(crate) fn skips(&self, file: &Path) -> bool {
        !self.skipped.is_empty()
            && fs::canonicalize(file).is_ok_and(|file| self.skipped.contains(&file))
    }
}

/// Settles what stopped `-w` runs left beside the files of this run: the
/// temporary files walks met, and those beside each file named
/// (`found.named`), as the module's doc says (`write`: a `-w` run).
/// Says on standard error what it found and did, naming the file.
pub(crate) fn settle(tool: Tool, found: &Found, write: bool) -> Settled {
    let mut settled = Settled {
        skipped: Vec::new(),
        trouble: false,
    };
    let mut listed = HashMap::new();
    let beside = found
        .named
        .iter()
        .flat_map(|file| beside(file, &mut listed));
    // Each once (a named file may be in a walked folder too).
    let mut seen = HashSet::new();
    let mut lefts = Vec::new();
    for path in found.temps.iter().cloned().chain(beside) {
        let Some(left) = path.file_name().and_then(parse) else {
            continue;
        };
        let dir = path.parent().filter(|dir| !dir.as_os_str().is_empty());
        let key = fs::canonicalize(dir.unwrap_or(Path::new("."))).map(|dir| dir.join(&left.of));
        if seen.insert((key.ok(), path.file_name().map(OsStr::to_owned))) {
            lefts.push((path, left));
        }
    }
    // Backups first: the new text beside one is theirs to remove.
    let mut theirs = HashSet::new();
    for (backup, left) in lefts.iter().filter(|(_, left)| left.backup) {
        let new = backup.with_extension("");
        settle_backup(tool, backup, &new, left, write, &mut settled);
        theirs.insert(new);
    }
    for (temp, left) in &lefts {
        if left.backup || theirs.contains(temp) || !write || !process_gone(left.pid) {
            continue;
        }
        const WHAT: &str = "a temporary file of `kyaml fmt -w`";
        let said = match fs::remove_file(temp) {
            Ok(()) => format!(
                "removed: {WHAT} left by process {}, which is gone",
                left.pid
            ),
            // Gone meanwhile (renamed by a run this one cannot see).
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => format!("{WHAT}, not removed: {}", cli::in_words(&e)),
        };
        tool.failed(&cli::display_name(temp), said);
    }
    settled
}

/// What [`beside`] needs of a folder's listing: the names of `-w`'s
/// temporary files in it, and of its symbolic links (the listing says
/// which are, with no look-up each).
#[derive(Default)]
struct Listing {
    temps: Vec<OsString>,
    links: HashSet<OsString>,
}

impl Listing {
    fn of(dir: &Path) -> Listing {
        let mut listing = Listing::default();
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
            let name = entry.file_name();
            if entry.file_type().is_ok_and(|t| t.is_symlink()) {
                listing.links.insert(name);
            } else if name.to_string_lossy().contains(TEMP_MARK) {
                listing.temps.push(name);
            }
        }
        listing
    }
}

/// The temporary files of `-w` beside the file named `file` (beside its
/// target, for a symbolic link), each folder listed once in `listed`.
fn beside(file: &Path, listed: &mut HashMap<PathBuf, Listing>) -> Vec<PathBuf> {
    let (Some(dir), Some(name)) = (file.parent(), file.file_name()) else {
        return Vec::new();
    };
    let listing = listed
        .entry(dir.to_path_buf())
        .or_insert_with(|| Listing::of(dir));
    if listing.links.contains(name) {
        // The target's name is no link: this goes one level down.
        return match fs::canonicalize(file) {
            Ok(target) => beside(&target, listed),
            Err(_) => Vec::new(),
        };
    }
    let temps = listing.temps.iter();
    temps
        .filter(|temp| parse(temp).is_some_and(|left| left.of == name))
        .map(|temp| dir.join(temp))
        .collect()
}

/// Settles the backup `backup` and the new text `new` of the stopped
/// overwriting in place of the file `left.of` beside them.
fn settle_backup(
    tool: Tool,
    backup: &Path,
    new: &Path,
    left: &Left,
    write: bool,
    settled: &mut Settled,
) {
    let file = backup.with_file_name(&left.of);
    let name = cli::display_name(&file);
    let mut skip = |said: String| {
        tool.failed(&name, said);
        settled.trouble = true;
        if let Ok(file) = fs::canonicalize(&file) {
            settled.skipped.push(file);
        }
    };
    let (pid, shown) = (left.pid, backup.display());
    if !process_gone(pid) {
        return skip(format!(
            "skipped: `kyaml fmt -w` process {pid} is overwriting it (its backup {shown} \
             exists), or was and another process took its number"
        ));
    }
    let read = |path: &Path| match fs::read(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound && path == new => Ok(None),
        read => read.map(Some),
    };
    let (now, old, new_text) = match (read(&file), read(backup), read(new)) {
        (Ok(Some(now)), Ok(Some(old)), Ok(new_text)) => (now, old, new_text),
        (now, old, new_text) => {
            let e = [now.err(), old.err(), new_text.err()]
                .into_iter()
                .flatten()
                .next();
            let why = e.map(|e| cli::in_words(&e)).unwrap_or_default();
            return skip(format!(
                "skipped: it has the backup {shown} of a stopped `kyaml fmt -w`, which cannot be read: {why}"
            ));
        }
    };
    let new_text = new_text.unwrap_or_else(|| old.clone());
    let stopped = format!("`kyaml fmt -w` (process {pid}) was stopped");
    let state = match () {
        () if now == old => format!("{stopped} before it changed it: it holds its old text"),
        () if now == new_text => format!("{stopped} once it had written it whole"),
        () if mixed(&now, &old, &new_text) && !write => {
            return skip(format!(
                "HALF WRITTEN: {stopped} while it wrote it; skipped: its old text is in \
                 {shown}, and `kyaml fmt -w {name}` puts it back"
            ));
        }
        () if mixed(&now, &old, &new_text) => match replace::put_back(&file, backup) {
            Ok(()) => {
                format!("{stopped} while it wrote it: its old text was put back from {shown}")
            }
            Err(e) => {
                return skip(format!(
                    "HALF WRITTEN: {stopped} while it wrote it, and putting back its old \
                     text from {shown} failed: {}; skipped",
                    cli::in_words(&e)
                ));
            }
        },
        () => {
            return skip(format!(
                "skipped: it holds neither the old text nor the new of a stopped `kyaml fmt -w` \
                 (process {pid}): changed since? The old text is in {shown}, the new in {}; \
                 remove them when it is right",
                new.display()
            ));
        }
    };
    if !write {
        let said = format!(
            "{state}; `kyaml fmt -w` removes the files it left ({shown}, {})",
            new.display()
        );
        return tool.failed(&name, said);
    }
    // The backup first: a backup is never left without its new text.
    let removed = fs::remove_file(backup).and_then(|()| match fs::remove_file(new) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        removed => removed,
    });
    match removed {
        Ok(()) => tool.failed(&name, format!("{state}; the files it left are removed")),
        Err(e) => tool.failed(
            &name,
            format!(
                "{state}; the files it left ({shown}, {}) cannot be removed: {}",
                new.display(),
                cli::in_words(&e)
            ),
        ),
    }
}

/// Whether `now` is what copying `new` over `old` in place can leave,
/// stopped at any point (or written back in any order by a crash), or
/// what a putting back of `old` that failed midway leaves: each byte the
/// old one or the new one at its place, and a length from the shorter
/// text's to the longer one's (the copy extends the file, the cut
/// shortens it).
fn mixed(now: &[u8], old: &[u8], new: &[u8]) -> bool {
    let lengths = old.len().min(new.len())..=old.len().max(new.len());
    lengths.contains(&now.len())
        && now
            .iter()
            .enumerate()
            .all(|(i, b)| old.get(i) == Some(b) || new.get(i) == Some(b))
}

#[cfg(test)]
mod tests {
    use super::{backup_name, mixed, parse, temp_name, Left};
    use std::ffi::{OsStr, OsString};
    use std::path::Path;

    fn left(of: &str, pid: u32, backup: bool) -> Option<Left> {
        let of = OsString::from(of);
        Some(Left { of, pid, backup })
    }

    #[test]
    fn parse_reads_exactly_the_names_temp_name_and_backup_name_make() {
        let made = temp_name(Path::new("dir"), Path::new("dir/a.yaml"));
        let pid = std::process::id();
        assert_eq!(parse(made.file_name().unwrap()), left("a.yaml", pid, false));
        let backup = backup_name(&made);
        assert_eq!(
            parse(backup.file_name().unwrap()),
            left("a.yaml", pid, true)
        );
        assert_eq!(backup.parent(), Some(Path::new("dir")));
        let name = |name| parse(OsStr::new(name));
        assert_eq!(name(".a.yaml.kyaml-tmp-12-0"), left("a.yaml", 12, false));
        assert_eq!(name("..yaml.kyaml-tmp-7-30"), left(".yaml", 7, false));
        assert_eq!(name(".a.yaml.kyaml-tmp-7-3.old"), left("a.yaml", 7, true));
        for other in [
            "a.yaml.kyaml-tmp-12-0",
            "..kyaml-tmp-12-0",
            ".a.yaml.kyaml-tmp-12-0.yaml",
            ".a.yaml.kyaml-tmp-12-0.bak",
            ".a.yaml.kyaml-tmp-12-0.old.old",
            ".a.yaml.kyaml-tmp-12-",
            ".a.yaml.kyaml-tmp--0",
            ".a.yaml.kyaml-tmp-12",
            ".a.yaml.kyaml-tmp-012-0",
            ".a.yaml.kyaml-tmp-12-01",
            ".a.yaml.kyaml-tmp-+12-0",
            ".a.yaml.kyaml-tmp-0-0",
            ".a.yaml.kyaml-tmp-12-0-1",
            ".a.yaml.kyaml-tmp-99999999999-0",
            ".a.yaml.kyaml-tmp-12-0 ",
            ".a.yaml.kyaml.tmp-12-0",
        ] {
            assert_eq!(name(other), None, "{other}");
        }
    }

    #[test]
    fn mixed_is_what_a_copy_in_place_or_its_undoing_stopped_anywhere_leaves() {
        let (old, new) = (&b"old text, longer"[..], &b"NEW TEXT"[..]);
        for (a, b) in [(old, new), (new, old)] {
            for at in 0..=b.len() {
                // `b` copied over `a` up to `at`, before the cut.
                let mut now = b[..at].to_vec();
                now.extend_from_slice(a.get(at..).unwrap_or_default());
                assert!(mixed(&now, a, b), "{at}");
            }
            // Cut to the new length.
            assert!(mixed(b, a, b));
            for at in 0..=a.len() {
                // Then `a` put back up to `at`, before its cut.
                let mut now = a[..at].to_vec();
                now.extend_from_slice(b.get(at..).unwrap_or_default());
                assert!(mixed(&now, a, b), "{at}");
            }
        }
        assert!(!mixed(b"old text, longer!", old, new));
        assert!(!mixed(b"old text, lOnger", old, new));
        assert!(!mixed(b"NEW", old, new));
        assert!(!mixed(b"NEW TEXT, longer!", new, old));
        assert!(!mixed(b"NEW TEXT; longer", new, old));
    }
}
