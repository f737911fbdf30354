//! Brackets left open in an output that is known to be finished (`missing-closer`): the
//! fence after the value closed, or the stop reason says the model completed. Not a cut,
//! so not `truncated`; and a text with no such evidence is never completed.

use jxray_engine::{extract, Defect, FailureKind, Layer, Options, RepairKind, WarningKind};
use serde_json::json;

fn stop(reason: &str) -> Options {
    Options::default().with_stop_reason(Some(reason))
}

fn failure(text: &str, options: &Options) -> (FailureKind, Option<Defect>) {
    let outcome = extract(text, options);
    let failure = outcome
        .failure
        .unwrap_or_else(|| panic!("{text:?} was accepted as {:?}", outcome.value));
    (failure.kind, failure.defect)
}

#[test]
fn a_closed_fence_says_the_output_was_finished() {
    let text = "```json\n{\"a\": 1, \"b\": [2, 3\n```";
    let outcome = extract(text, &Options::default());
    let found = outcome.failure.as_ref().unwrap();
    assert_eq!(found.kind, FailureKind::Invalid);
    assert_eq!(found.defect, Some(Defect::MissingCloser));
    assert_eq!(
        found.offset,
        text.find("3\n").unwrap() + 1,
        "where the closers belong"
    );
    assert!(found.message.contains("fence closed"), "{}", found.message);
    let reading = outcome.lenient.as_ref().expect("a lenient reading");
    assert_eq!(reading.value, Some(json!({"a": 1, "b": [2, 3]})));
    assert_eq!(
        reading.repairs.iter().map(|r| r.kind).collect::<Vec<_>>(),
        [RepairKind::Lenient(Defect::MissingCloser)]
    );
    let accepted = extract(text, &Options::default().with_accept_lenient(true));
    assert_eq!(accepted.layer, Some(Layer::Lenient));
    assert_eq!(accepted.value, Some(json!({"a": 1, "b": [2, 3]})));
}

#[test]
fn a_completed_stop_reason_says_the_output_was_finished() {
    for reason in ["stop", "end_turn", "STOP"] {
        let text = "{\"name\": \"Ada\", \"tags\": [\"x\", \"y\"]";
        assert_eq!(
            failure(text, &stop(reason)),
            (FailureKind::Invalid, Some(Defect::MissingCloser)),
            "{reason}"
        );
        let outcome = extract(text, &stop(reason).with_accept_lenient(true));
        assert_eq!(
            outcome.value,
            Some(json!({"name": "Ada", "tags": ["x", "y"]}))
        );
        let message = extract(text, &stop(reason)).failure.unwrap().message;
        assert!(message.contains(&format!("`{reason}`")), "{message}");
    }
}

#[test]
fn without_evidence_of_a_finish_it_stays_truncated_and_is_never_completed() {
    let text = "{\"a\": 1, \"b\": [2, 3";
    for options in [Options::default(), stop("length"), stop("something-new")] {
        let outcome = extract(text, &options.clone().with_accept_lenient(true));
        assert_eq!(outcome.failure.unwrap().kind, FailureKind::Truncated);
        assert!(outcome.value.is_none());
    }
    // An unclosed fence is a cut too.
    let open_fence = "```json\n{\"a\": 1, \"b\": [2, 3\n";
    assert_eq!(
        failure(open_fence, &Options::default()).0,
        FailureKind::Truncated
    );
}

#[test]
fn more_than_closers_missing_is_a_cut_even_when_the_model_says_it_finished() {
    // Inside a string, after a comma, after a key: the text lost more than its closers.
    for text in [
        "{\"a\": \"unfinished",
        "{\"a\": [1, 2,",
        "{\"a\": 1, \"b\"",
        "{\"a\": 1, \"b\":",
    ] {
        let outcome = extract(text, &stop("stop").with_accept_lenient(true));
        assert_eq!(
            outcome.failure.as_ref().map(|f| f.kind),
            Some(FailureKind::Truncated),
            "{text}"
        );
        assert!(outcome.value.is_none(), "{text}");
        assert!(outcome
            .warnings
            .iter()
            .any(|w| w.kind == WarningKind::UnsignalledTruncation));
    }
    let text = "```json\n{\"a\": [1, 2,\n```";
    let outcome = extract(text, &Options::default().with_accept_lenient(true));
    assert_eq!(
        outcome.failure.map(|f| (f.kind, f.defect)),
        Some((FailureKind::Invalid, Some(Defect::Syntax)))
    );
}

#[test]
fn the_closers_fix_is_placed_inside_the_text() {
    let text = "{\"a\": [1, 2, 3";
    let options = Options::default()
        .with_stop_reason(Some("stop"))
        .with_accept_lenient(true);
    let outcome = extract(text, &options);
    assert_eq!(outcome.value, Some(json!({"a": [1, 2, 3]})));
    let offsets: Vec<usize> = outcome.repairs.iter().map(|r| r.offset).collect();
    assert_eq!(
        offsets,
        [text.len() - 1],
        "the last byte: the closers go after it"
    );
}
