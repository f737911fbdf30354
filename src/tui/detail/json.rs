//! Pretty-printing a decoded value with its tokens coloured.
//!
//! The value is already a `serde_json::Value`, so walking it gives every
//! token's kind for free: no syntax highlighter, no start-up cost, and the
//! palette stays within the theme's ANSI colours.

use serde_json::Value;

use crate::tui::doc::{DocBuilder, Gutter, Paint};

/// Nesting drawn before the rest is elided; the engine's depth limit is far lower.
const MAX_DEPTH: usize = 512;

/// Append `value` pretty-printed (two-space indent), one doc line per text line.
pub(super) fn write(builder: &mut DocBuilder, value: &Value) {
    write_marked(builder, value, &[]);
}

/// Like [`write`], with the values at these JSON Pointers marked as failures
/// (a schema's violations). The root pointer is not marked: it would be all of it.
pub(super) fn write_marked(builder: &mut DocBuilder, value: &Value, marked: &[String]) {
    let mut place = Place {
        marked,
        pointer: String::new(),
    };
    write_value(builder, value, 0, &mut place);
    builder.end_line(Gutter::None);
}

/// Where the walk is, as a JSON Pointer, kept only while something is to be marked.
struct Place<'a> {
    marked: &'a [String],
    pointer: String,
}

impl Place<'_> {
    /// Walk into `segment`, run `write`, and walk out again.
    fn enter(&mut self, segment: &str, write: impl FnOnce(&mut Self)) {
        if self.marked.is_empty() {
            return write(self);
        }
        let len = self.pointer.len();
        self.pointer.push('/');
        self.pointer
            .push_str(&segment.replace('~', "~0").replace('/', "~1"));
        write(self);
        self.pointer.truncate(len);
    }

    fn is_marked(&self) -> bool {
        !self.pointer.is_empty() && self.marked.contains(&self.pointer)
    }
}

/// `value` pretty-printed as plain text, as `y` copies it.
pub(crate) fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

fn write_value(builder: &mut DocBuilder, value: &Value, depth: usize, place: &mut Place) {
    let start = builder.len();
    write_plain(builder, value, depth, place);
    if place.is_marked() {
        builder.mark_from(start, Paint::Failure);
    }
}

fn write_plain(builder: &mut DocBuilder, value: &Value, depth: usize, place: &mut Place) {
    if depth > MAX_DEPTH {
        builder.push("…", Paint::Note);
        return;
    }
    match value {
        Value::Null => builder.push("null", Paint::Literal),
        Value::Bool(flag) => builder.push(if *flag { "true" } else { "false" }, Paint::Literal),
        Value::Number(number) => builder.push(&number.to_string(), Paint::Num),
        Value::String(text) => builder.push(&quoted(text), Paint::Str),
        Value::Array(items) if items.is_empty() => builder.push("[]", Paint::Plain),
        Value::Object(map) if map.is_empty() => builder.push("{}", Paint::Plain),
        Value::Array(items) => {
            builder.push("[", Paint::Plain);
            builder.end_line(Gutter::None);
            for (index, item) in items.iter().enumerate() {
                indent(builder, depth + 1);
                place.enter(&index.to_string(), |place| {
                    write_value(builder, item, depth + 1, place)
                });
                close_item(builder, index + 1 < items.len());
            }
            indent(builder, depth);
            builder.push("]", Paint::Plain);
        }
        Value::Object(map) => {
            builder.push("{", Paint::Plain);
            builder.end_line(Gutter::None);
            for (index, (key, item)) in map.iter().enumerate() {
                indent(builder, depth + 1);
                builder.push(&quoted(key), Paint::Key);
                builder.push(": ", Paint::Plain);
                place.enter(key, |place| write_value(builder, item, depth + 1, place));
                close_item(builder, index + 1 < map.len());
            }
            indent(builder, depth);
            builder.push("}", Paint::Plain);
        }
    }
}

fn close_item(builder: &mut DocBuilder, more: bool) {
    if more {
        builder.push(",", Paint::Plain);
    }
    builder.end_line(Gutter::None);
}

fn indent(builder: &mut DocBuilder, depth: usize) {
    builder.push(&"  ".repeat(depth.min(MAX_DEPTH)), Paint::Plain);
}

fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| format!("\"{text}\""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn lines(value: &Value) -> Vec<String> {
        let mut builder = DocBuilder::new();
        write(&mut builder, value);
        let doc = builder.finish("");
        doc.lines
            .iter()
            .map(|line| doc.text[line.start..line.end].to_string())
            .collect()
    }

    #[test]
    fn matches_serde_pretty_printing() {
        let value = json!({"b": [1, true, null, {}], "a": {"s": "x\ny"}, "e": []});
        assert_eq!(lines(&value).join("\n"), pretty(&value));
    }

    #[test]
    fn tokens_carry_their_kind() {
        let mut builder = DocBuilder::new();
        write(&mut builder, &json!({"k": 1.5}));
        let doc = builder.finish("");
        let kinds: Vec<(String, Paint)> = doc
            .tokens
            .iter()
            .filter(|t| !doc.text[t.start..t.end].trim().is_empty())
            .map(|t| (doc.text[t.start..t.end].to_string(), t.paint))
            .collect();
        assert!(kinds.contains(&("\"k\"".to_string(), Paint::Key)));
        assert!(kinds.contains(&("1.5".to_string(), Paint::Num)));
    }

    #[test]
    fn marked_pointers_cover_exactly_their_values() {
        let mut builder = DocBuilder::new();
        let value = json!({"a/b": {"p": "P2"}, "list": [1, 2]});
        write_marked(
            &mut builder,
            &value,
            &["/a~1b/p".to_string(), "/list/1".to_string(), String::new()],
        );
        let doc = builder.finish("");
        let marked: Vec<&str> = doc
            .marks
            .iter()
            .map(|m| &doc.text[m.start..m.end])
            .collect();
        assert_eq!(marked, ["\"P2\"", "2"]);
        assert!(doc.marks.iter().all(|m| m.paint == Paint::Failure));
    }

    #[test]
    fn scalars_print_on_one_line() {
        assert_eq!(lines(&json!("s")), ["\"s\""]);
        assert_eq!(lines(&json!(null)), ["null"]);
    }
}
