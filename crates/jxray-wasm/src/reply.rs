//! What the module answers about one text: quickly, only the value (or that extraction
//! failed, decided without explaining it); or explained, everything `jxray check --format
//! jsonl` says about it and the trace, which the package asks for the first time any of it
//! is read.

use std::sync::Arc;

use jxray_engine::{
    utf16_len, Attempt, LenientReading, Options, Outcome, ToolCallText, ValueForm, Warning,
};
use jxray_formats::describe::describe;
use jxray_formats::judge::{judge, judge_accepted, Judgement, Reading, Validator};
use jxray_formats::record::{Origin, OutcomeRecord};
use serde::Serialize;

use crate::bigints::{unsafe_integers, BigInt};
use crate::request::Request;

/// The first byte of a quick reply: a value was accepted.
pub const ACCEPTED: u8 = b'1';
/// The first byte of a quick reply: a value was decoded but breaks the schema.
pub const BREAKS_SCHEMA: u8 = b'2';
/// The first byte of a quick reply: extraction failed (ask for the explanation).
pub const FAILED: u8 = b'0';
/// After a quick reply's tab: the value is the text between the offsets that follow.
pub const AS_WRITTEN: u8 = b'@';

/// One text to judge, with the options, the host's validator and what the capture's
/// reader said of it (a response envelope's warnings and refusal mark).
pub struct Judged<'a> {
    pub text: &'a str,
    pub request: &'a Request,
    pub validator: Option<Arc<dyn Validator>>,
    pub warnings: &'a [Warning],
    pub refused: bool,
}

impl Judged<'_> {
    fn options(&self) -> Result<Options, String> {
        self.request.options()
    }

    fn reading(&self) -> Reading<'_> {
        Reading {
            stop_reason: None,
            refused: self.refused,
            warnings: self.warnings,
            notes: None,
        }
    }

    /// The whole outcome, and how its value breaks the schema.
    pub fn outcome(&self) -> Result<Judgement, String> {
        match &self.request.unreadable {
            Some(message) => Ok(Judgement {
                outcome: Outcome::unreadable(message.clone()),
                violations: Vec::new(),
            }),
            None => judge(
                self.text,
                &self.options()?,
                &self.reading(),
                self.validator.as_ref(),
            ),
        }
    }
}

/// The quick reply: a status byte ([`ACCEPTED`], [`BREAKS_SCHEMA`], [`FAILED`]), then the
/// layer, a tab and the value: [`AS_WRITTEN`] and the value's UTF-16 offsets in the text
/// (`@12,80`) when the text there is the value as strict JSON, for the host to parse
/// itself; otherwise the value as compact JSON, then (when asked for and any) a newline
/// and the big integers. A failure is the status byte alone.
pub fn quick(judged: &Judged<'_>) -> Result<Vec<u8>, String> {
    let mut options = judged.options()?;
    // Nothing but the value is read from a quick reply: a value the model wrote as strict
    // JSON need not be written again (the host slices and parses it).
    if options.value_form == ValueForm::Text && !options.decode_stringified {
        options = options.with_value_form(ValueForm::Span);
    }
    let reading = judged.reading();
    let accepted = judge_accepted(judged.text, &options, &reading, judged.validator.as_ref())?;
    let Some(Judgement { outcome, .. }) = accepted else {
        return Ok(vec![FAILED]);
    };
    let status = if outcome.ok() {
        ACCEPTED
    } else {
        BREAKS_SCHEMA
    };
    let mut reply = vec![status];
    if let Some(layer) = outcome.layer {
        reply.extend_from_slice(layer.as_str().as_bytes());
    }
    reply.push(b'\t');
    if let Some((start, end)) = as_written(judged.text, &outcome) {
        reply.push(AS_WRITTEN);
        let (start, end) = utf16_span(judged.text, start, end);
        let mut number = itoa::Buffer::new();
        reply.extend_from_slice(number.format(start).as_bytes());
        reply.push(b',');
        reply.extend_from_slice(number.format(end).as_bytes());
        return Ok(reply);
    }
    write_value(&mut reply, &outcome);
    if judged.request.bigints {
        let found = outcome
            .value
            .as_ref()
            .map(unsafe_integers)
            .unwrap_or_default();
        if !found.is_empty() {
            reply.push(b'\n');
            write_json(&mut reply, &found);
        }
    }
    Ok(reply)
}

/// The value's span, when the text there is exactly the value's JSON text: kept as
/// written with no repair made (known without comparing the two texts, a byte-by-byte
/// loop in WebAssembly).
fn as_written(text: &str, outcome: &Outcome) -> Option<(usize, usize)> {
    let (start, end) = outcome.span?;
    let json = outcome.value_json.as_ref()?.written()?;
    let same = outcome.repairs.is_empty() && json.len() == end - start;
    debug_assert!(!same || text.get(start..end) == Some(json), "{text:?}");
    same.then_some((start, end))
}

/// Byte offsets as UTF-16 code unit offsets, as JavaScript strings index.
fn utf16_span(text: &str, start: usize, end: usize) -> (usize, usize) {
    let start16 = utf16_len(&text[..start]);
    (start16, start16 + utf16_len(&text[start..end]))
}

/// Everything about one capture: its `check --format jsonl` line and what only a viewer
/// needs (the trace, the normalized candidate, the span in UTF-16 code units).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explained<'a> {
    pub record: OutcomeRecord<'a>,
    /// The outcome in one line, as `jxray extract` prints it: the errors' message.
    pub described: String,
    /// `record.span` counted in UTF-16 code units, as JavaScript strings index.
    pub span_utf16: Option<[usize; 2]>,
    /// The text the decoder saw: the repaired candidate, or the raw span.
    pub normalized: Option<&'a str>,
    pub trace: &'a [Attempt],
    pub trace_omitted: usize,
    pub lenient: Option<&'a LenientReading>,
    pub tool_call: Option<&'a ToolCallText>,
    pub bigints: Vec<BigInt>,
    /// The text judged, for outputs the host did not hand over itself (a response's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<&'a str>,
}

/// The whole outcome of `judged`, said as [`Explained`] with `origin` on its line.
pub fn explained(judged: &Judged<'_>, origin: Origin<'_>) -> Result<Vec<u8>, String> {
    explained_with_text(judged, origin, false)
}

/// [`explained`], carrying the text judged when `with_text`.
pub fn explained_with_text(
    judged: &Judged<'_>,
    origin: Origin<'_>,
    with_text: bool,
) -> Result<Vec<u8>, String> {
    let Judgement { outcome, .. } = judged.outcome()?;
    let mut reply = Vec::new();
    write_json(
        &mut reply,
        &Explained::of(judged, origin, &outcome, with_text),
    );
    Ok(reply)
}

impl<'a> Explained<'a> {
    /// `outcome`, the outcome of `judged`, said with `origin` on its line; carrying the text
    /// judged when `with_text`.
    pub fn of(
        judged: &Judged<'a>,
        origin: Origin<'a>,
        outcome: &'a Outcome,
        with_text: bool,
    ) -> Explained<'a> {
        let bigints = match (&outcome.value, judged.request.bigints) {
            (Some(value), true) => unsafe_integers(value),
            _ => Vec::new(),
        };
        Explained {
            record: OutcomeRecord::new(origin, outcome),
            described: describe(outcome),
            span_utf16: outcome.span.map(|(start, end)| {
                let (start, end) = utf16_span(judged.text, start, end);
                [start, end]
            }),
            normalized: outcome.normalized(judged.text),
            trace: &outcome.trace,
            trace_omitted: outcome.trace_omitted,
            lenient: outcome.lenient.as_ref(),
            tool_call: outcome.tool_call.as_ref(),
            bigints,
            text: with_text.then_some(judged.text),
        }
    }
}

fn write_value(reply: &mut Vec<u8>, outcome: &Outcome) {
    if let Some(value) = &outcome.value {
        write_json(reply, value);
    } else if let Some(text) = &outcome.value_json {
        reply.extend_from_slice(text.get().as_bytes());
    }
}

/// Serializing into a `Vec` fails only for a map with non-string keys, which no type
/// here has.
fn write_json<T: Serialize + ?Sized>(reply: &mut Vec<u8>, value: &T) {
    serde_json::to_writer(reply, value).expect("jxray's types serialize to JSON");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged<'a>(text: &'a str, request: &'a Request) -> Judged<'a> {
        Judged {
            text,
            request,
            validator: None,
            warnings: &[],
            refused: false,
        }
    }

    #[test]
    fn a_quick_reply_is_the_status_and_the_compact_value() {
        let request = Request::default();
        // Strict JSON as written: where it is, for the host to parse.
        let reply = quick(&judged("Sure:\n```json\n{\"a\": [1, 2]}\n```", &request)).unwrap();
        assert_eq!(String::from_utf8(reply).unwrap(), "1fenced\t@14,27");
        // Repaired: the repaired text, for the host to parse; holding a `\u` escape: the
        // compact value.
        let reply = quick(&judged("{\"a\": \"x\ny\"}", &request)).unwrap();
        assert_eq!(
            String::from_utf8(reply).unwrap(),
            "1direct\t{\"a\": \"x\\ny\"}"
        );
        let reply = quick(&judged("{\"a\": \"\\u00e9\"}", &request)).unwrap();
        assert_eq!(String::from_utf8(reply).unwrap(), "1direct\t{\"a\":\"é\"}");
        let reply = quick(&judged("{\"a\": [1,", &request)).unwrap();
        assert_eq!(reply, vec![FAILED]);
    }

    /// Every text of the engine's conformance cases and JSONTestSuite: a value said to be
    /// the text at its offsets is `extract`'s value, read from there.
    #[test]
    fn a_value_given_by_its_offsets_is_the_text_there() {
        let data =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../jxray-engine/tests/data");
        let mut folders = vec![
            data.join("spec/cases"),
            data.join("suites/JSONTestSuite/test_parsing"),
        ];
        let request = Request::default();
        let mut by_offsets = 0;
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    folders.push(path);
                    continue;
                }
                let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
                let reply = String::from_utf8(quick(&judged(&text, &request)).unwrap()).unwrap();
                let Some((_, offsets)) = reply.split_once("\t@") else {
                    continue;
                };
                let (start, end) = offsets.split_once(',').unwrap();
                let units: Vec<u16> = text.encode_utf16().collect();
                let there =
                    String::from_utf16(&units[start.parse().unwrap()..end.parse().unwrap()])
                        .unwrap();
                let value = jxray_engine::decode_exact(&there).unwrap();
                let expected = jxray_engine::extract(&text, &Options::default()).value;
                assert_eq!(Some(value), expected, "{}", path.display());
                by_offsets += 1;
            }
        }
        assert!(
            by_offsets > 100,
            "only {by_offsets} values came by their offsets"
        );
    }

    #[test]
    fn offsets_count_utf16_code_units() {
        let request = Request::default();
        // `é` is two bytes and one unit; `😀` four bytes and two units.
        let reply = quick(&judged("é😀 {\"k\": \"😀\"}", &request)).unwrap();
        assert_eq!(String::from_utf8(reply).unwrap(), "1scanned\t@4,15");
    }

    #[test]
    fn big_integers_follow_the_value_when_asked_for() {
        let request = Request {
            bigints: true,
            ..Request::default()
        };
        let reply = quick(&judged("{\"id\": 12345678901234567890}", &request)).unwrap();
        assert_eq!(
            String::from_utf8(reply).unwrap(),
            "1direct\t{\"id\":12345678901234567890}\n[{\"path\":[\"id\"],\"digits\":\"12345678901234567890\"}]"
        );
    }

    #[test]
    fn an_explained_reply_carries_the_check_line_and_utf16_span() {
        let request = Request {
            stop_reason: Some("stop".into()),
            ..Request::default()
        };
        let text = "é 😀 {\"a\": 1}";
        let origin = Origin {
            source: "-",
            stop_reason: Some("stop"),
            ..Origin::default()
        };
        let reply = explained(&judged(text, &request), origin).unwrap();
        let reply: serde_json::Value = serde_json::from_slice(&reply).unwrap();
        assert_eq!(reply["record"]["layer"], "scanned");
        assert_eq!(reply["record"]["span"], serde_json::json!([8, 16]));
        assert_eq!(reply["spanUtf16"], serde_json::json!([5, 13]));
        assert_eq!(reply["record"]["stop_reason"], "stop");
        assert_eq!(reply["normalized"], "{\"a\": 1}");
        assert_eq!(reply["described"], "scanned");
    }
}
