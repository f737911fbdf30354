//! Finding capture files under a folder.
//!
//! Which files are captures (by extension, case-insensitive):
//! - raw text: `.txt`, `.text`, `.md`, `.markdown`, `.out`, `.log`, and no extension (a
//!   name ending in digits after its last dot, like `run-10.30`, has no extension);
//! - `.json` (a provider envelope, a Gemini JSON-array stream, or raw JSON);
//! - `.jsonl` and `.ndjson` (one capture a line, or one Ollama stream);
//! - `.sse` (a saved server-sent-event stream);
//! - log stores: `.db`, `.sqlite` and `.sqlite3` (the `llm` CLI's `logs.db`) and `.eval`
//!   (Inspect AI logs). Which reader reads a file is decided by its content
//!   ([`super::source`]), not here.
//!
//! Anything else (`.png`, `.py`, `.yaml`, editor backups like `a.txt~`) is not a capture;
//! [`discover_with`] counts such files by extension so a report can say what it passed over,
//! and passes over folders it is told to (the fixtures folder, for `check`).
//! Hidden files and folders (names starting with `.`), and folders named `target` or
//! `node_modules`, are skipped: they hold tool state, not model output. So are the files
//! that sit next to captures without being one: documentation (`README`, `LICENSE`,
//! `CHANGELOG`, any extension) and JSON Schemas (`schema.json`, `*.schema.json`, the usual
//! names of what `--schema` reads).
//!
//! So is a request file that `jxray record` wrote beside a capture (`X.request.json` next
//! to `X.json`, `X.sse`, …): it holds what was asked, not what the model said.
//!
//! Symlinks are followed. A link that cannot be followed (dangling, or a loop of links) and
//! a linked folder that leads back into the folders being searched are *returned*, so that
//! loading reports them as unreadable captures instead of skipping them or recursing forever.
//! FIFOs, sockets and devices with capture names are returned too (and reported, never opened).

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fs;
use std::path::{Component, Path, PathBuf};

use super::LoadError;

/// Folder names never searched, besides hidden ones.
const SKIPPED_FOLDERS: [&str; 2] = ["target", "node_modules"];

/// Extensions (lower case) of files that are captures.
const CAPTURE_EXTENSIONS: [&str; 15] = [
    "txt", "text", "md", "markdown", "out", "log", "json", "jsonl", "ndjson", "sse", "db",
    "sqlite", "sqlite3", "eval", "",
];

/// Every capture file under `root`, sorted by [`sort_key`]. A file `root` is returned as is.
///
/// Fails only when `root` itself cannot be read.
pub fn discover(root: &Path) -> Result<Vec<PathBuf>, LoadError> {
    discover_with(root, &[]).map(|discovery| discovery.files)
}

/// What a walk found: the capture files, and what it passed over that a user may want to know.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Discovery {
    /// Capture files, sorted by [`sort_key`].
    pub(crate) files: Vec<PathBuf>,
    /// Files not read because jxray does not read their extension.
    pub(crate) skipped: SkippedFiles,
    /// Folders passed over because they were asked to be (the fixtures folder), as walked.
    pub(crate) skipped_folders: Vec<PathBuf>,
    /// A request file was found beside a capture (or the path is one file, which may have
    /// one): the captures' request files are worth looking for (repair chains).
    pub recorded: bool,
}

/// How many files of each unread extension a walk passed over.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkippedFiles {
    /// Lower-case extension with its dot (`.csv`) and how many files had it.
    by_extension: BTreeMap<String, usize>,
}

impl SkippedFiles {
    pub(crate) fn total(&self) -> usize {
        self.by_extension.values().sum()
    }

    fn add(&mut self, extension: &str) {
        *self
            .by_extension
            .entry(format!(".{extension}"))
            .or_default() += 1;
    }

    /// `skipped 3 files: .csv, .png`, or `None` when nothing was skipped.
    pub(crate) fn note(&self) -> Option<String> {
        let total = self.total();
        let noun = if total == 1 { "file" } else { "files" };
        let extensions: Vec<&str> = self.by_extension.keys().map(String::as_str).collect();
        (total > 0).then(|| format!("skipped {total} {noun}: {}", extensions.join(", ")))
    }
}

/// Like [`discover`], also passing over the folders in `skip` (compared by their canonical
/// path; `root` itself is never skipped) and counting the files whose extension is not read.
pub fn discover_with(root: &Path, skip: &[PathBuf]) -> Result<Discovery, LoadError> {
    let metadata = fs::metadata(root).map_err(|error| LoadError::from_io(root, error))?;
    if !metadata.is_dir() {
        return Ok(Discovery {
            files: vec![root.to_path_buf()],
            recorded: true,
            ..Discovery::default()
        });
    }
    let canonical = fs::canonicalize(root).map_err(|error| LoadError::from_io(root, error))?;
    let entries = fs::read_dir(root).map_err(|error| LoadError::from_io(root, error))?;
    let mut walk = Walk {
        skip: skip
            .iter()
            .filter_map(|folder| fs::canonicalize(folder).ok())
            .filter(|folder| *folder != canonical)
            .collect(),
        ..Walk::default()
    };
    walk.run(root, canonical, entries);
    let mut found = walk.found;
    found.sort_by_cached_key(|path| sort_key(root, path));
    found.dedup();
    Ok(Discovery {
        files: found,
        skipped: walk.skipped,
        skipped_folders: walk.skipped_folders,
        recorded: walk.recorded,
    })
}

/// The capture files under `folder`, a folder that appeared inside `root` after `root` was
/// walked (watch mode), found by the same rules as [`discover_with`] from `root`: so a
/// link in it back into a folder being searched (`up -> ..`) is returned to be reported,
/// not followed, and `folder` itself, when it is such a link, is returned alone. Sorted
/// by [`sort_key`] from `root`.
pub fn discover_below(root: &Path, folder: &Path, skip: &[PathBuf]) -> Vec<PathBuf> {
    let Ok(relative) = folder.strip_prefix(root) else {
        return discover_with(folder, skip)
            .map_or_else(|_| vec![folder.to_path_buf()], |d| d.files);
    };
    let Some(name) = folder.file_name() else {
        return Vec::new();
    };
    // The folders being searched on the way down, as the walk from the root holds them.
    let mut chain = Vec::new();
    let mut above = root.to_path_buf();
    for part in relative.parent().into_iter().flat_map(Path::components) {
        chain.push(fs::canonicalize(&above).unwrap_or_else(|_| above.clone()));
        above.push(part);
    }
    chain.push(fs::canonicalize(&above).unwrap_or_else(|_| above.clone()));
    let mut walk = Walk {
        skip: skip
            .iter()
            .filter_map(|f| fs::canonicalize(f).ok())
            .collect(),
        ..Walk::default()
    };
    let depth = chain.len() - 1;
    walk.chain = chain;
    if is_hidden(name) {
        return Vec::new();
    }
    match fs::symlink_metadata(folder) {
        Ok(link) if link.file_type().is_symlink() => {
            walk.symlink(folder.to_path_buf(), name, depth)
        }
        Ok(kind) if kind.is_dir() && !is_skipped_folder(name) => {
            let canonical = walk.chain[depth].join(name);
            walk.push(folder.to_path_buf(), canonical, depth);
        }
        _ => {}
    }
    walk.drain();
    let mut found = walk.found;
    found.sort_by_cached_key(|path| sort_key(root, path));
    found.dedup();
    found
}

/// The key captures are sorted by: the path relative to `root`, with forward slashes.
pub(super) fn sort_key(root: &Path, path: &Path) -> String {
    relative_source(root, path)
}

/// How a file under `root` is named in reports: relative, with forward slashes; the path
/// as given when it is `root` itself (a single file) or lies outside it.
pub(super) fn relative_source(root: &Path, path: &Path) -> String {
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

/// How a path is named where the user can open it from the shell: relative to the
/// working folder (`captures/a.txt`, not `./captures/a.txt` nor `/home/u/captures/a.txt`),
/// with forward slashes; an absolute path outside the working folder stays absolute.
pub fn shell_path(path: &Path) -> String {
    // Only an absolute path is made relative: the working folder is asked for only then.
    let cwd = path
        .is_absolute()
        .then(std::env::current_dir)
        .and_then(Result::ok);
    let path = match &cwd {
        Some(cwd) => path.strip_prefix(cwd).unwrap_or(path),
        None => path,
    };
    let mut parts: Vec<String> = Vec::new();
    let mut absolute = false;
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::RootDir => absolute = true,
            Component::Prefix(prefix) => parts.push(prefix.as_os_str().to_string_lossy().into()),
            Component::ParentDir | Component::Normal(_) => {
                parts.push(part.as_os_str().to_string_lossy().into())
            }
        }
    }
    // A file name can hold an escape sequence: the path is for a human's terminal.
    let joined = crate::text::escape_line(&parts.join("/")).into_owned();
    match (absolute, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_string(),
        (false, false) => joined,
    }
}

/// Names (lower case, before the first dot) of documentation files kept next to captures.
const DOCUMENTATION: [&str; 3] = ["readme", "license", "changelog"];

/// Whether a file name is one jxray reads as a capture when it finds it in a folder.
pub fn is_capture_name(name: &OsStr) -> bool {
    matches!(classify_name(name), NameKind::Capture)
}

/// What a file name found in a folder says about the file.
enum NameKind {
    Capture,
    /// Deliberately passed over: hidden, documentation, a JSON Schema.
    Ignored,
    /// An extension jxray does not read (lower case, without the dot).
    Unread(String),
}

fn classify_name(name: &OsStr) -> NameKind {
    let name = name.to_string_lossy();
    let lower = name.to_ascii_lowercase();
    let stem = lower.split('.').next().unwrap_or_default();
    if name.starts_with('.')
        || DOCUMENTATION.contains(&stem)
        || lower == "schema.json"
        || lower.ends_with(".schema.json")
    {
        return NameKind::Ignored;
    }
    let extension = match lower.rsplit_once('.') {
        // `run-10.30` is a timestamp in a name without an extension, not a `.30` file.
        Some((_, extension)) if !extension.bytes().all(|byte| byte.is_ascii_digit()) => extension,
        _ => "",
    };
    if CAPTURE_EXTENSIONS.contains(&extension) {
        NameKind::Capture
    } else {
        NameKind::Unread(extension.to_string())
    }
}

pub use jxray_formats::recorded::REQUEST_SUFFIX;
use jxray_formats::recorded::{request_stem, RECORDED_EXTENSIONS};

/// The capture a request file at `path` was written beside, if it is one and that
/// capture is there.
pub fn capture_beside_request(path: &Path) -> Option<PathBuf> {
    let stem = request_stem(path.file_name()?.to_str()?)?;
    RECORDED_EXTENSIONS
        .iter()
        .map(|extension| path.with_file_name(format!("{stem}.{extension}")))
        .find(|capture| capture.is_file())
}

fn is_hidden(name: &OsStr) -> bool {
    name.to_string_lossy().starts_with('.')
}

fn is_skipped_folder(name: &OsStr) -> bool {
    SKIPPED_FOLDERS
        .iter()
        .any(|skipped| name == OsStr::new(skipped))
}

/// A depth-first walk with an explicit stack, so that deep trees cannot overflow the stack.
#[derive(Default)]
struct Walk {
    /// Folders still to read.
    pending: Vec<Folder>,
    /// Canonical paths of the folders from the root down to the one being read.
    chain: Vec<PathBuf>,
    found: Vec<PathBuf>,
    /// Canonical paths of folders not to search.
    skip: Vec<PathBuf>,
    skipped: SkippedFiles,
    skipped_folders: Vec<PathBuf>,
    recorded: bool,
}

struct Folder {
    path: PathBuf,
    canonical: PathBuf,
    /// How many folders are above it (the root has none).
    depth: usize,
}

impl Walk {
    fn run(&mut self, root: &Path, canonical: PathBuf, entries: fs::ReadDir) {
        self.chain.push(canonical);
        self.entries(root, entries, 0);
        self.drain();
    }

    /// Read every folder still pending, and the folders found in them.
    fn drain(&mut self) {
        while let Some(folder) = self.pending.pop() {
            // Folders deeper than this one were finished: its ancestors are what is left.
            self.chain.truncate(folder.depth);
            self.chain.push(folder.canonical);
            match fs::read_dir(&folder.path) {
                Ok(entries) => self.entries(&folder.path, entries, folder.depth),
                // Returned so that loading reports why the folder could not be read.
                Err(_) => self.found.push(folder.path),
            }
        }
    }

    fn entries(&mut self, dir: &Path, entries: fs::ReadDir, depth: usize) {
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
                        let canonical = match self.chain.last() {
                            Some(parent) => parent.join(&name),
                            None => path.clone(),
                        };
                        self.push(path, canonical, depth);
                    }
                }
                Ok(kind) if kind.is_symlink() => self.symlink(path, &name, depth),
                // Regular files, and FIFOs or devices that loading reports without opening.
                Ok(_) => self.file(path, &name),
            }
        }
    }

    fn symlink(&mut self, path: PathBuf, name: &OsStr, depth: usize) {
        match fs::metadata(&path) {
            Ok(target) if target.is_dir() => {
                if is_skipped_folder(name) {
                    return;
                }
                match fs::canonicalize(&path) {
                    // Following it would reach a folder already being searched.
                    Ok(canonical) if self.chain.iter().any(|f| f.starts_with(&canonical)) => {
                        self.found.push(path)
                    }
                    Ok(canonical) => self.push(path, canonical, depth),
                    Err(_) => self.found.push(path),
                }
            }
            // A linked file; or a dangling or looping link, which loading tells apart.
            _ => self.file(path, name),
        }
    }

    fn file(&mut self, path: PathBuf, name: &OsStr) {
        if capture_beside_request(&path).is_some() {
            self.recorded = true;
            return;
        }
        match classify_name(name) {
            NameKind::Capture => self.found.push(path),
            NameKind::Ignored => {}
            NameKind::Unread(extension) => self.skipped.add(&extension),
        }
    }

    /// Queue a subfolder of a folder at `depth`, unless it is one not to search.
    fn push(&mut self, path: PathBuf, canonical: PathBuf, depth: usize) {
        if self.skip.contains(&canonical) {
            self.skipped_folders.push(path);
            return;
        }
        self.pending.push(Folder {
            path,
            canonical,
            depth: depth + 1,
        });
    }
}
