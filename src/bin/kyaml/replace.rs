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
//! - a file with several hard links is rewritten in place (the rename
//!   would leave the other names with the old text), which is not atomic;
//! - temporary names hold [`TEMP_MARK`] and do not end in `.yaml`, so no
//!   walk reads one; an unnamed one leaves nothing behind after `kill -9`.

use std::ffi::OsString;
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

/// Why a file was not replaced.
pub(crate) enum NotReplaced {
    /// It changed after it was read.
    Changed,
    /// An I/O error; the original is as it was.
    Io(io::Error),
}

impl From<io::Error> for NotReplaced {
    fn from(e: io::Error) -> NotReplaced {
        NotReplaced::Io(e)
    }
}

/// Linux's `O_TMPFILE` (with `O_DIRECTORY`), for `custom_flags`.
#[cfg(target_os = "linux")]
const O_TMPFILE: i32 = 0o20_200_000;

/// Replaces the text of `file` (of its target, for a symbolic link) with
/// `bytes`, if it still is as `read` says.
pub(crate) fn replace(file: &Path, bytes: &[u8], read: Stamp) -> Result<(), NotReplaced> {
    let target = fs::canonicalize(file)?;
    let meta = fs::metadata(&target)?;
    if Stamp::of(&meta) != read {
        return Err(NotReplaced::Changed);
    }
    if meta.nlink() > 1 {
        return rewrite_in_place(&target, bytes, read);
    }
    let dir = target.parent().unwrap_or(Path::new("."));
    let (mut temp, name) = create_temp(dir, &target, &meta)?;
    let result = fill_and_rename(&mut temp, name.as_deref(), dir, &target, bytes, read);
    if result.is_err() {
        if let Some(name) = &name {
            let _ = fs::remove_file(name);
        }
    }
    result
}

/// Writes `bytes` into `temp`, syncs it and puts it in `target`'s place
/// (linking it in first if it has no name).
fn fill_and_rename(
    temp: &mut File,
    name: Option<&Path>,
    dir: &Path,
    target: &Path,
    bytes: &[u8],
    read: Stamp,
) -> Result<(), NotReplaced> {
    temp.write_all(bytes)?;
    temp.sync_all()?;
    injected_pause();
    injected_fault()?;
    // The last look, before the temporary file gets a name (if it has
    // none yet): the rename follows at once.
    if Stamp::of(&fs::metadata(target)?) != read {
        return Err(NotReplaced::Changed);
    }
    let linked;
    let name = match name {
        Some(name) => name,
        None => {
            linked = temp_name(dir, target);
            link_unnamed(temp, &linked)?;
            &linked
        }
    };
    let result = fs::rename(name, target).map_err(NotReplaced::Io);
    if result.is_err() {
        let _ = fs::remove_file(name);
        return result;
    }
    // The rename itself is durable once the directory is synced.
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
    Ok(())
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
fn rewrite_in_place(target: &Path, bytes: &[u8], read: Stamp) -> Result<(), NotReplaced> {
    injected_pause();
    injected_fault()?;
    let mut file = OpenOptions::new().write(true).open(target)?;
    if Stamp::of(&file.metadata()?) != read {
        return Err(NotReplaced::Changed);
    }
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
