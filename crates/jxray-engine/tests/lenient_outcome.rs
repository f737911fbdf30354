//! The lenient reading as an outcome shows it: every defect in
//! `failure.defects`, acceptance only when asked, and nothing completed.

use jxray_engine::{extract, Defect, FailureKind, Layer, Options, RepairKind};
use serde_json::json;

fn with_lenient(accept: bool) -> Options {
    Options::default().with_accept_lenient(accept)
}

#[test]
fn every_defect_is_listed_in_text_order() {
    let text = "{\u{201c}n\u{201d}: .5, \"ok\": TRUE, \"next\": undefined, \"a\" 1}";
    let outcome = extract(text, &with_lenient(false));
    let failure = outcome.failure.expect("invalid");
    assert_eq!(failure.kind, FailureKind::Invalid);
    assert_eq!(failure.defect, Some(Defect::SmartQuotes));
    let kinds: Vec<Defect> = failure.defects.iter().map(|d| d.kind).collect();
    assert_eq!(
        kinds,
        [
            Defect::SmartQuotes,
            Defect::NumberFormat,
            Defect::LiteralCase,
            Defect::Undefined,
            Defect::MissingColon
        ]
    );
    assert!(failure
        .defects
        .windows(2)
        .all(|w| w[0].offset <= w[1].offset));
    assert!(failure.defects.iter().all(|d| !d.message.is_empty()));
    let reading = outcome.lenient.expect("a lenient reading is shown");
    assert_eq!(
        reading.value,
        Some(json!({"n": 0.5, "ok": true, "next": null, "a": 1}))
    );
    assert!(!reading.accepted);
}

#[test]
fn acceptance_is_opt_in_and_every_fix_is_a_repair() {
    let text = "{\"a\": [1, 2}, \"b\": NaN}";
    assert!(!extract(text, &with_lenient(false)).ok());
    let outcome = extract(text, &with_lenient(true));
    assert_eq!(outcome.layer, Some(Layer::Lenient));
    assert_eq!(outcome.value, Some(json!({"a": [1, 2], "b": null})));
    let repairs: Vec<(RepairKind, usize)> =
        outcome.repairs.iter().map(|r| (r.kind, r.offset)).collect();
    assert_eq!(
        repairs,
        [
            (RepairKind::Lenient(Defect::MismatchedBracket), 11),
            (RepairKind::Lenient(Defect::NonFiniteNumber), 19)
        ]
    );
}

#[test]
fn a_placeholder_before_the_object_does_not_win() {
    let text = "Fill in {placeholder} like this: {'name': 'Ada'}";
    let outcome = extract(text, &with_lenient(true));
    assert_eq!(outcome.value, Some(json!({"name": "Ada"})));
    assert_eq!(outcome.span, Some((33, text.len())));
}

#[test]
fn cut_off_text_is_never_completed() {
    for text in [
        "[1, 2,",
        "{'a': [1, 2",
        "{\"a\": NaN, \"b\": [TRUE",
        "{\"a\" 1, \"b\": \"x",
    ] {
        let outcome = extract(text, &with_lenient(true));
        assert!(!outcome.ok(), "{text} was completed: {:?}", outcome.value);
    }
}

#[test]
fn two_readings_give_none() {
    for text in [
        "{\"path\": \"C:\\Users\\ada\",}",
        "{\"a\": \"x','b':'y'}",
        "[1,,2]",
        "{\"code\": 007}",
        "[\"hello, world]",
        "[\"abc,\n\"def\"]",
    ] {
        let outcome = extract(text, &with_lenient(true));
        assert!(!outcome.ok(), "{text} read as {:?}", outcome.value);
        assert!(outcome.lenient.is_none_or(|r| r.value.is_none()), "{text}");
    }
}
