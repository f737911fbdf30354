//! An answer a server put in the reasoning field instead of the text.
//!
//! OpenAI-compatible servers (vLLM, SGLang, LM Studio, llama.cpp, DeepSeek, OpenRouter)
//! return a reasoning model's thoughts beside `content`, as `reasoning_content` or
//! `reasoning`. A reasoning parser that does not match the model's template moves the whole
//! answer there and leaves `content` null or empty; Ollama does the same with `thinking`.
//! The fix is a server setting, not a prompt, so the reasoning is read as the text only when
//! the message has no answer of its own, and the warning `answer-in-thinking` names the field.

use serde_json::Value;

use super::{str_field, ToolCall};
use jxray_engine::{Warning, WarningKind};

/// Where OpenAI-compatible messages and stream deltas keep reasoning, the first non-empty
/// one read: DeepSeek, older vLLM and LM Studio say `reasoning_content`; OpenRouter and
/// newer vLLM say `reasoning`.
pub const REASONING_FIELDS: [&str; 2] = ["reasoning_content", "reasoning"];

/// Reasoning a response held beside its answer: shown to a person (labelled with its
/// field), never judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reasoning {
    /// The field it came in (`reasoning_content`, `reasoning`).
    pub field: String,
    pub text: String,
}

/// The reasoning a message or delta holds, and the field it was in.
pub fn reasoning_of(message: &Value) -> Option<(&'static str, &str)> {
    REASONING_FIELDS
        .into_iter()
        .find_map(|field| Some((field, str_field(message, field).filter(|t| !t.is_empty())?)))
}

/// Whether the answer is the reasoning: the message has no text (blank), no tool call, and
/// the reasoning has some. A reasoning beside a real answer is only reasoning.
pub fn answer_is_reasoning(text: &str, tools: &[ToolCall], reasoning: &str) -> bool {
    text.trim().is_empty() && tools.is_empty() && !reasoning.trim().is_empty()
}

/// Why the text came from an OpenAI-compatible server's reasoning `field`, and the fix.
pub fn routed_to_reasoning(field: &str) -> Warning {
    Warning::new(
        WarningKind::AnswerInThinking,
        None,
        format!(
            "`content` is empty; the answer was taken from `{field}`: the server's reasoning \
             parser routed the answer into the reasoning — set the reasoning parser that \
             matches the model (vLLM and SGLang `--reasoning-parser`, llama.cpp \
             `--reasoning-format`, LM Studio's reasoning section setting) or turn reasoning off \
             for structured output; a re-worded prompt will not fix it"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_first_non_empty_reasoning_field_is_read() {
        let both = json!({"reasoning_content": "", "reasoning": "{\"a\": 1}"});
        assert_eq!(reasoning_of(&both), Some(("reasoning", "{\"a\": 1}")));
        assert_eq!(reasoning_of(&json!({"reasoning": null})), None);
        assert_eq!(reasoning_of(&json!({"content": "x"})), None);
    }

    #[test]
    fn reasoning_beside_an_answer_is_only_reasoning() {
        let call = ToolCall::new("{}");
        assert!(answer_is_reasoning(" \n", &[], "{\"a\": 1}"));
        assert!(!answer_is_reasoning("{\"b\": 2}", &[], "{\"a\": 1}"));
        assert!(!answer_is_reasoning("", &[call], "{\"a\": 1}"));
        assert!(!answer_is_reasoning("", &[], "  "));
    }
}
