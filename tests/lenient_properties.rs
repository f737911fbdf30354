//! Properties of the lenient reading: it never completes a cut-off value,
//! it leaves valid JSON alone, and one defect put into a valid document
//! reads back as exactly that document.

use jxray::engine::{extract, Defect, FailureKind, Layer, Options, RepairKind};
use proptest::prelude::*;
use serde_json::{Map, Number, Value};

fn lenient() -> Options {
    Options::default().with_accept_lenient(true)
}

fn value_with(
    strings: impl Strategy<Value = String> + Clone + 'static,
) -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| Value::Number(n.into())),
        any::<f64>()
            .prop_filter_map("finite", Number::from_f64)
            .prop_map(Value::Number),
        strings.clone().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(strings.clone(), inner, 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn container(
    strings: impl Strategy<Value = String> + Clone + 'static,
) -> impl Strategy<Value = Value> {
    value_with(strings).prop_filter("object or array", |v| v.is_object() || v.is_array())
}

fn serialize(value: &Value, pretty: bool) -> String {
    if pretty {
        serde_json::to_string_pretty(value).unwrap()
    } else {
        serde_json::to_string(value).unwrap()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn valid_json_is_left_alone(value in value_with(any::<String>()), pretty in any::<bool>()) {
        let outcome = extract(&serialize(&value, pretty), &lenient());
        prop_assert_eq!(outcome.layer, Some(Layer::Direct));
        prop_assert_eq!(outcome.value, Some(value));
        prop_assert!(outcome.repairs.is_empty());
        prop_assert!(outcome.lenient.is_none());
    }

    /// Strings without brackets: a prefix cut inside one cannot close the structure.
    #[test]
    fn no_strict_prefix_is_completed(value in container("[a-z ,:'.]{0,8}"), pretty in any::<bool>()) {
        let text = serialize(&value, pretty);
        for cut in (1..text.len()).filter(|&cut| text.is_char_boundary(cut)) {
            let outcome = extract(&text[..cut], &lenient());
            prop_assert!(!outcome.ok(), "prefix {:?} was accepted", &text[..cut]);
            prop_assert_eq!(outcome.failure.map(|f| f.kind), Some(FailureKind::Truncated), "prefix {:?}", &text[..cut]);
        }
    }

    /// A trailing comma before the last closer, in any valid document (with
    /// quotes, escapes, Unicode and control characters in its strings),
    /// reads back as the document and nothing else is changed. Brackets in
    /// strings are left out: a `{` inside a string of a broken value is the
    /// fragment rule's business (the scanned layer), not the reading's.
    #[test]
    fn one_defect_reads_back_as_the_document(value in container("[^\\[\\]{}]{0,12}"), pretty in any::<bool>()) {
        let text = serialize(&value, pretty);
        let last = text.len() - 1;
        let empty = matches!(value, Value::Array(ref a) if a.is_empty())
            || matches!(value, Value::Object(ref o) if o.is_empty());
        prop_assume!(!empty);
        let broken = format!("{},{}", &text[..last], &text[last..]);
        let outcome = extract(&broken, &lenient());
        prop_assert_eq!(outcome.layer, Some(Layer::Lenient), "{:?}", outcome.lenient);
        prop_assert_eq!(outcome.value, Some(value));
        let kinds: Vec<RepairKind> = outcome.repairs.iter().map(|r| r.kind).collect();
        prop_assert!(kinds.iter().all(|&k| k == RepairKind::Lenient(Defect::TrailingComma) || k.is_lossless()), "{:?}", kinds);
    }

    /// Single quotes for every key: the same document comes back.
    #[test]
    fn single_quoted_keys_read_back(value in container("[a-zA-Z0-9 _]{0,8}"), pretty in any::<bool>()) {
        let text = serialize(&value, pretty);
        let broken = single_quote_keys(&text);
        prop_assume!(broken != text);
        let outcome = extract(&broken, &lenient());
        prop_assert_eq!(outcome.value, Some(value), "{}", broken);
    }
}

/// `"key":` → `'key':` (keys here hold no quotes or escapes).
fn single_quote_keys(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('"') {
        let close = open + 1 + rest[open + 1..].find('"').unwrap();
        let is_key = rest[close + 1..].starts_with(':');
        out.push_str(&rest[..open]);
        let quote = if is_key { "'" } else { "\"" };
        out.push_str(quote);
        out.push_str(&rest[open + 1..close]);
        out.push_str(quote);
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}
