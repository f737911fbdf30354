//! Properties that hold for every JSON value and every string.

mod support;

use jxray_engine::{extract, extract_accepted, Defect, FailureKind, Layer, Options};
use proptest::prelude::*;
use serde_json::Value;
use support::values::{container, json_value, serialize};

/// Prose that cannot itself look like JSON or markdown.
fn prose() -> impl Strategy<Value = String> {
    "[A-Za-z][A-Za-z ,.:!?'\n]{0,40}"
}

/// Every proper sub-value (container) of `value`.
fn sub_values<'a>(value: &'a Value, out: &mut Vec<&'a Value>) {
    let children: Vec<&Value> = match value {
        Value::Array(items) => items.iter().collect(),
        Value::Object(entries) => entries.values().collect(),
        _ => Vec::new(),
    };
    for child in children {
        if child.is_object() || child.is_array() {
            out.push(child);
        }
        sub_values(child, out);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn any_serialized_value_is_direct(value in json_value(), pretty in any::<bool>()) {
        let outcome = extract(&serialize(&value, pretty), &Options::default());
        prop_assert_eq!(outcome.layer, Some(Layer::Direct));
        prop_assert_eq!(outcome.value, Some(value));
        prop_assert!(outcome.repairs.is_empty());
    }

    #[test]
    fn a_fenced_value_is_fenced(value in json_value(), pretty in any::<bool>(), before in prose(), after in prose(), tag in prop_oneof![Just(""), Just("json"), Just("JSON")]) {
        let text = format!("{before}\n```{tag}\n{}\n```\n{after}", serialize(&value, pretty));
        let outcome = extract(&text, &Options::default());
        prop_assert_eq!(outcome.layer, Some(Layer::Fenced));
        prop_assert_eq!(outcome.value, Some(value));
    }

    #[test]
    fn a_value_in_prose_is_scanned(value in container(), pretty in any::<bool>(), before in prose(), after in prose()) {
        let text = format!("{before} {} {after}", serialize(&value, pretty));
        let outcome = extract(&text, &Options::default());
        prop_assert_eq!(outcome.layer, Some(Layer::Scanned));
        prop_assert_eq!(outcome.value, Some(value));
    }

    #[test]
    fn an_unrepaired_value_is_exactly_its_span(value in container(), before in prose(), after in prose(), fenced in any::<bool>()) {
        let body = serialize(&value, false);
        let text = if fenced { format!("{before}\n```json\n{body}\n```\n{after}") } else { format!("{before} {body} {after}") };
        let outcome = extract(&text, &Options::default());
        prop_assert!(outcome.ok());
        prop_assert!(outcome.repairs.is_empty());
        let (start, end) = outcome.span.unwrap();
        let reparsed: Value = serde_json::from_str(&text[start..end]).unwrap();
        prop_assert_eq!(outcome.value, Some(reparsed));
    }

    #[test]
    fn every_strict_prefix_is_truncated(value in container(), pretty in any::<bool>()) {
        let text = serialize(&value, pretty);
        for cut in (1..text.len()).filter(|&cut| text.is_char_boundary(cut)) {
            let outcome = extract(&text[..cut], &Options::default());
            prop_assert!(!outcome.ok(), "prefix {:?} was accepted", &text[..cut]);
            let failure = outcome.failure.unwrap();
            // The contract's one exception: a prefix that ends inside a string whose
            // text closes every open bracket reads as a missing quote.
            let missing_quote = failure.defect == Some(Defect::UnterminatedString);
            prop_assert!(failure.kind == FailureKind::Truncated || missing_quote, "prefix {:?}: {:?}", &text[..cut], failure);
        }
    }

    /// Issue 13: for any valid document and any corruption inside it, no proper
    /// sub-value of the document is accepted.
    #[test]
    fn no_sub_value_of_a_corrupted_document_is_accepted(value in container(), at in any::<prop::sample::Index>(), corruption in prop_oneof![
        Just("\""), Just("{"), Just("}"), Just("]"), Just(","), Just(":"), Just("'"), Just("True"), Just("//"), Just("x"), Just(""),
    ], delete in 0usize..3) {
        let text = serialize(&value, false);
        let mut cut = at.index(text.len() + 1).max(1).min(text.len().saturating_sub(1));
        while !text.is_char_boundary(cut) { cut -= 1; }
        let mut end = (cut + delete).min(text.len());
        while !text.is_char_boundary(end) { end -= 1; }
        let corrupted = format!("{}{}{}", &text[..cut], corruption, &text[end..]);
        let outcome = extract(&corrupted, &Options::default());
        if let (Some(accepted), Some((start, stop))) = (&outcome.value, outcome.span) {
            // Either the corruption left a whole valid document, or what was taken is not a proper part of it.
            let whole = start == 0 && stop == corrupted.len();
            let mut parts = Vec::new();
            sub_values(&value, &mut parts);
            prop_assert!(whole || !parts.contains(&accepted), "{:?} gave the sub-value {:?}", corrupted, accepted);
        }
    }

    #[test]
    fn no_string_makes_it_panic(text in any::<String>(), lenient in any::<bool>()) {
        let options = Options::default().with_accept_lenient(lenient);
        let outcome = extract(&text, &options);
        prop_assert!(outcome.ok() != outcome.failure.is_some());
    }

    #[test]
    fn no_bytes_make_it_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let text = String::from_utf8_lossy(&bytes);
        let outcome = extract(&text, &Options::default());
        prop_assert!(outcome.ok() != outcome.failure.is_some());
    }

    #[test]
    fn json_shaped_noise_never_panics(parts in prop::collection::vec(prop_oneof![
        Just("{"), Just("}"), Just("["), Just("]"), Just("\""), Just("\\"), Just(","), Just(":"),
        Just("```"), Just("```json\n"), Just("\n"), Just("<think>"), Just("</think>"), Just("'"),
        Just("True"), Just("1"), Just("a"), Just(" "), Just("//"), Just("\t"),
    ], 0..80), lenient in any::<bool>()) {
        let text: String = parts.concat();
        let options = Options::default().with_accept_lenient(lenient);
        let outcome = extract(&text, &options);
        prop_assert!(outcome.ok() != outcome.failure.is_some());
        if let Some((start, end)) = outcome.span {
            prop_assert!(start <= end && end <= text.len());
        }
    }

    #[test]
    fn extract_accepted_is_extract_when_it_accepts(parts in prop::collection::vec(prop_oneof![
        Just("{"), Just("}"), Just("["), Just("]"), Just("\""), Just(","), Just(":"), Just("'"),
        Just("```json\n"), Just("```\n"), Just("\n"), Just("<think>"), Just("</think>"),
        Just("True"), Just("1"), Just("a"), Just(" "), Just("\"k\": 1"), Just("I can't help."),
    ], 0..60), lenient in any::<bool>(), stop in prop_oneof![Just(None), Just(Some("stop")), Just(Some("length"))]) {
        let text: String = parts.concat();
        let options = Options::default().with_accept_lenient(lenient).with_stop_reason(stop);
        let whole = extract(&text, &options);
        let accepted = extract_accepted(&text, &options);
        prop_assert_eq!(accepted, whole.ok().then_some(whole), "{:?}", text);
    }
}
