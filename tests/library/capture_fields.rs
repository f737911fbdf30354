//! Other tools' JSON / JSONL logs read through field paths and presets.

use crate::support;

use std::sync::Arc;

use jxray::capture::fields::{FieldMap, PathFlags, Preset};
use jxray::capture::{load, Capture, LoadOptions, Provider};
use support::capture::{unreadable, write};

fn with_fields(fields: FieldMap) -> LoadOptions {
    LoadOptions {
        fields: Some(Arc::new(fields)),
        ..LoadOptions::default()
    }
}

fn flags(text: &str, stop: Option<&str>, id: Option<&str>, model: Option<&str>) -> LoadOptions {
    let flags = PathFlags {
        preset: None,
        text: Some(text.parse().unwrap()),
        stop: stop.map(|path| path.parse().unwrap()),
        id: id.map(|path| path.parse().unwrap()),
        model: model.map(|path| path.parse().unwrap()),
    };
    with_fields(flags.field_map().unwrap().unwrap())
}

fn load_with(files: &[(&str, &str)], options: &LoadOptions) -> Vec<Capture> {
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in files {
        write(dir.path(), name, content.as_bytes());
    }
    load(dir.path(), options).unwrap()
}

#[test]
fn jsonl_records_by_text_stop_id_and_model_paths() {
    let log = concat!(
        r#"{"request_id": "r-1", "model": "gpt-4o", "response": {"choices": [{"message": {"content": "{\"a\": 1}"}, "finish_reason": "stop"}]}}"#,
        "\n",
        r#"{"request_id": "r-2", "model": "gpt-4o", "response": {"choices": [{"message": {"content": "{\"a\": ["}, "finish_reason": "length"}]}}"#,
        "\n",
        r#"{"request_id": "r-3", "model": "gpt-4o", "response": {}}"#,
        "\n",
    );
    let options = flags(
        "response.choices[0].message.content",
        Some("response.choices[0].finish_reason"),
        Some("request_id"),
        Some("model"),
    );
    let captures = load_with(&[("spend.jsonl", log)], &options);
    let sources: Vec<&str> = captures.iter().map(|c| c.source.as_str()).collect();
    assert_eq!(
        sources,
        ["spend.jsonl#r-1", "spend.jsonl#r-2", "spend.jsonl#r-3"]
    );
    assert_eq!(captures[0].text.as_deref(), Ok(r#"{"a": 1}"#));
    assert_eq!(captures[1].stop_reason.as_deref(), Some("length"));
    assert_eq!(captures[1].model.as_deref(), Some("gpt-4o"));
    assert_eq!(captures[1].provider, Some(Provider::Log));
    let outcome = support::capture::outcome_of(&captures[1], &Default::default());
    assert_eq!(outcome.failure.unwrap().kind.as_str(), "truncated");
    let why = unreadable(&captures[2]);
    assert!(why.contains("response.choices[0].message.content"), "{why}");
}

#[test]
fn a_json_document_is_a_list_of_records_and_json_in_strings_is_decoded() {
    let document = r#"[
        {"id": 1, "output": "{\"role\": \"assistant\", \"content\": \"[1, 2]\"}"},
        {"id": 2, "output": "plain words, no JSON"}
    ]"#;
    let options = flags("output.content", None, Some("id"), None);
    let captures = load_with(&[("export.json", document)], &options);
    assert_eq!(captures[0].source, "export.json#1");
    assert_eq!(captures[0].text.as_deref(), Ok("[1, 2]"));
    assert!(unreadable(&captures[1]).contains("output.content"));
}

#[test]
fn records_without_an_id_are_numbered_or_keep_their_line() {
    let options = flags("text", None, Some("id"), None);
    let captures = load_with(
        &[
            ("a.json", r#"[{"text": "1"}, {"text": "2"}]"#),
            ("b.jsonl", "{\"text\": \"1\"}\n{\"text\": \"2\"}\n"),
        ],
        &options,
    );
    let sources: Vec<&str> = captures.iter().map(|c| c.source.as_str()).collect();
    assert_eq!(sources, ["a.json#1", "a.json#2", "b.jsonl:1", "b.jsonl:2"]);
}

#[test]
fn paths_that_find_nothing_leave_known_formats_to_their_readers() {
    let envelope = r#"{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"{}"},"finish_reason":"stop"}]}"#;
    let options = flags("output.text", None, None, None);
    let captures = load_with(&[("chat.json", envelope)], &options);
    assert_eq!(captures[0].provider, Some(Provider::OpenaiChat));
    assert_eq!(captures[0].text.as_deref(), Ok("{}"));
}

#[test]
fn stop_path_alone_is_a_usage_error() {
    let flags = PathFlags {
        stop: Some("finish".parse().unwrap()),
        ..PathFlags::default()
    };
    let error = flags.field_map().unwrap_err().to_string();
    assert!(
        error.starts_with("--stop-path needs --text-path or --preset"),
        "{error}"
    );
}

/// The sample records docs/captures.md shows for each preset, read with that preset.
#[test]
fn readme_preset_samples_read_as_documented() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/captures.md")).unwrap();
    let block = readme
        .split("```jsonc\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .expect("docs/captures.md has a jsonc block of preset samples");
    let mut samples: Vec<(String, String)> = Vec::new();
    for line in block.lines() {
        match line.strip_prefix("// ") {
            Some(comment) => {
                let name = comment.split_whitespace().next().unwrap().to_string();
                samples.push((name, String::new()));
            }
            None => samples.last_mut().unwrap().1.push_str(line.trim()),
        }
    }
    let expected = [
        (
            "litellm",
            "litellm.jsonl#chatcmpl-9f2",
            r#"{"city": "Paris"}"#,
            "stop",
            "gpt-4o-mini",
        ),
        (
            "langfuse",
            "langfuse.jsonl#obs-41",
            r#"{"city": "Oslo"}"#,
            "stop",
            "gpt-4o",
        ),
        (
            "helicone",
            "helicone.jsonl#5d1c",
            r#"{"city": "Li"#,
            "max_tokens",
            "claude-sonnet-4",
        ),
        ("otel", "otel.jsonl#a1b2", r#"{"city":"#, "length", "gpt-4o"),
    ];
    assert_eq!(samples.len(), expected.len(), "{samples:?}");
    for ((name, record), (preset, source, text, stop, model)) in samples.iter().zip(expected) {
        assert_eq!(name, preset);
        let options = with_fields(Preset::from_name(preset).unwrap().fields());
        let file = format!("{preset}.jsonl");
        let captures = load_with(&[(&file, record)], &options);
        assert_eq!(captures.len(), 1, "{captures:#?}");
        let capture = &captures[0];
        assert_eq!(capture.source, source);
        assert_eq!(capture.text.as_deref(), Ok(text), "{preset}");
        assert_eq!(capture.stop_reason.as_deref(), Some(stop), "{preset}");
        assert_eq!(capture.model.as_deref(), Some(model), "{preset}");
    }
}

#[test]
fn otel_preset_reads_the_spans_of_an_otlp_document_and_skips_other_spans() {
    let document = r#"{"resourceSpans": [{"scopeSpans": [{"spans": [
        {"spanId": "s1", "name": "http", "attributes": [{"key": "http.method", "value": {"stringValue": "GET"}}]},
        {"spanId": "s2", "attributes": [
            {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
            {"key": "gen_ai.completion.0.content", "value": {"stringValue": "{\"ok\": true}"}},
            {"key": "gen_ai.request.model", "value": {"stringValue": "llama3"}}]}
    ]}]}]}"#;
    let options = with_fields(Preset::Otel.fields());
    let captures = load_with(&[("trace.json", document)], &options);
    assert_eq!(captures.len(), 1, "{captures:#?}");
    assert_eq!(captures[0].source, "trace.json#s2");
    assert_eq!(captures[0].text.as_deref(), Ok(r#"{"ok": true}"#));
    assert_eq!(captures[0].model.as_deref(), Some("llama3"));
}

#[test]
fn langfuse_preset_skips_spans_and_events() {
    let log = concat!(
        r#"{"id": "o1", "type": "SPAN", "output": "x"}"#,
        "\n",
        r#"{"id": "o2", "type": "GENERATION", "output": {"role": "assistant", "content": "[1]"}}"#,
        "\n",
    );
    let options = with_fields(Preset::Langfuse.fields());
    let captures = load_with(&[("obs.jsonl", log)], &options);
    let sources: Vec<&str> = captures.iter().map(|c| c.source.as_str()).collect();
    assert_eq!(sources, ["obs.jsonl#o2"]);
    assert_eq!(captures[0].text.as_deref(), Ok("[1]"));
}
