//! Refusals are recognised by their shape (a short output with no JSON that opens with a
//! first-person declining statement), in any phrasing or language; answers, and outputs
//! with no JSON that decline nothing, get no cause.

use jxray_engine::{extract, Cause, FailureKind, Options};

fn lines(data: &str) -> impl Iterator<Item = &str> {
    data.lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
}

fn cause_of(text: &str) -> (FailureKind, Option<Cause>) {
    let failure = extract(text, &Options::default())
        .failure
        .unwrap_or_else(|| panic!("{text:?} was accepted"));
    (failure.kind, failure.cause)
}

#[test]
fn every_refusal_opening_is_a_refusal() {
    let refusals: Vec<&str> = lines(include_str!("data/refusals.txt")).collect();
    assert!(refusals.len() >= 40, "{} openings", refusals.len());
    for text in &refusals {
        assert_eq!(
            cause_of(text),
            (FailureKind::NoJson, Some(Cause::Refusal)),
            "{text}"
        );
        // With the rest of a typical refusal after it.
        let longer = format!("{text} If you have another question, I'm happy to help.");
        assert_eq!(cause_of(&longer).1, Some(Cause::Refusal), "{longer}");
    }
    let message = extract(refusals[0], &Options::default())
        .failure
        .unwrap()
        .message;
    assert!(message.contains("declined"), "{message}");
}

#[test]
fn outputs_that_decline_nothing_get_no_cause() {
    for text in lines(include_str!("data/not-refusals.txt")) {
        assert_eq!(cause_of(text), (FailureKind::NoJson, None), "{text}");
    }
}

#[test]
fn an_answer_is_never_a_refusal_whatever_its_words() {
    for text in [
        "I can't help adding a note: ```json\n{\"a\": 1}\n```",
        "I'm sorry for the delay. Here it is:\n```json\n{\"ok\": true}\n```",
        "Unfortunately I cannot find a date, so: {\"date\": null}",
        "I'm unable to confirm the total, but {\"total\": 12} is what the text says.",
    ] {
        let outcome = extract(text, &Options::default());
        assert!(outcome.ok(), "{text}: {:?}", outcome.failure);
    }
}

#[test]
fn a_long_output_is_not_a_refusal() {
    let essay = format!(
        "I can't help with that. {}",
        "Some more words. ".repeat(200)
    );
    assert_eq!(cause_of(&essay), (FailureKind::NoJson, None));
}
