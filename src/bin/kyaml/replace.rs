//! `kyaml fmt -w`'s writing back of a file, which loses nothing and leaks
//! nothing:
//!
//! - the new text goes to a temporary file in the same directory that has
//!   the original's permission bits before its first byte (an unnamed
//!   `O_TMPFILE` file where the file system allows, else one created with
//!   those bits at most), owner and group where the process may set them;
//!   it is synced, then renamed over the original, so a reader sees the
//!   old text or the new, never a part;
//! - just before the rename, the original is looked at again: if its
//!   size, modification time or inode differ from when it was read, it is
//!   left as it is (and the caller says so);
//! - the new text is written into the temporary file as it is made (a
//!   [`Replacement`]), never held whole, and nothing is left behind when it
//!   is dropped unfinished (an invalid input, an error);
//! - a file with several hard links is rewritten in place (the rename
//!   would leave the other names with the old text), which is not atomic,
//!   and its new text is held in memory until it is complete;
//! - temporary names hold [`TEMP_MARK`] and do not end in `.yaml`, so no
//!   walk reads one; an unnamed one leaves nothing behind after `kill -9`
//!   unless the kill falls between its link and the rename (two system
//!   calls: Linux cannot put an unnamed file over an existing name), when
//!   it is left named, holding the whole new text; a later `-w` walk
//!   removes it once its process is gone ([`remove_leftover`]).

use std::ffi::{OsStr, OsString};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Seek, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::walk::TEMP_MARK;

/// What the original looked like when it was read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Stamp {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
}

impl Stamp {
    pub(crate) fn of(meta: &fs::Metadata) -> Stamp {
        Stamp {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
        }
    }
}

/// The error of a file that changed after it was read, and so is left
/// as it is: [`changed_meanwhile`] tells it from any other.
#[derive(Debug)]
struct ChangedMeanwhile;

impl std::fmt::Display for ChangedMeanwhile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("changed while it was being formatted")
    }
}

impl std::error::Error for ChangedMeanwhile {}

/// Whether `e` says that the file changed after it was read.
pub(crate) fn changed_meanwhile(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|e| e.is::<ChangedMeanwhile>())
}

/// `Ok` if `target` still is as `read` says.
fn unchanged(meta: &fs::Metadata, read: Stamp) -> io::Result<()> {
    match Stamp::of(meta) == read {
        true => Ok(()),
        false => Err(io::Error::other(ChangedMeanwhile)),
    }
}

/// Linux's `O_TMPFILE` (with `O_DIRECTORY`), for `custom_flags`.
#[cfg(target_os = "linux")]
const O_TMPFILE: i32 = 0o20_200_000;

/// Replaces the text of `file` (of its target, for a symbolic link) with
/// `bytes`, if it still is as `read` says.
pub(crate) fn replace(file: &Path, bytes: &[u8], read: Stamp) -> io::Result<()> {
    let mut new = Replacement::start(file, read)?;
    new.write_all(bytes)?;
    new.finish()
}

/// A replacement under way: [`Replacement::start`] makes it, the new text
/// is written into it, and [`Replacement::finish`] puts it in the file's
/// place. Dropped before that, it leaves nothing behind.
pub(crate) struct Replacement {
    /// The file replaced (a symbolic link's target).
    target: PathBuf,
    read: Stamp,
    text: NewText,
}

/// Where the new text goes until it is put in place.
enum NewText {
    /// A temporary file in `dir`, the target's directory, with its name
    /// (`None` while it has none: unnamed, or renamed).
    Temp {
        file: File,
        name: Option<PathBuf>,
        dir: PathBuf,
    },
    /// Memory, for a file with several hard links, which is rewritten in
    /// place once the text is complete.
    Held(Vec<u8>),
}

impl Replacement {
    /// Starts replacing `file` (its target, for a symbolic link), if it
    /// still is as `read` says.
    pub(crate) fn start(file: &Path, read: Stamp) -> io::Result<Replacement> {
        let target = fs::canonicalize(file)?;
        let meta = fs::metadata(&target)?;
        unchanged(&meta, read)?;
        let text = match meta.nlink() > 1 {
            true => NewText::Held(Vec::new()),
            false => {
                let dir = target.parent().unwrap_or(Path::new(".")).to_path_buf();
                let (file, name) = create_temp(&dir, &target, &meta)?;
                NewText::Temp { file, name, dir }
            }
        };
        Ok(Replacement { target, read, text })
    }

    /// Puts the text written in the file's place: the temporary file is
    /// synced, the original looked at a last time, and the temporary file
    /// (linked in first if it has no name) renamed over it.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        let (file, name, dir) = match &mut self.text {
            NewText::Held(bytes) => return rewrite_in_place(&self.target, bytes, self.read),
            NewText::Temp { file, name, dir } => (file, name, dir),
        };
        file.sync_all()?;
        injected_pause();
        injected_fault()?;
        // The last look, before the temporary file gets a name (if it has
        // none yet): the rename follows at once.
        unchanged(&fs::metadata(&self.target)?, self.read)?;
        let named = match name {
            Some(named) => named,
            None => {
                let linked = temp_name(dir, &self.target);
                link_unnamed(file, &linked)?;
                // From here on, `drop` removes it if the rename fails.
                name.insert(linked)
            }
        };
        fs::rename(&*named, &self.target)?;
        *name = None;
        // The rename itself is durable once the directory is synced.
        if let Ok(dir) = File::open(dir) {
            let _ = dir.sync_all();
        }
        Ok(())
    }
}

impl Write for Replacement {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.text {
            NewText::Temp { file, .. } => file.write(buf),
            NewText::Held(bytes) => bytes.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for Replacement {
    fn drop(&mut self) {
        if let NewText::Temp {
            name: Some(name), ..
        } = &self.text
        {
            let _ = fs::remove_file(name);
        }
    }
}

/// Gives the unnamed (`O_TMPFILE`) `file` the name `name`, as `open(2)`
/// says: `linkat` of its `/proc/self/fd` name, following that link. `std`
/// has no `linkat` with flags (`fs::hard_link` does not follow, and fails
/// across to /proc), so it is declared here: it is in the C library that
/// `std` links on Linux.
#[cfg(target_os = "linux")]
fn link_unnamed(file: &File, name: &Path) -> io::Result<()> {
    use std::ffi::{c_char, c_int, CString};
    use std::os::fd::AsRawFd;
    use std::os::unix::ffi::OsStrExt;
    extern "C" {
        fn linkat(
            olddirfd: c_int,
            oldpath: *const c_char,
            newdirfd: c_int,
            newpath: *const c_char,
            flags: c_int,
        ) -> c_int;
    }
    const AT_FDCWD: c_int = -100;
    const AT_SYMLINK_FOLLOW: c_int = 0x400;
    let from = CString::new(format!("/proc/self/fd/{}", file.as_raw_fd()))?;
    let to = CString::new(name.as_os_str().as_bytes())?;
    // SAFETY: both paths are NUL-terminated strings that live across the
    // call; `linkat` reads them and keeps no pointer.
    let status = unsafe {
        linkat(
            AT_FDCWD,
            from.as_ptr(),
            AT_FDCWD,
            to.as_ptr(),
            AT_SYMLINK_FOLLOW,
        )
    };
    match status {
        0 => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}

#[cfg(not(target_os = "linux"))]
fn link_unnamed(_: &File, _: &Path) -> io::Result<()> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

/// A name for a temporary file beside `target`: `.NAME.kyaml-tmp-PID-N`.
fn temp_name(dir: &Path, target: &Path) -> PathBuf {
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

/// The process that made the temporary file named `name`, if `name` is
/// exactly one that [`temp_name`] makes: `.NAME.kyaml-tmp-PID-N`, NAME
/// not empty, PID and N decimal numbers as `format!` writes them.
fn temp_owner(name: &OsStr) -> Option<u32> {
    let (of, numbers) = name.to_str()?.strip_prefix('.')?.rsplit_once(TEMP_MARK)?;
    let (pid, n) = numbers.split_once('-')?;
    // Digits, and no leading zero.
    let number = |text: &str| {
        let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        digits && (text == "0" || !text.starts_with('0'))
    };
    if of.is_empty() || !number(pid) || !number(n) || n.parse::<usize>().is_err() {
        return None;
    }
    pid.parse().ok().filter(|&pid| pid > 0)
}

/// Removes `path` if it is a temporary file of `-w` ([`temp_owner`])
/// whose process is no longer running: what a `kill -9` between the link
/// and the rename left (its original still holds the old text, so nothing
/// is lost). `Ok(Some(pid))` if it was removed; `Ok(None)` if it is kept:
/// not such a name, its process runs (or its number was given to another
/// one), or that cannot be told (no `/proc`, not Linux).
pub(crate) fn remove_leftover(path: &Path) -> io::Result<Option<u32>> {
    let Some(pid) = path.file_name().and_then(temp_owner) else {
        return Ok(None);
    };
    if !process_gone(pid) {
        return Ok(None);
    }
    match fs::remove_file(path) {
        Ok(()) => Ok(Some(pid)),
        // Gone meanwhile (renamed by a run this one cannot see).
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Whether no process numbered `pid` runs: `/proc` is there (it shows
/// this process) and has no entry for `pid`.
#[cfg(target_os = "linux")]
fn process_gone(pid: u32) -> bool {
    let missing =
        |path: &str| fs::symlink_metadata(path).is_err_and(|e| e.kind() == io::ErrorKind::NotFound);
    pid != std::process::id()
        && !missing(&format!("/proc/{}", std::process::id()))
        && missing(&format!("/proc/{pid}"))
}

#[cfg(not(target_os = "linux"))]
fn process_gone(_: u32) -> bool {
    false
}

/// Creates the temporary file in `dir` with `meta`'s permission bits
/// (at most: the umask may take some away until they are set exactly),
/// owner and group: unnamed if the file system allows (`None`), else
/// named.
fn create_temp(
    dir: &Path,
    target: &Path,
    meta: &fs::Metadata,
) -> io::Result<(File, Option<PathBuf>)> {
    let mode = meta.permissions().mode() & 0o7777;
    let unnamed = unnamed_temp(dir, mode);
    let (file, name) = match unnamed {
        Ok(file) => (file, None),
        Err(_) => {
            let name = temp_name(dir, target);
            let file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(mode & 0o777)
                .open(&name)?;
            (file, Some(name))
        }
    };
    let fixed = fix_owner_and_mode(&file, meta, mode);
    if let Err(e) = fixed {
        if let Some(name) = &name {
            let _ = fs::remove_file(name);
        }
        return Err(e);
    }
    Ok((file, name))
}

#[cfg(target_os = "linux")]
fn unnamed_temp(dir: &Path, mode: u32) -> io::Result<File> {
    if cfg!(debug_assertions) && std::env::var_os("KYAML_FMT_NAMED_TEMP").is_some() {
        return Err(io::Error::from(io::ErrorKind::Unsupported));
    }
    OpenOptions::new()
        .write(true)
        .custom_flags(O_TMPFILE)
        .mode(mode & 0o777)
        .open(dir)
}

#[cfg(not(target_os = "linux"))]
fn unnamed_temp(_: &Path, _: u32) -> io::Result<File> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

/// Gives `file` the original's owner and group (where permitted) and then
/// its exact permission bits (a change of owner may clear set-id bits).
fn fix_owner_and_mode(file: &File, meta: &fs::Metadata, mode: u32) -> io::Result<()> {
    let (uid, gid) = (meta.uid(), meta.gid());
    let mine = file.metadata()?;
    if (mine.uid(), mine.gid()) != (uid, gid) {
        // Not permitted (not root, not a group of ours): the file stays ours.
        if std::os::unix::fs::fchown(file, Some(uid), Some(gid)).is_err() {
            let _ = std::os::unix::fs::fchown(file, None, Some(gid));
        }
    }
    file.set_permissions(fs::Permissions::from_mode(mode))
}

/// Rewrites a file with several names through its own inode, so that
/// every name sees the new text (not atomic: a crash can leave a part).
fn rewrite_in_place(target: &Path, bytes: &[u8], read: Stamp) -> io::Result<()> {
    injected_pause();
    injected_fault()?;
    let mut file = OpenOptions::new().write(true).open(target)?;
    unchanged(&file.metadata()?, read)?;
    file.seek(io::SeekFrom::Start(0))?;
    file.write_all(bytes)?;
    file.set_len(bytes.len() as u64)?;
    file.sync_all()?;
    Ok(())
}

/// In debug builds (the tests'), `KYAML_FMT_FAIL_BEFORE_RENAME` set makes
/// every rewrite fail after the temporary file is written and synced, just
/// before the rename: the test of atomicity.
fn injected_fault() -> io::Result<()> {
    if cfg!(debug_assertions) && std::env::var_os("KYAML_FMT_FAIL_BEFORE_RENAME").is_some() {
        return Err(io::Error::other("injected failure before rename"));
    }
    Ok(())
}

/// In debug builds, `KYAML_FMT_PAUSE_BEFORE_RENAME=MS` pauses that long
/// with the temporary file written, for tests to look at it (or change the
/// original) meanwhile.
fn injected_pause() {
    if !cfg!(debug_assertions) {
        return;
    }
    let pause = std::env::var("KYAML_FMT_PAUSE_BEFORE_RENAME").ok();
    if let Some(ms) = pause.and_then(|ms| ms.parse().ok()) {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

#[cfg(test)]
mod tests {
    use super::{temp_name, temp_owner};
    use std::ffi::OsStr;
    use std::path::Path;

    #[test]
    fn temp_owner_reads_exactly_the_names_temp_name_makes() {
        let made = temp_name(Path::new("dir"), Path::new("dir/a.yaml"));
        let name = made.file_name().unwrap();
        assert_eq!(temp_owner(name), Some(std::process::id()), "{made:?}");
        assert_eq!(temp_owner(OsStr::new(".a.yaml.kyaml-tmp-12-0")), Some(12));
        assert_eq!(temp_owner(OsStr::new("..yaml.kyaml-tmp-7-30")), Some(7));
        for other in [
            "a.yaml.kyaml-tmp-12-0",
            "..kyaml-tmp-12-0",
            ".a.yaml.kyaml-tmp-12-0.yaml",
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
            assert_eq!(temp_owner(OsStr::new(other)), None, "{other}");
        }
    }
}
