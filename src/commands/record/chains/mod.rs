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

use jxray_formats::recorded::ChainLink;
use serde_json::Value;

use crate::capture::{asks_for_json, conversation, load_bytes, AskedSchemas, LoadOptions};
use crate::check::Checker;
use crate::engine::Options;
use jxray_formats::repair::{quoted_reply, OPENING};
use jxray_record::Linked;

/// How many outputs are remembered, and how many bytes of them at most.
const REMEMBERED: usize = 256;
const REMEMBERED_BYTES: usize = 8 * 1024 * 1024;

/// The chain linker `jxray record` gives the proxy.
#[derive(Debug, Default)]
pub(super) struct RecordChains {
    outputs: Mutex<VecDeque<Output>>,
    /// The schemas each recent request asked for, by its conversation's fingerprint: an
    /// output that breaks its own request's schema failed, and its re-ask is a re-ask.
    asked: Mutex<VecDeque<(u64, AskedSchemas)>>,
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
        let carries = output.failed
            && self
                .last_turn
                .as_deref()
                .is_some_and(|turn| same_output(turn, text));
        quotes || carries
    }
}

/// Whether a turn carried back is the recorded output: the same text, or the same JSON
/// written again (a client that parsed the output, a tool call's arguments above all,
/// serialises it anew with its own spacing and escapes).
fn same_output(turn: &str, output: &str) -> bool {
    let turn = turn.trim();
    if turn == output {
        return true;
    }
    let parsed = |text: &str| serde_json::from_str::<Value>(text).ok();
    match (parsed(turn), parsed(output)) {
        (Some(carried), Some(recorded)) => carried == recorded,
        _ => false,
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
                .rfind(OPENING)
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
            ChainLink {
                id: re_asked.chain.clone(),
                attempt: re_asked.attempt + 1,
                re_ask_of: Some(re_asked.capture.clone()),
            }
        });
        drop(outputs);
        let asked = AskedSchemas::of(request);
        if asked != AskedSchemas::default() {
            let mut remembered = self.asked.lock().unwrap_or_else(PoisonError::into_inner);
            remembered.push_back((re_ask.conversation, asked));
            while remembered.len() > REMEMBERED {
                remembered.pop_front();
            }
        }
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
        let (chain, attempt) = request.chain.as_ref().map_or_else(
            || (relative.clone(), 1),
            |link| (link.id.clone(), link.attempt),
        );
        // Read from the bytes just written, as the readers read the file, and judged
        // against the schema the request asked for, before the lock is taken.
        let checker = Checker::new(Options::default(), None);
        let read = load_bytes(&relative, capture, body.to_vec(), &LoadOptions::default());
        let asked = self
            .asked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .rev()
            .find(|(conversation, _)| *conversation == request.conversation)
            .map(|(_, asked)| asked.clone());
        let new: Vec<Output> = read
            .into_iter()
            .filter_map(|mut output| {
                if let Some(asked) = &asked {
                    output.schema =
                        asked.for_capture(output.call_arguments, output.tool.as_deref());
                }
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
mod tests;
