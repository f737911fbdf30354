//! Capture file names: `YYYY-MM-DD/HH-MM-SS.mmm-MODEL.EXT`, local time, from the moment the
//! request arrived; the model named by the request, made safe for a file name.

use chrono::{DateTime, Datelike, Local, Offset, Timelike};
use http::Uri;
use jxray_formats::recorded::{capture_stem, LocalTime};
use serde_json::Value;

pub use jxray_formats::recorded::REQUEST_SUFFIX;

/// The date folder and the file stem (without extension) for an exchange.
pub fn stem(started: &DateTime<Local>, model: Option<&str>, status: u16) -> (String, String) {
    let started = local_time(started);
    (started.day_folder(), capture_stem(&started, model, status))
}

/// The clock's reading as the file contract's local time.
pub fn local_time(at: &DateTime<Local>) -> LocalTime {
    LocalTime {
        year: at.year(),
        month: at.month(),
        day: at.day(),
        hour: at.hour(),
        minute: at.minute(),
        second: at.second(),
        // A leap second's nanoseconds run past 1e9: still the last millisecond.
        millisecond: (at.nanosecond() / 1_000_000).min(999),
        offset_minutes: at.offset().fix().local_minus_utc() / 60,
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
