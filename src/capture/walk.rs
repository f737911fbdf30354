//! Finding capture files under a folder.
//!
//! Which files are captures (by extension, case-insensitive):
//! - raw text: `.txt`, `.text`, `.md`, `.markdown`, `.out`, `.log`, and no extension;
//! - `.json` (a provider envelope, a Gemini JSON-array stream, or raw JSON);
//! - `.jsonl` and `.ndjson` (one capture a line, or one Ollama stream);
//! - `.sse` (a saved server-sent-event stream).
//!
//! Anything else (`.png`, `.py`, `.yaml`, editor backups like `a.txt~`) is not a capture.
//! Hidden files and folders (names starting with `.`), and folders named `target` or
//! `node_modules`, are skipped: they hold tool state, not model output. So are the files
//! that sit next to captures without being one: documentation (`README`, `LICENSE`,
//! `CHANGELOG`, any extension) and JSON Schemas (`schema.json`, `*.schema.json`, the usual
//! names of what `--schema` reads).
//!
//! Symlinks are followed. A link that cannot be followed (dangling, or a loop of links) and
//! a linked folder that leads back into the folders being searched are *returned*, so that
//! loading reports them as unreadable captures instead of skipping them or recursing forever.
//! FIFOs, sockets and devices with capture names are returned too (and reported, never opened).

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};

use super::LoadError;

/// Folder names never searched, besides hidden ones.
const SKIPPED_FOLDERS: [&str; 2] = ["target", "node_modules"];

/// Extensions (lower case) of files that are captures.
const CAPTURE_EXTENSIONS: [&str; 11] = [
    "txt", "text", "md", "markdown", "out", "log", "json", "jsonl", "ndjson", "sse", "",
];

/// Every capture file under `root`, sorted by [`sort_key`]. A file `root` is returned as is.
///
/// Fails only when `root` itself cannot be read.
pub fn discover(root: &Path) -> Result<Vec<PathBuf>, LoadError> {
    let metadata = fs::metadata(root).map_err(|error| LoadError::from_io(root, error))?;
    if !metadata.is_dir() {
        return Ok(vec![root.to_path_buf()]);
    }
    let canonical = fs::canonicalize(root).map_err(|error| LoadError::from_io(root, error))?;
    let entries = fs::read_dir(root).map_err(|error| LoadError::from_io(root, error))?;
    let mut walk = Walk {
        chain: vec![canonical],
        found: Vec::new(),
    };
    walk.entries(root, entries);
    let mut found = walk.found;
    found.sort_by_cached_key(|path| sort_key(root, path));
    found.dedup();
    Ok(found)
}

/// The key captures are sorted by: the path relative to `root`, with forward slashes.
pub fn sort_key(root: &Path, path: &Path) -> String {
    relative_source(root, path)
}

/// How a file under `root` is named in reports: relative, with forward slashes; the path
/// as given when it is `root` itself (a single file) or lies outside it.
pub fn relative_source(root: &Path, path: &Path) -> String {
    match path.strip_prefix(root) {
        Ok(relative) if !relative.as_os_str().is_empty() => {
            let parts: Vec<_> = relative
                .components()
                .map(|part| part.as_os_str().to_string_lossy())
                .collect();
            parts.join("/")
        }
        _ => path.to_string_lossy().into_owned(),
    }
}

/// Names (lower case, before the first dot) of documentation files kept next to captures.
const DOCUMENTATION: [&str; 3] = ["readme", "license", "changelog"];

/// Whether a file name is one jxray reads as a capture when it finds it in a folder.
pub fn is_capture_name(name: &OsStr) -> bool {
    let name = name.to_string_lossy();
    let lower = name.to_ascii_lowercase();
    let stem = lower.split('.').next().unwrap_or_default();
    if name.starts_with('.')
        || DOCUMENTATION.contains(&stem)
        || lower == "schema.json"
        || lower.ends_with(".schema.json")
    {
        return false;
    }
    let extension = match name.rsplit_once('.') {
        Some((_, extension)) => extension.to_ascii_lowercase(),
        None => String::new(),
    };
    CAPTURE_EXTENSIONS.contains(&extension.as_str())
}

fn is_hidden(name: &OsStr) -> bool {
    name.to_string_lossy().starts_with('.')
}

fn is_skipped_folder(name: &OsStr) -> bool {
    SKIPPED_FOLDERS
        .iter()
        .any(|skipped| name == OsStr::new(skipped))
}

struct Walk {
    /// Canonical paths of the folders from the root down to the one being read.
    chain: Vec<PathBuf>,
    found: Vec<PathBuf>,
}

impl Walk {
    fn folder(&mut self, dir: &Path) {
        match fs::read_dir(dir) {
            Ok(entries) => self.entries(dir, entries),
            // Returned so that loading reports why the folder could not be read.
            Err(_) => self.found.push(dir.to_path_buf()),
        }
    }

    fn entries(&mut self, dir: &Path, entries: fs::ReadDir) {
        for entry in entries {
            let Ok(entry) = entry else {
                // The listing broke off: report the folder rather than lose files silently.
                self.found.push(dir.to_path_buf());
                return;
            };
            let name = entry.file_name();
            if is_hidden(&name) {
                continue;
            }
            let path = entry.path();
            match entry.file_type() {
                Err(_) => self.found.push(path),
                Ok(kind) if kind.is_dir() => {
                    if !is_skipped_folder(&name) {
                        self.subfolder(&path, None);
                    }
                }
                Ok(kind) if kind.is_symlink() => self.symlink(path, &name),
                Ok(_) => {
                    // Regular files, and FIFOs or devices that loading reports without opening.
                    if is_capture_name(&name) {
                        self.found.push(path);
                    }
                }
            }
        }
    }

    fn symlink(&mut self, path: PathBuf, name: &OsStr) {
        match fs::metadata(&path) {
            Ok(target) if target.is_dir() => {
                if is_skipped_folder(name) {
                    return;
                }
                match fs::canonicalize(&path) {
                    Ok(canonical) => self.subfolder(&path, Some(canonical)),
                    Err(_) => self.found.push(path),
                }
            }
            Ok(_) => {
                if is_capture_name(name) {
                    self.found.push(path);
                }
            }
            // Dangling or looping: which one, loading says.
            Err(_) => {
                if is_capture_name(name) {
                    self.found.push(path);
                }
            }
        }
    }

    /// Search a subfolder; `linked` is its canonical path when it was reached by a symlink.
    fn subfolder(&mut self, path: &Path, linked: Option<PathBuf>) {
        let canonical = match linked {
            Some(canonical) => {
                if self
                    .chain
                    .iter()
                    .any(|folder| folder.starts_with(&canonical))
                {
                    // Following it would reach a folder already being searched.
                    self.found.push(path.to_path_buf());
                    return;
                }
                canonical
            }
            None => match (self.chain.last(), path.file_name()) {
                (Some(parent), Some(name)) => parent.join(name),
                _ => path.to_path_buf(),
            },
        };
        self.chain.push(canonical);
        self.folder(path);
        self.chain.pop();
    }
}
