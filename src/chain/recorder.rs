//! `jxray record`'s side of chains: remember the outputs it recorded, and link a later
//! request that re-asks one — it quotes the output in a repair request (the markers
//! `repair_prompt` writes), or carries an output that failed as the model's last turn —
//! to that output's capture. Only the latest outputs are remembered, in bounded memory;
//! an output recorded by an earlier run of the proxy is not linked.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::{Mutex, PoisonError};

use serde_json::{json, Value};

use crate::capture::{load_bytes, message_texts, LoadOptions};
use crate::check::Checker;
use crate::engine::Options;
use jxray_formats::repair::quoted_reply;

/// How many outputs are remembered, and how many bytes of them at most.
const REMEMBERED: usize = 256;
const REMEMBERED_BYTES: usize = 8 * 1024 * 1024;

/// The chain linker `jxray record` gives the proxy.
#[derive(Debug, Default)]
pub(crate) struct RecordChains {
    outputs: Mutex<VecDeque<Output>>,
}

/// One recorded output, and where its chain would go on from.
#[derive(Debug)]
struct Output {
    text: String,
    /// jxray could not take a value from it (so carrying it back is a re-ask).
    failed: bool,
    /// Its capture, relative to the capture folder.
    capture: String,
    chain: String,
    attempt: u32,
}

impl jxray_record::Chains for RecordChains {
    fn link(&self, request: &Value) -> Option<Value> {
        let quoted: Vec<(String, bool)> = message_texts(request, &["user", "system", "developer"])
            .iter()
            .filter_map(|text| quoted_reply(text).map(|q| (q.text.trim().to_string(), q.cut)))
            .collect();
        let last_turn = message_texts(request, &["assistant", "model"]).pop();
        let outputs = self.outputs.lock().unwrap_or_else(PoisonError::into_inner);
        let re_asked = outputs.iter().rev().find(|output| {
            let text = output.text.trim();
            let quotes = quoted.iter().any(|(quote, cut)| {
                quote == text || *cut && !quote.is_empty() && text.starts_with(quote.as_str())
            });
            quotes || output.failed && last_turn.as_deref().map(str::trim) == Some(text)
        })?;
        Some(json!({
            "id": re_asked.chain,
            "attempt": re_asked.attempt + 1,
            "re_ask_of": re_asked.capture,
        }))
    }

    fn written(&self, folder: &Path, capture: &Path, body: &[u8], chain: Option<&Value>) {
        let Some(relative) = relative_name(folder, capture) else {
            return;
        };
        let link = chain.and_then(super::ChainLink::from_value);
        let (chain, attempt) = link.map_or_else(|| (relative.clone(), 1), |l| (l.id, l.attempt));
        // Read from the bytes just written, as the readers read the file; judged before
        // the lock is taken.
        let checker = Checker::new(Options::default(), None);
        let read = load_bytes(&relative, capture, body.to_vec(), &LoadOptions::default());
        let new: Vec<Output> = read
            .into_iter()
            .filter_map(|output| {
                let failed = !checker.outcome(&output).ok();
                Some(Output {
                    text: output.text.ok()?,
                    failed,
                    chain: chain.clone(),
                    attempt,
                    capture: relative.clone(),
                })
            })
            .collect();
        let mut outputs = self.outputs.lock().unwrap_or_else(PoisonError::into_inner);
        outputs.extend(new);
        let mut bytes: usize = outputs.iter().map(|o| o.text.len()).sum();
        while outputs.len() > REMEMBERED || bytes > REMEMBERED_BYTES {
            let Some(oldest) = outputs.pop_front() else {
                break;
            };
            bytes -= oldest.text.len();
        }
    }
}

/// `2026-12-02/07-50-01.123-gpt-4o.json`: the capture's path under the folder, `/`-separated.
fn relative_name(folder: &Path, capture: &Path) -> Option<String> {
    let relative = capture.strip_prefix(folder).ok()?;
    let parts: Option<Vec<&str>> = relative.iter().map(|part| part.to_str()).collect();
    Some(parts?.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use jxray_record::Chains;

    fn recorded(
        chains: &RecordChains,
        folder: &Path,
        name: &str,
        body: &str,
        chain: Option<&Value>,
    ) {
        let day = folder.join("2026-12-02");
        std::fs::create_dir_all(&day).unwrap();
        let capture = day.join(name);
        std::fs::write(&capture, body).unwrap();
        chains.written(folder, &capture, body.as_bytes(), chain);
    }

    fn openai(text: &str) -> String {
        json!({"object": "chat.completion", "model": "m", "choices": [{"index": 0,
            "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]})
        .to_string()
    }

    #[test]
    fn a_repair_request_quoting_an_output_links_to_its_capture_and_the_chain_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let chains = RecordChains::default();
        let broken = "{\"city\": \"Paris\",}";
        recorded(&chains, dir.path(), "a.json", &openai(broken), None);
        let outcome = crate::engine::extract(broken, &Options::default());
        let repair = jxray_formats::repair::repair_prompt(&jxray_formats::repair::RepairRequest {
            outcome: &outcome,
            raw: broken,
            violations: &[],
            required: &[],
            max_output_chars: 8000,
        })
        .unwrap();
        let request = json!({"messages": [{"role": "user", "content": format!("City as JSON.\n\n{repair}")}]});
        let link = chains.link(&request).unwrap();
        assert_eq!(
            link,
            json!({"id": "2026-12-02/a.json", "attempt": 2, "re_ask_of": "2026-12-02/a.json"})
        );
        // The answer to the re-ask, re-asked again, is attempt 3 of the same chain.
        let still = "{city: Paris}";
        recorded(&chains, dir.path(), "b.json", &openai(still), Some(&link));
        let again = json!({"messages": [{"role": "user", "content": "x"},
            {"role": "assistant", "content": still}, {"role": "user", "content": "fix it"}]});
        assert_eq!(
            chains.link(&again).unwrap(),
            json!({"id": "2026-12-02/a.json", "attempt": 3, "re_ask_of": "2026-12-02/b.json"})
        );
    }

    #[test]
    fn a_conversation_that_carries_a_good_output_is_no_re_ask() {
        let dir = tempfile::tempdir().unwrap();
        let chains = RecordChains::default();
        recorded(
            &chains,
            dir.path(),
            "a.json",
            &openai("{\"ok\": true}"),
            None,
        );
        let follow_up = json!({"messages": [{"role": "user", "content": "x"},
            {"role": "assistant", "content": "{\"ok\": true}"}, {"role": "user", "content": "and now?"}]});
        assert_eq!(chains.link(&follow_up), None);
        assert_eq!(
            chains.link(&json!({"messages": [{"role": "user", "content": "hi"}]})),
            None
        );
    }

    #[test]
    fn memory_is_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let chains = RecordChains::default();
        for n in 0..REMEMBERED + 10 {
            recorded(
                &chains,
                dir.path(),
                &format!("{n}.txt"),
                &format!("{{bad {n}"),
                None,
            );
        }
        assert_eq!(chains.outputs.lock().unwrap().len(), REMEMBERED);
    }
}
