//! `jxray record`'s side of chains: remember the outputs it recorded, and link a later
//! request that re-asks one — it quotes the output in a repair request (the markers
//! `repair_prompt` writes), or carries an output that failed as the model's last turn —
//! to that output's capture. Only the latest outputs are remembered, in bounded memory;
//! an output recorded by an earlier run of the proxy is not linked.
//!
//! A re-ask is linked only within its conversation (contract §6): the turns before the
//! re-asked output must be the turns of the request that produced it, so two clients that
//! got the same output each link to their own. An output counts as failed only where its
//! request asked for JSON (a prose answer to a chat is not a failure), unless the re-ask
//! quotes it between jxray's markers.

use std::collections::hash_map::DefaultHasher;
use std::collections::VecDeque;
use std::hash::{Hash, Hasher};
use std::path::Path;
use std::sync::{Mutex, PoisonError};

use serde_json::{json, Value};

use crate::capture::{asks_for_json, conversation, load_bytes, LoadOptions};
use crate::check::Checker;
use crate::engine::Options;
use jxray_formats::repair::quoted_reply;
use jxray_record::Linked;

/// How many outputs are remembered, and how many bytes of them at most.
const REMEMBERED: usize = 256;
const REMEMBERED_BYTES: usize = 8 * 1024 * 1024;

/// Where a repair request written by `repair_prompt` begins, after the original prompt.
const REPAIR_OPENING: &str = "Your previous reply could not be used:";

/// The chain linker `jxray record` gives the proxy.
#[derive(Debug, Default)]
pub(crate) struct RecordChains {
    outputs: Mutex<VecDeque<Output>>,
}

/// One recorded output, and where its chain would go on from.
#[derive(Debug)]
struct Output {
    text: String,
    /// jxray could not take a value from it, and its request asked for JSON (so carrying
    /// it back is a re-ask).
    failed: bool,
    /// The fingerprint of the conversation its request carried.
    conversation: u64,
    /// The fingerprint of the whole request that re-asked it, once one did.
    re_asked_by: Option<u64>,
    /// Its capture, relative to the capture folder.
    capture: String,
    chain: String,
    attempt: u32,
}

/// What a request says of the output it may re-ask.
struct ReAsk {
    /// Replies it quotes between the markers, each with whether the quote is cut.
    quoted: Vec<(String, bool)>,
    /// Its last assistant (or `model`) turn.
    last_turn: Option<String>,
    /// The fingerprint of the conversation the re-asked output was the answer to: the
    /// turns before the last assistant turn, or (a loop that sends the prompt and the
    /// repair request as one message) all of them, repair requests taken out.
    before: u64,
    /// The fingerprint of this request's own conversation, repair requests taken out:
    /// what its answer will be re-asked within.
    conversation: u64,
    /// The fingerprint of the whole request as sent.
    whole: u64,
}

impl ReAsk {
    fn of(request: &Value) -> ReAsk {
        let turns = conversation(request);
        let last = turns
            .iter()
            .rposition(|(role, _)| role == "assistant" || role == "model");
        let quoted = turns
            .iter()
            .filter(|(role, _)| asks(role))
            .filter_map(|(_, text)| quoted_reply(text))
            .map(|quote| (quote.text.trim().to_string(), quote.cut))
            .collect();
        ReAsk {
            quoted,
            last_turn: last.map(|at| turns[at].1.clone()),
            before: fingerprint(&without_repairs(&turns[..last.unwrap_or(turns.len())])),
            conversation: fingerprint(&without_repairs(&turns)),
            whole: fingerprint(&turns),
        }
    }

    /// Whether this request re-asks `output`: within the conversation that produced it,
    /// it quotes it, or carries it back as the model's turn after it failed.
    fn re_asks(&self, output: &Output) -> bool {
        if self.before != output.conversation {
            return false;
        }
        let text = output.text.trim();
        let quotes = self.quoted.iter().any(|(quote, cut)| {
            quote == text || *cut && !quote.is_empty() && text.starts_with(quote.as_str())
        });
        let carries = output.failed && self.last_turn.as_deref().map(str::trim) == Some(text);
        quotes || carries
    }
}

/// The roles whose turns ask (and so may hold a repair request).
fn asks(role: &str) -> bool {
    matches!(role, "user" | "system" | "developer")
}

/// The turns with every repair request taken out (the loops send the original prompt, a
/// blank line, then the request); a turn left empty is dropped. So a conversation reads
/// the same whichever attempt of a loop carries it.
fn without_repairs(turns: &[(String, String)]) -> Vec<(String, String)> {
    turns
        .iter()
        .filter_map(|(role, text)| {
            if !asks(role) || quoted_reply(text).is_none() {
                return Some((role.clone(), text.clone()));
            }
            let kept = text
                .rfind(REPAIR_OPENING)
                .map_or("", |start| text[..start].trim_end());
            (!kept.is_empty()).then(|| (role.clone(), kept.to_string()))
        })
        .collect()
}

fn fingerprint(turns: &[(String, String)]) -> u64 {
    let mut hasher = DefaultHasher::new();
    for (role, text) in turns {
        role.hash(&mut hasher);
        text.trim().hash(&mut hasher);
    }
    hasher.finish()
}

impl jxray_record::Chains for RecordChains {
    fn link(&self, request: &Value) -> Linked {
        let re_ask = ReAsk::of(request);
        let mut outputs = self.outputs.lock().unwrap_or_else(PoisonError::into_inner);
        // An output not re-asked yet first; one already re-asked only by the same request
        // again (a client's retry), never by another conversation.
        let fresh = outputs
            .iter()
            .rposition(|output| output.re_asked_by.is_none() && re_ask.re_asks(output));
        let again = || {
            outputs.iter().rposition(|output| {
                output.re_asked_by == Some(re_ask.whole) && re_ask.re_asks(output)
            })
        };
        let chain = fresh.or_else(again).map(|at| {
            let re_asked = &mut outputs[at];
            re_asked.re_asked_by = Some(re_ask.whole);
            json!({
                "id": re_asked.chain,
                "attempt": re_asked.attempt + 1,
                "re_ask_of": re_asked.capture,
            })
        });
        Linked {
            chain,
            conversation: re_ask.conversation,
            asks_json: asks_for_json(request),
        }
    }

    fn written(&self, folder: &Path, capture: &Path, body: &[u8], request: &Linked) {
        let Some(relative) = relative_name(folder, capture) else {
            return;
        };
        let link = request
            .chain
            .as_ref()
            .and_then(super::ChainLink::from_value);
        let (chain, attempt) = link.map_or_else(|| (relative.clone(), 1), |l| (l.id, l.attempt));
        // Read from the bytes just written, as the readers read the file; judged before
        // the lock is taken.
        let checker = Checker::new(Options::default(), None);
        let read = load_bytes(&relative, capture, body.to_vec(), &LoadOptions::default());
        let new: Vec<Output> = read
            .into_iter()
            .filter_map(|output| {
                let failed = request.asks_json && !checker.outcome(&output).ok();
                Some(Output {
                    text: output.text.ok()?,
                    failed,
                    conversation: request.conversation,
                    re_asked_by: None,
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

    /// One exchange as the proxy records it: the request is linked, then its answer is
    /// written as `name`. Returns the request's link.
    fn exchange(
        chains: &RecordChains,
        folder: &Path,
        request: &Value,
        name: &str,
        answer: &str,
    ) -> Option<Value> {
        let linked = chains.link(request);
        let day = folder.join("2026-12-02");
        std::fs::create_dir_all(&day).unwrap();
        let capture = day.join(name);
        let body = openai(answer);
        std::fs::write(&capture, &body).unwrap();
        chains.written(folder, &capture, body.as_bytes(), &linked);
        linked.chain
    }

    /// A request asking `prompt` as JSON, answered by `answer` in `name`.
    fn first(chains: &RecordChains, folder: &Path, prompt: &str, name: &str, answer: &str) {
        exchange(chains, folder, &asks(&[("user", prompt)]), name, answer);
    }

    fn openai(text: &str) -> String {
        json!({"object": "chat.completion", "model": "m", "choices": [{"index": 0,
            "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]})
        .to_string()
    }

    /// A chat request asking for a JSON object.
    fn asks(turns: &[(&str, &str)]) -> Value {
        let messages: Vec<Value> = turns
            .iter()
            .map(|(role, content)| json!({"role": role, "content": content}))
            .collect();
        json!({"model": "m", "messages": messages, "response_format": {"type": "json_object"}})
    }

    fn repair_request(broken: &str) -> String {
        let outcome = crate::engine::extract(broken, &Options::default());
        jxray_formats::repair::repair_prompt(&jxray_formats::repair::RepairRequest {
            outcome: &outcome,
            raw: broken,
            violations: &[],
            required: &[],
            max_output_chars: 8000,
        })
        .unwrap()
    }

    #[test]
    fn a_repair_request_quoting_an_output_links_to_its_capture_and_the_chain_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let chains = RecordChains::default();
        let broken = "{\"city\": \"Paris\",}";
        let first = asks(&[("user", "City as JSON.")]);
        assert_eq!(
            exchange(&chains, dir.path(), &first, "a.json", broken),
            None
        );
        let again = format!("City as JSON.\n\n{}", repair_request(broken));
        let still = "{city: Paris}";
        let link = exchange(
            &chains,
            dir.path(),
            &asks(&[("user", &again)]),
            "b.json",
            still,
        );
        assert_eq!(
            link.unwrap(),
            json!({"id": "2026-12-02/a.json", "attempt": 2, "re_ask_of": "2026-12-02/a.json"})
        );
        // The loop's third attempt quotes the second answer after the same prompt.
        let third = format!("City as JSON.\n\n{}", repair_request(still));
        assert_eq!(
            chains.link(&asks(&[("user", &third)])).chain.unwrap(),
            json!({"id": "2026-12-02/a.json", "attempt": 3, "re_ask_of": "2026-12-02/b.json"})
        );
    }

    #[test]
    fn a_failed_output_carried_back_as_the_models_turn_is_a_re_ask() {
        let dir = tempfile::tempdir().unwrap();
        let chains = RecordChains::default();
        let broken = "{city: Paris}";
        first(&chains, dir.path(), "x", "a.json", broken);
        let again = asks(&[("user", "x"), ("assistant", broken), ("user", "fix it")]);
        let link = exchange(&chains, dir.path(), &again, "b.json", "{city: Oslo}");
        assert_eq!(link.unwrap()["re_ask_of"], "2026-12-02/a.json");
        let third = asks(&[
            ("user", "x"),
            ("assistant", broken),
            ("user", "fix it"),
            ("assistant", "{city: Oslo}"),
            ("user", "again"),
        ]);
        assert_eq!(
            chains.link(&third).chain.unwrap(),
            json!({"id": "2026-12-02/a.json", "attempt": 3, "re_ask_of": "2026-12-02/b.json"})
        );
    }

    #[test]
    fn a_conversation_that_carries_a_good_output_is_no_re_ask() {
        let dir = tempfile::tempdir().unwrap();
        let chains = RecordChains::default();
        exchange(
            &chains,
            dir.path(),
            &asks(&[("user", "x")]),
            "a.json",
            "{\"ok\": true}",
        );
        let follow_up = asks(&[
            ("user", "x"),
            ("assistant", "{\"ok\": true}"),
            ("user", "and now?"),
        ]);
        assert_eq!(chains.link(&follow_up).chain, None);
        assert_eq!(
            chains
                .link(&json!({"messages": [{"role": "user", "content": "hi"}]}))
                .chain,
            None
        );
    }

    #[test]
    fn a_prose_answer_to_a_chat_that_asked_for_no_json_is_no_re_ask() {
        let dir = tempfile::tempdir().unwrap();
        let chains = RecordChains::default();
        let chat = |turns: &[(&str, &str)]| -> Value {
            let messages: Vec<Value> = turns
                .iter()
                .map(|(role, content)| json!({"role": role, "content": content}))
                .collect();
            json!({"model": "m", "messages": messages})
        };
        let prose = "Paris is the capital of France.";
        exchange(
            &chains,
            dir.path(),
            &chat(&[("user", "Capital of France?")]),
            "a.json",
            prose,
        );
        let follow_up = chat(&[
            ("user", "Capital of France?"),
            ("assistant", prose),
            ("user", "And Spain?"),
        ]);
        assert_eq!(chains.link(&follow_up).chain, None);
        // The same prose quoted in a repair request is a re-ask all the same.
        let quoted = format!("Capital of France?\n\n{}", repair_request(prose));
        assert!(chains.link(&chat(&[("user", &quoted)])).chain.is_some());
    }

    #[test]
    fn two_conversations_that_got_the_same_output_each_link_to_their_own() {
        let dir = tempfile::tempdir().unwrap();
        let chains = RecordChains::default();
        let broken = "{\"a\": 1,}";
        first(&chains, dir.path(), "one", "a.json", broken);
        first(&chains, dir.path(), "two", "b.json", broken);
        let re_ask =
            |prompt: &str| asks(&[("user", prompt), ("assistant", broken), ("user", "fix")]);
        assert_eq!(
            chains.link(&re_ask("one")).chain.unwrap()["re_ask_of"],
            "2026-12-02/a.json"
        );
        assert_eq!(
            chains.link(&re_ask("two")).chain.unwrap()["re_ask_of"],
            "2026-12-02/b.json"
        );
    }

    #[test]
    fn one_output_is_never_re_asked_by_two_requests_of_one_shape() {
        // Two clients with the same prompt got the same output: each re-ask takes its own
        // capture, and a third (no output left) is linked to none.
        let dir = tempfile::tempdir().unwrap();
        let chains = RecordChains::default();
        let broken = "{\"a\": 1,}";
        let prompt = asks(&[("user", "same")]);
        exchange(&chains, dir.path(), &prompt, "a.json", broken);
        exchange(&chains, dir.path(), &prompt, "b.json", broken);
        let quoted = format!("same\n\n{}", repair_request(broken));
        let first = chains.link(&asks(&[("user", &quoted)])).chain.unwrap();
        let second = chains
            .link(&asks(&[("user", &quoted), ("user", "please")]))
            .chain;
        assert_eq!(first["re_ask_of"], "2026-12-02/b.json");
        assert_eq!(
            second, None,
            "another request, and only its own conversation's outputs"
        );
        let retried = chains.link(&asks(&[("user", &quoted)])).chain.unwrap();
        assert_eq!(
            retried["re_ask_of"], "2026-12-02/a.json",
            "the untaken one first"
        );
    }

    #[test]
    fn a_request_sent_again_links_where_it_linked_before() {
        let dir = tempfile::tempdir().unwrap();
        let chains = RecordChains::default();
        let broken = "{\"a\": 1,}";
        first(&chains, dir.path(), "p", "a.json", broken);
        let re_ask = asks(&[("user", "p"), ("assistant", broken), ("user", "fix")]);
        let first = chains.link(&re_ask).chain;
        assert!(first.is_some());
        assert_eq!(
            chains.link(&re_ask).chain,
            first,
            "a client's retry of the same request"
        );
        let other = asks(&[
            ("user", "p"),
            ("assistant", broken),
            ("user", "fix, please"),
        ]);
        assert_eq!(
            chains.link(&other).chain,
            None,
            "never a second re-ask of one output"
        );
    }

    #[test]
    fn memory_is_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let chains = RecordChains::default();
        for n in 0..REMEMBERED + 10 {
            exchange(
                &chains,
                dir.path(),
                &asks(&[("user", "x")]),
                &format!("{n}.json"),
                &format!("{{bad {n}"),
            );
        }
        assert_eq!(chains.outputs.lock().unwrap().len(), REMEMBERED);
    }
}
