//! Properties that hold for every JSON value and every string.

use jxray::engine::{extract, FailureKind, Layer, Options};
use proptest::prelude::*;
use serde_json::{Map, Number, Value};

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| Value::Number(n.into())),
        any::<u64>().prop_map(|n| Value::Number(n.into())),
        any::<f64>()
            .prop_filter_map("finite", Number::from_f64)
            .prop_map(Value::Number),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(any::<String>(), inner, 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn container() -> impl Strategy<Value = Value> {
    json_value().prop_filter("object or array", |v| v.is_object() || v.is_array())
}

/// Prose that cannot itself look like JSON or markdown.
fn prose() -> impl Strategy<Value = String> {
    "[A-Za-z][A-Za-z ,.:!?'\n]{0,40}"
}

fn serialize(value: &Value, pretty: bool) -> String {
    if pretty {
        serde_json::to_string_pretty(value).unwrap()
    } else {
        serde_json::to_string(value).unwrap()
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
            prop_assert_eq!(outcome.failure.map(|f| f.kind), Some(FailureKind::Truncated), "prefix {:?}", &text[..cut]);
        }
    }

    #[test]
    fn no_string_makes_it_panic(text in any::<String>(), lenient in any::<bool>()) {
        let options = Options { accept_lenient: lenient, ..Options::default() };
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
        let options = Options { accept_lenient: lenient, ..Options::default() };
        let outcome = extract(&text, &options);
        prop_assert!(outcome.ok() != outcome.failure.is_some());
        if let Some((start, end)) = outcome.span {
            prop_assert!(start <= end && end <= text.len());
        }
    }
}
