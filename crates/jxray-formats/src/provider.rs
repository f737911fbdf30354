//! Which provider format a capture came from.

/// Which provider format a capture came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Provider {
    OpenaiChat,
    OpenaiResponses,
    OpenaiBatch,
    Anthropic,
    AnthropicBatch,
    Gemini,
    GeminiBatch,
    Ollama,
    /// The `llm` CLI's `logs.db`.
    Llm,
    /// promptfoo eval results.
    Promptfoo,
    /// Inspect AI eval logs.
    Inspect,
    /// Any other JSON log, read through field paths (`--text-path`, `--preset`).
    Log,
}

impl Provider {
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::OpenaiChat => "openai-chat",
            Provider::OpenaiResponses => "openai-responses",
            Provider::OpenaiBatch => "openai-batch",
            Provider::Anthropic => "anthropic",
            Provider::AnthropicBatch => "anthropic-batch",
            Provider::Gemini => "gemini",
            Provider::GeminiBatch => "gemini-batch",
            Provider::Ollama => "ollama",
            Provider::Llm => "llm",
            Provider::Promptfoo => "promptfoo",
            Provider::Inspect => "inspect",
            Provider::Log => "log",
        }
    }
}
