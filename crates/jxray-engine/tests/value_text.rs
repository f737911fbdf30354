//! `ValueForm::Text` (what `check` asks for) decides exactly what `ValueForm::Tree` decides:
//! the same outcome in every field, and compact text that is what serializing the tree
//! writes. `ValueForm::Span` (what the npm package asks for) decides the same too, its text
//! parsing to the tree's value, and without the two warnings it does not look for when
//! the value came back as written. Over JSONTestSuite, the conformance cases, tricky texts
//! and generated values.

mod support;

use jxray_engine::{decode_exact, extract, Options, ValueForm, WarningKind};
use proptest::prelude::*;
use serde_json::{Map, Number, Value};

/// Extract `text` in both forms and check that they agree; whether text came back.
fn same_in_both_forms(text: &str, options: &Options) -> Result<bool, String> {
    let tree = extract(text, &options.clone().with_value_form(ValueForm::Tree));
    let mut as_text = extract(text, &options.clone().with_value_form(ValueForm::Text));
    let Some(json) = as_text.value_json.take() else {
        return if as_text == tree {
            Ok(false)
        } else {
            Err(format!("outcomes differ for {text:?}"))
        };
    };
    let serialized = tree.value.as_ref().map(|value| value.to_string());
    if serialized.as_deref() != Some(json.get()) {
        return Err(format!(
            "text {:?}, tree serialized {serialized:?}, for {text:?}",
            json.get()
        ));
    }
    as_text.value = Some(decode_exact(json.get()).map_err(|e| e.to_string())?);
    if as_text != tree {
        return Err(format!("outcomes differ for {text:?}"));
    }
    Ok(true)
}

/// Extract `text` as a tree and as `Span` asks: the same outcome; whether the value came
/// back as the model wrote it (`text[span]`).
fn same_in_span_form(text: &str, options: &Options) -> Result<bool, String> {
    let mut tree = extract(text, &options.clone().with_value_form(ValueForm::Tree));
    let mut span = extract(text, &options.clone().with_value_form(ValueForm::Span));
    let mut as_written = false;
    if let Some(json) = span.value_json.take() {
        as_written = span.span.is_some_and(|(s, e)| json.get() == &text[s..e]);
        if as_written {
            tree.warnings.retain(|warning| {
                !matches!(
                    warning.kind,
                    WarningKind::DuplicateKey | WarningKind::StringifiedJson
                )
            });
        }
        span.value = Some(decode_exact(json.get()).map_err(|e| format!("{e} for {text:?}"))?);
    }
    if span != tree {
        return Err(format!("outcomes differ for {text:?}"));
    }
    Ok(as_written)
}

/// `agree` over JSONTestSuite's texts and the conformance cases: how many it said true of
/// and how many texts there were; every disagreement fails the test, named by its file.
fn over_the_corpora(agree: fn(&str, &Options) -> Result<bool, String>) -> (usize, usize) {
    let mut texts = 0;
    let mut yes = 0;
    let mut wrong = Vec::new();
    for dir in ["suites/JSONTestSuite/test_parsing", "spec/cases"] {
        for path in support::files(&support::data(dir)) {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            texts += 1;
            match agree(&text, &Options::default()) {
                Ok(said) => yes += usize::from(said),
                Err(why) => wrong.push(format!("{}: {why}", path.display())),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    (yes, texts)
}

#[test]
fn the_span_form_decides_what_the_tree_decides() {
    let (as_written, texts) = over_the_corpora(same_in_span_form);
    assert!(
        as_written > 100,
        "only {as_written} of {texts} values came back as written"
    );
}

#[test]
fn json_test_suite_and_the_conformance_cases_agree_in_both_forms() {
    let (as_text, texts) = over_the_corpora(same_in_both_forms);
    assert!(as_text > 100, "only {as_text} of {texts} came back as text");
}

#[test]
fn tricky_texts_agree_in_both_forms() {
    let texts = [
        // Several candidates, equal as trees but not as text.
        "```json\n{\"a\": 1, \"b\": 2}\n```\nand again:\n```json\n{\"b\": 2, \"a\": 1}\n```",
        "First {\"a\": 1} then {\"a\": 2}.",
        "First {\"a\": 1.0} then {\"a\": 1}.",
        // A citation in prose, and a scalar array that is the answer.
        "As shown in [1], the answer is {\"x\": [1, 2]}.",
        "Here: [1, \"[2]\", {\"k\": 3}] done",
        // Lossless repairs: a raw newline in a string, an escaped backtick.
        "{\"s\": \"line\nbreak\", \"t\": \"\\`tick\\`\"}",
        // Repeated keys and stringified JSON need the tree.
        "{\"a\": 1, \"a\": 2}",
        "```json\n{\"args\": \"{\\\"q\\\": 1}\"}\n```",
        // Exact numbers and escapes.
        "{\"n\": [1E400, -0, 0.10, 18446744073709551616], \"s\": \"\\u00e9\\/\\ud83d\\ude00\"}",
        "{{\"template\": true}}",
        "Sure! {\"n\": 1} Anything else?",
        "{\"n\": 1, \"items\": [1, 2,",
        // Escapes the engine writes back itself: `\/`, a `\u` that stands for a quote, a
        // backslash, a control character or an opener, a pair, a lone surrogate.
        "{\"p\": \"a\\/b\\\\/c\", \"q\": \"\\u0022\\u005c\\u001f\\u0007\\u000a\\ud83d\\ude00\\u00e9\"}",
        "[\"\\u007b\\u007d\", \" \\u005b1]\"]",
        "{\"k\\u0041\": 1, \"kA\": 2}",
        "{\"s\": \"\\ud800\"}",
        // Values equal as trees but written apart, or of one compact length but different.
        "First {\"a\": \"x/y\"} then {\"a\": \"x\\/y\"}.",
        "First {\"a\": \"x/y\"} then {\"b\": \"x\\/y\"}.",
        "First {\"a\": [1, 2]} then {\"a\":[2,1]}.",
        "First {\"a\": 1, \"b\": [true]} then { \"b\" : [ true ] , \"a\" : 1 }.",
    ];
    // Deep enough for serde_json alone, and an object of more members than the engine's own
    // writer compares.
    let deep = format!("{}1{}", "[".repeat(127), "]".repeat(127));
    let wide: Vec<String> = (0..40).map(|i| format!("\"k{i}\": {i}")).collect();
    let wide = format!("{{{}}}", wide.join(", "));
    let texts = texts.iter().copied().chain([deep.as_str(), wide.as_str()]);
    for text in texts {
        for options in [
            Options::default(),
            Options::default()
                .with_decode_stringified(true)
                .with_accept_lenient(true),
        ] {
            same_in_both_forms(text, &options).unwrap();
        }
        same_in_span_form(text, &Options::default()).unwrap();
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        // Numbers of any size and spelling, kept exactly.
        "-?(0|[1-9][0-9]{0,25})(\\.[0-9]{1,5})?([eE][+-]?[0-9]{1,3})?"
            .prop_filter_map("a JSON number", |digits| digits.parse::<Number>().ok())
            .prop_map(Value::Number),
        any::<String>().prop_map(Value::String),
        // Strings that may hold JSON, and keys that repeat once escaped.
        prop_oneof![Just(" {\"q\": [1]} "), Just("[1, 2]"), Just("{not json}")]
            .prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-c]{1,2}|\\PC{0,4}", inner, 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// A value written with odd spellings the tree normalises: escapes, exponents, repeats.
fn spelled(value: &Value, pretty: bool) -> String {
    let text = if pretty {
        serde_json::to_string_pretty(value).unwrap()
    } else {
        value.to_string()
    };
    text.replace("\"a\":", "\"\\u0061\":")
        .replace("e+", "E")
        .replace("\"b\":", "\"b\": 0, \"b\":")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn generated_values_agree_in_both_forms(
        value in json_value(),
        pretty in any::<bool>(),
        wrap in 0..4usize,
        decode_stringified in any::<bool>(),
    ) {
        let json = spelled(&value, pretty);
        let text = match wrap {
            0 => json,
            1 => format!("```json\n{json}\n```"),
            2 => format!("Here it is: {json} Anything else?"),
            _ => format!("{json}\n{json}"),
        };
        let options = Options::default().with_decode_stringified(decode_stringified);
        same_in_both_forms(&text, &options).map_err(TestCaseError::fail)?;
        same_in_span_form(&text, &Options::default()).map_err(TestCaseError::fail)?;
    }
}
