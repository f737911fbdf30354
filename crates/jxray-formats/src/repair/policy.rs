//! A caller's repair policy, read once for every language: the table of overrides (a
//! failure's cause or kind to an action's name), the keys the value must have, and how much
//! of the output a request quotes; and the decision it makes about one judged output.

use jxray_engine::Outcome;
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::{action_with, repair_prompt, Action, RepairRequest, DEFAULT_MAX_OUTPUT_CHARS};
use crate::violation::Violation;

/// What a caller asked of the repair decisions.
#[derive(Debug, Clone)]
pub struct Policy {
    /// A failure's cause or kind, to the action taken for it instead of the default.
    pub table: Vec<(String, Action)>,
    /// The keys the value must have, named in every repair request.
    pub required: Vec<String>,
    /// The output is quoted up to this many characters.
    pub max_output_chars: usize,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            table: Vec::new(),
            required: Vec::new(),
            max_output_chars: DEFAULT_MAX_OUTPUT_CHARS,
        }
    }
}

/// The decision about one output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    /// `accept`, `repair`, `raise-limit`, `change-request`, `fix-serving` or `fix-capture`.
    pub action: Action,
    /// The repair request for this output; `None` when the outcome is ok.
    pub prompt: Option<String>,
    /// `sha256:` and the hex digest of the output, to correlate repeats without keeping it.
    pub raw_output_hash: String,
}

impl Policy {
    /// A caller's table, as its names spell the actions; an unknown action is an error
    /// that lists them.
    pub fn table_from_names(
        names: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Vec<(String, Action)>, String> {
        names
            .into_iter()
            .map(|(name, action)| match Action::from_name(&action) {
                Some(found) => Ok((name, found)),
                None => Err(format!(
                    "policy: unknown action {action:?} for {name:?}; the actions are accept, \
                     repair, raise-limit, change-request, fix-serving and fix-capture"
                )),
            })
            .collect()
    }

    /// What to do about `outcome`, extracted from `raw` (how its value broke the schema in
    /// `violations`), the repair request for it, and the digest of `raw` (a host whose
    /// output was bytes puts their digest in its place).
    pub fn decide(&self, outcome: &Outcome, raw: &str, violations: &[Violation]) -> Decision {
        let prompt = repair_prompt(&RepairRequest {
            outcome,
            raw,
            violations,
            required: &self.required,
            max_output_chars: self.max_output_chars,
        });
        Decision {
            action: action_with(outcome, &self.table),
            prompt,
            raw_output_hash: digest(raw.as_bytes()),
        }
    }
}

/// A JSON Schema document's top-level required keys (none when it names none).
pub fn required_keys(schema: &Value) -> Vec<String> {
    let keys = schema.get("required").and_then(Value::as_array);
    keys.map(|keys| {
        keys.iter()
            .filter_map(|key| key.as_str().map(str::to_owned))
            .collect()
    })
    .unwrap_or_default()
}

/// `sha256:HEX` of the output's bytes (its UTF-8, for a text).
pub fn digest(raw: &[u8]) -> String {
    let hash = Sha256::digest(raw);
    let mut text = String::with_capacity(7 + 64);
    text.push_str("sha256:");
    for byte in hash {
        text.push_str(&format!("{byte:02x}"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use jxray_engine::{extract, Options};
    use serde_json::json;

    #[test]
    fn the_digest_is_sha256_of_the_bytes() {
        assert_eq!(
            digest(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn a_table_names_its_actions_and_an_unknown_one_is_refused() {
        let table = Policy::table_from_names([("truncated".into(), "repair".into())]).unwrap();
        assert_eq!(table, [("truncated".to_owned(), Action::Repair)]);
        let error = Policy::table_from_names([("schema".into(), "retry".into())]).unwrap_err();
        assert!(
            error.starts_with("policy: unknown action \"retry\" for \"schema\""),
            "{error}"
        );
    }

    #[test]
    fn a_decision_carries_its_action_request_and_digest() {
        let raw = "{\"a\": 1,}";
        let outcome = extract(raw, &Options::default());
        let policy = Policy {
            required: required_keys(&json!({"required": ["a", 2, "b"]})),
            ..Policy::default()
        };
        let decision = policy.decide(&outcome, raw, &[]);
        assert_eq!(decision.action, Action::Repair);
        let prompt = decision.prompt.unwrap();
        assert!(
            prompt.contains("The value must have these keys: a, b."),
            "{prompt}"
        );
        assert_eq!(decision.raw_output_hash, digest(raw.as_bytes()));
    }
}
