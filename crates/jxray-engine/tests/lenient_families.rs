//! Issue 23's families through the public API: bare words as values, keys with a quote
//! missing, strings that run into the closers, one closer for two levels; and the rule
//! for fixes with alternatives: every way is read, and two values give none, both shown.

use jxray_engine::{extract, Defect, FailureKind, Layer, Options, RepairKind, WarningKind};
use serde_json::{json, Value};

fn lenient(text: &str) -> jxray_engine::Outcome {
    extract(text, &Options::default().with_accept_lenient(true))
}

/// The lenient value and its fix kinds.
fn reads(text: &str) -> (Value, Vec<RepairKind>) {
    let outcome = lenient(text);
    assert_eq!(outcome.layer, Some(Layer::Lenient), "{text}: {outcome:?}");
    let kinds = outcome.repairs.iter().map(|r| r.kind).collect();
    (outcome.value.unwrap(), kinds)
}

/// No value in either mode; the lenient error, when a reading is shown.
fn refused(text: &str) -> Option<String> {
    let strict = extract(text, &Options::default());
    assert!(
        !strict.ok(),
        "{text} gave {:?} without lenient",
        strict.value
    );
    let outcome = lenient(text);
    assert!(!outcome.ok(), "{text} gave {:?}", outcome.value);
    outcome.lenient.and_then(|r| r.error)
}

fn fix(defect: Defect) -> RepairKind {
    RepairKind::Lenient(defect)
}

#[test]
fn bare_words_are_quoted_up_to_the_next_separator() {
    let text =
        r#"{"status": active, "id": 3f2a9c1e-77b4-4c1e, "mode": read-only, "city": New York}"#;
    let (value, kinds) = reads(text);
    assert_eq!(
        value,
        json!({"status": "active", "id": "3f2a9c1e-77b4-4c1e", "mode": "read-only", "city": "New York"})
    );
    assert!(
        kinds.iter().all(|&k| k == fix(Defect::UnquotedValue)),
        "{kinds:?}"
    );
    assert_eq!(reads(r#"[1, foo, 4]"#).0, json!([1, "foo", 4]));
    assert_eq!(
        reads(r#"{"a": foo", "b": 1}"#).0,
        json!({"a": "foo", "b": 1})
    );
    assert_eq!(
        reads("{\"url\": https://example.com/a, \"at\": 2024-10-18T18:35:22Z}").0,
        json!({"url": "https://example.com/a", "at": "2024-10-18T18:35:22Z"})
    );
    // A line that ends the value, then the next member with its comma left out.
    assert_eq!(
        reads("{\"a\": 1,\n \"b\": hello world\n \"c\": 2}").0,
        json!({"a": 1, "b": "hello world", "c": 2})
    );
}

#[test]
fn bare_words_whose_end_is_a_guess_are_refused() {
    for text in [
        r#"{"a": hello: world}"#,
        r#"{"a": say "hi" now}"#,
        "{\"a\": first line\nsecond line}",
        r#"{"a": [x] y}"#,
        r#"{"n": 12345"}"#,
        // Only bare words in brackets: prose or a placeholder.
        "[a, b]",
        "Use {name: value} for each field.",
    ] {
        refused(text);
    }
}

#[test]
fn a_key_with_a_quote_missing_is_read() {
    assert_eq!(
        reads(r#"{"name: "Ada", "answer: 42}"#),
        (
            json!({"name": "Ada", "answer": 42}),
            vec![fix(Defect::KeyQuote); 2]
        )
    );
    assert_eq!(
        reads(r#"{"a": "x", coworker": "Bob"}"#),
        (
            json!({"a": "x", "coworker": "Bob"}),
            vec![fix(Defect::KeyQuote)]
        )
    );
    let strict = extract(r#"{"name: "x"}"#, &Options::default());
    assert_eq!(strict.failure.unwrap().defect, Some(Defect::KeyQuote));
}

#[test]
fn a_string_that_runs_into_the_closers_gets_its_quote_there() {
    let text = "{\"items\": [{\"note\": \"the valve\u{2019}s seal, the pump\u{2019}s filter, and the tank}]}";
    assert_eq!(
        reads(text),
        (
            json!({"items": [{"note": "the valve\u{2019}s seal, the pump\u{2019}s filter, and the tank"}]}),
            vec![fix(Defect::UnterminatedString)]
        )
    );
    // White space before the closers is layout; a closed fence after them is no cut.
    assert_eq!(reads("{\"note\": \"done  }").0, json!({"note": "done"}));
    let fenced = "```json\n{\"a\": [{\"note\": \"check the valve}]}\n```";
    let strict = extract(fenced, &Options::default());
    let failure = strict.failure.unwrap();
    assert_eq!(
        (failure.kind, failure.defect),
        (FailureKind::Invalid, Some(Defect::UnterminatedString))
    );
    assert_eq!(reads(fenced).0, json!({"a": [{"note": "check the valve"}]}));
}

#[test]
fn one_closer_for_two_levels_reads_either_way() {
    for (text, want) in [
        (
            r#"{"items": [{"a": 1], "n": 2}"#,
            json!({"items": [{"a": 1}], "n": 2}),
        ),
        (
            r#"{"tags": ["a", "b"}, "n": 2}"#,
            json!({"tags": ["a", "b"], "n": 2}),
        ),
        (r#"{"a": [1, 2}"#, json!({"a": [1, 2]})),
        (r#"[{"a": 1]"#, json!([{"a": 1}])),
    ] {
        assert_eq!(
            reads(text),
            (want, vec![fix(Defect::MismatchedBracket)]),
            "{text}"
        );
    }
}

#[test]
fn two_readings_that_differ_are_refused_and_both_shown() {
    let error = refused(r#"["hello, world]"#).expect("the reading is shown");
    assert!(error.contains(r#"["hello, world"]"#), "{error}");
    assert!(error.contains(r#"["hello","world"]"#), "{error}");
    let error = refused(r#"["https://example.com/,2]"#).expect("the reading is shown");
    assert!(error.contains(r#"["https://example.com/",2]"#), "{error}");
    let error = refused(r#"{"code": 007}"#).expect("the reading is shown");
    assert!(
        error.contains("`7`") && error.contains("\"007\""),
        "{error}"
    );
}

#[test]
fn the_never_cases_give_no_value() {
    for text in [
        // An escaped quote where the closing one belongs, with or without a key after it.
        r#"{"text": "say \"hi\"}"#,
        r#"{"text": "say \"hi\", "n": 1}"#,
        // A missing quote before a key that would put the key inside the previous value.
        r#"{"a": "x" coworker": "y"}"#,
        // Doubled or stray quotes inside strings.
        r#"{"key": "value""}"#,
        r#"{"key": ""value"}"#,
        "[\"abc,\n\"def\"]",
        r#"["hello,"world"]"#,
        r#"{"b": "xxxxx" true}"#,
        // A bare word left over from a fence tag.
        "```json\n[json]\n```",
    ] {
        let error = refused(text);
        assert!(error.is_some(), "{text}: no reason shown");
    }
    // The intended value where the other reading does not stand: a string, then a number.
    assert_eq!(reads(r#"["a" 2]"#).0, json!(["a", 2]));
}

#[test]
fn code_is_never_a_value_in_either_mode() {
    for text in [
        "Use `row['6']` to read it.",
        "Set x = [1, 2] and then call f(x).",
        "In Python:\nrow['6'] = [1, 2]\nprint(row)",
        "```python\nx = [1, 2]\nprint(x)\n```",
    ] {
        refused(text);
    }
}

#[test]
fn a_fence_in_brackets_gives_its_value_with_a_warning() {
    for text in [
        "[```json\n{\"a\":\"b\"}\n```]",
        "{```json\n{\"a\":\"b\"}\n```}",
        "[```\n{\"a\":\"b\"}\n```]",
    ] {
        let outcome = extract(text, &Options::default());
        assert_eq!(outcome.value, Some(json!({"a": "b"})), "{text}");
        assert_eq!(
            outcome.warning_kinds(),
            vec![WarningKind::TrailingProse],
            "{text}"
        );
    }
}
