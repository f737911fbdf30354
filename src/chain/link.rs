//! One attempt's link: what its request file's `chain` member says.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::capture::{read_regular, request_path, AskedSchemas};

/// The longest chain id kept; a longer one is not a link (ids are short hex strings).
const MAX_ID_CHARS: usize = 128;
/// The largest request file read for its link (as for showing the request).
const MAX_REQUEST_BYTES: u64 = 32 * 1024 * 1024;

/// Where one attempt sits in its chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainLink {
    pub(crate) id: String,
    /// From 1.
    pub(crate) attempt: u32,
    /// The previous attempt's capture, relative to the capture folder (`/`-separated).
    pub(crate) re_ask_of: Option<String>,
}

/// What the request file beside a capture says of chains: a recorded request without a
/// link, or a link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChainState {
    Recorded,
    Linked(ChainLink),
}

impl ChainState {
    pub(crate) fn link(&self) -> Option<&ChainLink> {
        match self {
            ChainState::Linked(link) => Some(link),
            _ => None,
        }
    }
}

/// What `check` reads of the request file beside a capture: its chain, and the schemas it
/// asked for (contract §2), the rest of the request skimmed, never built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RequestBeside {
    pub(crate) chain: ChainState,
    pub(crate) asked: AskedSchemas,
    /// When a recorded stream's bytes came.
    pub(crate) arrival: Option<crate::capture::Arrival>,
}

impl RequestBeside {
    /// The request file beside `capture`; none without one. A request file that cannot be
    /// read is still a recorded request (the workbench names the reason); it links nothing
    /// and asks for no schema.
    pub(crate) fn read(capture: &Path) -> Option<RequestBeside> {
        let path = request_path(capture)?;
        let too_large = |size: u64| format!("{size} bytes");
        let bytes = match read_regular(&path, MAX_REQUEST_BYTES, &too_large) {
            Ok(bytes) => bytes,
            Err(_) if !path.exists() => return None,
            Err(_) => return Some(RequestBeside::unread()),
        };
        #[derive(Deserialize)]
        struct Skimmed {
            chain: Option<Value>,
            body: Option<Formats>,
            arrival: Option<Value>,
        }
        /// The parts of a body that say what shape the answer takes.
        #[derive(Deserialize, Serialize, Default)]
        struct Formats {
            #[serde(skip_serializing_if = "Option::is_none")]
            response_format: Option<Value>,
            #[serde(skip_serializing_if = "Option::is_none")]
            text: Option<Value>,
            #[serde(skip_serializing_if = "Option::is_none")]
            output_format: Option<Value>,
            #[serde(rename = "generationConfig", skip_serializing_if = "Option::is_none")]
            generation_config: Option<Value>,
            #[serde(skip_serializing_if = "Option::is_none")]
            format: Option<Value>,
            #[serde(skip_serializing_if = "Option::is_none")]
            tools: Option<Value>,
            // Where a system prompt may state the schema (instructor's JSON modes): the
            // system fields, and of the messages only the system and developer ones.
            #[serde(skip_serializing_if = "Option::is_none")]
            system: Option<Value>,
            #[serde(skip_serializing_if = "Option::is_none")]
            instructions: Option<Value>,
            #[serde(rename = "systemInstruction", skip_serializing_if = "Option::is_none")]
            system_instruction: Option<Value>,
            #[serde(rename = "system_instruction", skip_serializing_if = "Option::is_none")]
            system_instruction_snake: Option<Value>,
            #[serde(default, skip_serializing)]
            messages: Vec<SkimmedMessage>,
        }
        /// A message, its content left unread unless it is a system prompt.
        #[derive(Deserialize)]
        struct SkimmedMessage {
            role: Option<String>,
            content: Option<Box<RawValue>>,
        }
        let Ok(skimmed) = serde_json::from_slice::<Skimmed>(&bytes) else {
            return Some(RequestBeside::unread());
        };
        let chain = skimmed
            .chain
            .as_ref()
            .and_then(ChainLink::from_value)
            .map_or(ChainState::Recorded, ChainState::Linked);
        let body = skimmed.body.unwrap_or_default();
        let system: Vec<Value> = body
            .messages
            .iter()
            .filter(|message| matches!(message.role.as_deref(), Some("system" | "developer")))
            .filter_map(|message| {
                let content: Value = serde_json::from_str(message.content.as_ref()?.get()).ok()?;
                Some(serde_json::json!({"role": "system", "content": content}))
            })
            .collect();
        let mut formats = serde_json::to_value(body).unwrap_or_default();
        if let (Some(fields), false) = (formats.as_object_mut(), system.is_empty()) {
            fields.insert("messages".into(), Value::Array(system));
        }
        Some(RequestBeside {
            chain,
            asked: AskedSchemas::of(&formats),
            arrival: skimmed
                .arrival
                .as_ref()
                .and_then(crate::capture::Arrival::from_value),
        })
    }

    fn unread() -> RequestBeside {
        RequestBeside {
            chain: ChainState::Recorded,
            asked: AskedSchemas::default(),
            arrival: None,
        }
    }
}

impl ChainLink {
    /// The link a `chain` member holds; none when it is not one (no id, an attempt that is
    /// not a positive integer).
    pub(crate) fn from_value(chain: &Value) -> Option<ChainLink> {
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

    /// The previous attempt's capture file, for the capture at `capture`: its name under
    /// the capture folder, the folder that holds `capture`'s date folder.
    pub(crate) fn previous(&self, capture: &Path) -> Option<PathBuf> {
        let relative = self.re_ask_of.as_deref()?;
        let folder = capture.parent()?.parent()?;
        Some(
            relative
                .split('/')
                .fold(folder.to_path_buf(), |path, part| path.join(part)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
    fn the_previous_attempt_is_found_from_the_capture_folder() {
        let link = ChainLink::from_value(
            &json!({"id": "a", "attempt": 2, "re_ask_of": "2026-12-01/x.jsonl"}),
        )
        .unwrap();
        assert_eq!(
            link.previous(Path::new("captures/2026-12-02/y.jsonl")),
            Some(Path::new("captures").join("2026-12-01").join("x.jsonl"))
        );
    }

    #[test]
    fn the_request_beside_a_capture_gives_the_schema_its_system_prompt_states() {
        let dir = tempfile::tempdir().unwrap();
        let capture = dir.path().join("a.json");
        std::fs::write(&capture, "{}").unwrap();
        let schema = json!({"type": "object", "properties": {"a": {"type": "integer"}}});
        let prompt = format!("Answer in JSON matching this schema: {schema}");
        let body = json!({"messages": [{"role": "system", "content": [{"type": "text", "text": prompt}]},
            {"role": "user", "content": "the question"}], "response_format": {"type": "json_object"}});
        std::fs::write(
            dir.path().join("a.request.json"),
            json!({"jxray_request": 1, "body": body}).to_string(),
        )
        .unwrap();
        let asked = RequestBeside::read(&capture).unwrap().asked;
        assert_eq!(asked, AskedSchemas::of(&body));
        assert_eq!(asked.text.as_deref(), Some(&schema));
    }

    #[test]
    fn the_state_beside_a_capture_reads_only_the_link() {
        let dir = tempfile::tempdir().unwrap();
        let capture = dir.path().join("a.json");
        std::fs::write(&capture, "{}").unwrap();
        assert_eq!(RequestBeside::read(&capture).map(|r| r.chain), None);
        let request = dir.path().join("a.request.json");
        std::fs::write(
            &request,
            r#"{"jxray_request": 1, "body": {"messages": []}}"#,
        )
        .unwrap();
        assert_eq!(
            RequestBeside::read(&capture).map(|r| r.chain),
            Some(ChainState::Recorded)
        );
        std::fs::write(
            &request,
            r#"{"body": {}, "chain": {"id": "c", "attempt": 1}}"#,
        )
        .unwrap();
        assert_eq!(
            RequestBeside::read(&capture)
                .map(|r| r.chain)
                .as_ref()
                .and_then(ChainState::link)
                .map(|link| link.attempt),
            Some(1)
        );
        std::fs::write(&request, "not json").unwrap();
        assert_eq!(
            RequestBeside::read(&capture).map(|r| r.chain),
            Some(ChainState::Recorded)
        );
    }
}
