//! Truthful verdicts on what models really produce (issue 8 and issue 13's
//! fragment rule): each rule on synthesized inputs in the shapes models write.

use jxray_engine::{extract, Cause, Defect, FailureKind, Layer, Options, RepairKind, WarningKind};

fn failure_of(text: &str) -> (FailureKind, Option<Defect>) {
    let outcome = extract(text, &Options::default());
    let failure = outcome
        .failure
        .unwrap_or_else(|| panic!("{text:?} was accepted as {:?}", outcome.value));
    (failure.kind, failure.defect)
}

fn invalid(text: &str, defect: Defect) {
    assert_eq!(
        failure_of(text),
        (FailureKind::Invalid, Some(defect)),
        "{text:?}"
    );
}

#[test]
fn never_a_fragment_cut_short_by_an_unescaped_quote() {
    invalid(
        "Answer: {\"msg\": \"press \"}\" to close\", \"ok\": true}",
        Defect::UnescapedQuote,
    );
    invalid(
        "{\"quote\": \"she said \"}\" twice\", \"n\": 2}",
        Defect::UnescapedQuote,
    );
    invalid(
        "Here:\n```json\n{\"msg\": \"press \"}\" to close\", \"ok\": true}\n```",
        Defect::UnescapedQuote,
    );
    let outcome = extract(
        "Answer: {\"msg\": \"press \"}\" to close\", \"ok\": true}",
        &Options::default(),
    );
    assert_eq!(outcome.failure.unwrap().offset, 23);
}

#[test]
fn never_a_value_from_inside_a_larger_one_that_failed() {
    for text in [
        "[{\"i\":1{\"i\":2}]",
        "[\n  {\"a\": 1}, // first\n  {\"b\": 2} // second\n]",
        "[{\"name\": \"a\", \"n\": 1}, {name: \"b\", \"n\": 2}, {\"name\": \"c\", \"n\": 3}]",
        "{\"a\": \"\n```{}```\n\", \"b\": \"x\",}",
        "Result: {\"a\": 1}, \"b\": 2}",
        // A key's first quote turned into a closer: `{}` is the broken document's start.
        "{}\":{\"A[\":null},\" \":{}}",
        "[1, 2]\" : 3}",
        // Braces in a key of a document broken after it: the key's text, not a value.
        "{\"\":{},\"{}{\",:null}",
        "[\"a\",\"[1]\" 2",
        "{\"k\":\"{}\" \"x\"",
        // An opener where the document wanted a comma: its next member, not an answer.
        "{\"\":{}{}",
        "{\"a\": {\"x\": 1}{\"y\": 2}",
        "{\"k\":{{}",
    ] {
        let outcome = extract(text, &Options::default());
        assert!(!outcome.ok(), "{text:?} gave {:?}", outcome.value);
    }
    // A value quoted in prose is still the answer.
    for text in ["Result:\"{\"a\": 1}\"", "Result: \"{\"a\": 1}\""] {
        let outcome = extract(text, &Options::default());
        assert_eq!(outcome.value, Some(serde_json::json!({"a": 1})), "{text:?}");
    }
}

#[test]
fn a_missing_quote_is_not_a_cut() {
    invalid("{\"list\": [{\"v\": \"alpha}]}", Defect::UnterminatedString);
    invalid(
        "[{\"note\": \"check the 'valve'}]}",
        Defect::UnterminatedString,
    );
    invalid("{\"a\": \"x','b':'y'}", Defect::UnterminatedString);
    // Text that simply stops stays truncated, and so does a length stop.
    assert_eq!(
        failure_of("{\"list\": [{\"v\": \"alph").0,
        FailureKind::Truncated
    );
    let options = Options::default().with_stop_reason(Some("length"));
    let outcome = extract("{\"list\": [{\"v\": \"alpha}]}", &options);
    assert_eq!(outcome.failure.unwrap().kind, FailureKind::Truncated);
    let outcome = extract("{\"list\": [{\"v\": \"alpha}]}", &Options::default());
    assert_eq!(
        outcome.failure.unwrap().offset,
        22,
        "where the quote belongs"
    );
}

#[test]
fn a_lost_start_is_missing_start() {
    invalid("name\": \"Ada\", \"age\": 36}", Defect::MissingStart);
    invalid("\"a\":1,\"b\":2}", Defect::MissingStart);
    invalid("answer\": \"42\"}", Defect::MissingStart);
    let outcome = extract("\"a\":1,\"b\":2}", &Options::default());
    assert!(outcome.failure.unwrap().message.contains("serving layer"));
    // Prose that ends in a brace is not a lost start.
    assert_eq!(failure_of("Use braces like this }").0, FailureKind::NoJson);
    // Nor is prose that a restored opening alone makes a value: no member of its own.
    for text in [
        "Sure, here is what I found about the order history of this customer      }",
        "That is all I have to say on the matter.\" }",
        "The title you want is Dune\"]",
    ] {
        assert_eq!(failure_of(text), (FailureKind::NoJson, None), "{text:?}");
    }
}

#[test]
fn template_braces_and_prose_in_braces() {
    for text in ["Output: {{\"k\": \"v\"}}", "{{\"k\": \"v\"}}"] {
        let outcome = extract(text, &Options::default());
        assert_eq!(outcome.layer, Some(Layer::Scanned), "{text:?}");
        assert_eq!(outcome.value, Some(serde_json::json!({"k": "v"})));
        let kinds = outcome.warning_kinds();
        assert!(kinds.contains(&WarningKind::TemplateBraces), "{kinds:?}");
        assert!(!kinds.contains(&WarningKind::TrailingProse), "{kinds:?}");
    }
    // A brace doubled where a value goes is a broken document's: what is inside it is a
    // part of that document, not a template's value.
    for text in [
        "{\"a\": 1, \"b\": {{\"c\": 2}}",
        "{\"a\": [1, {{\"c\": 2}}]}",
        "[{{\"c\": 2}}]",
    ] {
        let outcome = extract(text, &Options::default());
        assert_ne!(outcome.value, Some(serde_json::json!({"c": 2})), "{text:?}");
        assert!(!outcome.ok(), "{text:?}: {:?}", outcome.value);
    }
    for text in [
        "{Happy to help! Anything else?}",
        "Sure. [citation needed]",
        "{Hi there! Thanks for reaching out, how can I help you with your order today? :)}",
        "{Hey, thanks for logging in! How can I help you today? :D \u{2026}}",
    ] {
        assert_eq!(failure_of(text), (FailureKind::NoJson, None), "{text:?}");
    }
}

#[test]
fn objects_with_unquoted_keys_are_not_prose() {
    for text in [
        "{name: \"x\", age: 3}",
        "{ok: true}",
        "{city: Paris, note: fine}",
    ] {
        assert_eq!(
            failure_of(text),
            (FailureKind::Invalid, Some(Defect::UnquotedKey)),
            "{text:?}"
        );
    }
    let outcome = extract("Thanks! {\"a\": 1} :)", &Options::default());
    assert_eq!(outcome.value, Some(serde_json::json!({"a": 1})));
}

#[test]
fn named_defects() {
    invalid("{\"code\": 007}", Defect::LeadingZero);
    invalid("{\"n\": 0012}", Defect::LeadingZero);
    invalid("{\"x\": NaN}", Defect::NonFiniteNumber);
    invalid("{\"x\": -Infinity}", Defect::NonFiniteNumber);
    invalid("[Infinity]", Defect::NonFiniteNumber);
    invalid("{\"a\": \"it\\'s\"}", Defect::InvalidEscape);
    invalid("{\"a\": \"snake\\_case\"}", Defect::InvalidEscape);
    invalid("{\"a\": [1, 2}", Defect::MismatchedBracket);
    invalid("{\"a\": 1]", Defect::MismatchedBracket);
    invalid("{\"a\": \"\"x\"\"}", Defect::DoubledQuotes);
    invalid("{\"q\": \"she said \"hi\" twice\"}", Defect::UnescapedQuote);
    invalid("{\"a\": 1 \"b\": 2}", Defect::MissingComma);
}

#[test]
fn every_defect_in_text_order_and_a_cut_after_defects() {
    let outcome = extract("{\"n\": 16, \"ok\": True", &Options::default());
    let failure = outcome.failure.unwrap();
    assert_eq!(failure.kind, FailureKind::Truncated);
    assert_eq!(failure.defect, None);
    let kinds: Vec<Defect> = failure.defects.iter().map(|d| d.kind).collect();
    assert_eq!(kinds, vec![Defect::PythonLiteral]);
    assert_eq!(failure.defects[0].offset, 16);

    let outcome = extract("{'a': True, 'b': None,}", &Options::default());
    let failure = outcome.failure.unwrap();
    assert_eq!(failure.kind, FailureKind::Invalid);
    assert_eq!(failure.defect, Some(Defect::SingleQuotes));
    let kinds: Vec<Defect> = failure.defects.iter().map(|d| d.kind).collect();
    assert!(kinds.len() >= 4, "{kinds:?}");
    assert!(failure
        .defects
        .windows(2)
        .all(|w| w[0].offset <= w[1].offset));
    // A single-quoted string with an apostrophe is not "cut off".
    assert_eq!(failure_of("{'a': 'it's fine'}").0, FailureKind::Invalid);
}

#[test]
fn causes() {
    let outcome = extract(
        "I can't help with creating that content.",
        &Options::default(),
    );
    let failure = outcome.failure.unwrap();
    assert_eq!(
        (failure.kind, failure.cause),
        (FailureKind::NoJson, Some(Cause::Refusal))
    );
    for (reason, cause) in [
        ("SAFETY", Cause::Filtered),
        ("RECITATION", Cause::Filtered),
        ("PROHIBITED_CONTENT", Cause::Filtered),
        ("content_filter", Cause::Filtered),
        ("refusal", Cause::Refusal),
    ] {
        let options = Options::default().with_stop_reason(Some(reason));
        let failure = extract("", &options).failure.unwrap();
        assert_eq!(failure.cause, Some(cause), "{reason}");
        assert!(
            !failure.message.contains("empty"),
            "{reason}: {}",
            failure.message
        );
    }
    let looped = format!("{{\"items\": [\"a\", {}", "\n".repeat(2000));
    let failure = extract(&looped, &Options::default()).failure.unwrap();
    assert_eq!(
        (failure.kind, failure.cause),
        (FailureKind::Truncated, Some(Cause::Runaway))
    );
    let options = Options::default().with_stop_reason(Some("length"));
    let repeated = format!("{{\"a\": \"{}", "ha".repeat(500));
    let failure = extract(&repeated, &options).failure.unwrap();
    assert_eq!(failure.cause, Some(Cause::Runaway));
    let plain = extract("{\"a\": [1, 2, 3", &options).failure.unwrap();
    assert_eq!(plain.cause, None);
}

#[test]
fn stringified_json_is_named_and_decoded_on_request() {
    let text = "{\"name\": \"search\", \"arguments\": \"{\\\"q\\\": \\\"rust\\\"}\"}";
    let outcome = extract(text, &Options::default());
    assert!(outcome.ok());
    let warning = outcome
        .warnings
        .iter()
        .find(|w| w.kind == WarningKind::StringifiedJson)
        .expect("a stringified-json warning");
    assert!(
        warning.message.contains("$.arguments"),
        "{}",
        warning.message
    );
    let options = Options::default().with_decode_stringified(true);
    let outcome = extract(text, &options);
    assert_eq!(
        outcome.value,
        Some(serde_json::json!({"name": "search", "arguments": {"q": "rust"}}))
    );
    assert!(outcome
        .repairs
        .iter()
        .any(|r| r.kind == RepairKind::DecodedString));
    let top = extract("\"{\\\"k\\\": [1, 2]}\"", &Options::default());
    assert_eq!(top.layer, Some(Layer::Direct));
    assert!(top.warning_kinds().contains(&WarningKind::StringifiedJson));
}

#[test]
fn a_closer_with_nothing_to_close_is_one_too_many_not_a_missing_format() {
    for text in [
        "{\"a\": 1}}",
        "Sure: {\"a\": 1}}",
        "```json\n{\"a\": 1}}\n```",
        "[1, 2]]",
    ] {
        invalid(text, Defect::Syntax);
        let message = extract(text, &Options::default()).failure.unwrap().message;
        assert!(message.contains("closes nothing"), "{text:?}: {message}");
    }
    // With an opener before it, the value is a piece of a larger one that failed.
    let outcome = extract("{\"list\": [{\"a\": 1}], \"x\": }", &Options::default());
    assert!(!outcome.ok());
    assert!(!outcome.failure.unwrap().message.contains("closes nothing"));
}

#[test]
fn nothing_is_taken_from_inside_a_string_that_runs_to_the_end() {
    // A cut inside a key whose text holds braces: the braces in the first key are not a value.
    for text in [
        "{\"A{}\":null,\"b{\":null,\"c}",
        "{\"note\": \"use {} here\", \"x\": \"y}",
    ] {
        let outcome = extract(text, &Options::default());
        assert!(!outcome.ok(), "{text:?} gave {:?}", outcome.value);
    }
}

#[test]
fn nothing_is_taken_from_inside_a_string_of_a_document_that_failed() {
    // A quote lost further on: the braces in an earlier key or string are its text.
    for text in [
        "{\"a{}b\":{\"c\":null},\"d\":{},\"r\":{\"0{:1,\"[{s\":null}}",
        "[{\"a\": \"x}, {\"b\": 2}]",
        "{\"answer\": \"here it is: {\"a\": 1}\"}",
        "Result: {\"note\": \"[] and {} are empty\", \"n\": 1 \"m\": [}",
    ] {
        let outcome = extract(text, &Options::default());
        assert!(!outcome.ok(), "{text:?} gave {:?}", outcome.value);
    }
    // A document that got nowhere by its structure: the opener in its string still starts
    // the answer.
    let outcome = extract("{\"Note: the {\"a\": 1}", &Options::default());
    assert_eq!(outcome.value, Some(serde_json::json!({"a": 1})));
}
