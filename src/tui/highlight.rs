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
pub(crate) const LONG_LINE: usize = 16 * 1024;
/// Texts bigger than this are drawn plain.
pub(crate) const BIG_TEXT: usize = 1024 * 1024;

static SYNTAXES: OnceLock<SyntaxSet> = OnceLock::new();

/// The syntax set, loading it on this thread if no one has yet.
pub fn load_now() -> &'static SyntaxSet {
    SYNTAXES.get_or_init(SyntaxSet::load_defaults_newlines)
}

/// Load the syntax set on a thread of its own and call `done` once it is there.
pub(crate) fn warm(done: impl FnOnce() + Send + 'static) {
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
    pub(crate) tokens: Vec<Styled>,
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

/// A syntect parse in progress: a state and the scopes it has opened.
struct Grammar {
    state: ParseState,
    stack: ScopeStack,
}

/// The whole text's grammar, and the language of the fenced block the parse is in.
///
/// syntect's Markdown leaves fenced code unparsed, so fences are followed here:
/// the fence lines go to Markdown, the lines between to the fence's language.
struct Parser {
    outer: Grammar,
    fence: Option<Fence>,
    markdown: bool,
    syntaxes: &'static SyntaxSet,
}

struct Fence {
    /// The opening run (three or more backticks or tildes); a close is as long or longer.
    marker: String,
    inner: Option<Grammar>,
}

impl Highlight {
    /// Whether the tokens are for this capture's text.
    pub(crate) fn is_for(&self, entry: EntryId, text: &Arc<str>) -> bool {
        self.key == Some((entry, key_of(text)))
    }

    /// Parse `text` (cut into `lines`) down to line `upto`.
    pub(crate) fn extend(
        &mut self,
        entry: EntryId,
        text: &Arc<str>,
        lines: &[DocLine],
        upto: usize,
    ) {
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

impl Grammar {
    fn new(syntax: &SyntaxReference) -> Grammar {
        Grammar {
            state: ParseState::new(syntax),
            stack: ScopeStack::new(),
        }
    }

    /// Parse one line (with its line break) starting at byte `base`, adding its paints.
    fn paints(&mut self, syntaxes: &SyntaxSet, line: &str, base: usize, out: &mut Vec<Styled>) {
        let Ok(ops) = self.state.parse_line(line, syntaxes) else {
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

impl Parser {
    fn new(syntaxes: &'static SyntaxSet, text: &str) -> Parser {
        let syntax = syntax_for(syntaxes, text);
        Parser {
            outer: Grammar::new(syntax),
            fence: None,
            markdown: syntax.name == "Markdown",
            syntaxes,
        }
    }

    /// Parse one line (with its line break) starting at byte `base`, adding its paints.
    fn paints(&mut self, line: &str, base: usize, out: &mut Vec<Styled>) {
        if !self.markdown {
            return self.outer.paints(self.syntaxes, line, base, out);
        }
        match &mut self.fence {
            Some(fence) if is_close(line, &fence.marker) => {
                self.fence = None;
                self.outer.paints(self.syntaxes, line, base, out);
            }
            Some(fence) => {
                if let Some(inner) = &mut fence.inner {
                    inner.paints(self.syntaxes, line, base, out);
                }
            }
            None => {
                if let Some((marker, language)) = fence_open(line) {
                    let inner = self
                        .syntaxes
                        .find_syntax_by_token(language)
                        .map(Grammar::new);
                    self.fence = Some(Fence {
                        marker: marker.to_string(),
                        inner,
                    });
                }
                self.outer.paints(self.syntaxes, line, base, out);
            }
        }
    }
}

/// A fence's opening line: up to three spaces, three or more backticks or tildes,
/// then the language word (maybe empty).
fn fence_open(line: &str) -> Option<(&str, &str)> {
    let rest = strip_indent(line)?;
    let mark = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let run = rest.len() - rest.trim_start_matches(mark).len();
    if run < 3 {
        return None;
    }
    let (marker, info) = rest.split_at(run);
    if mark == '`' && info.contains('`') {
        return None;
    }
    let language = info.split_whitespace().next().unwrap_or("");
    Some((marker, language))
}

/// Whether `line` closes a fence opened with `marker`.
fn is_close(line: &str, marker: &str) -> bool {
    let Some(rest) = strip_indent(line) else {
        return false;
    };
    let rest = rest.trim_end();
    let Some(mark) = marker.chars().next() else {
        return false;
    };
    rest.len() >= marker.len() && rest.chars().all(|c| c == mark)
}

/// The line without its indentation, if that is at most three spaces (more is code).
fn strip_indent(line: &str) -> Option<&str> {
    let rest = line.trim_start_matches(' ');
    (line.len() - rest.len() <= 3).then_some(rest)
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

/// Scopes that paint everything inside them, whatever inner scope says otherwise:
/// a JSON or YAML key is a key (not a string), a heading's words are the heading.
fn containers() -> &'static [(Scope, Paint)] {
    static CONTAINERS: OnceLock<Vec<(Scope, Paint)>> = OnceLock::new();
    CONTAINERS.get_or_init(|| {
        [
            ("meta.structure.dictionary.key", Paint::Key),
            ("meta.mapping.key", Paint::Key),
            ("markup.heading", Paint::Heading),
        ]
        .into_iter()
        .filter_map(|(text, paint)| Scope::new(text).ok().map(|scope| (scope, paint)))
        .collect()
    })
}

/// The paint of the text under `stack`: the outermost container scope, else the
/// innermost scope with a rule.
fn paint_of(stack: &ScopeStack) -> Paint {
    let scopes = stack.as_slice();
    for scope in scopes {
        if let Some((_, paint)) = containers()
            .iter()
            .find(|(rule, _)| rule.is_prefix_of(*scope))
        {
            return *paint;
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
            tokens.contains(&("# Result".to_string(), Paint::Heading)),
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
