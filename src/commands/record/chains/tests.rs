use super::*;
use jxray_record::Chains;
use serde_json::json;

/// A link as its request file's `chain` member.
fn as_json(link: &ChainLink) -> Value {
    serde_json::to_value(link).unwrap()
}

/// One exchange as the proxy records it: the request is linked, then its answer is
/// written as `name`. Returns the request's link.
fn exchange(
    chains: &RecordChains,
    folder: &Path,
    request: &Value,
    name: &str,
    answer: &str,
) -> Option<Value> {
    let linked = chains.link(request);
    let day = folder.join("2026-12-02");
    std::fs::create_dir_all(&day).unwrap();
    let capture = day.join(name);
    let body = openai(answer);
    std::fs::write(&capture, &body).unwrap();
    chains.written(folder, &capture, body.as_bytes(), &linked);
    linked.chain.as_ref().map(as_json)
}

/// A request asking `prompt` as JSON, answered by `answer` in `name`.
fn first(chains: &RecordChains, folder: &Path, prompt: &str, name: &str, answer: &str) {
    exchange(chains, folder, &asks(&[("user", prompt)]), name, answer);
}

fn openai(text: &str) -> String {
    json!({"object": "chat.completion", "model": "m", "choices": [{"index": 0,
        "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]})
    .to_string()
}

/// A chat request asking for a JSON object.
fn asks(turns: &[(&str, &str)]) -> Value {
    let messages: Vec<Value> = turns
        .iter()
        .map(|(role, content)| json!({"role": role, "content": content}))
        .collect();
    json!({"model": "m", "messages": messages, "response_format": {"type": "json_object"}})
}

fn repair_request(broken: &str) -> String {
    let outcome = crate::engine::extract(broken, &Options::default());
    jxray_formats::repair::repair_prompt(&jxray_formats::repair::RepairRequest {
        outcome: &outcome,
        raw: broken,
        violations: &[],
        required: &[],
        max_output_chars: 8000,
    })
    .unwrap()
}

#[test]
fn a_repair_request_quoting_an_output_links_to_its_capture_and_the_chain_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let chains = RecordChains::default();
    let broken = "{\"city\": \"Paris\",}";
    let first = asks(&[("user", "City as JSON.")]);
    assert_eq!(
        exchange(&chains, dir.path(), &first, "a.json", broken),
        None
    );
    let again = format!("City as JSON.\n\n{}", repair_request(broken));
    let still = "{city: Paris}";
    let link = exchange(
        &chains,
        dir.path(),
        &asks(&[("user", &again)]),
        "b.json",
        still,
    );
    assert_eq!(
        link.unwrap(),
        json!({"id": "2026-12-02/a.json", "attempt": 2, "re_ask_of": "2026-12-02/a.json"})
    );
    // The loop's third attempt quotes the second answer after the same prompt.
    let third = format!("City as JSON.\n\n{}", repair_request(still));
    assert_eq!(
        chains
            .link(&asks(&[("user", &third)]))
            .chain
            .as_ref()
            .map(as_json)
            .unwrap(),
        json!({"id": "2026-12-02/a.json", "attempt": 3, "re_ask_of": "2026-12-02/b.json"})
    );
}

#[test]
fn a_failed_output_carried_back_as_the_models_turn_is_a_re_ask() {
    let dir = tempfile::tempdir().unwrap();
    let chains = RecordChains::default();
    let broken = "{city: Paris}";
    first(&chains, dir.path(), "x", "a.json", broken);
    let again = asks(&[("user", "x"), ("assistant", broken), ("user", "fix it")]);
    let link = exchange(&chains, dir.path(), &again, "b.json", "{city: Oslo}");
    assert_eq!(link.unwrap()["re_ask_of"], "2026-12-02/a.json");
    let third = asks(&[
        ("user", "x"),
        ("assistant", broken),
        ("user", "fix it"),
        ("assistant", "{city: Oslo}"),
        ("user", "again"),
    ]);
    assert_eq!(
        chains.link(&third).chain.as_ref().map(as_json).unwrap(),
        json!({"id": "2026-12-02/a.json", "attempt": 3, "re_ask_of": "2026-12-02/b.json"})
    );
}

#[test]
fn a_conversation_that_carries_a_good_output_is_no_re_ask() {
    let dir = tempfile::tempdir().unwrap();
    let chains = RecordChains::default();
    exchange(
        &chains,
        dir.path(),
        &asks(&[("user", "x")]),
        "a.json",
        "{\"ok\": true}",
    );
    let follow_up = asks(&[
        ("user", "x"),
        ("assistant", "{\"ok\": true}"),
        ("user", "and now?"),
    ]);
    assert_eq!(chains.link(&follow_up).chain, None);
    assert_eq!(
        chains
            .link(&json!({"messages": [{"role": "user", "content": "hi"}]}))
            .chain,
        None
    );
}

#[test]
fn a_prose_answer_to_a_chat_that_asked_for_no_json_is_no_re_ask() {
    let dir = tempfile::tempdir().unwrap();
    let chains = RecordChains::default();
    let chat = |turns: &[(&str, &str)]| -> Value {
        let messages: Vec<Value> = turns
            .iter()
            .map(|(role, content)| json!({"role": role, "content": content}))
            .collect();
        json!({"model": "m", "messages": messages})
    };
    let prose = "Paris is the capital of France.";
    exchange(
        &chains,
        dir.path(),
        &chat(&[("user", "Capital of France?")]),
        "a.json",
        prose,
    );
    let follow_up = chat(&[
        ("user", "Capital of France?"),
        ("assistant", prose),
        ("user", "And Spain?"),
    ]);
    assert_eq!(chains.link(&follow_up).chain, None);
    // The same prose quoted in a repair request is a re-ask all the same.
    let quoted = format!("Capital of France?\n\n{}", repair_request(prose));
    assert!(chains.link(&chat(&[("user", &quoted)])).chain.is_some());
}

#[test]
fn two_conversations_that_got_the_same_output_each_link_to_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let chains = RecordChains::default();
    let broken = "{\"a\": 1,}";
    first(&chains, dir.path(), "one", "a.json", broken);
    first(&chains, dir.path(), "two", "b.json", broken);
    let re_ask = |prompt: &str| asks(&[("user", prompt), ("assistant", broken), ("user", "fix")]);
    assert_eq!(
        chains
            .link(&re_ask("one"))
            .chain
            .as_ref()
            .map(as_json)
            .unwrap()["re_ask_of"],
        "2026-12-02/a.json"
    );
    assert_eq!(
        chains
            .link(&re_ask("two"))
            .chain
            .as_ref()
            .map(as_json)
            .unwrap()["re_ask_of"],
        "2026-12-02/b.json"
    );
}

#[test]
fn one_output_is_never_re_asked_by_two_requests_of_one_shape() {
    // Two clients with the same prompt got the same output: each re-ask takes its own
    // capture, and a third (no output left) is linked to none.
    let dir = tempfile::tempdir().unwrap();
    let chains = RecordChains::default();
    let broken = "{\"a\": 1,}";
    let prompt = asks(&[("user", "same")]);
    exchange(&chains, dir.path(), &prompt, "a.json", broken);
    exchange(&chains, dir.path(), &prompt, "b.json", broken);
    let quoted = format!("same\n\n{}", repair_request(broken));
    let first = chains
        .link(&asks(&[("user", &quoted)]))
        .chain
        .as_ref()
        .map(as_json)
        .unwrap();
    let second = chains
        .link(&asks(&[("user", &quoted), ("user", "please")]))
        .chain;
    assert_eq!(first["re_ask_of"], "2026-12-02/b.json");
    assert_eq!(
        second, None,
        "another request, and only its own conversation's outputs"
    );
    let retried = chains
        .link(&asks(&[("user", &quoted)]))
        .chain
        .as_ref()
        .map(as_json)
        .unwrap();
    assert_eq!(
        retried["re_ask_of"], "2026-12-02/a.json",
        "the untaken one first"
    );
}

#[test]
fn a_request_sent_again_links_where_it_linked_before() {
    let dir = tempfile::tempdir().unwrap();
    let chains = RecordChains::default();
    let broken = "{\"a\": 1,}";
    first(&chains, dir.path(), "p", "a.json", broken);
    let re_ask = asks(&[("user", "p"), ("assistant", broken), ("user", "fix")]);
    let first = chains.link(&re_ask).chain;
    assert!(first.is_some());
    assert_eq!(
        chains.link(&re_ask).chain,
        first,
        "a client's retry of the same request"
    );
    let other = asks(&[
        ("user", "p"),
        ("assistant", broken),
        ("user", "fix, please"),
    ]);
    assert_eq!(
        chains.link(&other).chain,
        None,
        "never a second re-ask of one output"
    );
}

#[test]
fn an_output_that_breaks_its_requests_schema_failed_and_its_re_ask_links() {
    let dir = tempfile::tempdir().unwrap();
    let chains = RecordChains::default();
    let schema = json!({"type": "object", "required": ["severity"]});
    let first = json!({"model": "m", "messages": [{"role": "user", "content": "triage"}],
        "response_format": {"type": "json_schema", "json_schema": {"name": "t", "schema": schema}}});
    let answer = "{\"urgency\": \"high\"}";
    exchange(&chains, dir.path(), &first, "a.json", answer);
    let again = json!({"model": "m", "messages": [{"role": "user", "content": "triage"},
        {"role": "assistant", "content": answer}, {"role": "user", "content": "missing severity"}],
        "response_format": {"type": "json_schema", "json_schema": {"name": "t", "schema": schema}}});
    let link = chains.link(&again).chain;
    assert_eq!(
        link.unwrap().re_ask_of.unwrap(),
        "2026-12-02/a.json",
        "valid JSON, but not the schema's"
    );
}

#[test]
fn a_tool_calls_arguments_carried_back_are_a_re_ask() {
    let dir = tempfile::tempdir().unwrap();
    let chains = RecordChains::default();
    let tools = json!([{"type": "function", "function": {"name": "triage",
        "parameters": {"type": "object", "required": ["severity"]}}}]);
    let first =
        json!({"model": "m", "messages": [{"role": "user", "content": "triage"}], "tools": tools});
    let arguments = "{\"severity\": \"high\",}";
    let linked = chains.link(&first);
    let day = dir.path().join("2026-12-02");
    std::fs::create_dir_all(&day).unwrap();
    let capture = day.join("a.json");
    let body = json!({"object": "chat.completion", "model": "m", "choices": [{"index": 0,
        "message": {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
        "function": {"name": "triage", "arguments": arguments}}]}, "finish_reason": "tool_calls"}]})
    .to_string();
    std::fs::write(&capture, &body).unwrap();
    chains.written(dir.path(), &capture, body.as_bytes(), &linked);
    // instructor's TOOLS mode: the call carried back, then the validation error.
    let again = json!({"model": "m", "tools": tools, "messages": [{"role": "user", "content": "triage"},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
            "function": {"name": "triage", "arguments": arguments}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "Validation error: fix the JSON"}]});
    let link = chains.link(&again).chain;
    assert_eq!(link.unwrap().re_ask_of.unwrap(), "2026-12-02/a.json");
}

/// A tool call recorded with its arguments as an object (a compatible server's way, not a
/// string of JSON), in `folder`.
fn object_arguments_call(chains: &RecordChains, folder: &Path, first: &Value) {
    let linked = chains.link(first);
    let day = folder.join("2026-12-02");
    std::fs::create_dir_all(&day).unwrap();
    let capture = day.join("a.json");
    let body = json!({"object": "chat.completion", "model": "m", "choices": [{"index": 0,
        "message": {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
        "function": {"name": "triage", "arguments": {"severity": "urgent"}}}]}, "finish_reason": "tool_calls"}]})
    .to_string();
    std::fs::write(&capture, &body).unwrap();
    chains.written(folder, &capture, body.as_bytes(), &linked);
}

#[test]
fn a_tool_call_carried_back_as_an_object_or_written_anew_is_a_re_ask() {
    let tools = json!([{"type": "function", "function": {"name": "triage",
        "parameters": {"type": "object", "properties": {"severity": {"enum": ["low", "high"]}}}}}]);
    let first =
        json!({"model": "m", "messages": [{"role": "user", "content": "triage"}], "tools": tools});
    let carried = |arguments: Value| {
        json!({"model": "m", "tools": tools, "messages": [{"role": "user", "content": "triage"},
            {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function",
                "function": {"name": "triage", "arguments": arguments}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "severity: not one of low, high"}]})
    };
    // The SDK carries back the object it got (with an empty text beside the call), or its
    // own serialisation of it, spaced its way; other arguments are no re-ask of it.
    let cases = [
        (json!({"severity": "urgent"}), true),
        (json!("{ \"severity\" : \"urgent\" }"), true),
        (json!("{\"severity\": \"high\"}"), false),
    ];
    for (arguments, re_ask) in cases {
        let dir = tempfile::tempdir().unwrap();
        let chains = RecordChains::default();
        object_arguments_call(&chains, dir.path(), &first);
        let link = chains.link(&carried(arguments.clone())).chain;
        assert_eq!(
            link.and_then(|link| link.re_ask_of),
            re_ask.then(|| "2026-12-02/a.json".to_string()),
            "{arguments}"
        );
    }
}

#[test]
fn memory_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let chains = RecordChains::default();
    for n in 0..REMEMBERED + 10 {
        exchange(
            &chains,
            dir.path(),
            &asks(&[("user", "x")]),
            &format!("{n}.json"),
            &format!("{{bad {n}"),
        );
    }
    assert_eq!(chains.outputs.lock().unwrap().len(), REMEMBERED);
}
