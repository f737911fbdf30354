//! The markers that change what the text around a value is: reasoning tags, and the tokens a
//! model family opens (and closes) a tool call with when it writes one as text. A stream
//! can stop in the middle of one, so each is also known by its prefixes.

use crate::outcome::Dialect;

/// Tags that open a reasoning block (as `think` reads them whole).
const THINK_OPEN: [&str; 5] = [
    "<think>",
    "<thinking>",
    "<reasoning>",
    "<scratchpad>",
    "<reflection>",
];
/// Tags that close one.
const THINK_CLOSE: [&str; 5] = [
    "</think>",
    "</thinking>",
    "</reasoning>",
    "</scratchpad>",
    "</reflection>",
];

/// The tokens a tool call written as text opens with, and the dialect each names. Whether
/// the dialect carries a JSON body decides whether a bracket after it is the call's body.
const CALL_OPEN: [(&str, Dialect); 20] = [
    ("<tool_call>", Dialect::Hermes),
    ("<tool_calls>", Dialect::Hermes),
    ("<|tool_call|>", Dialect::Hermes),
    ("<function=", Dialect::Llama),
    ("<|python_tag|>", Dialect::Llama),
    ("[TOOL_CALLS]", Dialect::Mistral),
    ("<|channel|>commentary to=", Dialect::Harmony),
    ("<|start|>assistant to=", Dialect::Harmony),
    ("<｜tool▁calls▁begin｜>", Dialect::Deepseek),
    ("<｜tool▁call▁begin｜>", Dialect::Deepseek),
    ("<|tool_calls_section_begin|>", Dialect::Kimi),
    ("<|tool_call_begin|>", Dialect::Kimi),
    ("[TOOL_REQUEST]", Dialect::ToolRequest),
    ("[TOOL_CALL]", Dialect::ArrowHash),
    ("<parameter=", Dialect::XmlParameters),
    ("<invoke name=", Dialect::XmlParameters),
    ("<arg_key>", Dialect::ArgKeyValue),
    ("<|tool_call>", Dialect::Gemma),
    ("<start_function_call>", Dialect::Gemma),
    ("```tool_code", Dialect::Pythonic),
];

/// Tokens that end tool-call markup.
const CALL_CLOSE: [&str; 8] = [
    "</tool_call>",
    "</tool_calls>",
    "</function>",
    "[/TOOL_CALL]",
    "[END_TOOL_REQUEST]",
    "<｜tool▁calls▁end｜>",
    "<|tool_calls_section_end|>",
    "<tool_call|>",
];

/// What a marker at some offset is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Marker {
    ThinkOpen,
    ThinkClose,
    CallOpen(Dialect),
    CallClose,
}

/// What the text at an offset holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Found {
    /// A whole marker of this many bytes.
    Marker(Marker, usize),
    /// The text so far ends inside what may still become a marker: wait for more.
    Partial,
    /// No marker starts here.
    None,
}

/// The marker that `rest` (the text from an offset on) starts with.
pub(super) fn marker_at(rest: &str) -> Found {
    let think = THINK_OPEN
        .iter()
        .map(|tag| (*tag, Marker::ThinkOpen))
        .chain(THINK_CLOSE.iter().map(|tag| (*tag, Marker::ThinkClose)))
        .chain(
            CALL_OPEN
                .iter()
                .map(|(tag, dialect)| (*tag, Marker::CallOpen(*dialect))),
        )
        .chain(CALL_CLOSE.iter().map(|tag| (*tag, Marker::CallClose)));
    let mut partial = false;
    for (tag, marker) in think {
        if rest.starts_with(tag) {
            return Found::Marker(marker, tag.len());
        }
        partial |= !rest.is_empty() && tag.starts_with(rest);
    }
    if partial {
        Found::Partial
    } else {
        Found::None
    }
}

/// Whether a tool call of this dialect carries its arguments as a JSON body.
pub(super) fn has_body(dialect: Dialect) -> bool {
    !matches!(
        dialect,
        Dialect::XmlParameters
            | Dialect::ArgKeyValue
            | Dialect::Gemma
            | Dialect::ArrowHash
            | Dialect::Pythonic
    )
}

/// Whether a byte can start a marker (the only bytes [`marker_at`] needs to be asked about).
pub(super) fn may_start(byte: u8) -> bool {
    matches!(byte, b'<' | b'[' | b'`')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_whole_and_in_part() {
        assert_eq!(marker_at("<think>x"), Found::Marker(Marker::ThinkOpen, 7));
        assert_eq!(marker_at("<thi"), Found::Partial);
        assert_eq!(marker_at("<b>"), Found::None);
        assert_eq!(
            marker_at("[TOOL_CALLS]get"),
            Found::Marker(Marker::CallOpen(Dialect::Mistral), 12)
        );
        assert_eq!(marker_at("[TOOL"), Found::Partial);
        assert_eq!(marker_at("[1, 2]"), Found::None);
        assert!(!has_body(Dialect::ArgKeyValue) && has_body(Dialect::Hermes));
    }
}
