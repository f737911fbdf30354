//! The request file (`STEM.request.json`) beside a capture: what was asked, written by
//! `jxray record` ([`ProxiedRequest`]) and by the repair loops ([`AttemptRequest`],
//! `super::attempt`), read by `check` and the workbench ([`RequestFile`]). Every request
//! file starts with `"jxray_request": 1` ([`Marker`]); reading checks it.

use serde::de::{DeserializeOwned, Deserializer};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};

/// The request-file format this jxray writes and reads.
pub const REQUEST_VERSION: u64 = 1;

/// The longest chain id kept; a longer one is not a link (ids are short hex strings).
const MAX_ID_CHARS: usize = 128;

/// `"jxray_request": 1`, the first member of every request file written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Marker;

impl Serialize for Marker {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u64(REQUEST_VERSION)
    }
}

/// Where one attempt sits in its repair chain: the request file's `chain` member.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChainLink {
    pub id: String,
    /// From 1.
    pub attempt: u32,
    /// The previous attempt's capture, relative to the capture folder (`/`-separated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub re_ask_of: Option<String>,
}

impl ChainLink {
    /// The link a `chain` member holds; none when it is not one (no id, an attempt that is
    /// not a positive integer).
    pub fn from_value(chain: &Value) -> Option<ChainLink> {
        let id = chain.get("id")?.as_str()?;
        let attempt = u32::try_from(chain.get("attempt")?.as_u64()?).ok()?;
        if id.is_empty() || id.chars().count() > MAX_ID_CHARS || attempt == 0 {
            return None;
        }
        let re_ask_of = chain
            .get("re_ask_of")
            .and_then(Value::as_str)
            .filter(|path| !path.is_empty())
            .map(str::to_string);
        Some(ChainLink {
            id: id.to_string(),
            attempt,
            re_ask_of,
        })
    }
}

/// What the request file beside a capture says of chains: a recorded request without a
/// link, or a link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChainState {
    Recorded,
    Linked(ChainLink),
}

impl ChainState {
    /// The link, when there is one.
    pub fn link(&self) -> Option<&ChainLink> {
        match self {
            ChainState::Linked(link) => Some(link),
            ChainState::Recorded => None,
        }
    }
}

/// A request file as read: the members every reader uses, typed, and the body as `B`
/// (the whole of it for the workbench, the parts that say what shape the answer takes for
/// `check`). A member of the wrong type is taken as absent, as a foreign writer's file is
/// read as far as it goes.
#[derive(Debug, Clone, Deserialize)]
pub struct RequestFile<B> {
    #[serde(default)]
    jxray_request: Option<Value>,
    #[serde(default, deserialize_with = "lenient")]
    pub method: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub path: Option<String>,
    /// The loop that wrote it (the repair loops write this instead of a method and path).
    #[serde(default, deserialize_with = "lenient")]
    pub source: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub model: Option<String>,
    /// Why the body is not there (too large, not JSON), as the recorder said.
    #[serde(default, deserialize_with = "lenient")]
    pub body_note: Option<String>,
    /// Its place in a repair chain; none when the member is not a link.
    #[serde(default, deserialize_with = "link")]
    pub chain: Option<ChainLink>,
    /// When a streamed response's bytes came (`{"ms": […], "bytes": […]}`).
    #[serde(default)]
    pub arrival: Option<Value>,
    pub body: Option<B>,
}

/// Why a file is not a request file this jxray reads; each names the file and the fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestFileError {
    #[error("{file}: not a request file ({why})")]
    NotJson { file: String, why: String },
    #[error("{file}: not a jxray request file: it has no \"jxray_request\": 1; a request file's first member is \"jxray_request\": 1 (add it, or move the file out of the capture folder)")]
    NoMarker { file: String },
    #[error("{file}: \"jxray_request\": {found} is a request-file format this jxray does not read (it reads 1); upgrade jxray")]
    UnknownMarker { file: String, found: String },
}

impl<B: DeserializeOwned> RequestFile<B> {
    /// Read a request file's bytes; `file` names it in the error.
    pub fn from_slice(bytes: &[u8], file: &str) -> Result<RequestFile<B>, RequestFileError> {
        let read: RequestFile<B> =
            serde_json::from_slice(bytes).map_err(|error| RequestFileError::NotJson {
                file: file.to_string(),
                why: error.to_string(),
            })?;
        match &read.jxray_request {
            Some(marker) if marker.as_u64() == Some(REQUEST_VERSION) => Ok(read),
            None => Err(RequestFileError::NoMarker {
                file: file.to_string(),
            }),
            Some(other) => Err(RequestFileError::UnknownMarker {
                file: file.to_string(),
                found: other.to_string(),
            }),
        }
    }

    /// What it says of chains.
    pub fn chain_state(&self) -> ChainState {
        self.chain
            .clone()
            .map_or(ChainState::Recorded, ChainState::Linked)
    }
}

/// A member read as `T`, or absent when it is something else.
fn lenient<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    let value = Value::deserialize(deserializer)?;
    Ok(serde_json::from_value(value).ok())
}

fn link<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<ChainLink>, D::Error> {
    Ok(ChainLink::from_value(&Value::deserialize(deserializer)?))
}

/// The request file `jxray record` writes for one exchange, its members in this order.
/// Every credential is removed before it gets here (`jxray_record`'s `scrub`).
#[derive(Debug, Clone, Serialize)]
pub struct ProxiedRequest {
    pub jxray_request: Marker,
    pub method: String,
    /// The proxy's path and query, as the client asked.
    pub path: String,
    /// Where the proxy sent it.
    pub upstream: String,
    pub model: Option<String>,
    pub stream: bool,
    /// `2026-12-01T14:03:22.118+01:00` (see [`super::LocalTime::iso`]).
    pub started: String,
    pub duration_ms: u64,
    pub status: u16,
    pub response_content_type: Option<String>,
    /// Why the response did not arrive whole, when it did not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_note: Option<String>,
    /// When the stream's bytes came: milliseconds from the request, bytes by then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arrival: Option<ArrivalPoints>,
    /// Who cut the stream, where and why: the capture holds what the upstream sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Stopped>,
    pub headers: Map<String, Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chain: Option<ChainLink>,
    /// The request's JSON, or `null` with `body_note` saying why.
    pub body: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_note: Option<String>,
}

/// `arrival`: parallel lists, one point per chunk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArrivalPoints {
    pub ms: Vec<u64>,
    pub bytes: Vec<u64>,
}

/// `stopped`: the proxy ended the stream early.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stopped {
    /// Always `jxray`.
    pub by: &'static str,
    pub signal: String,
    pub byte: u64,
    pub message: String,
}

/// The request file a repair loop writes for one attempt (see `super::attempt`).
#[derive(Debug, Clone, Serialize)]
pub struct AttemptRequest<'a> {
    pub jxray_request: Marker,
    /// `jxray.repair (python)` or `jxray repair (typescript)`.
    pub source: &'a str,
    pub model: Option<&'a str>,
    pub started: String,
    pub duration_ms: u64,
    pub stop_reason: Option<&'a str>,
    pub usage: Option<&'a Value>,
    pub body: Value,
    pub chain: ChainLink,
}

/// A request file's bytes: compact JSON.
pub fn to_bytes<T: Serialize>(request: &T) -> Vec<u8> {
    serde_json::to_vec(request).expect("a request file serializes to JSON")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(text: &str) -> Result<RequestFile<Value>, RequestFileError> {
        RequestFile::from_slice(text.as_bytes(), "d/a.request.json")
    }

    #[test]
    fn a_link_needs_an_id_and_a_positive_attempt() {
        let link =
            ChainLink::from_value(&json!({"id": "ab", "attempt": 2, "re_ask_of": "d/x.json"}));
        assert_eq!(
            link,
            Some(ChainLink {
                id: "ab".into(),
                attempt: 2,
                re_ask_of: Some("d/x.json".into())
            })
        );
        for bad in [
            json!({"attempt": 1}),
            json!({"id": "", "attempt": 1}),
            json!({"id": "a", "attempt": 0}),
            json!({"id": "a", "attempt": -1}),
            json!({"id": "a", "attempt": "2"}),
            json!({"id": "a".repeat(129), "attempt": 1}),
            json!("a"),
        ] {
            assert_eq!(ChainLink::from_value(&bad), None, "{bad}");
        }
    }

    #[test]
    fn reading_checks_the_marker_and_names_the_file() {
        let ok = read(r#"{"jxray_request": 1, "model": 3, "chain": {"id": "c", "attempt": 1}}"#)
            .unwrap();
        assert_eq!(ok.model, None, "a member of the wrong type is absent");
        assert_eq!(ok.chain_state().link().map(|link| link.attempt), Some(1));
        let missing = read(r#"{"body": {}}"#).unwrap_err().to_string();
        assert!(
            missing.starts_with("d/a.request.json: not a jxray request file")
                && missing.contains("add it"),
            "{missing}"
        );
        let newer = read(r#"{"jxray_request": 2}"#).unwrap_err().to_string();
        assert!(newer.contains("\"jxray_request\": 2") && newer.ends_with("upgrade jxray"));
        let broken = read("not json").unwrap_err().to_string();
        assert!(broken.starts_with("d/a.request.json: not a request file ("));
        for message in [missing, newer, broken] {
            assert!(!message.contains('\n'));
        }
    }
}
