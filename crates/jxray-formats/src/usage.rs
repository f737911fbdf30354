//! Token counts from a model call's usage, whichever provider or SDK spelled them: what the
//! repair loops' budgets and their spans read, the same in every language.
//!
//! [`token_usage`] takes the usage object (`response.usage`, Gemini's `usageMetadata`) or
//! the whole response that carries it, and reads every spelling:
//!
//! | provider | input | output | total |
//! | --- | --- | --- | --- |
//! | OpenAI chat | `prompt_tokens` | `completion_tokens` | `total_tokens` |
//! | OpenAI Responses, Anthropic | `input_tokens` | `output_tokens` | `total_tokens` |
//! | Vercel AI SDK | `inputTokens` / `promptTokens` | `outputTokens` / `completionTokens` | `totalTokens` |
//! | Gemini (`usageMetadata`) | `promptTokenCount` | `candidatesTokenCount` | `totalTokenCount` |
//! | Gemini, Python SDK (`usage_metadata`) | `prompt_token_count` | `candidates_token_count` | `total_token_count` |
//! | Ollama (top level) | `prompt_eval_count` | `eval_count` | — |
//!
//! Billed tokens the main count leaves out are added to it: Anthropic's
//! `cache_creation_input_tokens` and `cache_read_input_tokens` (its `input_tokens` counts
//! only the uncached part) and Gemini's `thoughtsTokenCount` (not in `candidatesTokenCount`).
//! Counts that are a part of the main one (OpenAI's `cached_tokens`, Gemini's
//! `cachedContentTokenCount`) are not added again. An AI SDK count given as an object
//! (`{"total": N, …}`) is read by its `total`.
//!
//! A count is a whole number of 0 or more; anything else (a string, a negative or
//! fractional number, a missing field) is no count.

use serde::Serialize;
use serde_json::{Map, Value};

/// The tokens one call used, as its usage said them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct TokenUsage {
    /// Tokens read (the prompt), with cache reads and writes where the provider counts them
    /// apart; `None` when the usage does not say.
    pub input: Option<u64>,
    /// Tokens written (the reply), with reasoning tokens where the provider counts them
    /// apart; `None` when the usage does not say.
    pub output: Option<u64>,
    /// The total the usage gave, else the sum of `input` and `output` that are known;
    /// `None` when the usage gives no count at all.
    pub total: Option<u64>,
}

impl TokenUsage {
    /// The tokens a budget is charged for this call: the total, 0 when unknown.
    pub fn spent(&self) -> u64 {
        self.total.unwrap_or(0)
    }
}

/// Where a usage object sits inside a whole response, in the order they are looked for.
const HOLDERS: [&str; 3] = ["usage", "usageMetadata", "usage_metadata"];

const INPUT: [&str; 6] = [
    "input_tokens",
    "prompt_tokens",
    "inputTokens",
    "promptTokens",
    "promptTokenCount",
    "prompt_token_count",
];
/// Anthropic's cached input, which its `input_tokens` leaves out.
const INPUT_EXTRA: [&str; 2] = ["cache_creation_input_tokens", "cache_read_input_tokens"];
const OUTPUT: [&str; 6] = [
    "output_tokens",
    "completion_tokens",
    "outputTokens",
    "completionTokens",
    "candidatesTokenCount",
    "candidates_token_count",
];
/// Gemini's reasoning tokens, which its `candidatesTokenCount` leaves out.
const OUTPUT_EXTRA: [&str; 2] = ["thoughtsTokenCount", "thoughts_token_count"];
const TOTAL: [&str; 3] = ["total_tokens", "totalTokens", "totalTokenCount"];
const TOTAL_SNAKE_GEMINI: &str = "total_token_count";
/// Ollama puts its counts at the top of the response.
const OLLAMA_INPUT: &str = "prompt_eval_count";
const OLLAMA_OUTPUT: &str = "eval_count";

/// The tokens a call used, read from its usage object or from the whole response that
/// holds one (under `usage`, `usageMetadata` or `usage_metadata`, or Ollama's top-level
/// counts). Anything that is not an object, or holds no count, gives no counts.
pub fn token_usage(usage: &Value) -> TokenUsage {
    let Some(object) = usage.as_object() else {
        return TokenUsage::default();
    };
    let own = read(object);
    if own != TokenUsage::default() {
        return own;
    }
    HOLDERS
        .iter()
        .filter_map(|name| object.get(*name)?.as_object())
        .map(read)
        .find(|found| *found != TokenUsage::default())
        .unwrap_or_default()
}

/// The counts one object gives itself.
fn read(object: &Map<String, Value>) -> TokenUsage {
    let input = with_extra(
        first(object, &INPUT).or_else(|| count(object.get(OLLAMA_INPUT)?)),
        object,
        &INPUT_EXTRA,
    );
    let output = with_extra(
        first(object, &OUTPUT).or_else(|| count(object.get(OLLAMA_OUTPUT)?)),
        object,
        &OUTPUT_EXTRA,
    );
    let total = first(object, &TOTAL)
        .or_else(|| count(object.get(TOTAL_SNAKE_GEMINI)?))
        .or_else(|| match (input, output) {
            (None, None) => None,
            (input, output) => Some(input.unwrap_or(0).saturating_add(output.unwrap_or(0))),
        });
    TokenUsage {
        input,
        output,
        total,
    }
}

/// The first of `names` that holds a count.
fn first(object: &Map<String, Value>, names: &[&str]) -> Option<u64> {
    names.iter().find_map(|name| count(object.get(*name)?))
}

/// `main` with the `extra` counts added; the extras alone count when `main` is absent.
fn with_extra(main: Option<u64>, object: &Map<String, Value>, extra: &[&str]) -> Option<u64> {
    extra
        .iter()
        .filter_map(|name| count(object.get(*name)?))
        .fold(main, |sum, more| {
            Some(sum.unwrap_or(0).saturating_add(more))
        })
}

/// A whole number of 0 or more, or an AI SDK count object's `total`.
fn count(value: &Value) -> Option<u64> {
    match value {
        Value::Number(number) => number.as_u64().or_else(|| {
            let float = number.as_f64()?;
            (float >= 0.0 && float.fract() == 0.0 && float < u64::MAX as f64)
                .then_some(float as u64)
        }),
        Value::Object(object) => count(object.get("total")?),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn counts(usage: Value) -> (Option<u64>, Option<u64>, Option<u64>) {
        let found = token_usage(&usage);
        (found.input, found.output, found.total)
    }

    #[test]
    fn every_providers_spelling_is_read() {
        let cases = [
            json!({"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}),
            json!({"input_tokens": 10, "output_tokens": 5}),
            json!({"inputTokens": 10, "outputTokens": 5, "totalTokens": 15}),
            json!({"promptTokens": 10, "completionTokens": 5}),
            json!({"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}),
            json!({"prompt_token_count": 10, "candidates_token_count": 5, "total_token_count": 15}),
            json!({"prompt_eval_count": 10, "eval_count": 5}),
        ];
        for usage in cases {
            assert_eq!(
                counts(usage.clone()),
                (Some(10), Some(5), Some(15)),
                "{usage}"
            );
        }
    }

    #[test]
    fn a_whole_response_is_read_through_its_usage() {
        let openai = json!({"id": "c", "choices": [], "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}});
        assert_eq!(counts(openai), (Some(7), Some(3), Some(10)));
        let gemini = json!({"candidates": [], "usageMetadata": {"promptTokenCount": 600, "candidatesTokenCount": 400, "totalTokenCount": 1000}});
        assert_eq!(counts(gemini), (Some(600), Some(400), Some(1000)));
        let gemini_python =
            json!({"usage_metadata": {"prompt_token_count": 1, "candidates_token_count": 2}});
        assert_eq!(counts(gemini_python), (Some(1), Some(2), Some(3)));
        let ollama = json!({"model": "llama3", "message": {"content": "{}"}, "done_reason": "stop", "prompt_eval_count": 26, "eval_count": 290});
        assert_eq!(counts(ollama), (Some(26), Some(290), Some(316)));
    }

    #[test]
    fn billed_tokens_counted_apart_are_added() {
        let anthropic = json!({"input_tokens": 10, "cache_creation_input_tokens": 100, "cache_read_input_tokens": 1000, "output_tokens": 5});
        assert_eq!(counts(anthropic), (Some(1110), Some(5), Some(1115)));
        let thinking = json!({"promptTokenCount": 10, "candidatesTokenCount": 5, "thoughtsTokenCount": 50, "totalTokenCount": 65});
        assert_eq!(counts(thinking), (Some(10), Some(55), Some(65)));
        // OpenAI's cached tokens are a part of prompt_tokens: not added again.
        let openai = json!({"prompt_tokens": 10, "completion_tokens": 5, "prompt_tokens_details": {"cached_tokens": 8}});
        assert_eq!(counts(openai), (Some(10), Some(5), Some(15)));
    }

    #[test]
    fn an_ai_sdk_count_object_is_read_by_its_total() {
        let usage = json!({"inputTokens": {"total": 12, "noCache": 2, "cacheRead": 10}, "outputTokens": {"total": 3, "text": 3}});
        assert_eq!(counts(usage), (Some(12), Some(3), Some(15)));
    }

    #[test]
    fn what_is_not_a_count_is_none() {
        assert_eq!(counts(json!(null)), (None, None, None));
        assert_eq!(counts(json!("100")), (None, None, None));
        assert_eq!(counts(json!({})), (None, None, None));
        assert_eq!(
            counts(json!({"input_tokens": "9", "output_tokens": -1})),
            (None, None, None)
        );
        assert_eq!(
            counts(json!({"output_tokens": 2.5, "input_tokens": 4.0})),
            (Some(4), None, Some(4))
        );
        assert_eq!(token_usage(&json!({"usage": {}})).spent(), 0);
    }

    #[test]
    fn a_given_total_wins_and_one_side_alone_is_a_total() {
        assert_eq!(
            counts(json!({"total_tokens": 99, "prompt_tokens": 1})),
            (Some(1), None, Some(99))
        );
        assert_eq!(
            counts(json!({"completion_tokens": 8})),
            (None, Some(8), Some(8))
        );
        assert_eq!(token_usage(&json!({"eval_count": 8})).spent(), 8);
    }
}
