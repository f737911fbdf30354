//! How the engine judges candidates: the decisions a careful reader would make.

use jxray_engine::{
    extract, Defect, FailureKind, Layer, Options, Pick, RepairKind, StopClass, Verdict, WarningKind,
};
use serde_json::json;

fn run(text: &str) -> jxray_engine::Outcome {
    extract(text, &Options::default())
}

fn with(text: &str, change: impl FnOnce(&mut Options)) -> jxray_engine::Outcome {
    let mut options = Options::default();
    change(&mut options);
    extract(text, &options)
}

fn has_warning(outcome: &jxray_engine::Outcome, kind: WarningKind) -> bool {
    outcome.warnings.iter().any(|w| w.kind == kind)
}

#[test]
fn junk_before_the_answer_does_not_hide_it() {
    for text in [
        "Use {\" to open. Answer: {\"a\": 1}",
        "Fill in {{name}} and {curly} words. {\"a\": 1}",
        "According to [1], the result is {\"a\": 1}",
        "Template: {{\"a\": 0}} Result: {\"a\": 1}",
        "Note: {this aside never closes. {\"a\": 1}",
    ] {
        let outcome = run(text);
        assert_eq!(
            outcome.value,
            Some(json!({"a": 1})),
            "{text}: {:?}",
            outcome.failure
        );
        assert_eq!(outcome.layer, Some(Layer::Scanned), "{text}");
    }
}

#[test]
fn a_citation_alone_is_still_a_value() {
    let outcome = run("The answer is [1, 2] as listed.");
    assert_eq!(outcome.value, Some(json!([1, 2])));
}

#[test]
fn fragments_of_an_invalid_value_are_never_the_answer() {
    for text in [
        "Result: {\"a\": 1 \"b\": {\"c\": 2}}",
        "Result: {\"items\": [{\"id\": 1}, {\"id\": 2},]}",
        "{\"outer\": {\"inner\": {\"k\": 1}}, oops}",
    ] {
        let outcome = run(text);
        assert!(!outcome.ok(), "{text} gave {:?}", outcome.value);
        assert_eq!(
            outcome.failure.unwrap().kind,
            FailureKind::Invalid,
            "{text}"
        );
    }
}

#[test]
fn a_complete_inner_object_inside_a_truncated_outer_one_is_truncated() {
    let outcome = run("Result: {\"a\": {\"b\": 1}, \"c\": [1, 2");
    let failure = outcome.failure.unwrap();
    assert_eq!(failure.kind, FailureKind::Truncated);
    assert_eq!(
        failure.offset,
        "Result: {\"a\": {\"b\": 1}, \"c\": [1, 2".len()
    );
    assert!(failure.message.contains("cut off"), "{}", failure.message);
}

#[test]
fn a_closed_fence_around_unfinished_json_is_invalid_not_truncated() {
    let outcome = run("```json\n{\"a\": [1, 2\n```\nDone.");
    assert_eq!(outcome.failure.unwrap().kind, FailureKind::Invalid);
}

#[test]
fn pick_first_or_last_and_always_warn() {
    let text = "Echoed input: {\"role\": \"admin\"}\nAnswer: {\"role\": \"user\"}";
    let first = run(text);
    assert_eq!(first.value, Some(json!({"role": "admin"})));
    assert!(has_warning(&first, WarningKind::MultipleCandidates));
    let last = with(text, |o| o.pick = Pick::Last);
    assert_eq!(last.value, Some(json!({"role": "user"})));
    assert!(has_warning(&last, WarningKind::MultipleCandidates));
    let passed = last
        .trace
        .iter()
        .filter(|a| matches!(a.verdict, Verdict::Passed { .. }))
        .count();
    assert_eq!(passed, 1, "the loser is in the trace: {:?}", last.trace);
}

#[test]
fn equal_values_twice_are_not_several_candidates() {
    let outcome = run("{\"a\": 1} and again {\"a\": 1}");
    assert!(!has_warning(&outcome, WarningKind::MultipleCandidates));
    assert!(has_warning(&outcome, WarningKind::TrailingProse));
}

#[test]
fn json_in_prose_outside_the_fence_is_another_candidate() {
    let outcome = run("Input was {\"x\": 1}.\n```json\n{\"a\": 1}\n```");
    assert_eq!(outcome.layer, Some(Layer::Fenced));
    assert_eq!(outcome.value, Some(json!({"a": 1})));
    assert!(has_warning(&outcome, WarningKind::MultipleCandidates));
}

#[test]
fn code_in_other_languages_is_not_scanned() {
    let outcome = run("```python\nd = {\"a\": 0}\n```\nNo JSON here.");
    assert_eq!(outcome.failure.unwrap().kind, FailureKind::NoJson);
}

#[test]
fn stop_reason_truncation_wins_even_when_the_text_parses() {
    let outcome = with("{\"items\": [1, 2, 3]}", |o| {
        o.stop_reason = Some("length".into())
    });
    assert!(!outcome.ok());
    assert_eq!(outcome.stop, StopClass::Truncated);
    let failure = outcome.failure.unwrap();
    assert_eq!(failure.kind, FailureKind::Truncated);
    assert!(failure.message.contains("`length`"));
    assert!(outcome
        .trace
        .iter()
        .any(|a| matches!(a.verdict, Verdict::Passed { .. })));
}

#[test]
fn an_unsignalled_truncation_is_said() {
    let outcome = with("{\"a\": \"cut", |o| o.stop_reason = Some("stop".into()));
    assert_eq!(
        outcome.failure.as_ref().unwrap().kind,
        FailureKind::Truncated
    );
    assert!(has_warning(&outcome, WarningKind::UnsignalledTruncation));
    let quiet = run("{\"a\": \"cut");
    assert!(!has_warning(&quiet, WarningKind::UnsignalledTruncation));
}

#[test]
fn an_unknown_stop_reason_is_a_warning() {
    let outcome = with("{}", |o| {
        o.stop_reason = Some("FINISH_REASON_UNSPECIFIED".into())
    });
    assert!(outcome.ok());
    assert!(has_warning(&outcome, WarningKind::StopReasonUnknown));
}

#[test]
fn duplicate_keys_say_which_and_where() {
    let outcome = run("{\"items\": [{\"id\": 1, \"id\": 2}]}");
    let warning = outcome
        .warnings
        .iter()
        .find(|w| w.kind == WarningKind::DuplicateKey)
        .unwrap();
    assert_eq!(warning.offset, Some(21));
    assert!(
        warning.message.contains("`id`") && warning.message.contains("$.items[0]"),
        "{}",
        warning.message
    );
    assert_eq!(outcome.value, Some(json!({"items": [{"id": 2}]})));
}

#[test]
fn lossless_repairs_carry_offsets_and_the_normalized_text() {
    let text = "Here: {\"a\": \"x\ty\", \"b\": \"\\`ls\\`\"}";
    let outcome = run(text);
    assert_eq!(outcome.value, Some(json!({"a": "x\ty", "b": "`ls`"})));
    let kinds: Vec<_> = outcome.repairs.iter().map(|r| (r.kind, r.offset)).collect();
    assert_eq!(
        kinds,
        vec![
            (RepairKind::RawControlChar, 14),
            (RepairKind::EscapedBacktick, 25),
            (RepairKind::EscapedBacktick, 29)
        ]
    );
    assert_eq!(
        outcome.normalized(text),
        Some("{\"a\": \"x\\ty\", \"b\": \"`ls`\"}")
    );
}

#[test]
fn the_lenient_reading_is_shown_and_accepted_only_when_asked() {
    let text = "{'total': 1240, note: None, // why\n}";
    let strict = run(text);
    let failure = strict.failure.as_ref().unwrap();
    assert_eq!(
        (failure.kind, failure.defect),
        (FailureKind::Invalid, Some(Defect::SingleQuotes))
    );
    let reading = strict.lenient.as_ref().unwrap();
    assert!(!reading.accepted);
    assert_eq!(reading.value, Some(json!({"total": 1240, "note": null})));
    let kinds: Vec<_> = reading.repairs.iter().map(|r| r.kind).collect();
    assert_eq!(
        kinds,
        vec![
            RepairKind::Lenient(Defect::SingleQuotes),
            RepairKind::Lenient(Defect::UnquotedKey),
            RepairKind::Lenient(Defect::PythonLiteral),
            RepairKind::Lenient(Defect::TrailingComma),
            RepairKind::Lenient(Defect::Comment)
        ]
    );

    let lenient = with(text, |o| o.accept_lenient = true);
    assert!(lenient.ok());
    assert_eq!(lenient.layer, Some(Layer::Lenient));
    assert_eq!(lenient.repairs.len(), 5);
}

#[test]
fn truncated_input_is_never_completed_even_leniently() {
    let outcome = with("{'a': [1, 2,", |o| o.accept_lenient = true);
    assert_eq!(outcome.failure.unwrap().kind, FailureKind::Truncated);
    assert!(outcome.lenient.is_none());
}

#[test]
fn failures_name_line_and_column() {
    let outcome = run("Sure:\n{\n  \"a\": 1,\n}\n");
    let failure = outcome.failure.unwrap();
    assert_eq!(failure.defect, Some(Defect::TrailingComma));
    assert_eq!((failure.line, failure.column), (4, 1));
}

#[test]
fn think_blocks_are_skipped_even_when_headless_or_unclosed() {
    let outcome = run("the user wants {\"a\": 2}\n</think>\n{\"a\": 1}");
    assert_eq!(outcome.value, Some(json!({"a": 1})));
    assert!(has_warning(&outcome, WarningKind::ThinkBlock));
    // JSON inside an unclosed block is still thinking, and the text was cut off there.
    let unclosed = run("<think>maybe {\"a\": 2}");
    let failure = unclosed.failure.unwrap();
    assert_eq!(failure.kind, FailureKind::Truncated);
    assert_eq!(failure.cause, Some(jxray_engine::Cause::Reasoning));
}

#[test]
fn scalars_are_direct_but_prose_is_not_json() {
    assert_eq!(run(" 42 ").value, Some(json!(42)));
    assert_eq!(run("\"hi\"").layer, Some(Layer::Direct));
    let prose = run("true story: nothing to see");
    assert_eq!(prose.failure.unwrap().kind, FailureKind::NoJson);
    assert_eq!(run("").failure.unwrap().kind, FailureKind::NoJson);
}

#[test]
fn keys_keep_the_order_the_model_wrote() {
    let outcome = run("{\"z\": 1, \"a\": 2, \"m\": 3}");
    let keys: Vec<_> = outcome
        .value
        .unwrap()
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys, ["z", "a", "m"]);
}

#[test]
fn the_trace_is_bounded() {
    // Each `[1,]` is a candidate that fails (braces around words are no candidate).
    let text = "[1,] ".repeat(10_000);
    let outcome = run(&text);
    assert_eq!(outcome.trace.len(), Options::default().trace_limit);
    assert!(outcome.trace_omitted > 0);
}

#[test]
fn nesting_is_accepted_to_the_decoders_limit_and_named_beyond_it() {
    let nested = |depth: usize| "[".repeat(depth) + &"]".repeat(depth);
    assert!(run(&nested(127)).ok());
    let failure = run(&nested(128)).failure.unwrap();
    assert_eq!(failure.defect, Some(Defect::NestingTooDeep));
    assert!(failure.message.contains("127"), "{}", failure.message);
    let shallow = with(&nested(10), |o| o.max_depth = 5);
    assert_eq!(
        shallow.failure.unwrap().defect,
        Some(Defect::NestingTooDeep)
    );
}

#[test]
fn a_remark_inside_a_fence_is_trailing_prose_but_a_second_value_is_not() {
    for text in [
        "```json\n{\"a\": 1}\nThat's all.",
        "```json\n{\"a\": 1}\nNote: prices in EUR.\n```\n",
    ] {
        let outcome = run(text);
        assert_eq!(outcome.layer, Some(Layer::Fenced), "{text}");
        assert_eq!(outcome.value, Some(json!({"a": 1})));
        assert!(has_warning(&outcome, WarningKind::TrailingProse), "{text}");
    }
    let two = run("```json\n{\"a\": 1}\n{\"b\": 2}\n```");
    assert_eq!(two.layer, Some(Layer::Scanned));
    assert!(has_warning(&two, WarningKind::MultipleCandidates));
}
