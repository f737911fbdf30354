//! A log being written: its last line may be half there.
//!
//! A program appending to a `.jsonl` log writes a line in pieces; a watcher
//! that reads in between sees a last line that stops mid-JSON and has no line
//! break yet. That line is not a broken capture, it is an unfinished one: a
//! re-read while watching leaves it out until its newline arrives. (A whole
//! read — the first load, `jxray check` — still reports such a line, since
//! nothing more is coming.)

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use crate::capture::Capture;

/// The most of a file's end that is read to find its last line.
const TAIL: u64 = 1024 * 1024;

/// Drop the last capture of a log whose last line is unfinished JSON without a line break.
pub(crate) fn hold_back(path: &Path, captures: &mut Vec<Capture>) {
    let Some(last) = captures.last() else {
        return;
    };
    if last.line.is_none() || last.text.is_ok() {
        return;
    }
    if unfinished_last_line(path).unwrap_or(false) {
        captures.pop();
    }
}

/// Whether the file ends in a line with no break whose JSON stops early.
fn unfinished_last_line(path: &Path) -> std::io::Result<bool> {
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    let start = len.saturating_sub(TAIL);
    file.seek(SeekFrom::Start(start))?;
    let mut tail = Vec::new();
    file.take(TAIL).read_to_end(&mut tail)?;
    Ok(is_unfinished(&tail))
}

fn is_unfinished(tail: &[u8]) -> bool {
    if tail.is_empty() || tail.ends_with(b"\n") {
        return false;
    }
    let line = match tail.iter().rposition(|&b| b == b'\n') {
        Some(at) => &tail[at + 1..],
        None => tail,
    };
    // A line cut inside a UTF-8 character is unfinished too.
    let Ok(line) = std::str::from_utf8(line) else {
        return true;
    };
    match serde_json::from_str::<serde::de::IgnoredAny>(line) {
        Ok(_) => false,
        Err(error) => error.is_eof(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_cut_last_line_without_a_break_is_unfinished() {
        assert!(is_unfinished(b"{\"output\": \"a\"}\n{\"output\": \"b"));
        assert!(is_unfinished(b"{\"output\": \"caf\xc3"));
        assert!(!is_unfinished(b"{\"output\": \"a\"}\n"));
        assert!(!is_unfinished(b"{\"output\": \"a\"}\n{\"output\": \"b\"}"));
        assert!(!is_unfinished(b"{\"output\": \"a\"}\nnot json at all"));
        assert!(!is_unfinished(b"{\"output\": \"b\n"));
        assert!(!is_unfinished(b""));
    }

    #[test]
    fn the_unfinished_line_waits_and_the_rest_loads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.jsonl");
        std::fs::write(&path, "{\"output\": \"{}\"}\n{\"output\": \"{\\\"a\\\": ").unwrap();
        let mut captures = crate::capture::load_file(&path, dir.path(), &Default::default());
        assert_eq!(captures.len(), 2);
        hold_back(&path, &mut captures);
        assert_eq!(captures.len(), 1);
        std::fs::write(
            &path,
            "{\"output\": \"{}\"}\n{\"output\": \"{\\\"a\\\": 1}\"}\n",
        )
        .unwrap();
        let mut captures = crate::capture::load_file(&path, dir.path(), &Default::default());
        hold_back(&path, &mut captures);
        assert_eq!(captures.len(), 2);
    }
}
