//! The one never-overwrite writer: a capture and its request file for `jxray record` and
//! the repair loops (Python through its binding), and a fixture for `jxray test` and the
//! workbench. Atomically, never overwriting, never outside the folder, one stem's files
//! under one name; the names are the file contract's (`jxray_formats::recorded::place`).
//!
//! The folder is opened once and every file is created relative to that handle: a sub
//! folder (the date folder) is opened without following a link, so swapping it for one
//! (even between a check and a write) cannot lead a write elsewhere. How that is done is
//! each platform's own (`unix.rs`: `openat`, `linkat` through rustix; `windows.rs`:
//! cap-std); the protocol below is the same on both.
//!
//! A name is claimed before anything is written: an exclusively created, hidden claim
//! file per stem, so that two exchanges finishing in the same millisecond (a `.json` and
//! an `.sse`, say) can never share a request file. Under the claim, each file is written
//! to a temporary file and linked into place only if its name is free, so a reader (a
//! watching jxray) sees a whole file or none, and an existing file is never replaced: a
//! taken name moves every file of the stem to the next candidate (`-2`, `-3`, …). The
//! files are placed in the order given: a capture before its request file, so that when
//! the request file appears the capture it belongs to is already there.

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use jxray_formats::recorded::place::{candidates, GIVE_UP_AFTER};
use jxray_formats::recorded::REQUEST_SUFFIX;

/// Temporary and claim files start with this (hidden, and the prefix jxray's watcher
/// ignores): the file contract's.
use jxray_formats::recorded::TEMP_FILE_PREFIX as TEMP_PREFIX;

#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as sys;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as sys;

use sys::Handle;

/// The permissions a capture and its request file are created with (before the umask).
pub const CAPTURE_MODE: u32 = 0o644;

/// One exchange's files, ready to be written.
pub struct CaptureFiles<'a> {
    /// The date folder's name, under the capture folder.
    pub folder: &'a str,
    pub stem: &'a str,
    /// The capture's extension, with its dot (`.json`, `.sse`).
    pub extension: &'a str,
    pub capture: &'a [u8],
    pub request: &'a [u8],
}

/// What is on disk after a write that placed the capture.
#[derive(Debug)]
pub struct Written {
    /// The capture's path (the folder's path joined with the names written).
    pub capture: PathBuf,
    /// Why the request file is not beside it, when it is not.
    pub request_error: Option<io::Error>,
}

/// The files of a candidate stem: each name's ending (`.json`, `.request.json`) and bytes.
pub type FilesFor<'a> = dyn Fn(&str) -> Vec<(String, Cow<'a, [u8]>)> + 'a;

/// Files to place under the first free candidate of one stem, in order: the first must be
/// placed; a later one that fails is reported, and what was placed stays.
pub struct Placing<'a> {
    /// A folder under the held one, made when missing and opened without following a link;
    /// none for the held folder itself.
    pub folder: Option<&'a str>,
    pub stem: &'a str,
    /// The files for a candidate stem (a fixture names itself in its bytes).
    pub files: &'a FilesFor<'a>,
    /// A name known to be taken beyond what the folder says (a listing compared without
    /// regard to case, for a folder that travels to macOS and Windows).
    pub taken: &'a dyn Fn(&str) -> bool,
    /// The permissions new files are created with, before the umask.
    pub mode: u32,
}

/// What a placing put on disk.
#[derive(Debug)]
pub struct Placed {
    /// The candidate stem the files got.
    pub stem: String,
    /// Each placed file's path, in order.
    pub paths: Vec<PathBuf>,
    /// Why a file after the first is missing, when one is.
    pub later_error: Option<io::Error>,
}

/// The folder, held open.
#[derive(Debug)]
pub struct Folder {
    handle: Handle,
    /// Its path when it was opened, for messages and for the paths returned.
    path: PathBuf,
}

impl Folder {
    /// Open the folder `path` (already created). Only `path` itself is resolved by name,
    /// once.
    pub fn open(path: &Path) -> io::Result<Folder> {
        Ok(Folder {
            handle: sys::open_folder(path)?,
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Check that a file can be created here (and remove it).
    pub fn check_writable(&self) -> io::Result<()> {
        let temp = TempFile::create(&self.handle, CAPTURE_MODE)?;
        drop(temp);
        Ok(())
    }

    /// Write `files`: the capture's path and whether its request file is beside it, or
    /// the error that kept the capture from being placed.
    pub fn write(&self, files: &CaptureFiles<'_>) -> io::Result<Written> {
        let named = |_: &str| {
            vec![
                (files.extension.to_string(), Cow::Borrowed(files.capture)),
                (REQUEST_SUFFIX.to_string(), Cow::Borrowed(files.request)),
            ]
        };
        let placed = self.place(&Placing {
            folder: Some(files.folder),
            stem: files.stem,
            files: &named,
            taken: &|_| false,
            mode: CAPTURE_MODE,
        })?;
        Ok(Written {
            capture: placed.paths.into_iter().next().unwrap_or_default(),
            request_error: placed.later_error,
        })
    }

    /// Place `placing`'s files under the first candidate stem whose every name is free
    /// (and claimed by no other writer); an `AlreadyExists` error when none is.
    pub fn place(&self, placing: &Placing<'_>) -> io::Result<Placed> {
        let sub;
        let (folder, shown) = match placing.folder {
            Some(name) => {
                sub = self.date_folder(name)?;
                (&sub, self.path.join(name))
            }
            None => (&self.handle, self.path.clone()),
        };
        for stem in candidates(placing.stem) {
            let files = (placing.files)(&stem);
            let names: Vec<String> = files
                .iter()
                .map(|(end, _)| format!("{stem}{end}"))
                .collect();
            if names.iter().any(|name| (placing.taken)(name)) {
                continue;
            }
            let Some(_claim) = Claim::take(folder, &stem)? else {
                continue;
            };
            if names.iter().try_fold(false, |any, name| {
                Ok::<_, io::Error>(any || exists(folder, name)?)
            })? {
                continue;
            }
            let mut written = names.iter().zip(&files);
            let Some((first, (_, bytes))) = written.next() else {
                return Err(io::Error::other("no files to place"));
            };
            match place(folder, first, bytes, placing.mode) {
                Ok(()) => {}
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(error) => return Err(error),
            }
            let mut paths = vec![shown.join(first)];
            let mut later_error = None;
            for (name, (_, bytes)) in written {
                match place(folder, name, bytes, placing.mode) {
                    Ok(()) => paths.push(shown.join(name)),
                    Err(error) => {
                        later_error = Some(error);
                        break;
                    }
                }
            }
            return Ok(Placed {
                stem,
                paths,
                later_error,
            });
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{GIVE_UP_AFTER} files named {} already", placing.stem),
        ))
    }

    /// The date folder, created when missing and opened without following a link.
    fn date_folder(&self, name: &str) -> io::Result<Handle> {
        sys::create_folder(&self.handle, name)?;
        match sys::open_folder_nofollow(&self.handle, name)? {
            Some(handle) => Ok(handle),
            None => Err(io::Error::other(format!(
                "{} is not a folder (a {} planted there is refused); nothing written",
                self.path.join(name).display(),
                sys::LINK_KINDS
            ))),
        }
    }
}

/// Whether `name` is taken in `folder` (by anything, a dangling link included).
fn exists(folder: &Handle, name: &str) -> io::Result<bool> {
    sys::exists(folder, name)
}

/// Write `bytes` to `name` in `folder` through a temporary file, failing if `name` exists.
fn place(folder: &Handle, name: &str, bytes: &[u8], mode: u32) -> io::Result<()> {
    let mut temp = TempFile::create(folder, mode)?;
    let file = temp.file.as_mut().expect("open until dropped");
    file.write_all(bytes)?;
    file.sync_data()?;
    // A link fails when the name is taken: an existing file is never replaced.
    sys::link(folder, &temp.name, name)
}

/// A new, empty, hidden file, removed when dropped.
struct TempFile<'a> {
    folder: &'a Handle,
    name: String,
    /// Closed before the name is removed (Windows removes an open file's name only once
    /// it is closed).
    file: Option<std::fs::File>,
}

impl<'a> TempFile<'a> {
    fn create(folder: &'a Handle, mode: u32) -> io::Result<TempFile<'a>> {
        loop {
            let name = format!("{TEMP_PREFIX}{}", unique());
            if let Some(file) = sys::create_new(folder, &name, mode)? {
                return Ok(TempFile {
                    folder,
                    name,
                    file: Some(file),
                });
            }
        }
    }
}

impl Drop for TempFile<'_> {
    fn drop(&mut self) {
        drop(self.file.take());
        sys::remove(self.folder, &self.name);
    }
}

/// A stem claimed by this process: no other writer uses it while the claim stands.
struct Claim<'a> {
    folder: &'a Handle,
    name: String,
}

impl<'a> Claim<'a> {
    /// The claim on `stem`, or `None` when another writer holds it.
    fn take(folder: &'a Handle, stem: &str) -> io::Result<Option<Claim<'a>>> {
        let name = format!("{TEMP_PREFIX}claim-{stem}");
        Ok(sys::create_new(folder, &name, 0o600)?.map(|_| Claim { folder, name }))
    }
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        sys::remove(self.folder, &self.name);
    }
}

/// A name part no other temporary file of this process, or of another, has at once.
fn unique() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!(
        "{}-{}-{nanos:x}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

#[cfg(test)]
mod tests;
