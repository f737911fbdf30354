//! Opening an `llm` logs.db so that jxray sees what any reader of the database sees —
//! rows still in its write-ahead log included — without writing the database and without
//! leaving a file beside it that was not there.
//!
//! In WAL mode (the `llm` CLI's) SQLite appends committed rows to `FILE-wal`, indexed for
//! the connections in `FILE-shm`, and moves them into `FILE` only at a checkpoint; a writer
//! that is still connected, or that crashed, leaves them there. So:
//! - no `-wal` (the writer closed cleanly, or the database is not in WAL mode): every row
//!   is in the file itself, which is opened immutable: no lock, no journal, nothing made;
//! - a `-wal` and its `-shm`: opened read-only through SQLite's own reader protocol, so a
//!   live writer's rows are read and its work is not disturbed. SQLite reads the `-shm`
//!   (only reads it when it cannot write it, as in a read-only folder) and creates nothing;
//! - a `-wal` without its `-shm` (the pair was copied, or the folder is read-only and its
//!   writer gone): SQLite would have to create the `-shm` beside the database, so the
//!   database and its log are copied to a private temporary folder and read there.

use crate::text::shown_path;
use std::fs;
use std::path::{Path, PathBuf};

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags};
use tempfile::TempDir;

/// An open database, and the private copy it was opened from, if any (removed when this
/// is dropped, after the connection: fields drop in order).
pub(super) struct Opened {
    pub(crate) connection: Connection,
    _copy: Option<TempDir>,
}

/// How a database is opened, from the files beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum OpenMode {
    /// Every row is in the file: immutable.
    Immutable,
    /// A WAL and its index: read-only, the way SQLite's readers share them with a writer.
    Shared,
    /// A WAL without its index: a private copy.
    Copy,
}

/// How `path` must be opened to be read whole and left as it is.
pub(super) fn mode(path: &Path) -> OpenMode {
    let wal = beside(path, "-wal").symlink_metadata().ok();
    let shm = beside(path, "-shm").symlink_metadata().is_ok();
    match (wal, shm) {
        (None, _) => OpenMode::Immutable,
        (Some(_), true) => OpenMode::Shared,
        // An empty log holds no rows: the file is all there is.
        (Some(wal), false) if wal.len() == 0 => OpenMode::Immutable,
        (Some(_), false) => OpenMode::Copy,
    }
}

/// Open `path` for reading as [`mode`] says; the error is the one line a capture shows.
pub(super) fn open(path: &Path) -> Result<Opened, String> {
    let cannot_open = |error: rusqlite::Error| {
        format!("cannot open the SQLite database ({error}); check the file")
    };
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
        | OpenFlags::SQLITE_OPEN_URI
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let (uri, copy) = match mode(path) {
        OpenMode::Immutable => (uri(path, "mode=ro&immutable=1"), None),
        OpenMode::Shared => (uri(path, "mode=ro"), None),
        OpenMode::Copy => {
            let (copy, copied) = private_copy(path)?;
            (uri(&copied, "mode=ro"), Some(copy))
        }
    };
    let connection = Connection::open_with_flags(uri, flags).map_err(cannot_open)?;
    // A reader never checkpoints; this says so even where SQLite would try on close.
    connection
        .set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)
        .map_err(cannot_open)?;
    Ok(Opened {
        connection,
        _copy: copy,
    })
}

/// `FILE-wal` or `FILE-shm` for `FILE`.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(suffix);
    PathBuf::from(name)
}

/// The database and its WAL copied into a new temporary folder; the copy's path.
fn private_copy(path: &Path) -> Result<(TempDir, PathBuf), String> {
    let failed = |error: std::io::Error| {
        format!(
            "its write-ahead log ({}-wal) has no index (-shm) beside it, and a private copy \
             to read it from could not be made ({error}); free space in the temporary folder",
            shown_path(&path)
        )
    };
    let copy = tempfile::Builder::new()
        .prefix("jxray-logs-")
        .tempdir()
        .map_err(failed)?;
    let copied = copy.path().join("logs.db");
    fs::copy(path, &copied).map_err(failed)?;
    fs::copy(beside(path, "-wal"), beside(&copied, "-wal")).map_err(failed)?;
    Ok((copy, copied))
}

/// An SQLite URI for `path` with `query`, escaping what SQLite would read as syntax.
fn uri(path: &Path, query: &str) -> String {
    let mut uri = String::from("file:");
    for byte in path.to_string_lossy().bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                uri.push(char::from(byte))
            }
            other => uri.push_str(&format!("%{other:02X}")),
        }
    }
    uri.push('?');
    uri.push_str(query);
    uri
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_uri_escapes_what_sqlite_would_read_as_syntax() {
        assert_eq!(
            uri(Path::new("logs/a b?#%.db"), "mode=ro&immutable=1"),
            "file:logs/a%20b%3F%23%25.db?mode=ro&immutable=1"
        );
    }

    #[test]
    fn the_files_beside_the_database_decide_how_it_is_opened() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("logs.db");
        fs::write(&db, "").unwrap();
        assert_eq!(mode(&db), OpenMode::Immutable);
        fs::write(dir.path().join("logs.db-wal"), "").unwrap();
        assert_eq!(mode(&db), OpenMode::Immutable, "an empty log holds nothing");
        fs::write(dir.path().join("logs.db-wal"), "frames").unwrap();
        assert_eq!(mode(&db), OpenMode::Copy);
        fs::write(dir.path().join("logs.db-shm"), "").unwrap();
        assert_eq!(mode(&db), OpenMode::Shared);
    }
}
