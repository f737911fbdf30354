//! The writer's file operations on Windows, through cap-std (and cap-fs-ext for the
//! no-follow opens).
//!
//! Why cap-std rather than calling `NtCreateFile` ourselves: the same guarantees need a
//! handle-relative create that does not follow reparse points (`NtCreateFile` with the
//! folder as `RootDirectory` and `FILE_OPEN_REPARSE_POINT`), and those calls are `unsafe`
//! FFI, which this crate keeps out. cap-std makes exactly those calls, behind a safe API,
//! and is maintained for this very purpose (sandboxed file access):
//! - files and folders are opened relative to the held folder handle (`NtCreateFile`
//!   with `RootDirectory`), and a no-follow open of a symlink or a junction (both are
//!   name-surrogate reparse points) fails instead of entering it;
//! - the folders it holds are opened without `FILE_SHARE_DELETE`, so while jxray holds
//!   the capture folder or a date folder, nobody can rename, remove or replace it: the
//!   operations cap-std does by the held folder's path (creating the date folder,
//!   linking a file into place, removing a temporary file) name the folder that was
//!   opened, never one swapped in after;
//! - a new file is created with `FILE_CREATE` (it fails when the name is taken, a link
//!   included), and a hard link fails when its name is taken: nothing is overwritten.

use std::io;
use std::path::Path;

use cap_fs_ext::{DirExt, FollowSymlinks, OpenOptionsFollowExt};
use cap_std::fs::{Dir, OpenOptions};

/// A folder held open (without `FILE_SHARE_DELETE`: it cannot be renamed meanwhile).
pub(super) type Handle = Dir;

/// What a refused date folder may have been, for the message.
pub(super) const LINK_KINDS: &str = "symlink or junction";

/// `ERROR_DIRECTORY`: "The directory name is invalid", what cap-std gives when the name
/// is not a folder.
const ERROR_DIRECTORY: i32 = 267;
/// `ERROR_STOPPED_ON_SYMLINK`: what cap-std gives when a no-follow open meets a
/// symlink or a junction.
const ERROR_STOPPED_ON_SYMLINK: i32 = 681;

/// Open the folder `path`: the one lookup by name.
pub(super) fn open_folder(path: &Path) -> io::Result<Handle> {
    Dir::open_ambient_dir(path, cap_std::ambient_authority())
}

/// Create the folder `name` in `folder`, unless something has that name already.
pub(super) fn create_folder(folder: &Handle, name: &str) -> io::Result<()> {
    match folder.create_dir(name) {
        Err(error) if error.kind() != io::ErrorKind::AlreadyExists => Err(error),
        _ => Ok(()),
    }
}

/// The folder `name` in `folder`, opened without following a reparse point; `None` when
/// `name` is a symlink, a junction or not a folder.
pub(super) fn open_folder_nofollow(folder: &Handle, name: &str) -> io::Result<Option<Handle>> {
    match folder.open_dir_nofollow(name) {
        Ok(handle) => Ok(Some(handle)),
        Err(error)
            if matches!(
                error.raw_os_error(),
                Some(ERROR_DIRECTORY | ERROR_STOPPED_ON_SYMLINK)
            ) =>
        {
            Ok(None)
        }
        Err(error) => Err(error),
    }
}

/// Whether `name` is taken in `folder` (by anything, a dangling link included).
pub(super) fn exists(folder: &Handle, name: &str) -> io::Result<bool> {
    match folder.symlink_metadata(name) {
        Ok(_) => Ok(true),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(error) => Err(error),
    }
}

/// A new file `name` in `folder`, open for writing; `None` when the name is taken (by
/// anything, a link included). The mode is unix's: Windows files inherit the folder's
/// access control list.
pub(super) fn create_new(
    folder: &Handle,
    name: &str,
    _mode: u32,
) -> io::Result<Option<std::fs::File>> {
    let mut options = OpenOptions::new();
    options
        .write(true)
        .create_new(true)
        .follow(FollowSymlinks::No);
    match folder.open_with(name, &options) {
        Ok(file) => Ok(Some(file.into_std())),
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => Ok(None),
        Err(error) => Err(error),
    }
}

/// Give the file `from` the name `to` as well; fails when `to` is taken.
pub(super) fn link(folder: &Handle, from: &str, to: &str) -> io::Result<()> {
    folder.hard_link(from, folder, to)
}

/// Remove the name `name`, if it is still there.
pub(super) fn remove(folder: &Handle, name: &str) {
    let _ = folder.remove_file(name);
}
