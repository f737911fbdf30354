//! What the files in a capture folder are named: the date folder, a capture's and an
//! attempt's stem, the endings, and the one rule that makes a model name a file name's part.

use serde::{Deserialize, Serialize};

/// The name ending of the request file written beside each capture (`STEM.request.json`
/// beside `STEM.json`).
pub const REQUEST_SUFFIX: &str = ".request.json";

/// The name ending of a capture a repair loop wrote (one `{"output", "stop_reason"}` line).
pub const ATTEMPT_SUFFIX: &str = ".jsonl";

/// Temporary and claim files start with this: hidden, never read as a capture, ignored by
/// the watcher wherever they appear. Files are written under such a name, then linked or
/// renamed into place, so a reader sees a whole file or none.
pub const TEMP_FILE_PREFIX: &str = ".jxray-tmp-";

/// The extensions a recorded capture may have, without the dot: a JSON response, a saved
/// event stream, NDJSON chunks, plain text, `bin` for a body that could not be decoded,
/// or `jsonl` for an attempt a repair loop wrote (`{"output", "stop_reason"}`).
pub const RECORDED_EXTENSIONS: [&str; 6] = ["json", "sse", "ndjson", "txt", "bin", "jsonl"];

/// The longest model part of a file name, in bytes.
pub const MAX_MODEL_LEN: usize = 64;

/// A moment in local time, as the writer's clock gave it: the date folder, the stem's time
/// and the request file's `started` are all made from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocalTime {
    pub year: i32,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    pub millisecond: u32,
    /// Minutes east of UTC.
    pub offset_minutes: i32,
}

impl LocalTime {
    /// `YYYY-MM-DD`: the folder the files of this moment go in.
    pub fn day_folder(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    /// `HH{sep}MM{sep}SS.mmm`.
    fn clock(&self, separator: &str) -> String {
        format!(
            "{:02}{separator}{:02}{separator}{:02}.{:03}",
            self.hour, self.minute, self.second, self.millisecond
        )
    }

    /// `2026-12-02T07:50:02.301+01:00`: the local time with milliseconds and its offset.
    pub fn iso(&self) -> String {
        let sign = if self.offset_minutes < 0 { '-' } else { '+' };
        let east = self.offset_minutes.unsigned_abs();
        format!(
            "{}T{}{sign}{:02}:{:02}",
            self.day_folder(),
            self.clock(":"),
            east / 60,
            east % 60
        )
    }
}

/// A model name as a safe part of a file name: letters, digits, `.`, `-` and `_` kept,
/// anything else (path separators, control characters, spaces, `:`) a `-`, runs of `-`
/// made one; no leading dot (a hidden file), no `.request` ending (it would read as a
/// request file), at most [`MAX_MODEL_LEN`] bytes; `unnamed` when nothing is left or there
/// is no model.
pub fn model_part(model: Option<&str>, unnamed: &str) -> String {
    let mut safe = String::new();
    for c in model.unwrap_or_default().chars() {
        let c = if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
            c
        } else {
            '-'
        };
        if !(c == '-' && safe.ends_with('-')) {
            safe.push(c);
        }
        if safe.len() >= MAX_MODEL_LEN {
            break;
        }
    }
    let mut safe = safe.trim_matches(|c| c == '.' || c == '-').to_string();
    if safe.to_ascii_lowercase().ends_with(".request") {
        safe.push_str("-model");
    }
    if safe.is_empty() {
        unnamed.to_string()
    } else {
        safe
    }
}

/// A recorded capture's stem, `HH-MM-SS.mmm-MODEL`, with `-http-STATUS` for an error
/// response (kept as it came, but standing out in the list); `unknown` for no model.
pub fn capture_stem(started: &LocalTime, model: Option<&str>, status: u16) -> String {
    let mut stem = format!("{}-{}", started.clock("-"), model_part(model, "unknown"));
    if status >= 400 {
        stem.push_str(&format!("-http-{status}"));
    }
    stem
}

/// A repair attempt's stem, `HH-MM-SS.mmm-MODEL-CHAIN8-aN`: the chain id's first 8
/// characters and the attempt's number; `repair` for a reply that named no model.
pub fn attempt_stem(started: &LocalTime, model: Option<&str>, chain: &str, attempt: u32) -> String {
    let id: String = chain.chars().take(8).collect();
    format!(
        "{}-{}-{id}-a{attempt}",
        started.clock("-"),
        model_part(model, "repair")
    )
}

/// The request file's name for the capture stem `stem`.
pub fn request_file_name(stem: &str) -> String {
    format!("{stem}{REQUEST_SUFFIX}")
}

/// The stem of a request file's name (`a` for `a.request.json`, in any letter case), when
/// it is one.
pub fn request_stem(name: &str) -> Option<&str> {
    let cut = name.len().checked_sub(REQUEST_SUFFIX.len())?;
    (name.is_char_boundary(cut) && name[cut..].eq_ignore_ascii_case(REQUEST_SUFFIX))
        .then(|| &name[..cut])
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHEN: LocalTime = LocalTime {
        year: 2026,
        month: 12,
        day: 1,
        hour: 14,
        minute: 3,
        second: 22,
        millisecond: 118,
        offset_minutes: -210,
    };

    #[test]
    fn a_request_name_and_its_stem_go_both_ways() {
        let name = request_file_name("14-03-22.118-gpt-4o");
        assert_eq!(name, "14-03-22.118-gpt-4o.request.json");
        assert_eq!(request_stem(&name), Some("14-03-22.118-gpt-4o"));
        assert_eq!(request_stem("A.REQUEST.JSON"), Some("A"));
        assert_eq!(request_stem("a.json"), None);
        assert_eq!(request_stem("é.json"), None);
    }

    #[test]
    fn a_model_name_cannot_leave_its_folder_or_hide() {
        let part = |model: &str| model_part(Some(model), "unknown");
        assert_eq!(part("gpt-4o-mini"), "gpt-4o-mini");
        assert_eq!(part("../../etc/passwd"), "etc-passwd");
        assert_eq!(part("a\\b\u{1b}[31mc\nd"), "a-b-31mc-d");
        assert_eq!(part(".hidden"), "hidden");
        assert_eq!(part("openai/gpt-4.1:latest"), "openai-gpt-4.1-latest");
        assert_eq!(part("x.request"), "x.request-model");
        assert_eq!(part("///"), "unknown");
        assert_eq!(part(&"m".repeat(500)).len(), MAX_MODEL_LEN);
        assert_eq!(part("模型"), "unknown");
        assert_eq!(model_part(None, "repair"), "repair");
        assert_eq!(model_part(Some(""), "repair"), "repair");
    }

    #[test]
    fn stems_carry_time_model_and_what_they_are() {
        assert_eq!(WHEN.day_folder(), "2026-12-01");
        assert_eq!(WHEN.iso(), "2026-12-01T14:03:22.118-03:30");
        assert_eq!(
            capture_stem(&WHEN, Some("gpt-4o-mini"), 200),
            "14-03-22.118-gpt-4o-mini"
        );
        assert_eq!(
            capture_stem(&WHEN, None, 429),
            "14-03-22.118-unknown-http-429"
        );
        assert_eq!(
            attempt_stem(&WHEN, Some("gpt-4o"), "1a2b3c4d5e6f7a8b", 2),
            "14-03-22.118-gpt-4o-1a2b3c4d-a2"
        );
    }
}
