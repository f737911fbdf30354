//! The writer's file operations on unix: `openat`, `mkdirat`, `linkat` and `unlinkat`
//! relative to a held folder descriptor, through rustix (no unsafe code).

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;

use rustix::fs::{self as at, AtFlags, Mode, OFlags};
use rustix::io::Errno;

/// A folder held open.
pub(super) type Handle = OwnedFd;

/// What a refused date folder may have been, for the message.
pub(super) const LINK_KINDS: &str = "symlink";

/// Open the folder `path`: the one lookup by name.
pub(super) fn open_folder(path: &Path) -> io::Result<Handle> {
    Ok(at::open(
        path,
        OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC,
        Mode::empty(),
    )?)
}

/// Create the folder `name` in `folder`, unless something has that name already.
pub(super) fn create_folder(folder: &Handle, name: &str) -> io::Result<()> {
    match at::mkdirat(folder, name, Mode::from_raw_mode(0o777)) {
        Ok(()) | Err(Errno::EXIST) => Ok(()),
        Err(error) => Err(error.into()),
    }
}

/// The folder `name` in `folder`, opened without following a symlink; `None` when
/// `name` is a symlink or not a folder.
pub(super) fn open_folder_nofollow(folder: &Handle, name: &str) -> io::Result<Option<Handle>> {
    let opened = at::openat(
        folder,
        name,
        OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::RDONLY | OFlags::CLOEXEC,
        Mode::empty(),
    );
    match opened {
        Ok(handle) => Ok(Some(handle)),
        Err(Errno::LOOP | Errno::NOTDIR) => Ok(None),
        Err(error) => Err(error.into()),
    }
}

/// Whether `name` is taken in `folder` (by anything, a dangling symlink included).
pub(super) fn exists(folder: &Handle, name: &str) -> io::Result<bool> {
    match at::statat(folder, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(_) => Ok(true),
        Err(Errno::NOENT) => Ok(false),
        Err(error) => Err(error.into()),
    }
}

/// A new file `name` in `folder`, open for writing with permissions `mode`; `None`
/// when the name is taken (by anything, a symlink included).
pub(super) fn create_new(
    folder: &Handle,
    name: &str,
    mode: u32,
) -> io::Result<Option<std::fs::File>> {
    let created = at::openat(
        folder.as_fd(),
        name,
        OFlags::CREATE | OFlags::EXCL | OFlags::WRONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::from_raw_mode(mode),
    );
    match created {
        Ok(handle) => Ok(Some(std::fs::File::from(handle))),
        Err(Errno::EXIST) => Ok(None),
        Err(error) => Err(error.into()),
    }
}

/// Give the file `from` the name `to` as well; fails when `to` is taken.
pub(super) fn link(folder: &Handle, from: &str, to: &str) -> io::Result<()> {
    at::linkat(folder, from, folder, to, AtFlags::empty())?;
    Ok(())
}

/// Remove the name `name`, if it is still there.
pub(super) fn remove(folder: &Handle, name: &str) {
    let _ = at::unlinkat(folder, name, AtFlags::empty());
}
