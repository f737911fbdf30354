//! Tool calls written as text, for any JSON value: a call's JSON body is the value with a
//! `tool-call-text` warning; JSON inside an argument of a call without a JSON body is never
//! the value; markup in any order never panics.

mod support;

use jxray_engine::{extract, Cause, FailureKind, Options, WarningKind};
use proptest::prelude::*;
use support::values::container;

/// The markup around a JSON body, one per dialect that has one.
const WITH_BODY: &[(&str, &str)] = &[
    ("<tool_call>\n", "\n</tool_call>"),
    ("<function=lookup>", "</function>"),
    ("<function=lookup=", "</function>"),
    ("[TOOL_CALLS]lookup[ARGS]", ""),
    (
        "<|channel|>commentary to=functions.lookup <|constrain|>json<|message|>",
        "<|call|>",
    ),
    (
        "<｜tool▁call▁begin｜>lookup<｜tool▁sep｜>",
        "<｜tool▁call▁end｜>",
    ),
    (
        "<|tool_call_begin|>functions.lookup:0<|tool_call_argument_begin|>",
        "<|tool_call_end|>",
    ),
];

/// The markup around one argument of a call without a JSON body.
const ARGUMENT: &[(&str, &str)] = &[
    (
        "<function=lookup>\n<parameter=q>\n",
        "\n</parameter>\n</function>",
    ),
    (
        "<invoke name=\"lookup\">\n<parameter name=\"q\">",
        "</parameter>\n</invoke>",
    ),
    (
        "<tool_call>lookup\n<arg_key>q</arg_key>\n<arg_value>",
        "</arg_value>\n</tool_call>",
    ),
    ("<|tool_call>call:lookup{q:", "}<tool_call|>"),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn a_calls_json_body_is_the_value_with_a_warning(value in container(), dialect in 0..WITH_BODY.len()) {
        let (open, close) = WITH_BODY[dialect];
        let text = format!("{open}{}{close}", serde_json::to_string(&value).unwrap());
        let outcome = extract(&text, &Options::default());
        prop_assert!(outcome.ok(), "{text}: {:?}", outcome.failure);
        prop_assert_eq!(outcome.value.as_ref(), Some(&value));
        let kinds = outcome.warning_kinds();
        prop_assert!(kinds.contains(&WarningKind::ToolCallText), "{}: {:?}", text, kinds);
        prop_assert!(!kinds.contains(&WarningKind::TrailingProse), "{}: {:?}", text, kinds);
    }

    #[test]
    fn json_in_an_argument_is_never_the_value(value in container(), dialect in 0..ARGUMENT.len(), lenient in any::<bool>()) {
        let (open, close) = ARGUMENT[dialect];
        let text = format!("{open}{}{close}", serde_json::to_string(&value).unwrap());
        let outcome = extract(&text, &Options::default().with_accept_lenient(lenient));
        let failure = outcome.failure.expect("never a value");
        prop_assert_eq!(failure.kind, FailureKind::NoJson);
        prop_assert_eq!(failure.cause, Some(Cause::ToolCallText));
    }

    #[test]
    fn markup_in_any_order_never_panics(parts in prop::collection::vec(prop_oneof![
        Just("<tool_call>"), Just("</tool_call>"), Just("<function=f>"), Just("<function=f="),
        Just("<parameter=a>"), Just("</function>"), Just("[TOOL_CALLS]"), Just("[TOOL_CALL]"),
        Just("[ARGS]"), Just("[/TOOL_CALL]"), Just("to=functions.f "), Just("<|message|>"),
        Just("<|tool_call>call:f"), Just("<|\"|>"), Just("<tool_call|>"), Just("<｜tool▁sep｜>"),
        Just("<|tool_call_begin|>"), Just("<arg_key>"), Just("{tool => \"f\", "), Just("[f(a="),
        Just("{"), Just("}"), Just("["), Just("]"), Just("\""), Just(":"), Just(","), Just("1"),
        Just(" "), Just("\n"), Just("x"),
    ], 0..48), lenient in any::<bool>()) {
        let text: String = parts.concat();
        let outcome = extract(&text, &Options::default().with_accept_lenient(lenient));
        if let Some(call) = &outcome.tool_call {
            prop_assert!(call.offset <= text.len());
        }
    }
}
