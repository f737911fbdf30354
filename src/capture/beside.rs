//! What `check` reads of the request file beside a capture: its chain, the schemas it asked
//! for (contract §2) and when a stream's bytes came. The file is read as the workbench reads
//! it (`request::read_file`: one reader, the marker checked); of the body only the parts
//! that say what shape the answer takes are kept, the rest skimmed, never built.

use std::path::Path;

use jxray_formats::recorded::ChainState;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

use super::request::{read_file, request_path, Arrival};
use super::AskedSchemas;

/// The request file beside a capture, as `check` reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RequestBeside {
    pub(crate) chain: ChainState,
    pub(crate) asked: AskedSchemas,
    /// When a recorded stream's bytes came.
    pub(crate) arrival: Option<Arrival>,
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
    // Where a system prompt may state the schema (instructor's JSON modes): the system
    // fields, and of the messages only the system and developer ones.
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

impl RequestBeside {
    /// The request file beside `capture`; none without one. A request file that cannot be
    /// read (not a request file, too large) is still a recorded request (the workbench
    /// names the reason); it links nothing and asks for no schema.
    pub(crate) fn read(capture: &Path) -> Option<RequestBeside> {
        let path = request_path(capture)?;
        let doc = match read_file::<Formats>(&path) {
            Ok((_, doc)) => doc,
            Err(_) if !path.exists() => return None,
            Err(_) => return Some(RequestBeside::unread()),
        };
        let chain = doc.chain_state();
        let arrival = doc.arrival.as_ref().and_then(Arrival::from_value);
        let body = doc.body.unwrap_or_default();
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
            arrival,
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
        let chain = || RequestBeside::read(&capture).map(|r| r.chain);
        assert_eq!(chain(), None);
        let request = dir.path().join("a.request.json");
        std::fs::write(
            &request,
            r#"{"jxray_request": 1, "body": {"messages": []}}"#,
        )
        .unwrap();
        assert_eq!(chain(), Some(ChainState::Recorded));
        std::fs::write(
            &request,
            r#"{"jxray_request": 1, "body": {}, "chain": {"id": "c", "attempt": 1}}"#,
        )
        .unwrap();
        let attempt = chain()
            .as_ref()
            .and_then(ChainState::link)
            .map(|l| l.attempt);
        assert_eq!(attempt, Some(1));
        // Without the marker, or not JSON: a recorded request that links nothing.
        for text in [
            r#"{"body": {}, "chain": {"id": "c", "attempt": 1}}"#,
            "not json",
        ] {
            std::fs::write(&request, text).unwrap();
            assert_eq!(chain(), Some(ChainState::Recorded), "{text}");
        }
    }
}
