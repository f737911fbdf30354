//! A provider's stream read as it arrives (`curl -N` output: SSE `data:` lines, or NDJSON
//! lines from Ollama and Gemini): each whole line is fed to the same accumulators a saved
//! stream is read with, and what the output became since the last line is handed on — the
//! answer's text, or a tool call's arguments, which are a stream of their own.

use serde_json::Value;

use super::{envelope, Flavour};

/// One stream, read line by line as its bytes arrive.
#[derive(Default)]
pub struct LiveStream {
    flavour: Option<Flavour>,
    /// The stream's first payload (its id and model), for an ending.
    first: Option<Value>,
    /// The start of a UTF-8 sequence split between two pieces of bytes.
    carry: Vec<u8>,
    /// The end of the input that is not a whole line yet.
    partial: String,
    /// How much of the output has been handed on, and which part of the stream it was.
    sent: usize,
    part: Option<u8>,
    /// The output stopped growing at its end (another part of the stream took over): no
    /// more is handed on; the end judges the whole stream all the same.
    diverged: bool,
}

impl LiveStream {
    /// Take the next piece of the stream; what the output gained.
    pub fn push(&mut self, piece: &str) -> String {
        // What was held holds no line end: only the piece is searched, so a long line that
        // comes in many pieces is read once.
        let held = self.partial.len();
        self.partial.push_str(piece);
        let Some(last_newline) = piece.rfind('\n').map(|at| held + at) else {
            return String::new();
        };
        let rest = self.partial.split_off(last_newline + 1);
        let lines = std::mem::replace(&mut self.partial, rest);
        for line in lines.lines() {
            self.line(line.trim_end_matches('\r'));
        }
        self.gained()
    }

    /// Take the next bytes of the stream, a UTF-8 sequence split anywhere; what the output
    /// gained.
    pub fn push_bytes(&mut self, bytes: &[u8]) -> String {
        self.carry.extend_from_slice(bytes);
        let whole = match std::str::from_utf8(&self.carry) {
            Ok(_) => self.carry.len(),
            Err(error) if error.error_len().is_none() => error.valid_up_to(),
            Err(_) => self.carry.len(),
        };
        let rest = self.carry.split_off(whole);
        let piece = std::mem::replace(&mut self.carry, rest);
        self.push(&String::from_utf8_lossy(&piece))
    }

    /// The bytes that end the stream as cut at its length limit, in its provider's own
    /// words, after what came so far; none before a provider is known, or for one whose
    /// ending cannot be written (an OpenAI Responses stream).
    pub fn cut_ending(&self) -> Option<String> {
        self.flavour.as_ref()?.cut_ending(self.first.as_ref())
    }

    fn line(&mut self, line: &str) {
        let payload = match line.strip_prefix("data:") {
            Some(payload) => payload.trim_start(),
            // NDJSON: a line that is one JSON object.
            None if line.starts_with('{') => line,
            None => return,
        };
        if let Some(flavour) = self.flavour.as_mut() {
            return flavour.feed_text(payload);
        }
        let Ok(value) = serde_json::from_str::<Value>(payload) else {
            return;
        };
        self.flavour = if envelope::is_ollama_chunk(&value) {
            Some(Flavour::Ollama(envelope::OllamaChunks::default()))
        } else {
            Flavour::of(&value)
        };
        if let Some(flavour) = self.flavour.as_mut() {
            flavour.feed(&value);
            self.first = Some(value);
        }
    }

    /// What the output gained since it was last handed on.
    fn gained(&mut self) -> String {
        let Some(flavour) = self.flavour.as_ref().filter(|_| !self.diverged) else {
            return String::new();
        };
        let (part, text) = flavour.live_text();
        if text.is_empty() {
            return String::new();
        }
        if self.part.is_some_and(|sent| sent != part) || text.len() < self.sent {
            self.diverged = true;
            return String::new();
        }
        self.part = Some(part);
        let gained = text.get(self.sent..).unwrap_or_default().to_owned();
        self.sent = text.len();
        gained
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fed(stream: &str, size: usize) -> String {
        let mut live = LiveStream::default();
        let mut out = String::new();
        let bytes = stream.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            let mut end = (at + size).min(bytes.len());
            while !stream.is_char_boundary(end) {
                end += 1;
            }
            out.push_str(&live.push(&stream[at..end]));
            at = end;
        }
        out
    }

    #[test]
    fn openai_chat_deltas_become_the_text_as_they_arrive() {
        let stream = "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"{\\\"a\\\": \"}}]}\n\n\
                      data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"1}\"},\"finish_reason\":\"stop\"}]}\n\n\
                      data: [DONE]\n\n";
        for size in [1, 7, 4096] {
            assert_eq!(fed(stream, size), "{\"a\": 1}", "{size}");
        }
    }

    #[test]
    fn anthropic_tool_input_is_a_stream_of_its_own() {
        let stream = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[]}}\n\n\
                      event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"f\",\"input\":{}}}\n\n\
                      event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"q\\\": \\\"te\"}}\n\n\
                      event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"st\\\"}\"}}\n\n";
        assert_eq!(fed(stream, 5), "{\"q\": \"test\"}");
    }

    #[test]
    fn ollama_lines_are_read_as_they_come() {
        let stream = "{\"model\":\"m\",\"created_at\":\"t\",\"response\":\"[1,\",\"done\":false}\n{\"model\":\"m\",\"created_at\":\"t\",\"response\":\" 2]\",\"done\":true,\"done_reason\":\"stop\"}\n";
        assert_eq!(fed(stream, 3), "[1, 2]");
    }
}
