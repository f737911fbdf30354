//! The options the host sends with each call, as JSON (the package checks the user's
//! spelling and types first, so an error here is a bug in the package or a bad `pick`).

use jxray_engine::{Options, Pick, ValueForm};
use jxray_formats::record::Origin;
use serde::Deserialize;

/// One call's options. An empty buffer is the defaults, what `jxray check` does.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Request {
    /// The stop reason as the provider spelled it (`length`, `max_tokens`, …).
    pub stop_reason: Option<String>,
    /// Accept a lenient reading (contract §4).
    pub accept_lenient: bool,
    /// Replace strings that hold JSON by the decoded value.
    pub decode_stringified: bool,
    /// Which candidate wins when several parse: `first` or `last`.
    pub pick: Option<String>,
    /// The host holds a validator to ask about candidate values (see [`crate::validator`]).
    pub validator: bool,
    /// List the integers a JavaScript number cannot hold exactly (see [`crate::bigints`]).
    pub bigints: bool,
    /// The name on the explained line (`-` when not given).
    pub source: Option<String>,
    /// A caller's policy table for the repair loop: a cause or kind, and the action's name.
    pub repair_table: Vec<(String, String)>,
    /// The keys a repair request names as required (the caller's list).
    pub required: Vec<String>,
    /// Else the JSON Schema document (as JSON text) whose top-level required keys a repair
    /// request names.
    pub required_of: Option<String>,
    /// The output is quoted in a repair request up to this many characters.
    pub max_output_chars: Option<usize>,
    /// The repair loop's run as text, carried by the host between calls without being read
    /// (see [`crate::repair`]).
    pub run: Option<String>,
    /// The usage of the call that gave the text (as JSON text, in any provider's spelling),
    /// for the run's budget.
    pub usage: Option<String>,
    /// The host could not hand the text over (a JavaScript string that is not Unicode):
    /// the outcome is `unreadable` with this message.
    pub unreadable: Option<String>,
}

impl Request {
    /// What the explained line says of where the text came from: the request's `source`
    /// (`-` when not given, as the Python package's `extract` names it) and stop reason.
    pub fn origin(&self) -> Origin<'_> {
        Origin {
            source: self.source.as_deref().unwrap_or("-"),
            stop_reason: self.stop_reason.as_deref(),
            ..Origin::default()
        }
    }

    /// The cap on the output a repair request quotes.
    pub fn max_output_chars(&self) -> usize {
        self.max_output_chars
            .unwrap_or(jxray_formats::repair::DEFAULT_MAX_OUTPUT_CHARS)
    }

    /// The request in `bytes` (empty: the defaults), or what is wrong with it.
    pub fn parse(bytes: &[u8]) -> Result<Request, String> {
        if bytes.is_empty() {
            return Ok(Request::default());
        }
        serde_json::from_slice(bytes).map_err(|error| format!("jxray: bad options: {error}"))
    }

    /// The engine options this request asks for.
    pub fn options(&self) -> Result<Options, String> {
        let pick = match &self.pick {
            None => Pick::First,
            Some(name) => name.parse::<Pick>().map_err(|error| error.to_string())?,
        };
        // The value comes back as JSON text either way: a tree is built only when the
        // host asks about candidates or about big integers.
        let form = if self.validator || self.bigints {
            ValueForm::Tree
        } else {
            ValueForm::Text
        };
        Ok(Options::default()
            .with_stop_reason(self.stop_reason.clone())
            .with_accept_lenient(self.accept_lenient)
            .with_decode_stringified(self.decode_stringified)
            .with_pick(pick)
            .with_value_form(form))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_request_is_what_check_does() {
        let request = Request::parse(b"").unwrap();
        let options = request.options().unwrap();
        assert_eq!(options.pick, Pick::First);
        assert!(!options.accept_lenient && options.stop_reason.is_none());
    }

    #[test]
    fn options_are_read_by_their_javascript_names() {
        let request = Request::parse(
            br#"{"stopReason":"length","acceptLenient":true,"decodeStringified":true,"pick":"last"}"#,
        )
        .unwrap();
        let options = request.options().unwrap();
        assert_eq!(options.stop_reason.as_deref(), Some("length"));
        assert!(options.accept_lenient && options.decode_stringified);
        assert_eq!(options.pick, Pick::Last);
    }

    #[test]
    fn an_unknown_option_or_pick_is_named() {
        let error = Request::parse(br#"{"stopreason":"length"}"#).unwrap_err();
        assert!(error.contains("stopreason"), "{error}");
        let request = Request::parse(br#"{"pick":"middle"}"#).unwrap();
        let error = request.options().unwrap_err();
        assert!(
            error.contains("middle") && error.contains("first"),
            "{error}"
        );
    }
}
