//! Saved streams joined into their final text and stop reason.
//!
//! SSE logs from OpenAI Chat Completions, the OpenAI Responses API, Anthropic Messages and
//! Gemini (`alt=sse`). The first payload that only one provider sends decides the flavour;
//! later payloads of other shapes (keep-alives, usage-only chunks) are ignored.

mod anthropic;
mod ending;
mod live;
mod openai_chat;
mod openai_responses;
mod sse;

use serde_json::Value;

use super::envelope::{self, Contents, GeminiChunks, OllamaChunks};
use anthropic::AnthropicEvents;
use openai_chat::ChatChunks;
use openai_responses::ResponsesEvents;
use sse::Payload;

pub use live::LiveStream;
pub(super) use sse::looks_like_sse;

enum Flavour {
    OpenaiChat(ChatChunks),
    OpenaiResponses(ResponsesEvents),
    Anthropic(AnthropicEvents),
    Gemini(GeminiChunks),
    /// Only a stream read as it arrives: a saved one is read by [`decode_ollama_lines`].
    Ollama(OllamaChunks),
}

impl Flavour {
    fn of(payload: &Value) -> Option<Flavour> {
        if openai_chat::is_chunk(payload) {
            Some(Flavour::OpenaiChat(ChatChunks::default()))
        } else if openai_responses::is_event(payload) {
            Some(Flavour::OpenaiResponses(ResponsesEvents::default()))
        } else if anthropic::is_event(payload) {
            Some(Flavour::Anthropic(AnthropicEvents::default()))
        } else if envelope::is_gemini_response(payload) {
            Some(Flavour::Gemini(GeminiChunks::default()))
        } else {
            None
        }
    }

    /// Feed a payload's JSON text: the OpenAI chunks (the common case) are read without
    /// building a tree.
    fn feed_text(&mut self, payload: &str) {
        if let Flavour::OpenaiChat(chunks) = self {
            return chunks.feed_text(payload);
        }
        if let Ok(value) = serde_json::from_str::<Value>(payload) {
            self.feed(&value);
        }
    }

    fn feed(&mut self, payload: &Value) {
        match self {
            Flavour::OpenaiChat(chunks) => chunks.feed(payload),
            Flavour::OpenaiResponses(events) => events.feed(payload),
            Flavour::Anthropic(events) => events.feed(payload),
            Flavour::Gemini(chunks) => chunks.feed(payload),
            Flavour::Ollama(chunks) => {
                chunks.feed(payload);
            }
        }
    }

    /// The output so far, and which part of the stream it is (the text, a refusal, a tool
    /// call's arguments), as [`LiveStream`] hands it on.
    fn live_text(&self) -> (u8, &str) {
        match self {
            Flavour::OpenaiChat(chunks) => chunks.live_text(),
            Flavour::OpenaiResponses(events) => events.live_text(),
            Flavour::Anthropic(events) => events.live_text(),
            Flavour::Gemini(chunks) => (0, chunks.text()),
            Flavour::Ollama(chunks) => (0, chunks.text()),
        }
    }

    fn finish(self) -> Result<Contents, String> {
        match self {
            Flavour::OpenaiChat(chunks) => chunks.finish(),
            Flavour::OpenaiResponses(events) => events.finish(),
            Flavour::Anthropic(events) => events.finish(),
            Flavour::Gemini(chunks) => chunks.finish(),
            Flavour::Ollama(chunks) => chunks.finish(),
        }
    }
}

/// The stream in an SSE log, or `None` when no payload is from a known provider; and the
/// chunks its answer arrived in.
pub(super) fn decode_sse(text: &str) -> Option<(Result<Contents, String>, Chunks)> {
    let mut flavour: Option<Flavour> = None;
    let mut chunks = Chunks::default();
    for (payload, raw_end) in sse::payloads(text) {
        let Payload::Json(payload) = payload else {
            continue;
        };
        // The output's tokens, where the stream says them (a last chunk's `usage`,
        // Anthropic's `message_delta`, Gemini's `usageMetadata`): the latest count wins.
        if payload.contains("sage") {
            if let Ok(value) = serde_json::from_str::<Value>(&payload) {
                if let Some(output) = jxray_formats::usage::token_usage(&value).output {
                    chunks.output_tokens = Some(output);
                }
            }
        }
        match flavour.as_mut() {
            Some(flavour) => flavour.feed_text(&payload),
            None => {
                let Ok(value) = serde_json::from_str::<Value>(&payload) else {
                    continue;
                };
                flavour = Flavour::of(&value);
                if let Some(flavour) = flavour.as_mut() {
                    flavour.feed(&value);
                }
            }
        }
        if let Some((0, text)) = flavour.as_ref().map(Flavour::live_text) {
            if chunks
                .ends
                .last()
                .map_or(!text.is_empty(), |&end| text.len() > end)
            {
                chunks.ends.push(text.len());
                chunks.raw_ends.push(raw_end);
            }
        }
    }
    flavour.map(|flavour| (flavour.finish(), chunks))
}

/// The chunks a saved stream's answer arrived in: after each event that grew it, where the
/// answer's text stood, and where the file's bytes were (to find when it came).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Chunks {
    /// Byte offsets in the answer's text, the last its whole length.
    pub ends: Vec<usize>,
    /// Byte offsets in the stream file, one for each of `ends`.
    pub raw_ends: Vec<usize>,
    /// The output's tokens, when the stream's usage says them.
    pub output_tokens: Option<u64>,
}

/// Longest first line considered as an Ollama stream chunk.
const MAX_CHUNK_LINE: usize = 64 * 1024;

/// An Ollama NDJSON stream (one chunk a line, `done: false` until the last), or `None`
/// when the lines are not one. `lines` are the non-blank lines.
pub(super) fn decode_ollama_lines<'a>(
    mut lines: impl Iterator<Item = &'a str>,
) -> Option<Result<Contents, String>> {
    let first = lines.next()?;
    // Chunks are small and say `done`; anything else (a large one-line JSON output) is not
    // worth parsing twice.
    if first.len() > MAX_CHUNK_LINE || !first.contains("\"done\"") {
        return None;
    }
    let first: Value = serde_json::from_str(first).ok()?;
    if !envelope::is_ollama_chunk(&first) {
        return None;
    }
    let mut chunks = envelope::OllamaChunks::default();
    chunks.feed(&first);
    for line in lines {
        let chunk: Value = serde_json::from_str(line).ok()?;
        if !chunks.feed(&chunk) {
            return None;
        }
    }
    Some(chunks.finish())
}
