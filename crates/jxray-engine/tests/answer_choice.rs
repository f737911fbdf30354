//! Which candidate is the answer, and what a missing one means: a cut while reasoning, a
//! literal in another language's fence (and code that is never a candidate), a schema
//! echoed before the answer, and the caller's own test of a value.

use jxray_engine::{
    extract, Acceptor, Cause, Defect, FailureKind, Layer, Options, Pick, ValueForm, WarningKind,
};
use serde_json::{json, Value};

fn kinds(outcome: &jxray_engine::Outcome) -> Vec<WarningKind> {
    outcome.warning_kinds()
}

#[test]
fn a_cut_inside_reasoning_is_truncated_with_cause_reasoning() {
    for text in [
        "<think>\nlet me think about {\"a\": 0",
        "<think>\nThe user wants {\"name\": ..., \"age\": ...}. First I will check",
        "<thinking>I should answer with",
        "<reasoning>\nstep 1: read the invoice",
    ] {
        for options in [
            Options::default(),
            Options::default().with_stop_reason(Some("length")),
        ] {
            let failure = extract(text, &options).failure.unwrap();
            assert_eq!(failure.kind, FailureKind::Truncated, "{text}");
            assert_eq!(failure.cause, Some(Cause::Reasoning), "{text}");
            assert!(
                failure.message.contains("reasoning effort"),
                "{}",
                failure.message
            );
            assert_eq!(failure.offset, text.len());
        }
    }
    // A closed reasoning block and then no JSON is the format instruction lost, not a cut.
    let closed = extract("<think>hmm</think>\nI do not know.", &Options::default());
    assert_eq!(closed.failure.unwrap().kind, FailureKind::NoJson);
    // An answer before the unclosed block still counts.
    let answered = extract("{\"a\": 1}\n<think>more", &Options::default());
    assert_eq!(answered.value, Some(json!({"a": 1})));
}

#[test]
fn a_length_stop_with_no_json_at_all_is_truncated_by_reasoning() {
    let options = Options::default().with_stop_reason(Some("max_tokens"));
    for text in ["", "Let me work through this step by step. First,"] {
        let failure = extract(text, &options).failure.unwrap();
        assert_eq!(
            (failure.kind, failure.cause),
            (FailureKind::Truncated, Some(Cause::Reasoning)),
            "{text:?}"
        );
    }
    // JSON that was started keeps the plain length verdict.
    let failure = extract("{\"a\": [1, 2", &options).failure.unwrap();
    assert_eq!(
        (failure.kind, failure.cause),
        (FailureKind::Truncated, None)
    );
}

#[test]
fn a_fence_of_another_language_holding_one_literal_is_the_answer() {
    let python = "```python\n{\"ok\": True, \"n\": None}\n```";
    let outcome = extract(python, &Options::default());
    let failure = outcome.failure.as_ref().unwrap();
    assert_eq!(
        (failure.kind, failure.defect),
        (FailureKind::Invalid, Some(Defect::PythonLiteral))
    );
    assert_eq!(
        outcome.lenient.as_ref().unwrap().value,
        Some(json!({"ok": true, "n": null}))
    );
    let valid = extract("```js\n[{\"a\": 1}, {\"a\": 2}]\n```", &Options::default());
    assert_eq!(valid.layer, Some(Layer::Fenced));
    assert_eq!(valid.value, Some(json!([{"a": 1}, {"a": 2}])));
    assert!(kinds(&valid).contains(&WarningKind::FenceLanguage));
    let single = extract(
        "```python\n{'a': 1,\n 'b': 'x'}  # done\n```",
        &Options::default(),
    );
    assert_eq!(single.failure.unwrap().defect, Some(Defect::SingleQuotes));
}

#[test]
fn code_in_another_language_is_never_a_candidate() {
    for text in [
        "```python\nimport json\nprint(json.dumps({\"a\": 1}))\n```",
        "```python\nx = [1, 2]\n```",
        "```python\nrow['6']\n```",
        "```js\nconst a = {\"b\": 1};\n```",
        "```python\n{k: v for k, v in pairs}\n```",
        "```python\n[f(x) for x in xs]\n```",
        "```python\n{\"a\": 1}\nprint(x)\n```",
    ] {
        for lenient in [false, true] {
            let outcome = extract(text, &Options::default().with_accept_lenient(lenient));
            let failure = outcome.failure.as_ref().unwrap_or_else(|| {
                panic!("{text} gave {:?}", outcome.value);
            });
            assert_eq!(failure.kind, FailureKind::NoJson, "{text}");
        }
    }
}

fn schema() -> &'static str {
    "{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}}}"
}

#[test]
fn a_schema_echoed_before_the_answer_is_passed_over() {
    let text = format!("Schema:\n{}\nAnswer:\n{{\"a\": 5}}", schema());
    let outcome = extract(&text, &Options::default());
    assert_eq!(outcome.layer, Some(Layer::Scanned));
    assert_eq!(outcome.value, Some(json!({"a": 5})));
    assert!(kinds(&outcome).contains(&WarningKind::SchemaEcho));
    assert!(!kinds(&outcome).contains(&WarningKind::MultipleCandidates));
    let with_dollar = "{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\"}\n\n```json\n{\"a\": 1}\n```";
    assert_eq!(
        extract(with_dollar, &Options::default()).value,
        Some(json!({"a": 1}))
    );
    // A schema alone, or a value that merely has a `type`, is the answer.
    assert!(extract(&format!("Here: {}", schema()), &Options::default()).ok());
    let typed = "First {\"type\": \"car\"} then {\"type\": \"bus\"}";
    assert_eq!(
        extract(typed, &Options::default()).value,
        Some(json!({"type": "car"}))
    );
}

#[test]
fn a_schema_returned_as_the_whole_answer_is_taken_with_a_warning() {
    let shaped =
        "{\"type\": \"object\", \"properties\": {\"city\": \"Paris\", \"population\": 2102650}}";
    for text in [
        schema(),
        shaped,
        "{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\"}",
    ] {
        let outcome = extract(text, &Options::default());
        assert_eq!(outcome.layer, Some(Layer::Direct), "{text}");
        let echo = outcome
            .warnings
            .iter()
            .find(|w| w.kind == WarningKind::SchemaEcho);
        let message = &echo
            .unwrap_or_else(|| panic!("{text}: {:?}", kinds(&outcome)))
            .message;
        assert!(message.contains("not an instance"), "{message}");
    }
    // GeoJSON and other values with `type` and `properties` are answers, not schemas.
    for text in [
        "{\"type\": \"Feature\", \"properties\": {\"name\": \"Lyon\"}, \"geometry\": null}",
        "{\"type\": \"car\", \"properties\": [\"red\"]}",
        "{\"a\": 5}",
    ] {
        let outcome = extract(text, &Options::default());
        assert!(
            !kinds(&outcome).contains(&WarningKind::SchemaEcho),
            "{text}"
        );
    }
    // The same read from compact text, as `check` asks for it.
    let as_text = Options::default().with_value_form(ValueForm::Text);
    for (text, echoed) in [
        (schema(), true),
        ("{\"type\": \"Feature\", \"properties\": {}}", false),
        ("[null, \"object\", {}]", false),
    ] {
        let outcome = extract(text, &as_text);
        assert_eq!(
            kinds(&outcome).contains(&WarningKind::SchemaEcho),
            echoed,
            "{text}"
        );
    }
    // A caller whose test accepts the schema asked for one.
    let any = Acceptor::new(|_: &Value| true);
    let outcome = extract(schema(), &Options::default().with_acceptor(Some(any)));
    assert!(!kinds(&outcome).contains(&WarningKind::SchemaEcho));
}

#[test]
fn a_schema_before_an_answer_that_failed_is_not_taken_for_the_answer() {
    let text = format!("Schema: {}\nAnswer: {{'a': 5}}", schema());
    let outcome = extract(&text, &Options::default());
    let failure = outcome.failure.as_ref().expect("the answer's failure");
    assert_eq!(failure.defect, Some(Defect::SingleQuotes));
    assert!(kinds(&outcome).contains(&WarningKind::SchemaEcho));
    let lenient = extract(&text, &Options::default().with_accept_lenient(true));
    assert_eq!(lenient.value, Some(json!({"a": 5})));
}

#[test]
fn the_first_candidate_the_callers_test_passes_wins() {
    let has_b = Acceptor::new(|value: &Value| value.get("b").is_some());
    let options = Options::default().with_acceptor(Some(has_b.clone()));
    let text = "First {\"a\": 1}, then {\"b\": 2}.";
    assert_eq!(extract(text, &options).value, Some(json!({"b": 2})));
    assert_eq!(
        extract(text, &Options::default()).value,
        Some(json!({"a": 1}))
    );
    // None passes: the first is taken (the caller's schema check then fails it).
    let none = "First {\"a\": 1}, then {\"c\": 2}.";
    assert_eq!(extract(none, &options).value, Some(json!({"a": 1})));
    // With the policy `last`, the last that passes.
    let last = options.clone().with_pick(Pick::Last);
    let text = "{\"b\": 1} and {\"a\": 2} and {\"b\": 3} and {\"a\": 4}";
    assert_eq!(extract(text, &last).value, Some(json!({"b": 3})));
    assert_eq!(options, options.clone(), "an acceptor equals its clone");
}
