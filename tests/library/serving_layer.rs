//! What the serving layer did, judged where the capture's place tells: a fenced answer to a
//! request that asked for JSON mode (the request file beside the capture), and a tool call
//! sent with empty arguments.

use crate::support;

use jxray::capture::{load, LoadOptions};
use jxray::engine::{FailureKind, Layer, Options, WarningKind};
use support::capture::{outcome_of, write};

const FENCED: &str = r#"{"id":"chatcmpl-1","object":"chat.completion","model":"mlx-community/Qwen3-8B-4bit","choices":[{"index":0,"message":{"role":"assistant","content":"```json\n{\"city\": \"Paris\"}\n```"},"finish_reason":"stop"}]}"#;

/// The request file `jxray record` writes beside a capture, with `body` as sent.
fn request(body: &str) -> String {
    format!(
        r#"{{"jxray_request": 1, "method": "POST", "path": "/v1/chat/completions", "model": "qwen3", "body": {body}}}"#
    )
}

/// The warnings of the one capture named `name` under a folder holding `files`.
fn warnings_of(files: &[(&str, &str)], name: &str) -> Vec<WarningKind> {
    let dir = tempfile::tempdir().unwrap();
    for (file, content) in files {
        write(dir.path(), file, content.as_bytes());
    }
    let captures = load(dir.path(), &LoadOptions::default()).unwrap();
    let capture = captures
        .iter()
        .find(|capture| capture.source.ends_with(name))
        .unwrap_or_else(|| panic!("{name}: {captures:#?}"));
    let outcome = outcome_of(capture, &Options::default());
    assert_eq!(outcome.layer, Some(Layer::Fenced), "{name}");
    outcome
        .warnings
        .iter()
        .map(|warning| warning.kind)
        .collect()
}

#[test]
fn a_fenced_answer_to_a_json_mode_request_names_the_server() {
    for format in [
        r#"{"type": "json_object"}"#,
        r#"{"type": "json_schema", "json_schema": {"name": "city", "schema": {"type": "object"}}}"#,
    ] {
        let body = format!(
            r#"{{"model": "qwen3", "stream": true, "messages": [], "response_format": {format}}}"#
        );
        let kinds = warnings_of(
            &[("a.json", FENCED), ("a.request.json", &request(&body))],
            "a.json",
        );
        assert!(
            kinds.contains(&WarningKind::JsonModeIgnored),
            "{format}: {kinds:?}"
        );
    }
}

#[test]
fn a_fenced_answer_without_json_mode_asked_is_only_fenced() {
    let plain =
        request(r#"{"model": "qwen3", "messages": [{"role": "user", "content": "JSON please"}]}"#);
    let text =
        request(r#"{"model": "qwen3", "messages": [], "response_format": {"type": "text"}}"#);
    for files in [
        vec![("a.json", FENCED), ("a.request.json", plain.as_str())],
        vec![("a.json", FENCED), ("a.request.json", text.as_str())],
        vec![("a.json", FENCED)],
    ] {
        let kinds = warnings_of(&files, "a.json");
        assert!(!kinds.contains(&WarningKind::JsonModeIgnored), "{kinds:?}");
    }
}

/// A chat completion whose one call to `list_files` came with arguments `""`.
const EMPTY_CALL: &str = r#"{"id":"chatcmpl-2","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"list_files","arguments":""}}]},"finish_reason":"tool_calls"}]}"#;

/// The outcome of `call.json` (`EMPTY_CALL`) with a request offering `list_files` with
/// `parameters`.
fn empty_call_with_parameters(parameters: &str) -> jxray::engine::Outcome {
    let tools = format!(
        r#"{{"model": "m", "messages": [], "tools": [{{"type": "function", "function": {{"name": "list_files", "parameters": {parameters}}}}}]}}"#
    );
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "call.json", EMPTY_CALL.as_bytes());
    write(dir.path(), "call.request.json", request(&tools).as_bytes());
    let captures = load(dir.path(), &LoadOptions::default()).unwrap();
    assert_eq!(captures.len(), 1, "{captures:#?}");
    outcome_of(&captures[0], &Options::default())
}

#[test]
fn empty_arguments_for_a_tool_that_takes_none_are_an_empty_object() {
    let outcome = empty_call_with_parameters(r#"{"type": "object", "properties": {}}"#);
    assert!(outcome.ok(), "{:?}", outcome.failure);
    assert_eq!(outcome.value, Some(serde_json::json!({})));
    let kinds: Vec<WarningKind> = outcome.warnings.iter().map(|w| w.kind).collect();
    assert_eq!(kinds, [WarningKind::EmptyArguments]);
    // A tool that takes parameters: the arguments are missing, not `{}`.
    let outcome = empty_call_with_parameters(
        r#"{"type": "object", "properties": {"path": {"type": "string"}}}"#,
    );
    let failure = outcome.failure.expect("the arguments are missing");
    assert_eq!(failure.kind, FailureKind::NoJson);
    assert!(
        failure.message.contains("arguments are empty"),
        "{}",
        failure.message
    );
}

#[test]
fn empty_tool_call_arguments_say_so() {
    let captures = support::capture::load_files(&[("call.json", EMPTY_CALL)]);
    assert_eq!(captures.len(), 1, "{captures:#?}");
    let outcome = outcome_of(&captures[0], &Options::default());
    let failure = outcome.failure.expect("no value in empty arguments");
    assert_eq!(failure.kind, FailureKind::NoJson);
    assert!(
        failure.message.contains("arguments are empty"),
        "{}",
        failure.message
    );
    // An empty message is an empty output, not a call without arguments.
    let empty = r#"{"id":"chatcmpl-3","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":""},"finish_reason":"stop"}]}"#;
    let captures = support::capture::load_files(&[("empty.json", empty)]);
    let failure = outcome_of(&captures[0], &Options::default())
        .failure
        .unwrap();
    assert!(
        !failure.message.contains("arguments"),
        "{}",
        failure.message
    );
}

#[test]
fn a_schema_returned_for_the_schema_asked_says_so_in_the_failure() {
    let document = serde_json::json!({
        "type": "object",
        "required": ["city"],
        "properties": {"city": {"type": "string"}}
    });
    let schema = jxray::schema::Schema::from_value(&document, "city.json").unwrap();
    let checker = jxray::check::Checker::new(Options::default(), Some(std::sync::Arc::new(schema)));
    let echoed = jxray::capture::Capture::from_text("a.txt", document.to_string());
    let failure = checker
        .outcome(&echoed)
        .failure
        .expect("the schema is no city");
    assert_eq!(failure.kind, FailureKind::Schema);
    assert!(
        failure.message.contains("schema's shape"),
        "{}",
        failure.message
    );
    // A value that merely breaks the schema is not called its shape.
    let wrong = jxray::capture::Capture::from_text("b.txt", r#"{"town": "Lyon"}"#);
    let failure = checker.outcome(&wrong).failure.unwrap();
    assert!(
        !failure.message.contains("schema's shape"),
        "{}",
        failure.message
    );
}

#[test]
fn a_white_space_loop_under_json_mode_names_the_server_never_a_bigger_limit() {
    let flood = "\\n".repeat(400);
    let body = format!(
        r#"{{"id":"chatcmpl-4","object":"chat.completion","model":"llama3.1","choices":[{{"index":0,"message":{{"role":"assistant","content":"{flood}"}},"finish_reason":"length"}}]}}"#
    );
    let json_mode = request(
        r#"{"model": "llama3.1", "messages": [], "response_format": {"type": "json_object"}}"#,
    );
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "loop.json", body.as_bytes());
    write(dir.path(), "loop.request.json", json_mode.as_bytes());
    let captures = load(dir.path(), &LoadOptions::default()).unwrap();
    let failure = outcome_of(&captures[0], &Options::default())
        .failure
        .unwrap();
    assert_eq!(failure.kind, FailureKind::Truncated);
    assert_eq!(failure.cause, Some(jxray::engine::Cause::Runaway));
    for said in [
        "asked for JSON mode (`json_object`)",
        "disable_any_whitespace",
    ] {
        assert!(failure.message.contains(said), "{}", failure.message);
    }
    assert!(
        !failure.message.contains("raise the token limit"),
        "{}",
        failure.message
    );
}
