//! A repair loop's attempt as files (docs/repair.md, "The files"): the capture
//! `STEM.jsonl`, one `{"output", "stop_reason"}` line every jxray reader takes, and its
//! request file naming the chain, the attempt and the capture it re-asks. The Python and
//! TypeScript loops hand the attempt over as JSON and write the bytes returned here.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::names::{attempt_stem, LocalTime, ATTEMPT_SUFFIX, REQUEST_SUFFIX};
use super::request::{to_bytes, AttemptRequest, ChainLink, Marker};

/// One judged attempt, as a loop knows it.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct AttemptRecord {
    /// Which loop wrote it (`jxray.repair (python)`).
    pub source: String,
    /// The chain's id: 16 random lowercase hex digits, the same for every attempt.
    pub chain: String,
    /// From 1.
    pub attempt: u32,
    /// The previous attempt's capture, relative to the captures folder; none on the first
    /// attempt and when the previous one could not be written.
    #[serde(default)]
    pub re_ask_of: Option<String>,
    /// When `generate` was called, in local time.
    pub started: LocalTime,
    /// How long `generate` took.
    pub duration_ms: u64,
    /// The model the reply named.
    #[serde(default)]
    pub model: Option<String>,
    /// The exact prompt `generate` was given.
    pub prompt: String,
    /// The loop's schema as JSON Schema, asked as a JSON response format.
    #[serde(default)]
    pub schema: Option<Value>,
    /// The reply's text.
    pub text: String,
    #[serde(default)]
    pub stop_reason: Option<String>,
    /// The reply's usage as a JSON object.
    #[serde(default)]
    pub usage: Option<Value>,
}

impl AttemptRecord {
    /// The stem its files share, before a taken name moves it on.
    pub fn stem(&self) -> String {
        attempt_stem(
            &self.started,
            self.model.as_deref(),
            &self.chain,
            self.attempt,
        )
    }

    /// The request's body: the prompt sent, and the schema as a JSON response format.
    fn body(&self) -> Value {
        let mut body = json!({"messages": [{"role": "user", "content": self.prompt}]});
        if let Some(schema) = &self.schema {
            body["response_format"] = json!({"type": "json_schema",
                "json_schema": {"name": "schema", "schema": schema}});
        }
        body
    }
}

/// The files of one attempt, `(name ending, bytes)` in the order they are placed: the
/// capture, then its request file (so that when the request file appears, its capture is
/// there), as for `jxray record`.
pub fn attempt_files(record: &AttemptRecord) -> Vec<(&'static str, Vec<u8>)> {
    let request = AttemptRequest {
        jxray_request: Marker,
        source: &record.source,
        model: record.model.as_deref(),
        started: record.started.iso(),
        duration_ms: record.duration_ms,
        stop_reason: record.stop_reason.as_deref(),
        usage: record.usage.as_ref().filter(|usage| usage.is_object()),
        body: record.body(),
        chain: ChainLink {
            id: record.chain.clone(),
            attempt: record.attempt,
            re_ask_of: record.re_ask_of.clone().filter(|_| record.attempt > 1),
        },
    };
    let mut capture = to_bytes(&json!({"output": record.text, "stop_reason": record.stop_reason}));
    capture.push(b'\n');
    vec![
        (ATTEMPT_SUFFIX, capture),
        (REQUEST_SUFFIX, to_bytes(&request)),
    ]
}
