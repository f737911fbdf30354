//! The loading entry points: a path (file, folder or `-`), one file, or a reader.

use crate::text::shown_path;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use super::fields::FieldMap;
use super::reader::Records;
use super::readers;
use super::recognise::{self, Kind};
use super::{disk, walk, Capture};

/// How captures are loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadOptions {
    /// Largest file read, in bytes; larger files become `unreadable` captures. Log stores
    /// read record by record (SQLite, `.eval`) apply it to each record instead.
    pub max_bytes: u64,
    /// Where the text, stop reason, id and model of JSON log records are
    /// (`--text-path` and friends, or a `--preset`).
    pub fields: Option<Arc<FieldMap>>,
    /// How captures found in a folder are named.
    pub sources: SourceNames,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            max_bytes: 64 * 1024 * 1024,
            fields: None,
            sources: SourceNames::default(),
        }
    }
}

/// How a capture's `source` names its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SourceNames {
    /// Relative to the folder given (`a/b.txt` under `captures`): short, for the TUI's list.
    #[default]
    RelativeToRoot,
    /// As the user can open it from the shell: relative to the working folder
    /// (`captures/a/b.txt`), which is what `check` prints.
    FromWorkingFolder,
}

impl SourceNames {
    /// The source of a capture read from `file`, found under `root`.
    pub(crate) fn name(self, root: &Path, file: &Path) -> String {
        match self {
            SourceNames::RelativeToRoot => walk::relative_source(root, file),
            SourceNames::FromWorkingFolder => walk::shell_path(file),
        }
    }
}

/// The path given to [`load`] or [`discover`](super::discover) cannot be read at all.
///
/// Anything wrong *below* that path becomes an unreadable [`Capture`] instead.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{}: no such file or folder; check the path", shown_path(&path))]
    NotFound { path: PathBuf },
    #[error("{}: dangling symlink to {}; fix the link or pass its target", shown_path(&path), shown_path(&target))]
    DanglingLink { path: PathBuf, target: PathBuf },
    #[error("{}: symlink loop; point the link at a real file or folder", shown_path(&path))]
    LinkLoop { path: PathBuf },
    #[error("{}: cannot read it ({source}); check its permissions", shown_path(&path))]
    Io { path: PathBuf, source: io::Error },
}

impl LoadError {
    pub(crate) fn from_io(path: &Path, error: io::Error) -> LoadError {
        if error.kind() == io::ErrorKind::NotFound {
            return match std::fs::read_link(path) {
                Ok(target) => LoadError::DanglingLink {
                    path: path.to_path_buf(),
                    target,
                },
                Err(_) => LoadError::NotFound {
                    path: path.to_path_buf(),
                },
            };
        }
        if disk::is_link_loop(path) {
            return LoadError::LinkLoop {
                path: path.to_path_buf(),
            };
        }
        LoadError::Io {
            path: path.to_path_buf(),
            source: error,
        }
    }
}

/// Load every capture under `path`: a file, a folder (searched recursively), or `-` for
/// standard input. Captures are sorted by source path, then line number.
pub fn load(path: &Path, options: &LoadOptions) -> Result<Vec<Capture>, LoadError> {
    if path == Path::new("-") {
        return Ok(load_reader("-", io::stdin().lock(), options));
    }
    let files = walk::discover(path)?;
    Ok(load_found(path, &files, options))
}

/// The captures in `files`, found under `root` by [`discover`](super::discover) or
/// [`discover_with`](super::discover_with), sorted by source path, then line number.
pub fn load_found(root: &Path, files: &[PathBuf], options: &LoadOptions) -> Vec<Capture> {
    let mut captures: Vec<Capture> = files
        .par_iter()
        .map(|file| load_file(file, root, options))
        .flatten_iter()
        .collect();
    // Files come sorted from the walk and lines in order from each file; sorting again is
    // cheap and keeps the order a promise rather than an accident (`x.jsonl:2` before `:10`).
    captures.sort_by_cached_key(|capture| (walk::sort_key(root, &capture.path), capture.line));
    captures
}

/// The captures in one file: one, one a line for `.jsonl`, one a record for a log store,
/// or one unreadable capture. Their `source` is named as `options.sources` says: `file`'s
/// path relative to `root` (the path as given when `file` is `root`), or relative to the
/// working folder.
pub fn load_file(file: &Path, root: &Path, options: &LoadOptions) -> Vec<Capture> {
    source_records(file, root, options).collect()
}

/// The captures in one file as they are read, for callers that stream (see [`load_file`]).
pub(super) fn source_records(file: &Path, root: &Path, options: &LoadOptions) -> Records {
    readers::records(file, &options.sources.name(root, file), options)
}

/// The captures in the bytes of the file at `file` (its name decides the format, as for
/// [`load_file`]), reported as `source`.
pub fn load_bytes(
    source: &str,
    file: &Path,
    bytes: Vec<u8>,
    options: &LoadOptions,
) -> Vec<Capture> {
    match disk::decode(bytes) {
        Ok(text) => recognise::captures(source, file, text, Kind::of(file), options),
        Err(unreadable) => vec![Capture::unreadable(source.to_string(), file, unreadable)],
    }
}

/// The captures read from a stream (standard input, tests). The content decides the
/// format, since there is no file name to go by.
pub fn load_reader(source: &str, reader: impl Read, options: &LoadOptions) -> Vec<Capture> {
    let path = Path::new(source);
    match disk::read_limited(reader, options.max_bytes).and_then(disk::decode) {
        Ok(text) => recognise::captures(source, path, text, Kind::Unnamed, options),
        Err(unreadable) => vec![Capture::unreadable(source.to_string(), path, unreadable)],
    }
}
