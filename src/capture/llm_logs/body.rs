//! What jxray takes from the JSON an `llm` log keeps beside a response — the provider's
//! stop reason in `response_json`, a tool call's `arguments` in a part's `payload` — read
//! in one pass that skips everything else, so a large body costs its own size and no more
//! (a tree of it would cost tens of times that).

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use super::super::envelope::ToolCall;

/// One step into a body: an object's key, or an array's first element.
#[derive(Debug, Clone, Copy)]
enum Step {
    Key(&'static str),
    First,
}

/// Where each provider's body keeps its stop reason, the first found wins.
const STOP_REASONS: [&[Step]; 5] = [
    &[Step::Key("finish_reason")],
    &[
        Step::Key("choices"),
        Step::First,
        Step::Key("finish_reason"),
    ],
    &[Step::Key("stop_reason")],
    &[
        Step::Key("candidates"),
        Step::First,
        Step::Key("finishReason"),
    ],
    &[Step::Key("done_reason")],
];

/// The OpenAI Responses API says `status: "incomplete"` when the output was cut.
const STATUS: &[Step] = &[Step::Key("status")];

/// The provider's stop reason in a logged response body, wherever its format keeps it.
pub(super) fn stop_reason(response_json: &str) -> Option<String> {
    let mut paths: Vec<&[Step]> = STOP_REASONS.to_vec();
    paths.push(STATUS);
    let found = strings_at(response_json, &paths)?;
    let (reasons, status) = found.split_at(STOP_REASONS.len());
    reasons
        .iter()
        .flatten()
        .next()
        .cloned()
        .or_else(|| status[0].clone().filter(|status| status == "incomplete"))
}

/// A tool call part's `arguments` (a JSON string as it is, an object as its compact JSON),
/// when the payload has them.
pub(super) fn tool_call(payload: &str) -> Option<ToolCall> {
    #[derive(Deserialize)]
    struct Payload {
        arguments: Option<Box<RawValue>>,
    }
    let arguments = serde_json::from_str::<Payload>(payload).ok()?.arguments?;
    let raw = arguments.get();
    if raw.starts_with('"') {
        let arguments = serde_json::from_str::<String>(raw).ok()?;
        return Some(ToolCall::new(arguments));
    }
    let value: Value = serde_json::from_str(raw).ok()?;
    (!value.is_null()).then(|| ToolCall::from_object(&value))
}

/// The string at each of `paths` in `json` (`None` where there is none), or `None` when
/// `json` is not JSON.
fn strings_at(json: &str, paths: &[&'static [Step]]) -> Option<Vec<Option<String>>> {
    let mut found = vec![None; paths.len()];
    let wanted: Vec<(usize, &[Step])> = paths.iter().copied().enumerate().collect();
    let mut deserializer = serde_json::Deserializer::from_str(json);
    Seek {
        wanted: &wanted,
        found: &mut found,
    }
    .deserialize(&mut deserializer)
    .ok()?;
    deserializer.end().ok()?;
    Some(found)
}

/// Reads one value, descending only where a wanted path goes and filling `found[i]` with
/// the string a path `i` ends at; everything else is skipped without being kept.
struct Seek<'a, 'b> {
    /// The paths still wanted below this value (by their index), as the steps left.
    wanted: &'a [(usize, &'static [Step])],
    found: &'b mut [Option<String>],
}

impl<'de> DeserializeSeed<'de> for Seek<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        if self.wanted.is_empty() {
            return IgnoredAny::deserialize(deserializer).map(drop);
        }
        deserializer.deserialize_any(self)
    }
}

impl Seek<'_, '_> {
    /// The paths whose next step is `step`, with that step taken.
    fn below(&self, matches: impl Fn(Step) -> bool) -> Vec<(usize, &'static [Step])> {
        self.wanted
            .iter()
            .filter_map(|(index, steps)| match steps.split_first() {
                Some((step, rest)) if matches(*step) => Some((*index, rest)),
                _ => None,
            })
            .collect()
    }

    fn leaf(self, text: &str) {
        for (index, steps) in self.wanted {
            if steps.is_empty() {
                self.found[*index] = Some(text.to_string());
            }
        }
    }
}

impl<'de> Visitor<'de> for Seek<'_, '_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_str<E>(self, text: &str) -> Result<(), E> {
        self.leaf(text);
        Ok(())
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let first = self.below(|step| matches!(step, Step::First));
        seq.next_element_seed(Seek {
            wanted: &first,
            found: self.found,
        })?;
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        // A number under serde_json's `arbitrary_precision` arrives as a map too: its one
        // key matches no path, so it is skipped like any other.
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let below = self.below(|step| matches!(step, Step::Key(name) if name == key));
            map.next_value_seed(Seek {
                wanted: &below,
                found: self.found,
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_reasons_from_each_body_shape() {
        for (body, want) in [
            (r#"{"finish_reason": "length"}"#, Some("length")),
            (
                r#"{"choices": [{"finish_reason": "stop"}, {"finish_reason": "length"}]}"#,
                Some("stop"),
            ),
            (r#"{"stop_reason": "max_tokens"}"#, Some("max_tokens")),
            (
                r#"{"candidates": [{"finishReason": "MAX_TOKENS"}]}"#,
                Some("MAX_TOKENS"),
            ),
            (
                r#"{"done_reason": "length", "x": [1, {"y": 2.5e3}]}"#,
                Some("length"),
            ),
            (r#"{"status": "incomplete"}"#, Some("incomplete")),
            (r#"{"status": "completed"}"#, None),
            (r#"{"choices": [5], "finish_reason": {"a": 1}}"#, None),
            (r#"{"$": "r:abc"}"#, None),
            ("not json", None),
            (r#"{"finish_reason": "stop"} trailing"#, None),
        ] {
            assert_eq!(stop_reason(body).as_deref(), want, "{body}");
        }
    }

    #[test]
    fn the_first_path_that_holds_a_string_wins() {
        let body = r#"{"stop_reason": "end_turn", "finish_reason": "stop"}"#;
        assert_eq!(stop_reason(body).as_deref(), Some("stop"));
    }

    #[test]
    fn a_deep_body_is_skipped_not_refused() {
        let deep = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
        let body = format!(r#"{{"usage": {deep}, "finish_reason": "length"}}"#);
        assert_eq!(stop_reason(&body).as_deref(), Some("length"));
    }

    #[test]
    fn tool_call_arguments_as_text_or_object() {
        let text = tool_call(r#"{"name": "f", "arguments": "{\"a\": 1}"}"#).unwrap();
        assert_eq!(text.arguments, r#"{"a": 1}"#);
        let object = tool_call(r#"{"arguments": {"b": [1, 2]}, "id": "x"}"#).unwrap();
        assert_eq!(object.arguments, r#"{"b":[1,2]}"#);
        assert!(tool_call(r#"{"name": "f"}"#).is_none());
        assert!(tool_call("not json").is_none());
    }
}
