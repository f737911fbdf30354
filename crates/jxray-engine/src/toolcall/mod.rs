//! Tool calls written as text: a serving layer that does not recognise a model's native
//! tool-call syntax hands the call over as the message text. Each dialect is recognised
//! by the markup its model family writes (see `markers`), in one pass over the text.

mod lex;
mod markers;
mod notes;
#[cfg(test)]
mod tests;

use std::sync::LazyLock;

use memchr::memmem;
use serde_json::Value;

use crate::outcome::{Dialect, ToolCallText};

/// One tool call found in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Call {
    pub(crate) dialect: Dialect,
    pub(crate) tool: Option<String>,
    /// Where the call's markup starts.
    pub(crate) start: usize,
    /// Where its JSON body opens (dialects with one).
    pub(crate) body: Option<usize>,
    /// Where the call ends (dialects without a JSON body: everything inside is the call's).
    pub(crate) end: usize,
}

impl Call {
    fn with_body(dialect: Dialect, tool: Option<String>, start: usize, body: usize) -> Call {
        Call {
            dialect,
            tool,
            start,
            body: Some(body),
            end: body,
        }
    }

    fn without_body(dialect: Dialect, tool: Option<String>, start: usize, end: usize) -> Call {
        Call {
            dialect,
            tool,
            start,
            body: None,
            end,
        }
    }

    /// The call as an outcome reports it.
    pub(crate) fn text(&self) -> ToolCallText {
        ToolCallText::new(self.dialect, self.tool.clone(), self.start)
    }
}

/// A recogniser: the call whose marker is at the offset, if it is one.
type Recognise = fn(&[u8], usize) -> Option<Call>;

/// The markers a call opens with (`<` opens every tag and token), how many of their first
/// bytes are not searched for, and the recogniser each leads to. A search starts past
/// brackets, backticks and `=`, which are common in JSON and markdown, so the byte search
/// keys on the rarer letters after them.
const MARKERS: [(&str, usize, Recognise); 6] = [
    ("<", 0, markers::at_angle),
    ("[TOOL_CALL", 1, markers::at_bracket),
    ("[TOOL_REQUEST]", 1, markers::tool_request),
    ("to=functions.", 3, markers::harmony),
    ("[ARGS]", 1, markers::bare_args),
    ("```tool_code", 3, markers::tool_code_fence),
];

/// Where the marker `index` next starts at or after `from`.
fn next_marker(bytes: &[u8], finder: &memmem::Finder, index: usize, from: usize) -> Option<usize> {
    let (marker, skipped, _) = MARKERS[index];
    let mut search = from + skipped;
    loop {
        let key = search + finder.find(bytes.get(search..)?)?;
        let start = key - skipped;
        if bytes[start..].starts_with(marker.as_bytes()) {
            return Some(start);
        }
        search = key + 1;
    }
}

/// A searcher for each marker, built once: setting one up costs more than searching a
/// short reply with it.
static FINDERS: LazyLock<[memmem::Finder<'static>; MARKERS.len()]> =
    LazyLock::new(|| MARKERS.map(|(marker, skipped, _)| memmem::Finder::new(&marker[skipped..])));

/// Every tool call in the text, in order. Linear: each marker's next occurrence is found
/// once, and a call without a JSON body is passed whole.
pub(crate) fn find_calls(text: &str) -> Vec<Call> {
    let bytes = text.as_bytes();
    let finders = &*FINDERS;
    let find = |index: usize, from: usize| next_marker(bytes, &finders[index], index, from);
    let mut next: Vec<Option<usize>> = (0..MARKERS.len()).map(|index| find(index, 0)).collect();
    let mut calls = Vec::new();
    while let Some((index, at)) = next
        .iter()
        .enumerate()
        .filter_map(|(index, at)| at.map(|at| (index, at)))
        .min_by_key(|&(_, at)| at)
    {
        let call = (MARKERS[index].2)(bytes, at);
        let from = match &call {
            Some(call) if call.body.is_none() => call.end.max(at + 1),
            _ => at + 1,
        };
        // `[TOOL_CALLS]NAME[ARGS]{…}` is found at both markers: one call.
        let again = call.as_ref().is_some_and(|call| {
            call.body.is_some()
                && calls
                    .last()
                    .is_some_and(|last: &Call| last.body == call.body)
        });
        if !again {
            calls.extend(call);
        }
        for (index, slot) in next.iter_mut().enumerate() {
            if slot.is_some_and(|at| at < from) {
                *slot = find(index, from);
            }
        }
    }
    calls
}

/// How far before a value a call's markup may start (a header: tokens, a name, a fence).
const HEADER_WINDOW: usize = 512;

/// The calls whose markup starts in the stretch just before the value at `at`: enough to
/// tell whether that value is a call's body without reading the whole text.
pub(crate) fn calls_before(text: &str, at: usize) -> Vec<Call> {
    let mut from = at.saturating_sub(HEADER_WINDOW);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let mut end = (at + 1).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    let mut calls = find_calls(&text[from..end]);
    for call in &mut calls {
        call.start += from;
        call.end += from;
        call.body = call.body.map(|body| body + from);
    }
    calls
}

/// A candidate at `start` that is itself a call in a dialect without a JSON body, written
/// without wrapper markup: `{tool => "NAME", …}`, `[NAME(k=v)]`, Gemma's `call:NAME{…}`.
pub(crate) fn call_at_candidate(text: &str, start: usize) -> Option<Call> {
    let bytes = text.as_bytes();
    let (dialect, tool) = if let Some(tool) = markers::arrow_hash_at(bytes, start) {
        (Dialect::ArrowHash, tool)
    } else if let Some(tool) = markers::pythonic_at(bytes, start) {
        (Dialect::Pythonic, tool)
    } else {
        (Dialect::Gemma, markers::bare_gemma_at(bytes, start)?)
    };
    Some(Call::without_body(dialect, Some(tool), start, start))
}

/// Closing markup after a call's body (`</tool_call>`, `<|call|>`, `<｜tool▁call▁end｜>`…):
/// where it ends, past white space, or `from` when there is none.
pub(crate) fn markup_end(text: &str, from: usize) -> usize {
    // DeepSeek closes its body's fence right before the end token.
    const CLOSING_TAGS: [&[u8]; 7] = [
        b"</tool_call>",
        b"</tool_calls>",
        b"[END_TOOL_REQUEST]",
        b"</function>",
        b"[/TOOL_CALL]",
        b"</s>",
        b"```",
    ];
    let bytes = text.as_bytes();
    let mut end = from;
    // A few tokens close a call (the call's, the section's, the message's).
    for _ in 0..4 {
        let k = lex::skip_space(bytes, end);
        let closed = match lex::special_token(bytes, k) {
            Some((_, after)) => after,
            None => match CLOSING_TAGS.iter().find(|tag| lex::at(bytes, k, tag)) {
                Some(tag) => k + tag.len(),
                None => return end,
            },
        };
        end = closed;
    }
    end
}

/// The tool a body names (`{"name": …}` or the first call of a list), when the markup did not.
pub(crate) fn tool_in_value(value: &Value) -> Option<String> {
    let call = match value {
        Value::Array(calls) => calls.first()?,
        call => call,
    };
    call.get("name")?.as_str().map(str::to_owned)
}

/// [`tool_in_value`] for a body kept as JSON text: only its `name` is read into memory.
pub(crate) fn tool_in_json(json: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Named {
        name: Option<Value>,
    }
    // Only an object names a tool (serde would also read a list as the struct's fields).
    let name_of = |object: &str| -> Option<String> {
        if !object.trim_start().starts_with('{') {
            return None;
        }
        let named: Named = serde_json::from_str(object).ok()?;
        named.name?.as_str().map(str::to_owned)
    };
    let json = json.trim_start();
    if json.starts_with('[') {
        let calls: Vec<&serde_json::value::RawValue> = serde_json::from_str(json).ok()?;
        name_of(calls.first()?.get())
    } else {
        name_of(json)
    }
}

/// The tool a body that does not parse names first (`{"name": "NAME", …`), read from its
/// opening only.
pub(crate) fn tool_named_in_broken_body(text: &str, start: usize) -> Option<String> {
    let bytes = text.as_bytes();
    let (key, after) = lex::quoted_at(bytes, lex::skip_space(bytes, start + 1))?;
    let colon = lex::skip_space(bytes, after);
    if key != "name" || !lex::at(bytes, colon, b":") {
        return None;
    }
    lex::quoted_at(bytes, lex::skip_space(bytes, colon + 1)).map(|(tool, _)| tool)
}
