//! Reading each kind of region as its bytes arrive: prose (where a value begins, a fence
//! opens, a marker is met), a reasoning block, a fence's body and tool-call markup. Each
//! moves the cursor on from where the last chunk stopped, and waits at a marker or fence
//! line that may still be arriving.

use super::markers::{has_body, marker_at, may_start, Found, Marker};
use super::regions::{Event, Held, Next, Region, Regions};
use super::tree::Tree;
use super::{SignalKind, StreamLayer};
use crate::outcome::Dialect;

impl Regions {
    /// The marker at `i`, acted on: `Some` when reading must wait or go on elsewhere.
    fn marker(&mut self, text: &str, i: usize, tree: &mut Tree) -> Option<Next> {
        match marker_at(&text[i..]) {
            Found::Partial => {
                self.cursor = i;
                Some(Next::Wait)
            }
            Found::None => None,
            Found::Marker(marker, len) => {
                self.cursor = i + len;
                // A marker is certain at its last byte.
                let certain = i + len - 1;
                match marker {
                    Marker::ThinkOpen => {
                        self.region = Region::Think;
                        self.events.push(Event::at(
                            SignalKind::Reasoning,
                            certain,
                            "a reasoning block opened: the answer comes after it".into(),
                        ));
                    }
                    Marker::CallOpen(dialect) => {
                        if let Some(Held::Echo(..)) = self.held.take() {
                            tree.withdraw();
                        }
                        self.region = Region::ToolCall(dialect);
                        let mut event = Event::at(
                            SignalKind::ToolCallText,
                            certain,
                            "a tool call written as text: the serving layer did not parse the model's tool-call syntax".into(),
                        );
                        event.dialect = Some(dialect);
                        self.events.push(event);
                    }
                    Marker::ThinkClose | Marker::CallClose => {}
                }
                Some(Next::Go)
            }
        }
    }

    pub(super) fn prose(&mut self, text: &str, tree: &mut Tree) -> Next {
        let bytes = text.as_bytes();
        let mut i = self.cursor;
        while i < bytes.len() {
            let byte = bytes[i];
            if self.held == Some(Held::Scalar) && !byte.is_ascii_whitespace() {
                // Text after a string or number at the start: it was a sentence's.
                self.held = None;
                tree.withdraw();
            }
            if byte == b'\n' {
                self.line_start = i + 1;
            } else if may_start(byte) {
                if let Some(next) = self.marker(text, i, tree) {
                    return next;
                }
            }
            if matches!(byte, b'`' | b'~') && self.at_line_start(bytes, i) {
                if let Some(next) = self.fence_open(text, i) {
                    return next;
                }
            }
            let at_start = || text[..i].trim_start_matches('\u{feff}').trim().is_empty();
            if matches!(byte, b'{' | b'[') {
                let layer = if at_start() {
                    StreamLayer::Direct
                } else {
                    StreamLayer::Scanned
                };
                self.begin(i, (layer, None), layer == StreamLayer::Scanned, tree);
                return Next::Go;
            }
            if matches!(byte, b'"' | b'-' | b'0'..=b'9') && !self.begun && at_start() {
                self.begin(i, (StreamLayer::Direct, None), true, tree);
                if let Some(candidate) = self.candidate.as_mut() {
                    candidate.scalar = true;
                }
                return Next::Go;
            }
            i += 1;
        }
        self.cursor = i;
        Next::Wait
    }

    /// Up to three spaces between the start of the line and `i`.
    fn at_line_start(&self, bytes: &[u8], i: usize) -> bool {
        i - self.line_start.min(i) <= 3
            && bytes[self.line_start.min(i)..i].iter().all(|&b| b == b' ')
    }

    /// A fence opening at `i` (a run of three or more `` ` `` or `~`), once its line is whole.
    fn fence_open(&mut self, text: &str, i: usize) -> Option<Next> {
        let bytes = text.as_bytes();
        let mark = bytes[i];
        let len = bytes[i..].iter().take_while(|&&b| b == mark).count();
        if len < 3 {
            return None;
        }
        let Some(newline) = bytes[i..].iter().position(|&b| b == b'\n') else {
            self.cursor = i;
            return Some(Next::Wait);
        };
        let tag = text[i + len..i + newline].trim();
        let json = tag.is_empty()
            || matches!(
                tag.to_ascii_lowercase().as_str(),
                "json" | "jsonc" | "json5"
            );
        self.region = Region::Fence {
            mark,
            len,
            json,
            body: false,
        };
        self.cursor = i + newline + 1;
        self.line_start = self.cursor;
        Some(Next::Go)
    }

    pub(super) fn think(&mut self, text: &str) -> Next {
        let bytes = text.as_bytes();
        let mut i = self.cursor;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => self.line_start = i + 1,
                b'<' => match marker_at(&text[i..]) {
                    Found::Partial => {
                        self.cursor = i;
                        return Next::Wait;
                    }
                    Found::Marker(Marker::ThinkClose, len) => {
                        self.region = Region::Prose;
                        self.cursor = i + len;
                        return Next::Go;
                    }
                    _ => {}
                },
                _ => {}
            }
            i += 1;
        }
        self.cursor = i;
        Next::Wait
    }

    pub(super) fn fence(&mut self, text: &str, tree: &mut Tree) -> Next {
        let Region::Fence {
            mark,
            len,
            json,
            body,
        } = self.region
        else {
            return Next::Wait;
        };
        let bytes = text.as_bytes();
        let mut i = self.cursor;
        let mut body = body;
        while i < bytes.len() {
            let byte = bytes[i];
            if byte == mark && self.at_line_start(bytes, i) {
                let run = bytes[i..].iter().take_while(|&&b| b == mark).count();
                if i + run == bytes.len() {
                    // The closing fence may still be arriving.
                    self.cursor = i;
                    self.region = Region::Fence {
                        mark,
                        len,
                        json,
                        body,
                    };
                    return Next::Wait;
                }
                if run >= len {
                    self.region = Region::Prose;
                    self.cursor = i + run;
                    return Next::Go;
                }
            }
            if byte == b'\n' {
                self.line_start = i + 1;
            } else if !body && !byte.is_ascii_whitespace() {
                if matches!(byte, b'{' | b'[') {
                    self.region = Region::Fence {
                        mark,
                        len,
                        json,
                        body: false,
                    };
                    self.begin(i, (StreamLayer::Fenced, None), !json, tree);
                    return Next::Go;
                }
                body = true;
            }
            i += 1;
        }
        self.region = Region::Fence {
            mark,
            len,
            json,
            body,
        };
        self.cursor = i;
        Next::Wait
    }

    pub(super) fn tool_call(&mut self, text: &str, dialect: Dialect, tree: &mut Tree) -> Next {
        let bytes = text.as_bytes();
        let mut i = self.cursor;
        while i < bytes.len() {
            let byte = bytes[i];
            if may_start(byte) {
                match marker_at(&text[i..]) {
                    Found::Partial => {
                        self.cursor = i;
                        return Next::Wait;
                    }
                    Found::Marker(Marker::CallClose, len) => {
                        self.region = Region::Prose;
                        self.cursor = i + len;
                        return Next::Go;
                    }
                    Found::Marker(Marker::CallOpen(other), len) if !has_body(other) => {
                        // `<tool_call>` opened a call whose arguments are tags, not JSON.
                        self.region = Region::ToolCall(other);
                        self.cursor = i + len;
                        return Next::Go;
                    }
                    _ => {}
                }
            }
            if matches!(byte, b'{' | b'[') && has_body(dialect) {
                self.begin(i, (StreamLayer::ToolCallText, Some(dialect)), false, tree);
                return Next::Go;
            }
            i += 1;
        }
        self.cursor = i;
        Next::Wait
    }
}
