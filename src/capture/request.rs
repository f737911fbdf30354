//! The request a recorded capture was asked with: the `….request.json` that `jxray record`
//! writes beside each capture, read for the workbench (the model, the system prompt, the
//! last user message, the schema or response format asked for) and for fixtures (its
//! digest).
//!
//! The body is the provider's own request: OpenAI chat and Responses, Anthropic Messages,
//! Gemini `generateContent` and Ollama `chat` / `generate` are each read where they keep
//! these parts.

use crate::text::shown_path;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use jxray_formats::recorded::{ChainLink, RequestFile};
use serde::de::DeserializeOwned;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::disk::read_regular;
use super::request_body::{
    format, format_asks, json_mode, last_user, pretty, system, tools_without_parameters,
};
use super::walk::REQUEST_SUFFIX;

/// The largest request file read, in bytes (`jxray record` keeps bodies up to 16 MiB).
const MAX_REQUEST_BYTES: u64 = 32 * 1024 * 1024;

/// What a recorded request asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedRequest {
    pub path: PathBuf,
    /// `sha256:` and the hex digest of the file's bytes.
    pub(crate) digest: String,
    pub model: Option<String>,
    /// `POST /openai/chat/completions`.
    pub(crate) call: String,
    pub(crate) system: Option<String>,
    pub(crate) last_user: Option<String>,
    /// The response format or schema asked for, as pretty JSON.
    pub(crate) format: Option<String>,
    /// What the format asks for, in a few words (`Invoice`, `json_object`, `{city, rank}`).
    pub(crate) format_asks: Option<String>,
    /// The tools offered, as pretty JSON.
    pub(crate) tools: Option<String>,
    /// The structured-output mode asked for, as the body spells it (`json_schema`,
    /// `json_object`, `"json"`, a schema): a server that honours it never fences the answer.
    pub(crate) json_mode: Option<String>,
    /// The tools offered that take no parameters, by name: their empty arguments are `{}`.
    pub(crate) tools_without_parameters: Vec<String>,
    /// Why the body is not there (too large, not JSON), as the recorder said.
    pub(crate) body_note: Option<String>,
    /// Its place in a repair chain, when the request file links it (`crate::chain`).
    pub(crate) chain: Option<ChainLink>,
    /// The schemas the request asked its answer to fit (contract §2).
    pub(crate) asked: super::AskedSchemas,
    /// When a streamed response's bytes came, as `jxray record` kept it.
    pub(crate) arrival: Option<Arrival>,
}

/// When a stream's bytes came: points of (milliseconds from the request, bytes of the
/// response by then), in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Arrival {
    points: Vec<(u64, u64)>,
}

impl Arrival {
    /// From the request file's `arrival` member (`{"ms": […], "bytes": […]}`); none when
    /// it is not that, or the points do not go forward.
    pub(crate) fn from_value(value: &Value) -> Option<Arrival> {
        let numbers = |key: &str| -> Option<Vec<u64>> {
            value
                .get(key)?
                .as_array()?
                .iter()
                .map(Value::as_u64)
                .collect()
        };
        let (ms, bytes) = (numbers("ms")?, numbers("bytes")?);
        let points: Vec<(u64, u64)> = ms.into_iter().zip(bytes).collect();
        let forward = points
            .windows(2)
            .all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1);
        (forward && !points.is_empty()).then_some(Arrival { points })
    }

    /// When the response's first `bytes` bytes had all come, in milliseconds from the
    /// request (the first point that reaches them).
    pub fn ms_at(&self, bytes: usize) -> Option<u64> {
        let at = self.points.partition_point(|point| point.1 < bytes as u64);
        self.points.get(at).map(|point| point.0)
    }

    /// When the first byte came.
    pub fn first_byte_ms(&self) -> Option<u64> {
        self.points.first().map(|point| point.0)
    }
}

impl RecordedRequest {
    /// The request file beside the capture file `capture`, when there is one.
    pub fn beside(capture: &Path) -> Option<Result<RecordedRequest, String>> {
        let path = request_path(capture)?;
        path.is_file().then(|| RecordedRequest::read(&path))
    }

    /// The request beside `capture`, shared by every capture of that file; none when
    /// there is no request file. One that cannot be read (too large to show, not a request
    /// file) is still there, its body note saying why, so the workbench says so instead of
    /// "no request beside this capture".
    pub(crate) fn shared_beside(capture: &Path) -> Option<Arc<RecordedRequest>> {
        let request = match RecordedRequest::beside(capture)? {
            Ok(request) => request,
            Err(why) => RecordedRequest::unreadable(request_path(capture)?, why),
        };
        Some(Arc::new(request))
    }

    /// A request file that is there but cannot be shown, and why.
    fn unreadable(path: PathBuf, why: String) -> RecordedRequest {
        RecordedRequest {
            path,
            digest: String::new(),
            model: None,
            call: String::new(),
            system: None,
            last_user: None,
            format: None,
            format_asks: None,
            tools: None,
            json_mode: None,
            tools_without_parameters: Vec::new(),
            body_note: Some(format!("the request file cannot be shown: {why}")),
            chain: None,
            asked: super::AskedSchemas::default(),
            arrival: None,
        }
    }

    /// Read a request file; the error is one line naming the file.
    pub(crate) fn read(path: &Path) -> Result<RecordedRequest, String> {
        let (bytes, doc) = read_file::<Value>(path)?;
        let digest = Sha256::digest(&bytes);
        let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
        let body = doc.body.as_ref().unwrap_or(&Value::Null);
        let asked_format = format(body);
        Ok(RecordedRequest {
            path: path.to_path_buf(),
            digest: format!("sha256:{hex}"),
            // The repair loops' request files name the loop that sent them instead.
            call: match (&doc.method, &doc.source) {
                (None, Some(source)) => source.clone(),
                (method, _) => format!(
                    "{} {}",
                    method.as_deref().unwrap_or_default(),
                    doc.path.as_deref().unwrap_or_default()
                ),
            },
            system: system(body),
            last_user: last_user(body),
            format: asked_format.map(pretty),
            format_asks: asked_format.and_then(format_asks),
            tools: body.get("tools").map(pretty),
            json_mode: json_mode(body),
            tools_without_parameters: tools_without_parameters(body),
            asked: super::AskedSchemas::of(body),
            arrival: doc.arrival.as_ref().and_then(Arrival::from_value),
            model: doc.model,
            body_note: doc.body_note,
            chain: doc.chain,
        })
    }
}

/// The one way a request file is read: its bytes (with a size limit) and what they say,
/// the marker checked and the body read as `B` (all of it, or only the parts a reader
/// looks at). The error is one line naming the file.
pub(crate) fn read_file<B: DeserializeOwned>(
    path: &Path,
) -> Result<(Vec<u8>, RequestFile<B>), String> {
    let too_large = |size: u64| format!("{size} bytes is more than a request file holds");
    let bytes = read_regular(path, MAX_REQUEST_BYTES, &too_large)
        .map_err(|e| format!("{}: {e}", shown_path(&path)))?;
    let doc = RequestFile::from_slice(&bytes, &shown_path(&path).to_string())
        .map_err(|error| error.to_string())?;
    Ok((bytes, doc))
}

/// `X.request.json` for the capture file `X.json` (or `X.sse`, `X.ndjson`, …); none for
/// `-`, a capture read from standard input or handed over as text (`extract` in Python),
/// which has no file beside it (a `-.request.json` in the working folder is not its).
pub fn request_path(capture: &Path) -> Option<PathBuf> {
    if capture == Path::new("-") {
        return None;
    }
    let stem = capture.file_stem()?.to_str()?;
    Some(capture.with_file_name(format!("{stem}{REQUEST_SUFFIX}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_input_has_no_request_beside_it() {
        assert_eq!(request_path(Path::new("-")), None);
        assert_eq!(
            request_path(Path::new("dir/-")),
            Some(PathBuf::from("dir/-.request.json"))
        );
    }

    #[test]
    fn a_request_file_is_read_with_its_digest() {
        let dir = tempfile::tempdir().unwrap();
        let capture = dir.path().join("14-03-22.118-m.json");
        std::fs::write(&capture, "{}").unwrap();
        assert!(RecordedRequest::beside(&capture).is_none());
        let file = dir.path().join("14-03-22.118-m.request.json");
        std::fs::write(&file, r#"{"jxray_request":1,"method":"POST","path":"/openai/chat/completions","model":"m","body":{"messages":[{"role":"user","content":"hi"}]}}"#).unwrap();
        let request = RecordedRequest::beside(&capture).unwrap().unwrap();
        assert_eq!(request.model.as_deref(), Some("m"));
        assert_eq!(request.call, "POST /openai/chat/completions");
        assert_eq!(request.last_user.as_deref(), Some("hi"));
        assert!(request.digest.starts_with("sha256:") && request.digest.len() == 71);
    }

    #[test]
    fn a_request_file_too_large_to_show_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let capture = dir.path().join("14-03-22.118-m.json");
        std::fs::write(&capture, "{}").unwrap();
        let file = std::fs::File::create(dir.path().join("14-03-22.118-m.request.json")).unwrap();
        file.set_len(MAX_REQUEST_BYTES + 1).unwrap();
        let request = RecordedRequest::shared_beside(&capture).expect("the file is there");
        let note = request.body_note.as_deref().unwrap();
        assert!(
            note.starts_with("the request file cannot be shown:")
                && note.contains("more than a request file holds"),
            "{note}"
        );
    }
}
