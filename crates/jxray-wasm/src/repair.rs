//! The repair loop's decisions for a JavaScript `repair` (npm/src/repair.js): what to do about
//! an output ([`jxray_formats::repair::action_with`]), the repair request's text
//! ([`jxray_formats::repair::repair_prompt`]), and the output's SHA-256 digest for the
//! telemetry record, so every language decides and words the same.

use jxray_formats::repair::{action_with, repair_prompt, Action, RepairRequest};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::reply::{Explained, Judged};
use jxray_formats::judge::Judgement;

/// The decision about one output.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Decision<'a> {
    /// `accept`, `repair`, `raise-limit`, `change-request`, `fix-serving` or `fix-capture`.
    pub action: Action,
    /// The repair request for this output; `null` when the outcome is ok.
    pub prompt: Option<String>,
    /// `sha256:` and the hex digest of the output, to correlate repeats without keeping it.
    pub raw_output_hash: String,
    /// The outcome the decision is about, explained: the host keeps it, so reading the
    /// failure afterwards does not run the engine again.
    pub explained: Explained<'a>,
}

/// The decision about `judged` (its options carry the caller's table, the cap and the
/// schema's required keys).
pub fn decide(judged: &Judged<'_>) -> Result<Vec<u8>, String> {
    let Judgement {
        outcome,
        violations,
    } = judged.outcome()?;
    let request = judged.request;
    let table = request
        .repair_table
        .iter()
        .map(|(name, action)| {
            Action::from_name(action)
                .map(|action| (name.clone(), action))
                .ok_or_else(|| {
                    format!("jxray: unknown action {action:?} for {name:?}; the actions are accept, repair, raise-limit, change-request, fix-serving and fix-capture")
                })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let prompt = repair_prompt(&RepairRequest {
        outcome: &outcome,
        raw: judged.text,
        violations: &violations,
        required: &request.required,
        max_output_chars: request.max_output_chars(),
    });
    let decision = Decision {
        action: action_with(&outcome, &table),
        prompt,
        raw_output_hash: digest(judged.text),
        explained: Explained::of(judged, request.origin(), &outcome, false),
    };
    Ok(serde_json::to_vec(&decision).expect("a decision serializes to JSON"))
}

/// `sha256:HEX` of the text's UTF-8.
pub fn digest(text: &str) -> String {
    let hash = Sha256::digest(text.as_bytes());
    let hex: String = hash.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("sha256:{hex}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::Request;

    fn decided(text: &str, request: &Request) -> serde_json::Value {
        let judged = Judged {
            text,
            request,
            validator: None,
            warnings: &[],
            refused: false,
        };
        serde_json::from_slice(&decide(&judged).unwrap()).unwrap()
    }

    #[test]
    fn a_syntax_failure_is_worth_a_repair_and_gets_its_request() {
        let decision = decided("{\"a\": 1,}", &Request::default());
        assert_eq!(decision["action"], "repair");
        assert!(decision["prompt"]
            .as_str()
            .unwrap()
            .contains("a comma after the last item"));
        assert_eq!(decision["rawOutputHash"], digest("{\"a\": 1,}"));
    }

    #[test]
    fn a_cut_output_is_not_and_a_table_can_say_otherwise() {
        let request = Request {
            stop_reason: Some("length".into()),
            ..Request::default()
        };
        assert_eq!(decided("{\"a\": 1", &request)["action"], "raise-limit");
        let request = Request {
            stop_reason: Some("length".into()),
            repair_table: vec![("truncated".into(), "repair".into())],
            ..Request::default()
        };
        assert_eq!(decided("{\"a\": 1", &request)["action"], "repair");
    }

    #[test]
    fn the_digest_is_sha256_of_the_utf8() {
        assert_eq!(
            digest("abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
