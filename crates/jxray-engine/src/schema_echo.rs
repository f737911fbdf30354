//! A JSON Schema where the answer belongs: echoed before the answer (passed over), or
//! returned as the whole answer (the model gave the schema's shape instead of an instance).
//! Both are warnings `schema-echo`, with or without a schema given, since the fix is the
//! same: tell the model to answer with a value of the schema, not the schema.

use super::extract::Extraction;
use super::form::Decoded;
use super::outcome::*;

impl Extraction<'_> {
    /// A schema echoed before the answer, passed over.
    pub(super) fn note_schema_echo(&mut self, at: usize) {
        let place = self.locate(at);
        self.warnings.push(Warning::new(
            WarningKind::SchemaEcho,
            Some(at),
            format!(
                "the JSON Schema at {place} was passed over: the model echoed the prompt's schema before its answer; \
                 tell it to answer with the value only"
            ),
        ));
    }

    /// The accepted value is itself shaped like a schema (`$schema`, or `type: "object"`
    /// with `properties`), sometimes with values where the subschemas belong. A value the caller's own test accepts is left alone.
    pub(super) fn note_schema_returned(&mut self, value: &Decoded, at: usize) {
        if !value.is_schema_document() {
            return;
        }
        if let Some(acceptor) = &self.options.acceptor {
            if value.passes(acceptor) {
                return;
            }
        }
        let place = self.locate(at);
        self.warnings.push(Warning::new(
            WarningKind::SchemaEcho,
            Some(at),
            format!(
                "the value at {place} is a JSON Schema, not an instance of one: the model returned the schema's \
                 shape instead of filling it in; tell it to answer with a value that follows the schema (or use \
                 the provider's structured output with the schema)"
            ),
        ));
    }
}
