//! `kyaml fmt -w`'s writing back of a file, which lands whole or leaves
//! the original, and leaks nothing:
//!
//! - a file that this process may not write is refused before anything
//!   is made ([`attrs::check_writable`]: its mode has no write bit, even
//!   for root; `access(2)` says no: mode or ACL, a read-only mount, the
//!   immutable flag);
//! - the new text goes to a temporary file in the same directory, made
//!   with the original's permission bits at most (an unnamed `O_TMPFILE`
//!   file where the file system allows, else a named one), written as it
//!   is made (a [`Replacement`]), never held whole; dropped unfinished (an
//!   invalid input, an error), it leaves nothing behind;
//! - **renamed over the original** when it can be made the original's
//!   twin: one name, and its owner, group, permission bits and extended
//!   attributes (ACLs among them) given to the new file before its first
//!   byte, and again before the rename (writing may clear set-id bits and
//!   `security.capability`). It is synced, and a reader or a kill sees
//!   the old text or the new, never a part;
//! - else **copied into the original's own inode** through a backup: a
//!   file with several hard links (a rename would leave the other names
//!   with the old text), or one whose owner, group or attributes this
//!   process cannot give a new file (not root). The new text is named
//!   and synced beside it first, then the old text is copied into a
//!   backup, synced and named; only then is the original overwritten,
//!   cut and synced, and the backup removed. On any error the old text is
//!   put back from the backup; a kill leaves the two named, and the next
//!   `kyaml fmt` on the file or its folder settles it (`leftover`);
//! - just before the original is replaced or overwritten, it is looked
//!   at again: if its size, modification time or inode differ from when
//!   it was read, it is left as it is (and the caller says so);
//! - temporary names are `leftover::temp_name`'s, which no walk reads.
//!   An unnamed file leaves nothing behind after `kill -9` unless the kill
//!   falls between its link and the rename (two system calls: Linux
//!   cannot put an unnamed file over an existing name), when it is left
//!   named, holding the whole new text; a later `-w` of the file or its
//!   folder removes it once its process is gone.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Seek, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::attrs::{self, Attrs};
use crate::leftover::{backup_name, temp_name};

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

/// The error of an overwriting in place that failed after the original
/// was touched: what state it left the file in.
#[derive(Debug)]
enum Overwritten {
    /// The old text was put back.
    PutBack(io::Error),
    /// Putting it back failed too (the second error): the old text is
    /// in `backup` and the new in `new`, both kept.
    Half {
        why: io::Error,
        put_back: io::Error,
        backup: PathBuf,
        new: PathBuf,
    },
}

impl std::fmt::Display for Overwritten {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::cli::in_words;
        match self {
            Overwritten::PutBack(why) => write!(f, "{}", in_words(why)),
            Overwritten::Half {
                why,
                put_back,
                backup,
                new,
            } => write!(
                f,
                "{}, and putting back its old text failed: {}",
                in_words(why),
                in_words(put_back)
            )
            .and_then(|()| {
                write!(
                    f,
                    " (the old text is in {}, the new in {})",
                    backup.display(),
                    new.display()
                )
            }),
        }
    }
}

impl std::error::Error for Overwritten {}

/// What `-w` says of a file it could not rewrite (`e`, not
/// [`changed_meanwhile`]): the state the file is in, then why.
pub(crate) fn not_rewritten(e: &io::Error) -> String {
    let why = crate::cli::in_words(e);
    match e.get_ref().and_then(|e| e.downcast_ref::<Overwritten>()) {
        Some(Overwritten::PutBack(_)) => format!("not rewritten (its old text put back): {why}"),
        Some(Overwritten::Half { .. }) => {
            format!("HALF WRITTEN: {why}; the next `kyaml fmt -w` on it puts the old text back")
        }
        None => format!("not rewritten (left as it was): {why}"),
    }
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
    /// The original's permission bits.
    mode: u32,
    /// The new text, in the target's directory.
    new: Temp,
    way: Way,
}

/// How the new text takes the original's place.
enum Way {
    /// The temporary file is renamed over the original: it has the
    /// original's owner, group, mode and these attributes.
    Rename(Attrs),
    /// The new text is copied into the original's inode through a
    /// backup ([`Replacement::overwrite`]).
    InPlace,
}

impl Replacement {
    /// Starts replacing `file` (its target, for a symbolic link), if it
    /// still is as `read` says and this process may write it.
    pub(crate) fn start(file: &Path, read: Stamp) -> io::Result<Replacement> {
        let target = fs::canonicalize(file)?;
        let meta = fs::metadata(&target)?;
        unchanged(&meta, read)?;
        let mode = meta.permissions().mode() & 0o7777;
        attrs::check_writable(&target, mode)?;
        let dir = target.parent().unwrap_or(Path::new(".")).to_path_buf();
        let new = Temp::create(&dir, &target, mode)?;
        let way = match meta.nlink() {
            1 => match twin(&new.file, &target, &meta) {
                Some(attrs) => Way::Rename(attrs),
                None => Way::InPlace,
            },
            _ => Way::InPlace,
        };
        Ok(Replacement {
            target,
            read,
            mode,
            new,
            way,
        })
    }

    /// Puts the text written in the file's place: renamed over it, or
    /// copied into it ([`Way`]).
    pub(crate) fn finish(mut self) -> io::Result<()> {
        self.new.file.sync_all()?;
        injected_pause();
        injected_fault()?;
        match std::mem::replace(&mut self.way, Way::InPlace) {
            Way::Rename(attrs) => self.rename(&attrs),
            Way::InPlace => self.overwrite(),
        }
    }

    /// The temporary file is given again what writing may have cleared
    /// (set-id bits, `security.capability`), synced, the original looked
    /// at a last time, and the temporary file (linked in first if it has
    /// no name) renamed over it.
    fn rename(&mut self, attrs: &Attrs) -> io::Result<()> {
        let file = &self.new.file;
        if !attrs.is_empty() || self.mode & 0o7000 != 0 {
            attrs::give(attrs, file)?;
            file.set_permissions(fs::Permissions::from_mode(self.mode))?;
            file.sync_all()?;
        }
        // The last look, before the temporary file gets a name (if it has
        // none yet): the rename follows at once.
        unchanged(&fs::metadata(&self.target)?, self.read)?;
        let named = self.new.named(&self.target)?;
        fs::rename(&named, &self.target)?;
        self.new.name = None;
        // The rename itself is durable once the directory is synced.
        sync_dir(&self.new.dir);
        Ok(())
    }

    /// Copies the new text into the original's own inode, which keeps
    /// its names, owner, group, mode and attributes: the new text is
    /// named (synced already), the old copied into a backup named
    /// `leftover::backup_name` (synced, with the directory), the original
    /// looked at a last time, overwritten, cut and synced, and the backup
    /// then removed, before the new text. On an error after the original
    /// was touched, the old text is put back from the backup. So a named
    /// backup always holds the whole old text, and has a named new text
    /// beside it.
    fn overwrite(&mut self) -> io::Result<()> {
        let new_name = self.new.named(&self.target)?;
        let mut backup = self.backup(&backup_name(&new_name))?;
        let mut original = OpenOptions::new().write(true).open(&self.target)?;
        unchanged(&original.metadata()?, self.read)?;
        let Err(why) = put_text(&mut original, &mut self.new.file) else {
            // The backup first: a backup is never left without its new
            // text (a later run removes the two).
            if backup.remove().is_err() {
                self.new.keep();
            }
            return Ok(());
        };
        let error = match put_text(&mut original, &mut backup.file) {
            Ok(()) => Overwritten::PutBack(why),
            Err(put_back) => Overwritten::Half {
                why,
                put_back,
                backup: backup.keep(),
                new: self.new.keep(),
            },
        };
        Err(io::Error::other(error))
    }

    /// A copy of the original's text in the file named `name`, complete
    /// and synced (the directory too) before it gets that name. It has the
    /// original's permission bits at most.
    fn backup(&self, name: &Path) -> io::Result<Temp> {
        let mut original = File::open(&self.target)?;
        unchanged(&original.metadata()?, self.read)?;
        let mut backup = Temp::create(&self.new.dir, &self.target, self.mode)?;
        if io::copy(&mut original, &mut backup.file)? != self.read.size {
            return Err(io::Error::other(ChangedMeanwhile));
        }
        backup.file.sync_all()?;
        backup.name_as(name)?;
        sync_dir(&self.new.dir);
        Ok(backup)
    }
}

/// Makes `file` (the new text, just created, with the original's mode at
/// most) the original's twin: its owner and group, its attributes, then
/// its exact permission bits (a change of owner clears set-id bits).
/// `None` if this process cannot (a `fchown` or an attribute not
/// permitted): the file is then written in place.
fn twin(file: &File, target: &Path, meta: &fs::Metadata) -> Option<Attrs> {
    let (uid, gid) = (meta.uid(), meta.gid());
    let mine = file.metadata().ok()?;
    if (mine.uid(), mine.gid()) != (uid, gid) {
        std::os::unix::fs::fchown(file, Some(uid), Some(gid)).ok()?;
    }
    let attrs = attrs::read(target).ok()?;
    attrs::give(&attrs, file).ok()?;
    let mode = meta.permissions().mode() & 0o7777;
    file.set_permissions(fs::Permissions::from_mode(mode))
        .ok()?;
    Some(attrs)
}

/// Makes `file`'s text that of `text`, read from its start: written from
/// the start, cut to its length, synced.
fn put_text(file: &mut File, text: &mut File) -> io::Result<()> {
    text.rewind()?;
    file.rewind()?;
    let len = io::copy(text, file)?;
    file.set_len(len)?;
    file.sync_all()
}

/// Puts the text of the file `backup` back into `file`, in place.
pub(crate) fn put_back(file: &Path, backup: &Path) -> io::Result<()> {
    let mut text = File::open(backup)?;
    let mut file = OpenOptions::new().write(true).open(file)?;
    put_text(&mut file, &mut text)
}

/// Syncs a directory, so that a name made or removed in it lasts.
fn sync_dir(dir: &Path) {
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
}

/// A temporary file beside the target, opened for reading and writing:
/// unnamed (`O_TMPFILE`) where the file system allows, else named by
/// `leftover::temp_name`. While it has a name, dropping it removes it.
struct Temp {
    file: File,
    name: Option<PathBuf>,
    /// Its directory.
    dir: PathBuf,
}

impl Temp {
    /// A temporary file in `dir` with the permission bits `mode` at most
    /// (the umask may take some away; set-id bits are not given).
    fn create(dir: &Path, target: &Path, mode: u32) -> io::Result<Temp> {
        let mode = mode & 0o777;
        let (file, name) = match unnamed_temp(dir, mode) {
            Ok(file) => (file, None),
            Err(_) => {
                let name = temp_name(dir, target);
                let file = OpenOptions::new()
                    .read(true)
                    .write(true)
                    .create_new(true)
                    .mode(mode)
                    .open(&name);
                let file = file.map_err(|e| {
                    let why = crate::cli::in_words(&e);
                    io::Error::new(e.kind(), format!("cannot make a file beside it: {why}"))
                })?;
                (file, Some(name))
            }
        };
        let dir = dir.to_path_buf();
        Ok(Temp { file, name, dir })
    }

    /// Its name, a `leftover::temp_name` for `target`, given if it has
    /// none yet.
    fn named(&mut self, target: &Path) -> io::Result<PathBuf> {
        if let Some(name) = &self.name {
            return Ok(name.clone());
        }
        let name = temp_name(&self.dir, target);
        link_unnamed(&self.file, &name)?;
        Ok(self.name.insert(name).clone())
    }

    /// Gives it the name `name` (a link if it has none, else a rename).
    fn name_as(&mut self, name: &Path) -> io::Result<()> {
        match &self.name {
            None => link_unnamed(&self.file, name)?,
            Some(old) => fs::rename(old, name)?,
        }
        self.name = Some(name.to_path_buf());
        Ok(())
    }

    /// Its name, which it keeps (dropping it no longer removes it).
    fn keep(&mut self) -> PathBuf {
        self.name.take().unwrap_or_default()
    }

    /// Removes its name now.
    fn remove(mut self) -> io::Result<()> {
        self.name.take().map_or(Ok(()), fs::remove_file)
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if let Some(name) = &self.name {
            let _ = fs::remove_file(name);
        }
    }
}

impl Write for Replacement {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.new.file.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
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

#[cfg(target_os = "linux")]
fn unnamed_temp(dir: &Path, mode: u32) -> io::Result<File> {
    if cfg!(debug_assertions) && std::env::var_os("KYAML_FMT_NAMED_TEMP").is_some() {
        return Err(io::Error::from(io::ErrorKind::Unsupported));
    }
    OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(O_TMPFILE)
        .mode(mode)
        .open(dir)
}

#[cfg(not(target_os = "linux"))]
fn unnamed_temp(_: &Path, _: u32) -> io::Result<File> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
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
