//! One recogniser per marker a model family opens its tool call with. Each reads the
//! call's header (a bounded stretch) and says where its JSON body starts or, for a
//! dialect without one, where the call's markup ends.

use super::lex::{
    at, find_within, name_at, name_end, name_len_before, quoted_at, region_end, skip_space,
    special_token,
};
use super::Call;
use crate::outcome::Dialect;

/// The JSON body at `k`, if a value opens there.
fn body_at(bytes: &[u8], k: usize) -> Option<usize> {
    matches!(bytes.get(k), Some(b'{' | b'[')).then_some(k)
}

/// A call whose markup opens with `<` at `i`.
pub(super) fn at_angle(bytes: &[u8], i: usize) -> Option<Call> {
    if at(bytes, i, b"<tool_call>") {
        return tool_call_tag(bytes, i);
    }
    if at(bytes, i, b"<tool_calls>") {
        // MiniMax's first models: a JSON call per line inside `<tool_calls>`.
        return body_after(bytes, i, b"<tool_calls>".len(), Dialect::Hermes, None);
    }
    if at(bytes, i, b"<function=") {
        return function_tag(bytes, i);
    }
    if at(bytes, i, b"<invoke name=") {
        return invoke_tag(bytes, i);
    }
    if at(bytes, i, b"<|tool_call>") {
        return gemma_tag(bytes, i, b"<|tool_call>", b"<tool_call|>");
    }
    if at(bytes, i, b"<start_function_call>") {
        return gemma_tag(bytes, i, b"<start_function_call>", b"<end_function_call>");
    }
    match special_token(bytes, i)? {
        (name, end) if name == "tool_call_begin" => call_begin(bytes, i, end),
        // Granite and Phi: `<|tool_call|>[{"name": …, "arguments": …}]`.
        (name, end) if name == "tool_call" => body_after(bytes, i, end - i, Dialect::Hermes, None),
        (name, end) if name == "python_tag" => python_tag(bytes, i, end),
        _ => None,
    }
}

/// A call whose JSON body follows its opening markup (`open_len` bytes at `i`).
fn body_after(
    bytes: &[u8],
    i: usize,
    open_len: usize,
    dialect: Dialect,
    tool: Option<String>,
) -> Option<Call> {
    let body = body_at(bytes, skip_space(bytes, i + open_len))?;
    Some(Call::with_body(dialect, tool, i, body))
}

/// Llama 3's `<|python_tag|>`: a JSON call, or a built-in tool's Python call
/// (`brave_search.call(query="…")`).
fn python_tag(bytes: &[u8], i: usize, open_end: usize) -> Option<Call> {
    let k = skip_space(bytes, open_end);
    if body_at(bytes, k).is_some() {
        return body_after(bytes, i, open_end - i, Dialect::Llama, None);
    }
    let (name, after) = name_at(bytes, k)?;
    let tool = name.strip_suffix(".call").unwrap_or(&name).to_owned();
    at(bytes, after, b"(").then(|| {
        let end = region_end(bytes, after, b"\n");
        Call::without_body(Dialect::Pythonic, Some(tool), i, end)
    })
}

/// How far after a GLM call's name its first argument tag may be: a key written without
/// its opening tag (`city</arg_key>`) comes before it.
const GLM_TAG_WINDOW: usize = 128;

/// `<tool_call>{…}` (Hermes, Qwen), `<tool_call>NAME {…}` (the same with the name put
/// first), or `<tool_call>NAME<arg_key>…` (GLM, also with one of its tags missing).
fn tool_call_tag(bytes: &[u8], i: usize) -> Option<Call> {
    let k = skip_space(bytes, i + b"<tool_call>".len());
    if let Some(body) = body_at(bytes, k) {
        return Some(Call::with_body(Dialect::Hermes, None, i, body));
    }
    let (tool, after) = name_at(bytes, k)?;
    let next = skip_space(bytes, after);
    if let Some(body) = body_at(bytes, next) {
        return Some(Call::with_body(Dialect::Hermes, Some(tool), i, body));
    }
    let glm = at(bytes, next, b"<arg_key>")
        || at(bytes, next, b"</tool_call>")
        || has_glm_tag(bytes, next);
    glm.then(|| {
        let end = region_end(bytes, next, b"</tool_call>");
        Call::without_body(Dialect::ArgKeyValue, Some(tool), i, end)
    })
}

/// Whether a GLM argument tag (`</arg_key>`, `<arg_value>`) follows within a short stretch,
/// before any bracket: the call lost a tag but keeps its dialect.
fn has_glm_tag(bytes: &[u8], from: usize) -> bool {
    let stop = bytes.len().min(from + GLM_TAG_WINDOW);
    let near = &bytes[from..stop];
    let before_bracket = near
        .iter()
        .position(|b| matches!(b, b'{' | b'['))
        .map_or(near, |k| &near[..k]);
    [&b"</arg_key>"[..], b"<arg_value>"]
        .iter()
        .any(|tag| memchr::memmem::find(before_bracket, tag).is_some())
}

/// `<function=NAME>{…}` or `<function=NAME={…}` (Llama), `<function=NAME><parameter=…>`
/// (Qwen3-Coder's XML).
fn function_tag(bytes: &[u8], i: usize) -> Option<Call> {
    let (tool, after) = name_at(bytes, i + b"<function=".len())?;
    if !matches!(bytes[after], b'>' | b'=') {
        return None;
    }
    let k = skip_space(bytes, after + 1);
    if let Some(body) = body_at(bytes, k) {
        return Some(Call::with_body(Dialect::Llama, Some(tool), i, body));
    }
    let xml =
        bytes[after] == b'>' && (at(bytes, k, b"<parameter=") || at(bytes, k, b"</function>"));
    xml.then(|| {
        let end = region_end(bytes, k, b"</function>");
        Call::without_body(Dialect::XmlParameters, Some(tool), i, end)
    })
}

/// `<invoke name="NAME"><parameter name="K">V</parameter></invoke>` (MiniMax).
fn invoke_tag(bytes: &[u8], i: usize) -> Option<Call> {
    let (tool, after) = quoted_at(bytes, i + b"<invoke name=".len())?;
    if !at(bytes, after, b">") {
        return None;
    }
    let k = skip_space(bytes, after + 1);
    let xml = at(bytes, k, b"<parameter name=") || at(bytes, k, b"</invoke>");
    xml.then(|| {
        let end = region_end(bytes, k, b"</invoke>");
        Call::without_body(Dialect::XmlParameters, Some(tool), i, end)
    })
}

/// `<|tool_call>call:NAME{k:<|"|>v<|"|>}<tool_call|>` (Gemma 4), FunctionGemma's
/// `<start_function_call>call:NAME{…}<end_function_call>`.
fn gemma_tag(bytes: &[u8], i: usize, open: &[u8], close: &[u8]) -> Option<Call> {
    let k = skip_space(bytes, i + open.len());
    if !at(bytes, k, b"call:") {
        return None;
    }
    let (tool, after) = name_at(bytes, k + b"call:".len())?;
    (bytes[after] == b'{').then(|| {
        let end = region_end(bytes, after, close);
        Call::without_body(Dialect::Gemma, Some(tool), i, end)
    })
}

/// After a call-begin token: Kimi's `functions.NAME:0<|tool_call_argument_begin|>{…}`, or
/// DeepSeek's `NAME<｜tool▁sep｜>{…}` and `function<｜tool▁sep｜>NAME` + a ```json fence.
fn call_begin(bytes: &[u8], i: usize, open_end: usize) -> Option<Call> {
    let (first, mut k) = name_at(bytes, skip_space(bytes, open_end))?;
    if at(bytes, k, b":") {
        // Kimi numbers its calls: `functions.get_weather:0`.
        k += 1 + bytes[k + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
    }
    let (separator, after) = special_token(bytes, skip_space(bytes, k))?;
    let (dialect, tool, k) = match separator.as_str() {
        "tool_call_argument_begin" | "tool_call_arguments_begin" => {
            let tool = first
                .strip_prefix("functions.")
                .unwrap_or(&first)
                .to_owned();
            (Dialect::Kimi, tool, after)
        }
        "tool_sep" if first == "function" => {
            let (tool, end) = name_at(bytes, skip_space(bytes, after))?;
            (Dialect::Deepseek, tool, end)
        }
        "tool_sep" => (Dialect::Deepseek, first, after),
        _ => return None,
    };
    let k = skip_fence_opener(bytes, skip_space(bytes, k));
    body_at(bytes, k).map(|body| Call::with_body(dialect, Some(tool), i, body))
}

/// Past a fence's opening line (```json), when one is at `k`.
fn skip_fence_opener(bytes: &[u8], k: usize) -> usize {
    if !at(bytes, k, b"```") {
        return k;
    }
    match find_within(bytes, k, b"\n", 16) {
        Some(newline) => skip_space(bytes, newline),
        None => k,
    }
}

/// `[TOOL_REQUEST]{"name": …, "arguments": …}[END_TOOL_REQUEST]` (LM Studio), with the
/// name before the JSON in some prompts (`[TOOL_REQUEST]\nNAME {…}`), at `i`.
pub(super) fn tool_request(bytes: &[u8], i: usize) -> Option<Call> {
    let k = skip_space(bytes, i + b"[TOOL_REQUEST]".len());
    if body_at(bytes, k).is_some() {
        return body_after(bytes, i, k - i, Dialect::ToolRequest, None);
    }
    let (tool, after) = name_at(bytes, k)?;
    body_after(bytes, i, after - i, Dialect::ToolRequest, Some(tool))
}

/// A call whose markup opens with `[TOOL_CALL` at `i`.
pub(super) fn at_bracket(bytes: &[u8], i: usize) -> Option<Call> {
    if at(bytes, i, b"[TOOL_CALLS]") {
        return mistral(bytes, i + b"[TOOL_CALLS]".len(), i);
    }
    if !at(bytes, i, b"[TOOL_CALL]") {
        return None;
    }
    let k = skip_space(bytes, i + b"[TOOL_CALL]".len());
    let tool = arrow_hash_at(bytes, k)?;
    let end = region_end(bytes, k, b"[/TOOL_CALL]");
    Some(Call::without_body(Dialect::ArrowHash, Some(tool), i, end))
}

/// `[TOOL_CALLS][{…}]`, `[TOOL_CALLS]NAME[ARGS]{…}`, `[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}`.
fn mistral(bytes: &[u8], k: usize, i: usize) -> Option<Call> {
    let k = skip_space(bytes, k);
    if let Some(body) = body_at(bytes, k) {
        return Some(Call::with_body(Dialect::Mistral, None, i, body));
    }
    let (tool, mut k) = name_at(bytes, k)?;
    if at(bytes, k, b"[CALL_ID]") {
        k += b"[CALL_ID]".len();
        k += bytes[k..]
            .iter()
            .take(64)
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
    }
    if !at(bytes, k, b"[ARGS]") {
        return None;
    }
    let body = body_at(bytes, skip_space(bytes, k + b"[ARGS]".len()))?;
    Some(Call::with_body(Dialect::Mistral, Some(tool), i, body))
}

/// `NAME[ARGS]{…}`: Mistral's call with its `[TOOL_CALLS]` token dropped, the `[ARGS]` at `i`.
pub(super) fn bare_args(bytes: &[u8], i: usize) -> Option<Call> {
    let name_len = name_len_before(bytes, i)?;
    let start = i - name_len;
    let tool = String::from_utf8_lossy(&bytes[start..i]).into_owned();
    body_after(
        bytes,
        start,
        name_len + b"[ARGS]".len(),
        Dialect::Mistral,
        Some(tool),
    )
}

/// A fence tagged `tool_code` (Gemma's Python call, `print(default_api.NAME(k=v))`), at `i`:
/// no JSON body; the call runs to the fence's close.
pub(super) fn tool_code_fence(bytes: &[u8], i: usize) -> Option<Call> {
    let open_end = i + b"```tool_code".len();
    if !matches!(bytes.get(open_end), Some(b'\n' | b'\r')) {
        return None;
    }
    let mut k = skip_space(bytes, open_end);
    if at(bytes, k, b"print(") {
        k += b"print(".len();
    }
    let (name, _) = name_at(bytes, k)?;
    let tool = name.rsplit('.').next().unwrap_or(&name).to_owned();
    let end = region_end(bytes, open_end, b"```");
    Some(Call::without_body(Dialect::Pythonic, Some(tool), i, end))
}

/// `to=functions.NAME` in a harmony header (gpt-oss), at `i`: the body follows the header's
/// channel, constraint and message tokens (or their words, when the tokens were dropped).
pub(super) fn harmony(bytes: &[u8], i: usize) -> Option<Call> {
    let (name, mut k) = name_at(bytes, i + b"to=".len())?;
    let tool = name.strip_prefix("functions.")?.to_owned();
    let stop = bytes.len().min(k + 96);
    while k < stop {
        k = skip_space(bytes, k);
        if let Some(body) = body_at(bytes, k) {
            return Some(Call::with_body(Dialect::Harmony, Some(tool), i, body));
        }
        k = match special_token(bytes, k) {
            Some((_, end)) => end,
            None if name_end(bytes, k) > k => name_end(bytes, k),
            None => return None,
        };
    }
    None
}

/// `{tool => "NAME", …`: a hash written with fat arrows; the name it calls.
pub(super) fn arrow_hash_at(bytes: &[u8], k: usize) -> Option<String> {
    if bytes.get(k) != Some(&b'{') {
        return None;
    }
    let (_, after) = name_at(bytes, skip_space(bytes, k + 1))?;
    let k = skip_space(bytes, after);
    if !at(bytes, k, b"=>") {
        return None;
    }
    quoted_at(bytes, skip_space(bytes, k + 2)).map(|(tool, _)| tool)
}

/// `[NAME(k=…` or `[NAME()`: a Python call in a list; the name it calls.
pub(super) fn pythonic_at(bytes: &[u8], k: usize) -> Option<String> {
    if bytes.get(k) != Some(&b'[') {
        return None;
    }
    let (tool, after) = name_at(bytes, skip_space(bytes, k + 1))?;
    if !at(bytes, after, b"(") {
        return None;
    }
    let k = skip_space(bytes, after + 1);
    if at(bytes, k, b")") {
        return Some(tool);
    }
    let (_, after) = name_at(bytes, k)?;
    let k = skip_space(bytes, after);
    (at(bytes, k, b"=") && !at(bytes, k, b"==")).then_some(tool)
}

/// `call:NAME{` with the wrapper tokens dropped (Gemma): the name before the `{` at `k`.
pub(super) fn bare_gemma_at(bytes: &[u8], k: usize) -> Option<String> {
    let name_len = name_len_before(bytes, k)?;
    let name_start = k - name_len;
    let head = &bytes[..name_start];
    let called = head.ends_with(b"call:")
        && !head[..head.len() - 5]
            .last()
            .is_some_and(u8::is_ascii_alphanumeric);
    (called && bytes.get(k) == Some(&b'{'))
        .then(|| String::from_utf8_lossy(&bytes[name_start..k]).into_owned())
}
