//! What `kyaml fmt -w` asks of the C library that `std` lacks: whether
//! this process may write a file (`access(2)`, and the rule of the mode's
//! write bits, [`check_writable`]), and a file's extended attributes, ACLs
//! among them ([`Attrs`], read from the original and given to the file
//! that replaces it). Linux-first: the attributes are copied on Linux
//! only (elsewhere a file is taken to have none, which `-w` then drops);
//! the rule of writing holds on every Unix.

use std::fs::File;
use std::io;
use std::path::Path;

/// Whether the file at `path`, whose permission bits are `mode`, may be
/// rewritten: `Ok` if its mode has a write bit for someone and this
/// process may open it for writing (`access(W_OK)`: the mode and ACL for
/// this user, a read-only mount, the immutable and append-only flags).
/// The first rule is for root, whom `access` lets write anything: a file
/// marked read-only (0444) is refused to everyone, as `vim` and `rm -i`
/// treat it. Else an error of kind `PermissionDenied` whose text starts
/// `permission denied` and says why.
pub(crate) fn check_writable(path: &Path, mode: u32) -> io::Result<()> {
    let denied = |why: String| Err(io::Error::new(io::ErrorKind::PermissionDenied, why));
    if mode & 0o222 == 0 {
        return denied(format!(
            "permission denied: its mode, {mode:04o}, lets no one write it"
        ));
    }
    let Err(e) = may_write(path) else {
        return Ok(());
    };
    match e.raw_os_error() {
        Some(EACCES) => denied(String::from("permission denied")),
        Some(EROFS) => denied(String::from(
            "permission denied: it is on a read-only file system",
        )),
        Some(EPERM) => denied(String::from(
            "permission denied: it is marked immutable or append-only (`lsattr`)",
        )),
        _ => Err(e),
    }
}

const EPERM: i32 = 1;
const EACCES: i32 = 13;
const EROFS: i32 = 30;

/// `access(path, W_OK)`.
#[cfg(unix)]
fn may_write(path: &Path) -> io::Result<()> {
    use std::ffi::{c_char, c_int};
    extern "C" {
        fn access(path: *const c_char, mode: c_int) -> c_int;
    }
    const W_OK: c_int = 2;
    let path = c_path(path)?;
    // SAFETY: `path` is a NUL-terminated string that lives across the
    // call, which only reads it.
    match unsafe { access(path.as_ptr(), W_OK) } {
        0 => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}

#[cfg(not(unix))]
fn may_write(_: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(unix)]
fn c_path(path: &Path) -> io::Result<std::ffi::CString> {
    use std::os::unix::ffi::OsStrExt;
    Ok(std::ffi::CString::new(path.as_os_str().as_bytes())?)
}

/// The extended attributes of a file that this process can read, with
/// their values: `user.*`, `system.posix_acl_access` (the ACL),
/// `security.*`, and `trusted.*` for root.
#[derive(Default)]
pub(crate) struct Attrs(Vec<(std::ffi::CString, Vec<u8>)>);

impl Attrs {
    /// Whether there are none.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use super::{c_path, Attrs};
    use std::ffi::{c_char, c_int, c_void, CStr, CString};
    use std::fs::File;
    use std::io;
    use std::os::fd::AsRawFd;
    use std::path::Path;

    extern "C" {
        fn listxattr(path: *const c_char, list: *mut c_char, size: usize) -> isize;
        fn getxattr(
            path: *const c_char,
            name: *const c_char,
            value: *mut c_void,
            size: usize,
        ) -> isize;
        fn flistxattr(fd: c_int, list: *mut c_char, size: usize) -> isize;
        fn fsetxattr(
            fd: c_int,
            name: *const c_char,
            value: *const c_void,
            size: usize,
            flags: c_int,
        ) -> c_int;
        fn fremovexattr(fd: c_int, name: *const c_char) -> c_int;
    }

    const ENODATA: i32 = 61;
    const ERANGE: i32 = 34;
    const EOPNOTSUPP: i32 = 95;

    /// The bytes a `*xattr` call that fills a buffer gives: asked for
    /// their size first, then again if they grew meanwhile (`ERANGE`).
    fn sized(mut call: impl FnMut(*mut u8, usize) -> isize) -> io::Result<Vec<u8>> {
        loop {
            let size = call(std::ptr::null_mut(), 0);
            let Ok(size) = usize::try_from(size) else {
                return Err(io::Error::last_os_error());
            };
            if size == 0 {
                return Ok(Vec::new());
            }
            let mut bytes = vec![0u8; size];
            let got = call(bytes.as_mut_ptr(), bytes.len());
            if let Ok(got) = usize::try_from(got) {
                bytes.truncate(got);
                return Ok(bytes);
            }
            let e = io::Error::last_os_error();
            if e.raw_os_error() != Some(ERANGE) {
                return Err(e);
            }
        }
    }

    /// The names of a `listxattr` list (each ends with a NUL); none on a
    /// file system without attributes.
    fn names(list: io::Result<Vec<u8>>) -> io::Result<Vec<CString>> {
        let list = match list {
            Err(e) if e.raw_os_error() == Some(EOPNOTSUPP) => return Ok(Vec::new()),
            list => list?,
        };
        let names = list.split(|&b| b == 0).filter(|name| !name.is_empty());
        Ok(names
            .map(|name| CString::new(name).unwrap_or_default())
            .collect())
    }

    /// The attributes of the file at `path` (a symbolic link's target).
    pub(crate) fn read(path: &Path) -> io::Result<Attrs> {
        let path = c_path(path)?;
        // SAFETY (both calls): the path and name are NUL-terminated
        // strings that live across the call; the buffer is `size` bytes
        // that the call may fill (none when it is null, of size 0).
        let list = sized(|buf, size| unsafe { listxattr(path.as_ptr(), buf.cast(), size) });
        let mut attrs = Vec::new();
        for name in names(list)? {
            let value = sized(|buf, size| unsafe {
                getxattr(path.as_ptr(), name.as_ptr(), buf.cast(), size)
            });
            match value {
                Ok(value) => attrs.push((name, value)),
                // Removed since it was listed.
                Err(e) if e.raw_os_error() == Some(ENODATA) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(Attrs(attrs))
    }

    /// Gives `file` exactly `attrs`: each set, any other it has removed
    /// (such as an ACL inherited from the directory's default ACL).
    pub(crate) fn give(attrs: &Attrs, file: &File) -> io::Result<()> {
        let fd = file.as_raw_fd();
        // SAFETY (all three calls): as in `read`; the value is `len`
        // bytes that live across the call.
        let list = sized(|buf, size| unsafe { flistxattr(fd, buf.cast(), size) });
        for name in names(list)? {
            if attrs.0.iter().any(|(kept, _)| *kept == name) {
                continue;
            }
            if unsafe { fremovexattr(fd, name.as_ptr()) } != 0 {
                return Err(failed(&name, io::Error::last_os_error()));
            }
        }
        for (name, value) in &attrs.0 {
            let (value, len) = (value.as_ptr().cast(), value.len());
            if unsafe { fsetxattr(fd, name.as_ptr(), value, len, 0) } != 0 {
                return Err(failed(name, io::Error::last_os_error()));
            }
        }
        Ok(())
    }

    /// `e`, naming the attribute it is about.
    fn failed(name: &CStr, e: io::Error) -> io::Error {
        let what = format!("{}: {}", name.to_string_lossy(), crate::cli::in_words(&e));
        io::Error::new(e.kind(), what)
    }
}

/// The attributes of the file at `path` (a symbolic link's target) that
/// this process can read.
pub(crate) fn read(path: &Path) -> io::Result<Attrs> {
    #[cfg(target_os = "linux")]
    return linux::read(path);
    #[cfg(not(target_os = "linux"))]
    {
        let _ = path;
        Ok(Attrs::default())
    }
}

/// Gives `file` exactly `attrs`: each set, any other removed. An error
/// if one cannot be (not permitted, or the file system has none).
pub(crate) fn give(attrs: &Attrs, file: &File) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    return linux::give(attrs, file);
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (attrs, file);
        Ok(())
    }
}
