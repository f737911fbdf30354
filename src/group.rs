//! `--by`: which group a capture belongs to when a run is triaged by model, provider,
//! prompt, folder or day. Only the name of the group is decided here; the counts per
//! group are the reports' (`report::Groups`).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use clap::ValueEnum;
use sha2::{Digest, Sha256};

use crate::capture::{Capture, RecordedRequest};

/// What captures are grouped by (the variants' notes are comments, not docs: clap would
/// turn docs into a long help that `-h` and `--help` no longer share).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GroupBy {
    // The model that answered (from the capture, else its recorded request)
    Model,
    // The provider whose envelope or stream the capture is
    Provider,
    // The recorded request's system prompt and response format: their first words and digest
    Prompt,
    // The folder the capture's file is in
    Folder,
    // The day: a `YYYY-MM-DD` folder (as `jxray record` writes), else the file's date (UTC)
    Day,
}

impl GroupBy {
    pub fn as_str(self) -> &'static str {
        match self {
            GroupBy::Model => "model",
            GroupBy::Provider => "provider",
            GroupBy::Prompt => "prompt",
            GroupBy::Folder => "folder",
            GroupBy::Day => "day",
        }
    }
}

/// How many words of a system prompt name it.
const NAME_WORDS: usize = 5;
/// A prompt group's words are cut at this many characters (one word can be any length).
const NAME_CHARS: usize = 60;
/// No group label is longer than this many characters, in any format.
const MAX_LABEL_CHARS: usize = 96;
/// How many hex digits of the digest tell two prompts apart.
const DIGEST_DIGITS: usize = 8;

/// Names the group of each capture read from disk. The captures of one file share its
/// request and its date, so the last file's are kept (captures arrive file by file).
#[derive(Debug)]
pub(crate) struct Grouper {
    by: GroupBy,
    last: Option<(PathBuf, FileFacts)>,
}

/// What the file a capture came from says, read once per file.
#[derive(Debug, Clone, Default)]
struct FileFacts {
    request: Option<Arc<RecordedRequest>>,
    modified: Option<SystemTime>,
}

impl Grouper {
    pub(crate) fn new(by: GroupBy) -> Grouper {
        Grouper { by, last: None }
    }

    pub(crate) fn by(&self) -> GroupBy {
        self.by
    }

    /// The group `capture` belongs to (see [`label_of`]).
    pub(crate) fn label(&mut self, capture: &Capture) -> String {
        let needs_file = match self.by {
            GroupBy::Model => capture.model.is_none(),
            GroupBy::Prompt | GroupBy::Day => true,
            GroupBy::Provider | GroupBy::Folder => false,
        };
        if !needs_file {
            return label_of(self.by, capture, None, None);
        }
        let facts = match &self.last {
            Some((last, facts)) if *last == capture.path => facts.clone(),
            _ => {
                let facts = FileFacts {
                    request: match self.by {
                        GroupBy::Day => None,
                        _ => RecordedRequest::shared_beside(&capture.path),
                    },
                    modified: match self.by {
                        GroupBy::Day => std::fs::metadata(&capture.path)
                            .and_then(|meta| meta.modified())
                            .ok(),
                        _ => None,
                    },
                };
                self.last = Some((capture.path.clone(), facts.clone()));
                facts
            }
        };
        label_of(self.by, capture, facts.request.as_deref(), facts.modified)
    }
}

/// The group a capture belongs to `by`, given the request recorded beside it and its file's
/// modification time where known; a capture that does not say is in a group that says
/// what is missing (`(no model)`).
pub(crate) fn label_of(
    by: GroupBy,
    capture: &Capture,
    request: Option<&RecordedRequest>,
    modified: Option<SystemTime>,
) -> String {
    let missing = |what: &str| format!("(no {what})");
    match by {
        GroupBy::Provider => capture
            .provider
            .map_or_else(|| missing("provider"), |p| p.as_str().to_string()),
        GroupBy::Folder => capped(folder_of(capture)),
        GroupBy::Model => capture
            .model
            .clone()
            .or_else(|| request.and_then(|r| r.model.clone()))
            .map_or_else(|| missing("model"), capped),
        GroupBy::Prompt => match request {
            Some(request) if request.body_note.is_none() || request.system.is_some() => {
                prompt_name(
                    request.system.as_deref(),
                    request.format.as_deref(),
                    request.format_asks.as_deref(),
                )
            }
            _ => missing("recorded request"),
        },
        GroupBy::Day => day_of(&capture.path, modified).unwrap_or_else(|| missing("date")),
    }
}

/// `Extract the invoice fields as… · 3f9a2c1d`: the system prompt's first words and the
/// digest of the system prompt and the response format together, so two prompts that
/// start alike, or one prompt asking for two formats, are two groups.
/// `asks` is what the format asks for, in a few words, naming a prompt without a system prompt.
pub(crate) fn prompt_name(
    system: Option<&str>,
    format: Option<&str>,
    asks: Option<&str>,
) -> String {
    let mut hasher = Sha256::new();
    hasher.update(system.unwrap_or_default().as_bytes());
    hasher.update([0]);
    hasher.update(format.unwrap_or_default().as_bytes());
    let digest: String = hasher
        .finalize()
        .iter()
        .take(DIGEST_DIGITS / 2)
        .map(|byte| format!("{byte:02x}"))
        .collect();
    let words: Vec<&str> = system.unwrap_or_default().split_whitespace().collect();
    let name = match words.len() {
        // Prompts without a system prompt differ by their format: name them by it.
        0 => match asks {
            Some(asked) => format!("(no system prompt) asks for {asked}"),
            None => "(no system prompt)".to_string(),
        },
        n if n <= NAME_WORDS => words.join(" "),
        _ => format!("{}…", words[..NAME_WORDS].join(" ")),
    };
    format!("{} · {digest}", cut(&name, NAME_CHARS))
}

/// A label longer than `MAX_LABEL_CHARS` (a model name or folder a capture carries: any
/// length) is cut, with a digest of the whole so two long labels stay two groups.
fn capped(label: String) -> String {
    if label.chars().count() <= MAX_LABEL_CHARS {
        return label;
    }
    let digest: String = Sha256::digest(label.as_bytes())
        .iter()
        .take(DIGEST_DIGITS / 2)
        .map(|byte| format!("{byte:02x}"))
        .collect();
    format!(
        "{} · {digest}",
        cut(&label, MAX_LABEL_CHARS - DIGEST_DIGITS - 3)
    )
}

/// `text` cut to at most `limit` characters, the last of them `…` when cut.
fn cut(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_string();
    }
    let mut kept: String = text.chars().take(limit - 1).collect();
    kept.push('…');
    kept
}

/// The folder part of the capture's source (`runs/a` for `runs/a/b.txt` and
/// `runs/a/log.jsonl:3`), `.` for a file in the working folder.
fn folder_of(capture: &Capture) -> String {
    let file = capture
        .path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let source = capture.source.as_str();
    let folder = match source.rfind(&file) {
        Some(at) if !file.is_empty() => &source[..at],
        _ => source.rsplit_once('/').map_or("", |(folder, _)| folder),
    };
    match folder.trim_end_matches('/') {
        "" => ".".to_string(),
        folder => folder.to_string(),
    }
}

/// The nearest `YYYY-MM-DD` folder above `path`, else the date (UTC) of `modified`.
fn day_of(path: &Path, modified: Option<SystemTime>) -> Option<String> {
    let named = path
        .parent()?
        .ancestors()
        .filter_map(|folder| folder.file_name()?.to_str())
        .find(|name| is_date(name));
    match named {
        Some(name) => Some(name.to_string()),
        None => modified.map(utc_date),
    }
}

fn is_date(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(index, byte)| match index {
            4 | 7 => *byte == b'-',
            _ => byte.is_ascii_digit(),
        })
}

/// `2026-12-02`: the UTC calendar date of `time` (the days-to-civil conversion of the
/// proleptic Gregorian calendar).
fn utc_date(time: SystemTime) -> String {
    let seconds = match time.duration_since(UNIX_EPOCH) {
        Ok(since) => since.as_secs() as i64,
        Err(before) => -(before.duration().as_secs() as i64),
    };
    let days = seconds.div_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates_read_in_utc() {
        let at = |seconds: u64| utc_date(UNIX_EPOCH + Duration::from_secs(seconds));
        assert_eq!(at(0), "1970-01-01");
        assert_eq!(at(951_782_400), "2000-02-29");
        assert_eq!(at(1_796_083_199), "2026-11-30");
        assert_eq!(at(1_796_083_200), "2026-12-01");
        assert!(is_date("2026-12-01") && !is_date("2026-12-1x") && !is_date("runs"));
    }

    #[test]
    fn a_prompt_is_named_by_its_first_words_and_told_apart_by_its_digest() {
        let long = prompt_name(Some("Extract the invoice fields as JSON only."), None, None);
        assert!(
            long.starts_with("Extract the invoice fields as… · "),
            "{long}"
        );
        assert_eq!(
            long.chars().count(),
            "Extract the invoice fields as… · ".chars().count() + 8
        );
        let with_format = prompt_name(
            Some("Extract the invoice fields as JSON only."),
            Some("{\"type\": \"json_object\"}"),
            Some("json_object"),
        );
        assert_ne!(
            long, with_format,
            "the response format is part of the prompt"
        );
        assert!(prompt_name(None, None, None).starts_with("(no system prompt) · "));
        assert!(prompt_name(Some("Be   terse."), None, None).starts_with("Be terse. · "));
    }

    #[test]
    fn the_folder_is_the_source_less_its_file() {
        let folder = |source: &str, path: &str| {
            let mut capture = Capture::from_text(source, "");
            capture.path = PathBuf::from(path);
            folder_of(&capture)
        };
        assert_eq!(folder("runs/a/b.txt", "/w/runs/a/b.txt"), "runs/a");
        assert_eq!(folder("runs/log.jsonl:3", "/w/runs/log.jsonl"), "runs");
        assert_eq!(folder("b.txt", "/w/b.txt"), ".");
        assert_eq!(folder("logs.db#x/y", "/w/logs.db"), ".");
    }
}
