//! Reading one file or stream into text, and saying exactly why when that fails.
//!
//! Every file is read whole and closed before it is decoded, so loading a large folder in
//! parallel holds at most one open file per worker thread.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::Unreadable;

/// Most symlink hops followed while diagnosing a link, as the kernel does.
const MAX_LINK_HOPS: usize = 40;

/// The bytes of a file, or why they cannot be had.
///
/// One `stat` (following links), one `open`, reads into a buffer of the known size, one
/// `close`: links are examined only when something is wrong.
pub fn read_file(path: &Path, max_bytes: u64) -> Result<Vec<u8>, Unreadable> {
    let (file, len) = open_file(path, max_bytes)?;
    // One spare byte, so that a file that grew past the limit since `stat` is noticed.
    let capacity = usize::try_from(len).unwrap_or(0).saturating_add(1);
    read_into(file, max_bytes, Vec::with_capacity(capacity))
}

/// An open regular file no larger than `max_bytes`, and its size; or why it cannot be read.
/// What [`read_file`] and the line-by-line readers share.
pub fn open_file(path: &Path, max_bytes: u64) -> Result<(fs::File, u64), Unreadable> {
    let metadata = fs::metadata(path).map_err(|error| not_followable(path, &error))?;
    if metadata.is_dir() {
        return Err(folder_unreadable(path));
    }
    if !metadata.is_file() {
        // Opening a FIFO would block: report it without opening.
        return Err(Unreadable::new(
            "not a regular file (a FIFO, socket or device); jxray reads only files, \
             so copy the output into a file",
        ));
    }
    if metadata.len() > max_bytes {
        return Err(too_large(metadata.len(), max_bytes));
    }
    let file = fs::File::open(path).map_err(|error| io_unreadable(&error))?;
    Ok((file, metadata.len()))
}

/// Read at most `max_bytes` from `reader`; more than that is unreadable.
pub fn read_limited(reader: impl Read, max_bytes: u64) -> Result<Vec<u8>, Unreadable> {
    read_into(reader, max_bytes, Vec::new())
}

fn read_into(reader: impl Read, max_bytes: u64, mut bytes: Vec<u8>) -> Result<Vec<u8>, Unreadable> {
    reader
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|error| io_unreadable(&error))?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_large(bytes.len() as u64, max_bytes));
    }
    Ok(bytes)
}

/// Bytes as text: UTF-8, or UTF-16 with a byte-order mark (what Windows PowerShell's `>`
/// writes). Anything else names the first bad byte.
pub fn decode(bytes: Vec<u8>) -> Result<String, Unreadable> {
    match bytes.as_slice() {
        [0xFF, 0xFE, rest @ ..] => return decode_utf16(rest, u16::from_le_bytes),
        [0xFE, 0xFF, rest @ ..] => return decode_utf16(rest, u16::from_be_bytes),
        _ => {}
    }
    String::from_utf8(bytes).map_err(|error| {
        let offset = error.utf8_error().valid_up_to();
        let byte = error.as_bytes().get(offset).copied().unwrap_or_default();
        Unreadable::new(format!(
            "not UTF-8: byte 0x{byte:02X} at offset {offset} is invalid; re-save the capture as UTF-8"
        ))
    })
}

fn decode_utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> Result<String, Unreadable> {
    if !bytes.len().is_multiple_of(2) {
        return Err(Unreadable::new(
            "UTF-16 with an odd number of bytes (cut short?); re-save the capture as UTF-8",
        ));
    }
    let units = bytes.chunks_exact(2).map(|pair| unit([pair[0], pair[1]]));
    char::decode_utf16(units)
        .enumerate()
        .map(|(index, decoded)| {
            decoded.map_err(|_| {
                Unreadable::new(format!(
                    "invalid UTF-16: unpaired surrogate at byte offset {}; re-save the capture as UTF-8",
                    2 + index * 2
                ))
            })
        })
        .collect()
}

pub fn too_large(size: u64, max_bytes: u64) -> Unreadable {
    Unreadable::new(format!(
        "{} is over the {} limit; raise it with --max-bytes {}",
        human_size(size),
        human_size(max_bytes),
        size.max(max_bytes.saturating_add(1))
    ))
}

/// Sizes the way people read them: `512 bytes`, `3.2 KiB`, `64 MiB`.
fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut size = bytes as f64 / 1024.0;
    let mut unit = 0;
    while size >= 1024.0 && unit + 1 < UNITS.len() {
        size /= 1024.0;
        unit += 1;
    }
    let text = format!("{size:.1}");
    let text = text.strip_suffix(".0").unwrap_or(&text);
    format!("{text} {}", UNITS[unit])
}

pub fn io_unreadable(error: &io::Error) -> Unreadable {
    let fix = match error.kind() {
        io::ErrorKind::PermissionDenied => "check its permissions",
        io::ErrorKind::NotFound => "it was removed while loading; run again",
        _ => "check the file and the disk",
    };
    Unreadable::new(format!("cannot read: {error}; {fix}"))
}

/// Why `stat` failed: a symlink that dangles or loops, or a plain I/O error.
fn not_followable(path: &Path, error: &io::Error) -> Unreadable {
    let is_link = fs::symlink_metadata(path).is_ok_and(|link| link.file_type().is_symlink());
    if !is_link {
        return io_unreadable(error);
    }
    match follow_links(path) {
        LinkEnd::Dangling(target) => Unreadable::new(format!(
            "dangling symlink: its target {} does not exist; fix or remove the link",
            target.display()
        )),
        LinkEnd::Loop => Unreadable::new(
            "symlink loop: the link leads back to itself; point it at a real file or remove it",
        ),
        LinkEnd::Other => Unreadable::new(format!(
            "cannot follow symlink: {error}; fix or remove the link"
        )),
    }
}

fn folder_unreadable(path: &Path) -> Unreadable {
    let is_link = fs::symlink_metadata(path).is_ok_and(|link| link.file_type().is_symlink());
    match fs::read_dir(path) {
        Err(error) => Unreadable::new(format!(
            "cannot read folder: {error}; check its permissions"
        )),
        // The walk returns a readable folder only when it is a link back into the search.
        Ok(_) if is_link => Unreadable::new(format!(
            "symlink loop: the link leads back to {}, a folder already being searched; \
             remove the link or point it elsewhere",
            fs::canonicalize(path)
                .unwrap_or_else(|_| path.to_path_buf())
                .display()
        )),
        Ok(_) => Unreadable::new("is a folder, not a file; pass the folder itself to search it"),
    }
}

/// Whether `path` is a symlink that leads back to itself.
pub fn is_link_loop(path: &Path) -> bool {
    matches!(follow_links(path), LinkEnd::Loop)
}

enum LinkEnd {
    /// The last link points at this missing path.
    Dangling(PathBuf),
    Loop,
    Other,
}

fn follow_links(start: &Path) -> LinkEnd {
    let mut current = start.to_path_buf();
    let mut seen = vec![current.clone()];
    for _ in 0..MAX_LINK_HOPS {
        let target = match fs::read_link(&current) {
            Ok(target) => target,
            Err(_) => return LinkEnd::Other,
        };
        let next = match current.parent() {
            Some(parent) => parent.join(&target),
            None => target.clone(),
        };
        match fs::symlink_metadata(&next) {
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                return LinkEnd::Dangling(target)
            }
            Err(_) => return LinkEnd::Other,
            Ok(metadata) if !metadata.file_type().is_symlink() => {
                // A link further along may be inside a missing folder: still not a loop.
                return LinkEnd::Other;
            }
            Ok(_) => {}
        }
        if seen.contains(&next) {
            return LinkEnd::Loop;
        }
        seen.push(next.clone());
        current = next;
    }
    LinkEnd::Loop
}
