//! Writing a capture and its request file: atomically, never overwriting, never outside
//! the capture folder.
//!
//! Each file is written to a temporary file in the same folder and linked into place only
//! if its name is free, so a reader (a watching jxray) sees a whole file or none, and an
//! existing file is never replaced: a taken name gets a `-2`, `-3`, … suffix. The capture
//! is placed before its request file, so that when the request file appears the capture it
//! belongs to is already there.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::naming::REQUEST_SUFFIX;

/// Temporary files start with this (hidden, and the prefix jxray's watcher ignores).
const TEMP_PREFIX: &str = ".jxray-tmp-";

/// How many suffixes are tried before giving up on a name.
const MAX_SUFFIX: usize = 1000;

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

/// Write `files` under `root` (canonical); the capture's path.
pub fn write(root: &Path, files: &CaptureFiles<'_>) -> io::Result<PathBuf> {
    let folder = date_folder(root, files.folder)?;
    for attempt in 1..=MAX_SUFFIX {
        let stem = match attempt {
            1 => files.stem.to_string(),
            n => format!("{}-{n}", files.stem),
        };
        let capture = folder.join(format!("{stem}{}", files.extension));
        let request = folder.join(format!("{stem}{REQUEST_SUFFIX}"));
        if request.exists() {
            continue;
        }
        match place(&folder, &capture, files.capture) {
            Ok(()) => {
                place(&folder, &request, files.request)?;
                return Ok(capture);
            }
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(error),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("{MAX_SUFFIX} files named {} already", files.stem),
    ))
}

/// The date folder, created when missing, and checked to lie inside `root` (a symlink
/// planted there must not lead the writes elsewhere).
fn date_folder(root: &Path, name: &str) -> io::Result<PathBuf> {
    let folder = root.join(name);
    fs::create_dir_all(&folder)?;
    let canonical = fs::canonicalize(&folder)?;
    if !canonical.starts_with(root) || !canonical.is_dir() {
        return Err(io::Error::other(format!(
            "{} leads outside the capture folder; nothing written",
            folder.display()
        )));
    }
    Ok(canonical)
}

/// Write `bytes` to `path` through a temporary file, failing if `path` exists.
fn place(folder: &Path, path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut temp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .tempfile_in(folder)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_data()?;
    temp.persist_noclobber(path).map_err(|error| error.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files<'a>(capture: &'a [u8]) -> CaptureFiles<'a> {
        CaptureFiles {
            folder: "2026-12-01",
            stem: "14-03-22.118-m",
            extension: ".json",
            capture,
            request: b"{}",
        }
    }

    #[test]
    fn a_taken_name_gets_a_suffix_and_nothing_is_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        let first = write(&root, &files(b"1")).unwrap();
        let second = write(&root, &files(b"2")).unwrap();
        assert!(first.ends_with("2026-12-01/14-03-22.118-m.json"));
        assert!(second.ends_with("2026-12-01/14-03-22.118-m-2.json"));
        assert_eq!(fs::read(&first).unwrap(), b"1");
        assert_eq!(fs::read(&second).unwrap(), b"2");
        assert!(root
            .join("2026-12-01/14-03-22.118-m-2.request.json")
            .is_file());
        let names: Vec<_> = fs::read_dir(root.join("2026-12-01")).unwrap().collect();
        assert_eq!(names.len(), 4, "no temporary file is left");
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_symlink_does_not_lead_writes_outside() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("2026-12-01")).unwrap();
        assert!(write(&root, &files(b"1")).is_err());
        assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
    }
}
