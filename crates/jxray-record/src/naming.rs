//! Capture file names: `YYYY-MM-DD/HH-MM-SS.mmm-MODEL.EXT`, local time, from the moment the
//! request arrived; the model named by the request, made safe for a file name.

use chrono::{DateTime, Local};
use http::Uri;
use serde_json::Value;

/// The longest model part of a file name, in bytes.
const MAX_MODEL_LEN: usize = 64;

pub use jxray_formats::recorded::REQUEST_SUFFIX;

/// The date folder and the file stem (without extension) for an exchange.
pub fn stem(started: &DateTime<Local>, model: Option<&str>, status: u16) -> (String, String) {
    let folder = started.format("%Y-%m-%d").to_string();
    let mut stem = format!(
        "{}-{}",
        started.format("%H-%M-%S%.3f"),
        sanitize_model(model.unwrap_or("unknown"))
    );
    if status >= 400 {
        // An error response is kept as it came, but should stand out in the list.
        stem.push_str(&format!("-http-{status}"));
    }
    (folder, stem)
}

/// A model name as a safe part of a file name: letters, digits, `.`, `-` and `_` kept,
/// anything else (path separators, control characters, spaces, `:`) a `-`; no leading
/// dot (a hidden file), no `.request` ending (it would read as a request file), at most
/// [`MAX_MODEL_LEN`] bytes; `unknown` when nothing is left.
pub fn sanitize_model(model: &str) -> String {
    let mut safe = String::new();
    for c in model.chars() {
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
        "unknown".to_string()
    } else {
        safe
    }
}

/// The model a request names: the body's `model` (OpenAI, Anthropic, Ollama and every
/// compatible server), else the path's `models/NAME:` (Gemini).
pub fn request_model(body: Option<&Value>, uri: &Uri) -> Option<String> {
    if let Some(model) = body.and_then(|b| b.get("model")).and_then(Value::as_str) {
        return Some(model.to_string());
    }
    let path = uri.path();
    let after = &path[path.find("/models/")? + "/models/".len()..];
    let end = after.find([':', '/']).unwrap_or(after.len());
    (end > 0).then(|| after[..end].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn a_model_name_cannot_leave_its_folder_or_hide() {
        assert_eq!(sanitize_model("gpt-4o-mini"), "gpt-4o-mini");
        assert_eq!(sanitize_model("../../etc/passwd"), "etc-passwd");
        assert_eq!(sanitize_model("a\\b\u{1b}[31mc\nd"), "a-b-31mc-d");
        assert_eq!(sanitize_model(".hidden"), "hidden");
        assert_eq!(
            sanitize_model("openai/gpt-4.1:latest"),
            "openai-gpt-4.1-latest"
        );
        assert_eq!(sanitize_model("x.request"), "x.request-model");
        assert_eq!(sanitize_model("///"), "unknown");
        assert_eq!(sanitize_model(&"m".repeat(500)).len(), MAX_MODEL_LEN);
        assert_eq!(sanitize_model("模型"), "unknown");
    }

    #[test]
    fn names_carry_time_model_and_error_status() {
        let when = Local.with_ymd_and_hms(2026, 12, 1, 14, 3, 22).unwrap()
            + chrono::Duration::milliseconds(118);
        assert_eq!(
            stem(&when, Some("gpt-4o-mini"), 200),
            (
                "2026-12-01".to_string(),
                "14-03-22.118-gpt-4o-mini".to_string()
            )
        );
        assert_eq!(stem(&when, None, 429).1, "14-03-22.118-unknown-http-429");
    }

    #[test]
    fn the_model_comes_from_the_body_or_a_gemini_path() {
        let body: Value = serde_json::from_str(r#"{"model":"claude-x"}"#).unwrap();
        let uri: Uri = "/v1/messages".parse().unwrap();
        assert_eq!(
            request_model(Some(&body), &uri).as_deref(),
            Some("claude-x")
        );
        let uri: Uri = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
            .parse()
            .unwrap();
        assert_eq!(
            request_model(None, &uri).as_deref(),
            Some("gemini-2.5-flash")
        );
        assert_eq!(request_model(None, &"/v1/models".parse().unwrap()), None);
    }
}
