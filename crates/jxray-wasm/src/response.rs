//! A provider's response as an SDK returns it (OpenAI chat or Responses, Anthropic, Gemini,
//! Ollama, their batch lines, a Gemini stream as an array), read by the same envelope
//! readers as a `.json` capture file: each output (the text, each tool call) its own
//! outcome, named `response` or `response#call-N` as `jxray check` names them.

use std::sync::Arc;

use jxray_formats::envelope::{self, Contents};
use jxray_formats::record::Origin;
use serde_json::Value;

use crate::repair;
use crate::reply::{explained_with_text, Judged};
use crate::request::Request;
use jxray_formats::judge::Validator;

/// The name of a response's outputs, before a tool call's `#call-N`.
const SOURCE: &str = "response";

/// The explained outcome of every output in the response `body` (JSON), as a JSON array
/// (the first one a repair decision, see [`repair::Decided`], when the request carries a
/// repair run); an error when the body is no provider response at all.
pub fn outcomes(
    body: &[u8],
    request: &Request,
    validator: Option<Arc<dyn Validator>>,
) -> Result<Vec<u8>, String> {
    let value: Value = serde_json::from_slice(body).map_err(|error| {
        format!("the response is not JSON ({error}), so it cannot be read as an OpenAI, Anthropic, Gemini or Ollama response")
    })?;
    let detected = envelope::detect(&value).or_else(|| envelope::detect_array_stream(&value));
    // A response that claims a provider's format but lacks its text is one `unreadable`
    // outcome saying what it lacks, as the same file would be.
    let (contents, unreadable) = match detected {
        None => return Err(not_a_response()),
        Some(Err(message)) => (Contents::default(), Some(message)),
        Some(Ok(contents)) => (contents, None),
    };
    let Contents {
        provider,
        outputs,
        stop_reason,
        model,
        warnings,
        refused,
        ..
    } = contents;
    let request = Request {
        stop_reason: stop_reason.clone(),
        unreadable,
        ..request.clone()
    };
    let mut reply = vec![b'['];
    for (index, (suffix, text)) in outputs.named().into_iter().enumerate() {
        if index > 0 {
            reply.push(b',');
        }
        let source = format!("{SOURCE}{}", suffix.unwrap_or_default());
        let judged = Judged {
            text: &text,
            request: &request,
            validator: validator.clone(),
            warnings: &warnings,
            refused,
        };
        let origin = Origin {
            source: &source,
            stop_reason: stop_reason.as_deref(),
            provider,
            model: model.as_deref(),
        };
        // A repair loop reads the first output only: it comes with the loop's decision,
        // judged once.
        if index == 0 && request.run.is_some() {
            reply.extend(repair::decide(&judged, origin, true)?);
        } else {
            reply.extend(explained_with_text(&judged, origin, true)?);
        }
    }
    reply.push(b']');
    Ok(reply)
}

fn not_a_response() -> String {
    "not an OpenAI, Anthropic, Gemini or Ollama response: pass the object the SDK returned \
     (or a Vercel AI SDK generateText result), or pass the text to extract()"
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcomes_of(body: &str) -> Result<Value, String> {
        let reply = outcomes(body.as_bytes(), &Request::default(), None)?;
        Ok(serde_json::from_slice(&reply).unwrap())
    }

    #[test]
    fn an_openai_chat_completion_with_tool_calls_gives_each_output() {
        let body = r#"{"id":"c","object":"chat.completion","model":"gpt-4o","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"```json\n{\"a\":1}\n```","tool_calls":[{"id":"t","type":"function","function":{"name":"f","arguments":"{\"x\": 1"}}]}}]}"#;
        let all = outcomes_of(body).unwrap();
        let all = all.as_array().unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0]["record"]["source"], "response");
        assert_eq!(all[0]["record"]["layer"], "fenced");
        assert_eq!(all[0]["record"]["provider"], "openai-chat");
        assert_eq!(all[0]["record"]["model"], "gpt-4o");
        assert_eq!(all[1]["record"]["source"], "response#call-1");
        assert_eq!(all[1]["record"]["failure"]["kind"], "invalid");
    }

    #[test]
    fn an_anthropic_message_cut_at_max_tokens_is_truncated() {
        let body = r#"{"id":"m","type":"message","role":"assistant","model":"claude","content":[{"type":"text","text":"{\"a\": 1}"}],"stop_reason":"max_tokens","usage":{"input_tokens":1,"output_tokens":1}}"#;
        let all = outcomes_of(body).unwrap();
        assert_eq!(all[0]["record"]["failure"]["kind"], "truncated");
        assert_eq!(all[0]["record"]["stop_reason"], "max_tokens");
    }

    #[test]
    fn other_json_is_no_response_and_says_what_to_pass() {
        let error = outcomes_of(r#"{"hello": 1}"#).unwrap_err();
        assert!(error.contains("extract()"), "{error}");
        let error = outcomes_of("{oops").unwrap_err();
        assert!(error.starts_with("the response is not JSON"), "{error}");
    }
}
