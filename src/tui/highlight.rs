//! Syntax colours for the Raw pane, with syntect: markdown structure, and
//! fenced code blocks in their own language (json, python, js, yaml, …).
//!
//! - Start-up stays fast: the syntax set loads once, on a thread of its own
//!   ([`warm`]); until it is there the pane is drawn plain.
//! - Only what is seen is highlighted: the parse goes down the text as far as
//!   the pane has been shown, and keeps its results ([`Highlight`]), so a
//!   frame never parses what is off screen twice.
//! - Colours follow the theme: scopes become the same semantic paints the
//!   other panes use ([`Paint`]), so dark, light and `NO_COLOR` hold here too.
//! - Very long lines (over [`LONG_LINE`]) and very big texts (over
//!   [`BIG_TEXT`]) stay plain: regex parsing of them would stall the screen.

use std::sync::{Arc, OnceLock};

use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxReference, SyntaxSet};

use super::action::EntryId;
use super::doc::{DocLine, Paint, Styled};

/// Lines longer than this are drawn plain.
pub const LONG_LINE: usize = 16 * 1024;
/// Texts bigger than this are drawn plain.
pub const BIG_TEXT: usize = 1024 * 1024;

static SYNTAXES: OnceLock<SyntaxSet> = OnceLock::new();

/// The syntax set, loading it on this thread if no one has yet.
pub fn load_now() -> &'static SyntaxSet {
    SYNTAXES.get_or_init(SyntaxSet::load_defaults_newlines)
}

/// Load the syntax set on a thread of its own and call `done` once it is there.
pub fn warm(done: impl FnOnce() + Send + 'static) {
    std::thread::spawn(move || {
        load_now();
        done();
    });
}

/// The syntax set, if it has loaded.
fn ready() -> Option<&'static SyntaxSet> {
    SYNTAXES.get()
}

/// The raw text's highlighting so far, for one capture.
#[derive(Default)]
pub struct Highlight {
    /// Whether highlighting is on at all (the event loop turns it on; tests may).
    pub enabled: bool,
    /// The capture and text the tokens are for.
    key: Option<(EntryId, usize)>,
    /// Paints for the lines parsed so far, sorted, not overlapping.
    pub tokens: Vec<Styled>,
    /// How many lines have been parsed.
    parsed: usize,
    parser: Option<Parser>,
}

impl std::fmt::Debug for Highlight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Highlight")
            .field("enabled", &self.enabled)
            .field("key", &self.key)
            .field("tokens", &self.tokens.len())
            .field("parsed", &self.parsed)
            .finish()
    }
}

struct Parser {
    state: ParseState,
    stack: ScopeStack,
    syntaxes: &'static SyntaxSet,
}

impl Highlight {
    /// Whether the tokens are for this capture's text.
    pub fn is_for(&self, entry: EntryId, text: &Arc<str>) -> bool {
        self.key == Some((entry, key_of(text)))
    }

    /// Parse `text` (cut into `lines`) down to line `upto`.
    pub fn extend(&mut self, entry: EntryId, text: &Arc<str>, lines: &[DocLine], upto: usize) {
        if !self.enabled || text.len() > BIG_TEXT {
            return;
        }
        let Some(syntaxes) = ready() else {
            return;
        };
        if !self.is_for(entry, text) {
            *self = Highlight {
                enabled: true,
                key: Some((entry, key_of(text))),
                parser: Some(Parser::new(syntaxes, text)),
                ..Highlight::default()
            };
        }
        let Some(parser) = &mut self.parser else {
            return;
        };
        let upto = upto.min(lines.len());
        while self.parsed < upto {
            let DocLine { start, end, .. } = lines[self.parsed];
            let line = text.get(start..end).unwrap_or("");
            if line.len() > LONG_LINE {
                // Plain, and parsed as an empty line so what follows keeps its context.
                parser.paints("\n", 0, &mut self.tokens);
            } else {
                parser.paints(&format!("{line}\n"), start, &mut self.tokens);
            }
            self.parsed += 1;
        }
    }
}

/// A text's identity: its address (a new read is a new allocation) and length.
fn key_of(text: &Arc<str>) -> usize {
    Arc::as_ptr(text) as *const u8 as usize ^ text.len().rotate_left(32)
}

impl Parser {
    fn new(syntaxes: &'static SyntaxSet, text: &str) -> Parser {
        Parser {
            state: ParseState::new(syntax_for(syntaxes, text)),
            stack: ScopeStack::new(),
            syntaxes,
        }
    }

    /// Parse one line (with its line break) starting at byte `base`, adding its paints.
    fn paints(&mut self, line: &str, base: usize, out: &mut Vec<Styled>) {
        let Ok(ops) = self.state.parse_line(line, self.syntaxes) else {
            return;
        };
        let content_end = line.len() - usize::from(line.ends_with('\n'));
        let mut at = 0;
        for (offset, op) in &ops {
            let offset = (*offset).min(content_end);
            push(out, base + at, base + offset, paint_of(&self.stack));
            at = offset;
            if self.stack.apply(op).is_err() {
                return;
            }
        }
        push(out, base + at, base + content_end, paint_of(&self.stack));
    }
}

/// Add a paint, merging it into the previous one when they touch and match.
fn push(out: &mut Vec<Styled>, start: usize, end: usize, paint: Paint) {
    if start >= end || paint == Paint::Plain {
        return;
    }
    if let Some(last) = out.last_mut() {
        if last.end == start && last.paint == paint {
            last.end = end;
            return;
        }
    }
    out.push(Styled { start, end, paint });
}

/// JSON for a text that is JSON as a whole, markdown (with its fenced code) otherwise.
fn syntax_for<'a>(syntaxes: &'a SyntaxSet, text: &str) -> &'a SyntaxReference {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    let name = if trimmed.starts_with('{') || trimmed.starts_with('[') {
        "JSON"
    } else {
        "Markdown"
    };
    syntaxes
        .find_syntax_by_name(name)
        .unwrap_or_else(|| syntaxes.find_syntax_plain_text())
}

/// Scope prefixes and the paint each gets; the innermost scope that matches wins.
fn rules() -> &'static [(Scope, Paint)] {
    static RULES: OnceLock<Vec<(Scope, Paint)>> = OnceLock::new();
    RULES.get_or_init(|| {
        [
            ("comment", Paint::Dim),
            ("punctuation.definition.raw.code-fence", Paint::Dim),
            ("punctuation.definition.heading", Paint::Heading),
            ("markup.heading", Paint::Heading),
            ("constant.other.language-name", Paint::Key),
            ("markup.list", Paint::Key),
            ("markup.underline.link", Paint::Key),
            ("string", Paint::Str),
            ("constant.numeric", Paint::Num),
            ("constant.language", Paint::Literal),
            ("keyword", Paint::Key),
            ("storage", Paint::Key),
            ("entity.name", Paint::Key),
            ("support.function", Paint::Key),
        ]
        .into_iter()
        .filter_map(|(text, paint)| Scope::new(text).ok().map(|scope| (scope, paint)))
        .collect()
    })
}

/// The paint of the text under `stack`: a JSON object key is a key, not a
/// string; otherwise the innermost scope with a rule decides.
fn paint_of(stack: &ScopeStack) -> Paint {
    static KEY: OnceLock<Option<Scope>> = OnceLock::new();
    let scopes = stack.as_slice();
    if let Some(key) = KEY.get_or_init(|| Scope::new("meta.mapping.key").ok()) {
        if scopes.iter().any(|scope| key.is_prefix_of(*scope)) {
            return Paint::Key;
        }
    }
    for scope in scopes.iter().rev() {
        if let Some((_, paint)) = rules().iter().find(|(rule, _)| rule.is_prefix_of(*scope)) {
            return *paint;
        }
    }
    Paint::Plain
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(start: usize, end: usize) -> DocLine {
        DocLine {
            start,
            end,
            gutter: crate::tui::doc::Gutter::None,
        }
    }

    fn highlighted(text: &str) -> Vec<(String, Paint)> {
        load_now();
        let text: Arc<str> = Arc::from(text);
        let mut lines = Vec::new();
        let mut start = 0;
        for piece in text.split('\n') {
            lines.push(line(start, start + piece.len()));
            start += piece.len() + 1;
        }
        let mut highlight = Highlight {
            enabled: true,
            ..Highlight::default()
        };
        highlight.extend(1, &text, &lines, lines.len());
        highlight
            .tokens
            .iter()
            .map(|t| (text[t.start..t.end].to_string(), t.paint))
            .collect()
    }

    #[test]
    fn markdown_headings_and_fenced_code_in_its_language() {
        let tokens = highlighted(
            "# Result\n```json\n{\"n\": 1, \"ok\": true}\n```\n```python\ndef f(): return 'x'\n```\n",
        );
        assert!(
            tokens.contains(&("Result".to_string(), Paint::Heading)),
            "{tokens:?}"
        );
        assert!(
            tokens
                .iter()
                .any(|(t, p)| t.contains("\"n\"") && *p == Paint::Key),
            "{tokens:?}"
        );
        assert!(
            tokens.contains(&("1".to_string(), Paint::Num)),
            "{tokens:?}"
        );
        assert!(
            tokens.contains(&("true".to_string(), Paint::Literal)),
            "{tokens:?}"
        );
        assert!(
            tokens.iter().any(|(t, p)| t == "def" && *p == Paint::Key),
            "{tokens:?}"
        );
        assert!(
            tokens
                .iter()
                .any(|(t, p)| t.contains("'x'") && *p == Paint::Str),
            "{tokens:?}"
        );
    }

    #[test]
    fn a_whole_json_text_is_json_and_long_lines_stay_plain() {
        let tokens = highlighted("{\"a\": [1, \"b\"]}");
        assert!(
            tokens
                .iter()
                .any(|(t, p)| t.contains("\"a\"") && *p == Paint::Key),
            "{tokens:?}"
        );
        let long = format!("{{\"a\": \"{}\"}}", "x".repeat(LONG_LINE));
        assert!(highlighted(&long).is_empty());
    }

    #[test]
    fn parsing_goes_only_as_far_as_asked_and_restarts_for_another_text() {
        load_now();
        let text: Arc<str> = Arc::from("# a\n# b\n# c");
        let lines = [line(0, 3), line(4, 7), line(8, 11)];
        let mut highlight = Highlight {
            enabled: true,
            ..Highlight::default()
        };
        highlight.extend(7, &text, &lines, 1);
        assert!(highlight.tokens.iter().all(|t| t.end <= 3));
        highlight.extend(7, &text, &lines, 3);
        assert!(highlight.tokens.iter().any(|t| t.start >= 8));
        let other: Arc<str> = Arc::from("plain");
        highlight.extend(8, &other, &[line(0, 5)], 1);
        assert!(highlight.is_for(8, &other));
        assert!(highlight.tokens.is_empty());
    }
}
