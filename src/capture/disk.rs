//! Reading one file or stream into text, and saying exactly why when that fails.
//!
//! Every file is read whole and closed before it is decoded, so loading a large folder in
//! parallel holds at most one open file per worker thread.

use crate::text::shown_path;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::Unreadable;
pub(super) use jxray_formats::text::{decode, utf16_without_bom, without_bom};

/// Most symlink hops followed while diagnosing a link, as the kernel does.
const MAX_LINK_HOPS: usize = 40;

/// The bytes of a capture file, or why they cannot be had (see [`read_regular`]); too
/// large a file points at `--max-bytes`.
pub(super) fn read_file(path: &Path, max_bytes: u64) -> Result<Vec<u8>, Unreadable> {
    read_regular(path, max_bytes, &max_bytes_fix)
}

/// What to do about a capture of `size` bytes over the limit.
pub(super) fn max_bytes_fix(size: u64) -> String {
    format!("raise it with --max-bytes {size}")
}

/// [`read_file`] with one `open`, after a look at the first `peek` bytes: `None` when
/// `claimed` says they belong to another reader, and nothing more is read.
pub(super) fn read_file_unless(
    path: &Path,
    max_bytes: u64,
    peek: usize,
    claimed: impl FnOnce(&[u8]) -> bool,
) -> Option<Result<Vec<u8>, Unreadable>> {
    // Another reader may take a file of any size: the limit is checked after the look.
    let (mut file, len) = match open_regular(path, u64::MAX, &max_bytes_fix) {
        Ok(opened) => opened,
        Err(unreadable) => return Some(Err(unreadable)),
    };
    let capacity = usize::try_from(len.min(max_bytes))
        .unwrap_or(0)
        .saturating_add(1);
    let mut bytes = Vec::with_capacity(capacity.max(peek));
    if let Err(error) = (&mut file).take(peek as u64).read_to_end(&mut bytes) {
        return Some(Err(io_unreadable(&error)));
    }
    if claimed(&bytes) {
        return None;
    }
    if len > max_bytes {
        return Some(Err(too_large(Some(len), max_bytes, &max_bytes_fix)));
    }
    Some(read_into(file, max_bytes, bytes, &max_bytes_fix))
}

/// The one way jxray opens a file it reads, whatever its role (capture, fixture, schema,
/// config): only a regular file (after links) is opened, never a FIFO, socket or device,
/// which could block forever or never end; and at most `max_bytes` are read. The message
/// says why not, without the path (the caller names the file); `size_fix` says what to do
/// about a file that is too large, given its size.
///
/// One `stat` (following links), one non-blocking `open` checked again with `fstat` (the
/// path may have been swapped in between), reads into a buffer of the known size, one
/// `close`: links are examined only when something is wrong.
pub fn read_regular(
    path: &Path,
    max_bytes: u64,
    size_fix: &dyn Fn(u64) -> String,
) -> Result<Vec<u8>, Unreadable> {
    let (file, len) = open_regular(path, max_bytes, size_fix)?;
    // One spare byte, so that a file that grew past the limit since `stat` is noticed.
    let capacity = usize::try_from(len.min(max_bytes))
        .unwrap_or(0)
        .saturating_add(1);
    read_into(file, max_bytes, Vec::with_capacity(capacity), size_fix)
}

/// The open file and its size, checked as [`read_regular`] checks it: what it and the
/// line-by-line readers (which read a large log without holding it whole) share.
pub(super) fn open_regular(
    path: &Path,
    max_bytes: u64,
    size_fix: &dyn Fn(u64) -> String,
) -> Result<(fs::File, u64), Unreadable> {
    let metadata = fs::metadata(path).map_err(|error| not_followable(path, &error))?;
    check_kind(path, &metadata)?;
    if metadata.len() > max_bytes {
        return Err(too_large(Some(metadata.len()), max_bytes, size_fix));
    }
    let file = open_nonblocking(path).map_err(|error| io_unreadable(&error))?;
    let opened = file.metadata().map_err(|error| io_unreadable(&error))?;
    check_kind(path, &opened)?;
    Ok((file, opened.len()))
}

/// [`read_regular`], then [`decode`]: the text of a fixture, schema or config file.
pub fn read_regular_text(
    path: &Path,
    max_bytes: u64,
    size_fix: &dyn Fn(u64) -> String,
) -> Result<String, Unreadable> {
    read_regular(path, max_bytes, size_fix).and_then(decode)
}

/// What `path` is (after links) when it is there but is neither a regular file nor a
/// folder: `a FIFO (named pipe)`, `a socket`, `a character device`, …
pub fn special_file(path: &Path) -> Option<&'static str> {
    let metadata = fs::metadata(path).ok()?;
    (!metadata.is_file() && !metadata.is_dir()).then(|| special_kind(&metadata))
}

/// Refuse anything but a regular file, naming what it is.
fn check_kind(path: &Path, metadata: &fs::Metadata) -> Result<(), Unreadable> {
    if metadata.is_file() {
        return Ok(());
    }
    if metadata.is_dir() {
        return Err(folder_unreadable(path));
    }
    Err(Unreadable::new(format!(
        "is {}, not a regular file; jxray reads only regular files, so copy the content into one",
        special_kind(metadata)
    )))
}

#[cfg(unix)]
fn special_kind(metadata: &fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let kind = metadata.file_type();
    if kind.is_fifo() {
        "a FIFO (named pipe)"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_kind(_metadata: &fs::Metadata) -> &'static str {
    "a special file"
}

/// Open for reading without ever blocking in `open` (a FIFO swapped in after `stat`
/// would otherwise wait for a writer). Reads from a regular file ignore the flag.
#[cfg(unix)]
fn open_nonblocking(path: &Path) -> io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> io::Result<fs::File> {
    fs::File::open(path)
}

/// Read at most `max_bytes` from `reader`; more than that is unreadable.
pub(super) fn read_limited(reader: impl Read, max_bytes: u64) -> Result<Vec<u8>, Unreadable> {
    let size_fix = |_| "raise it with --max-bytes".to_string();
    read_into(reader, max_bytes, Vec::new(), &size_fix)
}

fn read_into(
    reader: impl Read,
    max_bytes: u64,
    mut bytes: Vec<u8>,
    size_fix: &dyn Fn(u64) -> String,
) -> Result<Vec<u8>, Unreadable> {
    reader
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|error| io_unreadable(&error))?;
    if bytes.len() as u64 > max_bytes {
        // Only the first bytes past the limit were read: the size is not known.
        return Err(too_large(None, max_bytes, size_fix));
    }
    Ok(bytes)
}

/// Largest schema read, from a file or a log's column (`--schema /dev/zero` or a huge
/// recorded schema must not eat memory).
pub const MAX_SCHEMA_BYTES: u64 = 16 * 1024 * 1024;

/// Exact counts, so the message never says "64 MiB is over the 64 MiB limit".
pub(super) fn too_large(
    size: Option<u64>,
    max_bytes: u64,
    size_fix: &dyn Fn(u64) -> String,
) -> Unreadable {
    let over = max_bytes.saturating_add(1);
    let size_text = match size {
        // The rounded size only where it tells the two apart.
        Some(size) if human_size(size) != human_size(max_bytes) => {
            format!("{size} bytes ({})", human_size(size))
        }
        Some(size) => format!("{size} bytes"),
        None => format!("more than {max_bytes} bytes"),
    };
    Unreadable::new(format!(
        "too large: {size_text} is over the limit of {max_bytes} bytes ({}); {}",
        human_size(max_bytes),
        size_fix(size.unwrap_or(over).max(over))
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

pub(super) fn io_unreadable(error: &io::Error) -> Unreadable {
    let fix = match error.kind() {
        io::ErrorKind::PermissionDenied => "check its permissions",
        io::ErrorKind::NotFound => "it no longer exists; check the path and run again",
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
            shown_path(&target)
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
            shown_path(&fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
        )),
        Ok(_) => Unreadable::new("is a folder, not a file; pass the folder itself to search it"),
    }
}

/// Whether `path` is a symlink that leads back to itself.
pub(super) fn is_link_loop(path: &Path) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_exact_where_rounding_would_hide_the_difference() {
        let max = 64 * 1024 * 1024;
        let fix = |size: u64| format!("raise it with --max-bytes {size}");
        assert_eq!(
            too_large(Some(max + 1), max, &fix).message,
            "too large: 67108865 bytes is over the limit of 67108864 bytes (64 MiB); \
             raise it with --max-bytes 67108865"
        );
        assert_eq!(
            too_large(None, max, &fix).message,
            "too large: more than 67108864 bytes is over the limit of 67108864 bytes (64 MiB); \
             raise it with --max-bytes 67108865"
        );
    }

    #[test]
    fn utf16_without_a_byte_order_mark_is_named() {
        let le: Vec<u8> = "{\"a\": 1}"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let be: Vec<u8> = "{\"a\": 1}"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        let message = decode(le).unwrap_err().message;
        assert!(
            message.starts_with("looks like UTF-16LE without a byte-order mark"),
            "{message}"
        );
        let message = decode(be).unwrap_err().message;
        assert!(message.starts_with("looks like UTF-16BE"), "{message}");
        // One NUL in UTF-8 text is the engine's business, not an encoding.
        assert_eq!(
            decode(b"{\"a\": \"\0\"}".to_vec()).unwrap(),
            "{\"a\": \"\0\"}"
        );
    }
}
