//! Tool calls written as text: a JSON body is the value with a `tool-call-text` warning; a
//! dialect without one is `no-json` with the cause `tool-call-text`, never `invalid`.

use jxray_engine::{extract, Cause, Dialect, FailureKind, Layer, Options, ValueForm, WarningKind};
use serde_json::{json, Value};

fn body_of(text: &str) -> (Value, Dialect, Option<String>) {
    let outcome = extract(text, &Options::default());
    assert!(outcome.ok(), "{text}: {:?}", outcome.failure);
    assert_ne!(outcome.layer, Some(Layer::Direct));
    let kinds = outcome.warning_kinds();
    assert!(
        kinds.contains(&WarningKind::ToolCallText),
        "{text}: {kinds:?}"
    );
    assert!(
        !kinds.contains(&WarningKind::TrailingProse),
        "{text}: {kinds:?}"
    );
    let call = outcome.tool_call.expect("the call is reported");
    (outcome.value.unwrap(), call.dialect, call.tool)
}

fn refused_as_call(text: &str) -> (Dialect, Option<String>, String) {
    let outcome = extract(text, &Options::default());
    let failure = outcome
        .failure
        .unwrap_or_else(|| panic!("{text}: accepted"));
    assert_eq!(
        failure.kind,
        FailureKind::NoJson,
        "{text}: {}",
        failure.message
    );
    assert_eq!(failure.cause, Some(Cause::ToolCallText), "{text}");
    assert_eq!(failure.defect, None);
    let call = outcome.tool_call.expect("the call is reported");
    (call.dialect, call.tool, failure.message)
}

#[test]
fn every_dialect_with_a_json_body_gives_its_body_and_names_the_tool() {
    let args = json!({"path": "src/main.rs", "lines": [1, 40]});
    let body = args.to_string();
    let cases = [
        (format!("<function=read_file>{body}</function>"), Dialect::Llama),
        (format!("<function=read_file={body}</function>"), Dialect::Llama),
        (format!("[TOOL_CALLS]read_file[ARGS]{body}"), Dialect::Mistral),
        (
            format!("<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{body}<|call|>"),
            Dialect::Harmony,
        ),
        (
            format!("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>read_file\n```json\n{body}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"),
            Dialect::Deepseek,
        ),
        (
            format!("<｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{body}<｜tool▁call▁end｜>"),
            Dialect::Deepseek,
        ),
        (
            format!("<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{body}<|tool_call_end|><|tool_calls_section_end|>"),
            Dialect::Kimi,
        ),
        (
            format!("<|tool_calls_section_begin|> <|tool_call_begin|> functions.read_file:0 <|tool_call_argument_begin|> {body} <|tool_call_end|> <|tool_calls_section_end|>"),
            Dialect::Kimi,
        ),
        (format!("read_file[ARGS]{body}"), Dialect::Mistral),
    ];
    for (text, dialect) in cases {
        assert_eq!(
            body_of(&text),
            (args.clone(), dialect, Some("read_file".to_owned())),
            "{text}"
        );
    }
    let hermes =
        format!("<tool_call>\n{{\"name\": \"read_file\", \"arguments\": {body}}}\n</tool_call>");
    let (value, dialect, tool) = body_of(&hermes);
    assert_eq!(
        (value["arguments"].clone(), dialect, tool.as_deref()),
        (args, Dialect::Hermes, Some("read_file"))
    );
    let listed = "[TOOL_CALLS][{\"name\": \"read_file\", \"arguments\": {\"path\": \"a\"}}]";
    assert_eq!(body_of(listed).1, Dialect::Mistral);
    assert_eq!(body_of(listed).2.as_deref(), Some("read_file"));
}

#[test]
fn every_dialect_without_a_json_body_is_no_json_with_its_cause() {
    let cases = [
        ("<tool_call>\n<function=run>\n<parameter=command>\nls -la\n</parameter>\n</function>\n</tool_call>", Dialect::XmlParameters),
        ("<minimax:tool_call>\n<invoke name=\"run\">\n<parameter name=\"command\">ls</parameter>\n</invoke>\n</minimax:tool_call>", Dialect::XmlParameters),
        ("<tool_call>run\n<arg_key>command</arg_key>\n<arg_value>ls</arg_value>\n</tool_call>", Dialect::ArgKeyValue),
        // GLM with a tag lost: the key's opening, or the whole key.
        ("<tool_call>run\ncommand</arg_key>\n<arg_value>ls</arg_value>\n</tool_call>", Dialect::ArgKeyValue),
        ("<tool_call>run\n<arg_value>ls</arg_value>\n</tool_call>", Dialect::ArgKeyValue),
        ("<|tool_call>call:run{command:<|\"|>ls -la<|\"|>,timeout:30}<tool_call|>", Dialect::Gemma),
        ("call:run{command:<|\"|>ls<|\"|>}", Dialect::Gemma),
        ("[TOOL_CALL]\n{tool => \"run\", args => {\n  --command \"ls -la\"\n}}\n[/TOOL_CALL]", Dialect::ArrowHash),
        ("{tool => \"run\", args => {--command \"ls -la\"}}", Dialect::ArrowHash),
        ("[run(command=\"ls -la\", timeout=30)]", Dialect::Pythonic),
        ("```tool_code\nprint(default_api.run(command=\"ls -la\"))\n```", Dialect::Pythonic),
        ("<|python_tag|>run.call(command=\"ls\")", Dialect::Pythonic),
    ];
    for (text, dialect) in cases {
        let (found, tool, message) = refused_as_call(text);
        assert_eq!((found, tool.as_deref()), (dialect, Some("run")), "{text}");
        assert!(
            message.contains("tool parser or chat template"),
            "{message}"
        );
        assert!(!message.contains("quote"), "{message}");
    }
}

#[test]
fn json_in_an_argument_of_a_call_without_a_body_is_not_the_answer() {
    for text in [
        "<tool_call>search\n<arg_key>filters</arg_key>\n<arg_value>{\"year\": 2026}</arg_value>\n</tool_call>",
        "<function=search>\n<parameter=tags>\n[\"a\", \"b\"]\n</parameter>\n</function>",
        "<|tool_call>call:search{filters:{year:2026}}<tool_call|>",
    ] {
        refused_as_call(text);
    }
}

#[test]
fn json_that_merely_has_name_and_arguments_is_not_a_call() {
    for text in [
        "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}",
        "Here is the call:\n```json\n{\"name\": \"get_weather\", \"arguments\": {}}\n```",
        "The call is {\"name\": \"f\", \"arguments\": {}} as asked.",
    ] {
        let outcome = extract(text, &Options::default());
        assert!(outcome.ok(), "{text}");
        assert!(outcome.tool_call.is_none(), "{text}");
        assert!(!outcome.warning_kinds().contains(&WarningKind::ToolCallText));
    }
}

#[test]
fn a_broken_body_is_still_judged_as_json() {
    let outcome = extract(
        "<tool_call>\n{'name': 'f', 'arguments': {}}\n</tool_call>",
        &Options::default(),
    );
    let failure = outcome.failure.unwrap();
    assert_eq!(failure.kind, FailureKind::Invalid);
    assert_eq!(failure.cause, None);
}

#[test]
fn a_body_closed_by_a_stray_token_still_names_the_call() {
    // The model ended its turn where the body's last `}` and `</tool_call>` belong.
    for text in [
        "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}\n<|im_end|>",
        "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}<|endoftext|>",
    ] {
        let outcome = extract(text, &Options::default());
        assert!(!outcome.ok(), "{text}");
        let call = outcome.tool_call.as_ref().expect("the call is reported");
        assert_eq!(call.dialect, Dialect::Hermes, "{text}");
        assert_eq!(call.tool.as_deref(), Some("get_weather"), "{text}");
        assert!(outcome.warning_kinds().contains(&WarningKind::ToolCallText));
        let message = &outcome.failure.as_ref().unwrap().message;
        assert!(message.contains("tool parser"), "{message}");
    }
    // Closed by a stray token after a whole body: the body is the value.
    let (value, dialect, tool) =
        body_of("<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n<|im_end|>");
    assert_eq!(
        (value, dialect, tool.as_deref()),
        (
            json!({"name": "f", "arguments": {}}),
            Dialect::Hermes,
            Some("f")
        )
    );
    // The name before the body.
    let (value, dialect, tool) =
        body_of("<tool_call>get_weather\n{\"city\": \"Paris\"}\n</tool_call>");
    assert_eq!(
        (value, dialect, tool.as_deref()),
        (
            json!({"city": "Paris"}),
            Dialect::Hermes,
            Some("get_weather")
        )
    );
}

#[test]
fn a_length_stop_inside_a_call_stays_a_cut() {
    let options = Options::default().with_stop_reason(Some("length"));
    let outcome = extract("<function=run>\n<parameter=command>\nls", &options);
    assert_eq!(outcome.failure.unwrap().kind, FailureKind::Truncated);
}

#[test]
fn dense_markup_and_stray_markers_end_quickly() {
    let dense =
        "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}}</tool_call>\n".repeat(20_000);
    let outcome = extract(&dense, &Options::default());
    assert!(outcome.ok());
    let stray = "<function=f><parameter=a>{tool => \"x\", [f(a=".repeat(20_000);
    let outcome = extract(&stray, &Options::default());
    assert!(!outcome.ok());
}

#[test]
fn the_value_as_text_names_the_same_tool() {
    for text in [
        "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {}}\n</tool_call>",
        "[TOOL_CALLS][{\"name\": \"read_file\", \"arguments\": {}}]",
    ] {
        let tree = extract(text, &Options::default());
        let compact = extract(text, &Options::default().with_value_form(ValueForm::Text));
        assert_eq!(tree.warnings, compact.warnings, "{text}");
        assert_eq!(tree.tool_call, compact.tool_call, "{text}");
        assert_eq!(
            compact.tool_call.unwrap().tool.as_deref(),
            Some("read_file")
        );
    }
}
