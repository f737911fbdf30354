//! Captures as a stream, in report order, read lazily: what `check` pipes through its
//! window. Files of lines are read line by line, so a log of a million records never sits
//! in memory; every other file is read whole, one at a time, through [`load_file`].

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek};
use std::path::{Path, PathBuf};

use super::jsonl::{self, LineCaptures, Naming};
use super::load::{load_reader, source_records};
use super::reader::Records;
use super::readers;
use super::recognise::Kind;
use super::{disk, Capture, LoadOptions};

/// What standard input holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum StdinFormat {
    /// One capture a line, as in a `.jsonl` file, each checked as it arrives.
    #[default]
    Lines,
    /// The whole input is one raw output (or one envelope or stream).
    Text,
}

/// What `of_file` makes of each of `files` under `root`, one file after another, lazily.
fn each_file<T: 'static>(
    root: &Path,
    files: Vec<PathBuf>,
    options: &LoadOptions,
    of_file: fn(PathBuf, &Path, &LoadOptions) -> Box<dyn Iterator<Item = T> + Send>,
) -> Box<dyn Iterator<Item = T> + Send> {
    let root = root.to_path_buf();
    let options = options.clone();
    Box::new(
        files
            .into_iter()
            .flat_map(move |file| of_file(file, &root, &options)),
    )
}

/// One unit of `check`'s work, in report order.
pub enum Job {
    /// A capture already read: a line of a log, a record of a database.
    Capture(Capture),
    /// A file read whole, left for the worker that checks it to read, so that reading,
    /// decoding envelopes and checking run on every core.
    File {
        /// The file, to name it if reading it goes wrong.
        path: PathBuf,
        /// Its size, which is what it weighs in the pipeline's window.
        size: u64,
        /// Its captures, in order; `None` for a jxray fixture file, passed over.
        read: Box<dyn FnOnce() -> Option<Vec<Capture>> + Send>,
    },
}

/// Jobs in report order.
pub(crate) type Jobs = Box<dyn Iterator<Item = Job> + Send>;

/// The work of checking `files`, found under `root`: each read whole by a worker, but
/// files of lines and logs that stream their records, whose captures are read here as
/// the pipeline asks for them (see [`found_records`]).
pub(crate) fn found_jobs(root: &Path, files: Vec<PathBuf>, options: &LoadOptions) -> Jobs {
    each_file(root, files, options, file_jobs)
}

fn file_jobs(file: PathBuf, root: &Path, options: &LoadOptions) -> Jobs {
    let streamed = || -> Jobs { Box::new(file_records(&file, root, options).map(Job::Capture)) };
    if Kind::of(&file) == Kind::Lines {
        return streamed();
    }
    let Some(size) = readers::whole_file_size(&file) else {
        return streamed();
    };
    let name = options.sources.name(root, &file);
    let options = options.clone();
    let path = file.clone();
    let read = Box::new(move || readers::read_whole(&file, &name, &options));
    Box::new(std::iter::once(Job::File { path, size, read }))
}

/// The captures of one file under `root`, lazily when it is a file of lines.
pub(crate) fn file_records(file: &Path, root: &Path, options: &LoadOptions) -> Records {
    if Kind::of(file) == Kind::Lines {
        if let Some(lines) = streamed_lines(file, root, options) {
            return lines;
        }
    }
    source_records(file, root, options)
}

/// Standard input as captures, named as a file called `name` would be (`-:LINE`,
/// `-#ID`). Lines are read as they arrive; text that is not JSON Lines at all (its first
/// byte is no `{`) is refused once, as a whole, rather than failing on every line.
pub(crate) fn stdin_records(
    reader: impl Read + Send + 'static,
    format: StdinFormat,
    name: &str,
    options: &LoadOptions,
) -> Result<Records, NotJsonLines> {
    match format {
        StdinFormat::Text => Ok(Box::new(load_reader(name, reader, options).into_iter())),
        StdinFormat::Lines => {
            let mut reader = BufReader::with_capacity(64 * 1024, reader);
            if let Some(start) = plain_text_start(&mut reader) {
                return Err(NotJsonLines { start });
            }
            Ok(Box::new(LineCaptures::new(
                reader,
                Naming::Line(name.to_string()),
                Path::new(name),
                options,
            )))
        }
    }
}

/// Standard input read as JSON Lines starts like a sentence, not like a capture.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "standard input is not JSON Lines (it starts with {start}, not a JSON object): pass \
     --input text to read it as one raw output, or pipe one JSON capture a line"
)]
pub(crate) struct NotJsonLines {
    /// The first few characters, escaped and quoted.
    pub(crate) start: String,
}

/// The start of the input, when what has arrived shows it is not JSON Lines: its first
/// byte past blank space (and a BOM) is not `{`. Only peeks: nothing is consumed, and an
/// input whose first buffer is all blank, or that cannot be read, is left to the lines.
fn plain_text_start(reader: &mut impl BufRead) -> Option<String> {
    let available = reader.fill_buf().ok()?;
    let available = available.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(available);
    let first = available.iter().position(|b| !b.is_ascii_whitespace())?;
    if available[first] == b'{' {
        return None;
    }
    let head = String::from_utf8_lossy(&available[first..available.len().min(first + 24)]);
    let head: String = head
        .lines()
        .next()
        .unwrap_or_default()
        .chars()
        .take(16)
        .collect();
    Some(format!("\"{}\"", crate::text::escape_line(&head)))
}

/// How much of a file of lines is looked at to choose between line by line and whole.
const PEEK: usize = 64 * 1024;

/// A file of lines read line by line; `None` when it must be read whole: it cannot be
/// opened (the whole-file path says why), it is UTF-16, or it is one Ollama stream.
///
/// `--max-bytes` bounds each capture, so here each line, not the file: a log of any size
/// is checked a line at a time (the whole-file path would refuse it).
fn streamed_lines(file: &Path, root: &Path, options: &LoadOptions) -> Option<Records> {
    let (mut handle, _) = disk::open_regular(file, u64::MAX, &disk::max_bytes_fix).ok()?;
    if !line_by_line(&mut handle).ok()? {
        return None;
    }
    handle.rewind().ok()?;
    let source = options.sources.name(root, file);
    let reader = BufReader::with_capacity(64 * 1024, handle);
    Some(Box::new(
        LineCaptures::new(reader, Naming::Line(source), file, options).empty_is_unreadable(),
    ))
}

/// Whether the start of a file of lines allows reading it one line at a time.
fn line_by_line(handle: &mut File) -> io::Result<bool> {
    let mut start = Vec::with_capacity(PEEK);
    handle.by_ref().take(PEEK as u64).read_to_end(&mut start)?;
    if start.starts_with(&[0xFF, 0xFE])
        || start.starts_with(&[0xFE, 0xFF])
        || disk::utf16_without_bom(&start).is_some()
    {
        return Ok(false);
    }
    let text = String::from_utf8_lossy(&start);
    let first = disk::without_bom(&text)
        .lines()
        .find(|line| !line.trim().is_empty());
    Ok(!first.is_some_and(jsonl::may_start_ollama_stream))
}

#[cfg(test)]
mod tests {
    use super::super::{walk, Capture, LoadError};
    use super::*;

    /// Every capture under `path`, lazily, in the order of `load`.
    fn records(path: &Path, options: &LoadOptions) -> Result<Records, LoadError> {
        let files = walk::discover(path)?;
        Ok(each_file(path, files, options, |file, root, options| {
            file_records(&file, root, options)
        }))
    }

    fn sources(records: Records) -> Vec<String> {
        records.map(|capture| capture.source).collect()
    }

    fn lines_of(input: &str) -> Result<Records, NotJsonLines> {
        let bytes = io::Cursor::new(input.as_bytes().to_vec());
        stdin_records(bytes, StdinFormat::Lines, "-", &LoadOptions::default())
    }

    #[test]
    fn standard_input_lines_are_named_as_the_same_lines_of_a_file() {
        let input = "{\"output\": \"{}\"}\n\n{\"id\": \"req-7\", \"output\": \"[]\"}\nnot json\n";
        let captures: Vec<Capture> = lines_of(input).unwrap().collect();
        let names: Vec<&str> = captures.iter().map(|c| c.source.as_str()).collect();
        assert_eq!(names, ["-:1", "-:3", "-:4"]);
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("log.jsonl");
        std::fs::write(&file, input).unwrap();
        let from_file: Vec<String> = records(&file, &LoadOptions::default())
            .unwrap()
            .map(|c| c.source)
            .collect();
        let suffixes: Vec<&str> = from_file.iter().map(|s| &s[s.len() - 2..]).collect();
        assert_eq!(suffixes, [":1", ":3", ":4"]);
        assert_eq!(captures[0].text.as_deref(), Ok("{}"));
        assert!(captures[2].text.is_err());
    }

    #[test]
    fn standard_input_as_text_is_one_capture() {
        let records = stdin_records(
            io::Cursor::new(b"{\"a\": 1}\n{\"b\": 2}\n".to_vec()),
            StdinFormat::Text,
            "-",
            &LoadOptions::default(),
        );
        assert_eq!(sources(records.unwrap()), ["-"]);
    }

    #[test]
    fn plain_text_is_refused_once_as_not_json_lines() {
        let refused = lines_of("\n  I'm sorry, but I can't help with that.\nMore.\n");
        let error = refused.err().expect("plain text is not JSON Lines");
        assert_eq!(error.start, "\"I'm sorry, but I\"");
        assert!(error.to_string().contains("--input text"), "{error}");
        // A log that starts like one is read line by line, broken lines and all.
        assert_eq!(
            lines_of("\u{feff}{\"output\": \"1\"}\nnope\n")
                .unwrap()
                .count(),
            2
        );
        assert_eq!(lines_of("").unwrap().count(), 0);
    }

    #[test]
    fn a_line_over_the_limit_is_unreadable_and_the_next_still_reads() {
        let long = format!("{{\"output\": \"{}\"}}", "x".repeat(100));
        let input = format!("{long}\n{{\"output\": \"1\"}}\n");
        let options = LoadOptions {
            max_bytes: 50,
            ..LoadOptions::default()
        };
        let captures: Vec<Capture> = stdin_records(
            io::Cursor::new(input.into_bytes()),
            StdinFormat::Lines,
            "-",
            &options,
        )
        .unwrap()
        .collect();
        assert_eq!(captures.len(), 2);
        let why = captures[0].text.as_ref().unwrap_err();
        assert!(why.message.contains("--max-bytes"), "{why}");
        assert_eq!(captures[1].text.as_deref(), Ok("1"));
    }

    #[test]
    fn max_bytes_bounds_each_line_of_a_log_not_the_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("big.jsonl");
        let mut text = "{\"output\": \"{}\"}\n".repeat(20);
        text.push_str(&format!("{{\"output\": \"{}\"}}\n", "x".repeat(80)));
        std::fs::write(&file, &text).unwrap();
        let options = LoadOptions {
            max_bytes: 50,
            ..LoadOptions::default()
        };
        assert!(text.len() > 50 * 8);
        let captures: Vec<Capture> = records(&file, &options).unwrap().collect();
        assert_eq!(captures.len(), 21);
        assert!(captures[..20].iter().all(|c| c.text.as_deref() == Ok("{}")));
        let why = captures[20].text.as_ref().unwrap_err();
        assert!(why.message.contains("--max-bytes"), "{why}");
    }

    #[test]
    fn a_file_of_lines_streams_the_same_captures_as_a_whole_load() {
        let dir = tempfile::tempdir().unwrap();
        let mut text = String::from("\u{feff}");
        for i in 0..50 {
            text.push_str(&format!("{{\"output\": \"{{\\\"n\\\": {i}}}\"}}\r\n\n"));
        }
        text.push_str("{\"output\": 5}\nnot json");
        std::fs::write(dir.path().join("log.jsonl"), &text).unwrap();
        std::fs::write(dir.path().join("empty.jsonl"), "").unwrap();
        std::fs::write(dir.path().join("a.txt"), "{}").unwrap();
        let options = LoadOptions::default();
        let streamed: Vec<Capture> = records(dir.path(), &options).unwrap().collect();
        let whole = super::super::load(dir.path(), &options).unwrap();
        let key = |c: &Capture| {
            (
                c.source.clone(),
                c.line,
                c.text.clone(),
                c.stop_reason.clone(),
            )
        };
        assert_eq!(
            streamed.iter().map(key).collect::<Vec<_>>(),
            whole.iter().map(key).collect::<Vec<_>>()
        );
        assert_eq!(streamed.len(), 1 + 1 + 52);
    }

    #[test]
    fn an_ollama_stream_file_is_still_joined() {
        let dir = tempfile::tempdir().unwrap();
        let chunk = |text: &str, done: bool| {
            format!(
                "{{\"model\":\"m\",\"created_at\":\"t\",\"response\":{text:?},\"done\":{done}}}\n"
            )
        };
        let text = chunk("{\\\"a\\\"", false) + &chunk(": 1}", true);
        let file = dir.path().join("s.jsonl");
        std::fs::write(&file, text).unwrap();
        let streamed: Vec<Capture> = records(&file, &LoadOptions::default()).unwrap().collect();
        let whole = super::super::load(&file, &LoadOptions::default()).unwrap();
        assert_eq!(streamed.len(), whole.len());
        assert_eq!(streamed[0].text, whole[0].text);
    }
}
