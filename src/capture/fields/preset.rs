//! `--preset NAME`: the field paths of a logging tool's export, so nobody has to look
//! them up. Each field lists alternatives, the first that leads somewhere wins; explicit
//! `--text-path` and friends replace a preset's paths one by one.

use super::{Condition, FieldMap, FieldPath};

/// The logging tools whose exports have a preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// LiteLLM's StandardLoggingPayload (callbacks, bucket logging) and spend-log rows.
    Litellm,
    /// Langfuse observation exports (JSON, JSONL, blob storage).
    Langfuse,
    /// Helicone's `@helicone/export` rows, taken with `--include-body`.
    Helicone,
    /// OpenTelemetry GenAI spans: OTLP JSON (`resourceSpans`) or one span a line.
    Otel,
}

impl Preset {
    pub const ALL: [Preset; 4] = [
        Preset::Litellm,
        Preset::Langfuse,
        Preset::Helicone,
        Preset::Otel,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Preset::Litellm => "litellm",
            Preset::Langfuse => "langfuse",
            Preset::Helicone => "helicone",
            Preset::Otel => "otel",
        }
    }

    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|preset| preset.name() == name)
    }

    /// The preset's paths.
    pub fn fields(self) -> FieldMap {
        let (records, text, stop, id, model, has): Paths = match self {
            // `response` is an OpenAI-format ModelResponse: read as an envelope, it gives
            // the text, every tool call and the finish reason.
            Preset::Litellm => (
                &[],
                &["response", "response.choices[0].message.content"],
                &["response.choices[0].finish_reason"],
                &["id", "request_id"],
                &["model", "model_group"],
                &[],
            ),
            // `output` is a message (often stored as JSON text) or the bare text.
            Preset::Langfuse => (
                &[],
                &["output.content", "output"],
                &["metadata.finish_reason", "metadata.finishReason"],
                &["id"],
                &["providedModelName", "provided_model_name", "model"],
                &[],
            ),
            // `response_body` is the provider's own response body.
            Preset::Helicone => (
                &[],
                &["response_body"],
                &[],
                &["request_id", "id"],
                &["response_model", "request_model", "model"],
                &[],
            ),
            Preset::Otel => (
                &["resourceSpans[*].scopeSpans[*].spans[*]"],
                &[
                    r#"attributes["gen_ai.output.messages"][0].parts[0].content"#,
                    r#"attributes["gen_ai.completion.0.content"]"#,
                    r#"attributes["gen_ai.completion"]"#,
                ],
                &[
                    r#"attributes["gen_ai.response.finish_reasons"]"#,
                    r#"attributes["gen_ai.output.messages"][0].finish_reason"#,
                    r#"attributes["gen_ai.completion.0.finish_reason"]"#,
                ],
                &["spanId", "span_id", "context.span_id"],
                &[
                    r#"attributes["gen_ai.response.model"]"#,
                    r#"attributes["gen_ai.request.model"]"#,
                ],
                &[
                    r#"attributes["gen_ai.operation.name"]"#,
                    r#"attributes["gen_ai.provider.name"]"#,
                    r#"attributes["gen_ai.system"]"#,
                ],
            ),
        };
        let only = match self {
            // Spans and events are not model outputs; generations are.
            Preset::Langfuse => parse(&["type"])
                .pop()
                .map(|path| Condition::EqualsWhenPresent(path, "GENERATION")),
            _ if !has.is_empty() => Some(Condition::Has(parse(has))),
            _ => None,
        };
        FieldMap {
            origin: format!("--preset {}", self.name()),
            records: parse(records),
            text: parse(text),
            stop: parse(stop),
            id: parse(id),
            model: parse(model),
            only,
        }
    }
}

type Paths = (
    &'static [&'static str],
    &'static [&'static str],
    &'static [&'static str],
    &'static [&'static str],
    &'static [&'static str],
    &'static [&'static str],
);

fn parse(paths: &[&str]) -> Vec<FieldPath> {
    paths.iter().filter_map(|path| path.parse().ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_preset_path_parses_and_names_round_trip() {
        for preset in Preset::ALL {
            assert_eq!(Preset::from_name(preset.name()), Some(preset));
            let fields = preset.fields();
            assert!(!fields.text.is_empty(), "{preset:?}");
            assert!(!fields.id.is_empty(), "{preset:?}");
        }
        let otel = Preset::Otel.fields();
        assert_eq!(
            (otel.records.len(), otel.text.len(), otel.stop.len()),
            (1, 3, 3)
        );
        assert_eq!(
            (otel.model.len(), Preset::Litellm.fields().text.len()),
            (2, 2)
        );
    }

    #[test]
    fn langfuse_reads_generations_only() {
        let fields = Preset::Langfuse.fields();
        assert!(fields.is_output(&json!({"type": "GENERATION", "output": "x"})));
        assert!(fields.is_output(&json!({"output": "x"})));
        assert!(!fields.is_output(&json!({"type": "SPAN", "output": "x"})));
    }
}
