//! Reading a provider's stop reason.

use super::outcome::StopClass;

/// Classify a stop reason as any provider spells it.
///
/// Spellings come from OpenAI (`stop`, `length`, `content_filter`,
/// `tool_calls`), the Responses API (`max_output_tokens`), Anthropic
/// (`end_turn`, `max_tokens`, `stop_sequence`, `tool_use`, `refusal`),
/// Gemini (`STOP`, `MAX_TOKENS`, `SAFETY`, …) and Ollama (`stop`, `length`).
pub fn classify_stop_reason(reason: &str) -> StopClass {
    let normalized = reason.trim().to_ascii_lowercase().replace('-', "_");
    match normalized.as_str() {
        "" => StopClass::Absent,
        "stop" | "end_turn" | "stop_sequence" | "eos" | "finished" | "complete" | "completed"
        | "pause_turn" | "end" => StopClass::Complete,
        "length"
        | "max_tokens"
        | "max_output_tokens"
        | "max_completion_tokens"
        | "incomplete"
        | "token_limit"
        | "model_length"
        | "max_length"
        | "context_length" => StopClass::Truncated,
        "content_filter" | "safety" | "recitation" | "blocklist" | "prohibited_content"
        | "spii" | "image_safety" | "refusal" | "language" => StopClass::Filtered,
        "tool_calls" | "tool_use" | "function_call" | "malformed_function_call" => {
            StopClass::ToolCall
        }
        _ => StopClass::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_length_limit_spelling_is_truncation() {
        for reason in [
            "length",
            "max_tokens",
            "MAX_TOKENS",
            "max_output_tokens",
            "incomplete",
        ] {
            assert_eq!(
                classify_stop_reason(reason),
                StopClass::Truncated,
                "{reason}"
            );
        }
    }

    #[test]
    fn natural_ends_filters_and_tools() {
        assert_eq!(classify_stop_reason("end_turn"), StopClass::Complete);
        assert_eq!(classify_stop_reason("STOP"), StopClass::Complete);
        assert_eq!(classify_stop_reason("SAFETY"), StopClass::Filtered);
        assert_eq!(classify_stop_reason("tool_use"), StopClass::ToolCall);
        assert_eq!(
            classify_stop_reason("FINISH_REASON_UNSPECIFIED"),
            StopClass::Unknown
        );
        assert_eq!(classify_stop_reason("  "), StopClass::Absent);
    }
}
