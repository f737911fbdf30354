use super::*;

fn one(text: &str) -> Call {
    let calls = find_calls(text);
    assert_eq!(calls.len(), 1, "{text}: {calls:?}");
    calls.into_iter().next().unwrap()
}

/// The dialect, the tool and the text from the body on (dialects with a JSON body).
fn with_body(text: &str) -> (Dialect, Option<String>, &str) {
    let call = one(text);
    let body = call.body.unwrap_or_else(|| panic!("{text}: no body"));
    (call.dialect, call.tool, &text[body..])
}

fn tool(name: &str) -> Option<String> {
    Some(name.to_owned())
}

#[test]
fn dialects_with_a_json_body_give_where_it_opens() {
    let cases = [
        ("<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>", Dialect::Hermes, None),
        ("<tool_call>lookup\n{\"q\": 1}\n</tool_call>", Dialect::Hermes, tool("lookup")),
        ("<function=lookup>{\"q\": 1}</function>", Dialect::Llama, tool("lookup")),
        ("<function=lookup={\"q\": 1}</function>", Dialect::Llama, tool("lookup")),
        ("[TOOL_CALLS]lookup[ARGS]{\"q\": 1}", Dialect::Mistral, tool("lookup")),
        ("[TOOL_CALLS]lookup[CALL_ID]a1B2c3D4e[ARGS]{\"q\": 1}", Dialect::Mistral, tool("lookup")),
        ("[TOOL_CALLS] [{\"name\": \"lookup\", \"arguments\": {}}]", Dialect::Mistral, None),
        (
            "<|start|>assistant<|channel|>commentary to=functions.lookup <|constrain|>json<|message|>{\"q\": 1}<|call|>",
            Dialect::Harmony,
            tool("lookup"),
        ),
        (
            "<|start|>assistant to=functions.lookup<|channel|>commentary json<|message|>{\"q\": 1}<|call|>",
            Dialect::Harmony,
            tool("lookup"),
        ),
        ("assistantcommentary to=functions.lookup json{\"q\": 1}", Dialect::Harmony, tool("lookup")),
        (
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>lookup\n```json\n{\"q\": 1}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
            Dialect::Deepseek,
            tool("lookup"),
        ),
        (
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>lookup<｜tool▁sep｜>{\"q\": 1}<｜tool▁call▁end｜>",
            Dialect::Deepseek,
            tool("lookup"),
        ),
        (
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.lookup:0<|tool_call_argument_begin|>{\"q\": 1}<|tool_call_end|>",
            Dialect::Kimi,
            tool("lookup"),
        ),
        (
            "<|tool_calls_section_begin|> <|tool_call_begin|> functions.lookup:0 <|tool_call_argument_begin|> {\"q\": 1} <|tool_call_end|>",
            Dialect::Kimi,
            tool("lookup"),
        ),
        ("lookup[ARGS]{\"q\": 1}", Dialect::Mistral, tool("lookup")),
        (
            "[TOOL_REQUEST]\n{\"name\": \"lookup\", \"arguments\": {}}\n[END_TOOL_REQUEST]",
            Dialect::ToolRequest,
            None,
        ),
        ("[TOOL_REQUEST]\nlookup {\"q\": 1}\n[END_TOOL_REQUEST]", Dialect::ToolRequest, tool("lookup")),
        ("<tool_calls>\n{\"name\": \"lookup\", \"arguments\": {}}\n</tool_calls>", Dialect::Hermes, None),
        ("<|tool_call|>[{\"name\": \"lookup\", \"arguments\": {}}]", Dialect::Hermes, None),
        ("<|python_tag|>{\"name\": \"lookup\", \"parameters\": {}}", Dialect::Llama, None),
    ];
    for (text, dialect, name) in cases {
        let (found, found_tool, body) = with_body(text);
        assert_eq!((found, found_tool), (dialect, name), "{text}");
        assert!(
            body.starts_with("{\"") || body.starts_with("[{"),
            "{text}: {body}"
        );
        assert!(dialect.has_json_body());
    }
}

#[test]
fn dialects_without_a_json_body_cover_the_whole_call() {
    let cases = [
        (
            "<tool_call>\n<function=lookup>\n<parameter=q>\n[1, 2]\n</parameter>\n</function>\n</tool_call>",
            Dialect::XmlParameters,
            "</function>",
        ),
        (
            "<minimax:tool_call>\n<invoke name=\"lookup\">\n<parameter name=\"q\">{\"a\": 1}</parameter>\n</invoke>",
            Dialect::XmlParameters,
            "</invoke>",
        ),
        (
            "<tool_call>lookup\n<arg_key>q</arg_key>\n<arg_value>[1]</arg_value>\n</tool_call>",
            Dialect::ArgKeyValue,
            "</tool_call>",
        ),
        ("<tool_call>lookup</tool_call>", Dialect::ArgKeyValue, "</tool_call>"),
        // A tag lost: the key's opening, or the whole key.
        (
            "<tool_call>lookup\nq</arg_key>\n<arg_value>[1]</arg_value>\n</tool_call>",
            Dialect::ArgKeyValue,
            "</tool_call>",
        ),
        (
            "<tool_call>lookup\n<arg_value>[1]</arg_value>\n</tool_call>",
            Dialect::ArgKeyValue,
            "</tool_call>",
        ),
        (
            "<|tool_call>call:lookup{q:<|\"|>Oslo<|\"|>,n:2}<tool_call|>",
            Dialect::Gemma,
            "<tool_call|>",
        ),
        (
            "[TOOL_CALL]\n{tool => \"lookup\", args => {\n  --q \"Oslo\"\n}}\n[/TOOL_CALL]",
            Dialect::ArrowHash,
            "[/TOOL_CALL]",
        ),
        (
            "```tool_code\nprint(default_api.lookup(q=[\"Oslo\"]))\n```",
            Dialect::Pythonic,
            "```",
        ),
        ("<|python_tag|>lookup.call(q=\"Oslo\")\n", Dialect::Pythonic, "\n"),
        (
            "<start_function_call>call:lookup{q:<escape>Oslo<escape>}<end_function_call>",
            Dialect::Gemma,
            "<end_function_call>",
        ),
    ];
    for (text, dialect, closer) in cases {
        let call = one(text);
        assert_eq!(
            (call.dialect, call.tool.as_deref()),
            (dialect, Some("lookup")),
            "{text}"
        );
        assert!(!dialect.has_json_body());
        assert_eq!(call.body, None);
        assert!(
            text[..call.end].ends_with(closer),
            "{text}: ends at {}",
            call.end
        );
    }
    // Cut before its closer, the call runs to the end of the text.
    let open = "<function=lookup>\n<parameter=q>\n{\"a\"";
    assert_eq!(one(open).end, open.len());
}

#[test]
fn unwrapped_calls_are_known_at_their_candidate() {
    let cases = [
        (
            "{tool => \"lookup\", args => {--q \"Oslo\"}}",
            Dialect::ArrowHash,
        ),
        ("[lookup(q=\"Oslo\", n=2)]", Dialect::Pythonic),
        ("[lookup()]", Dialect::Pythonic),
        ("call:lookup{q:<|\"|>Oslo<|\"|>}", Dialect::Gemma),
    ];
    for (text, dialect) in cases {
        let start = text.find(['{', '[']).unwrap();
        let call = call_at_candidate(text, start).unwrap_or_else(|| panic!("{text}"));
        assert_eq!(
            (call.dialect, call.tool.as_deref()),
            (dialect, Some("lookup"))
        );
    }
    for text in [
        "{\"tool\": \"lookup\"}",
        "{name: \"x\"}",
        "[1, 2]",
        "[a == b]",
        "[see(below)]",
        "recall:lookup{q: 1}",
    ] {
        let start = text.find(['{', '[']).unwrap();
        assert_eq!(call_at_candidate(text, start), None, "{text}");
    }
}

#[test]
fn json_and_prose_that_merely_look_like_calls_are_not_calls() {
    for text in [
        "{\"name\": \"lookup\", \"arguments\": {\"q\": 1}}",
        "Use <tool_call> tags when you call a tool.",
        "The <function=...> form is Llama's.",
        "<tool_call>\nI will look it up.\n</tool_call>",
        "[TOOL_CALLS] are Mistral's.",
        "send it to=functions. later",
        "<b>bold</b> and <|endoftext|>",
        "a <｜tool▁call▁begin｜> token alone",
    ] {
        assert_eq!(find_calls(text), Vec::new(), "{text}");
    }
}

#[test]
fn closing_markup_is_passed_over() {
    let text = "{\"q\": 1}\n</tool_call>";
    assert_eq!(markup_end(text, 8), text.len());
    let text = "{}<|call|>";
    assert_eq!(markup_end(text, 2), text.len());
    let text = "{}<｜tool▁call▁end｜><｜tool▁calls▁end｜> done";
    assert_eq!(&text[markup_end(text, 2)..], " done");
    assert_eq!(markup_end("{} and more", 2), 2);
}

#[test]
fn many_calls_and_many_unclosed_markers_stay_linear() {
    let dense =
        "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": [1, 2]}}</tool_call>\n".repeat(5_000);
    assert_eq!(find_calls(&dense).len(), 5_000);
    // Every marker opens a call that never closes: the first one runs to the end.
    let unclosed = "<function=f>\n<parameter=a>\n".repeat(20_000);
    assert_eq!(find_calls(&unclosed).len(), 1);
    let markers = "<|tool_call_begin|>".repeat(20_000) + &"[TOOL_CALLS]x".repeat(20_000);
    assert_eq!(find_calls(&markers).len(), 0);
}

#[test]
fn a_body_names_its_tool() {
    let value = serde_json::json!({"name": "lookup", "arguments": {}});
    assert_eq!(tool_in_value(&value), tool("lookup"));
    assert_eq!(tool_in_value(&serde_json::json!([value])), tool("lookup"));
    assert_eq!(tool_in_value(&serde_json::json!({"q": 1})), None);
    let others = [
        serde_json::json!({"q": 1}),
        serde_json::json!([1]),
        serde_json::json!(["x"]),
        serde_json::json!([["x"]]),
        serde_json::json!({"name": 7}),
    ];
    for value in [value.clone(), serde_json::json!([value])]
        .into_iter()
        .chain(others)
    {
        assert_eq!(
            tool_in_json(&value.to_string()),
            tool_in_value(&value),
            "{value}"
        );
    }
}
