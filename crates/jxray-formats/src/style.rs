//! Terminal colour, only when asked for: callers decide (TTY, `--color`,
//! `NO_COLOR`) and every painted word also reads without colour.

/// The few styles the reports use; the 8 basic ANSI colours read on light and dark terminals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Good,
    Notice,
    Bad,
    Dim,
    Strong,
    /// Changed words inside a removed line.
    BadEmphasis,
    /// Changed words inside an added line.
    GoodEmphasis,
}

impl Tone {
    fn sgr(self) -> &'static str {
        match self {
            Tone::Good => "32",
            Tone::Notice => "33",
            Tone::Bad => "31",
            Tone::Dim => "2",
            Tone::Strong => "1",
            Tone::BadEmphasis => "31;1;4",
            Tone::GoodEmphasis => "32;1;4",
        }
    }
}

/// Paints text with ANSI styles, or passes it through unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Painter {
    enabled: bool,
}

impl Painter {
    pub fn new(enabled: bool) -> Painter {
        Painter { enabled }
    }

    /// A painter that never emits escape codes.
    pub fn plain() -> Painter {
        Painter { enabled: false }
    }

    pub fn enabled(self) -> bool {
        self.enabled
    }

    pub fn paint(self, text: &str, tone: Tone) -> String {
        if self.enabled && !text.is_empty() {
            format!("\x1b[{}m{text}\x1b[0m", tone.sgr())
        } else {
            text.to_string()
        }
    }
}

/// Whether to colour a stream: an explicit choice wins; otherwise only a
/// terminal, and not when `NO_COLOR` is set to anything non-empty.
pub fn want_color(always: Option<bool>, is_terminal: bool, no_color: Option<&str>) -> bool {
    match always {
        Some(choice) => choice,
        None => is_terminal && no_color.is_none_or(str::is_empty),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_painters_pass_text_through() {
        assert_eq!(Painter::plain().paint("ok", Tone::Good), "ok");
        assert_eq!(
            Painter::new(true).paint("ok", Tone::Good),
            "\x1b[32mok\x1b[0m"
        );
        assert_eq!(Painter::new(true).paint("", Tone::Good), "");
    }

    #[test]
    fn colour_follows_choice_terminal_and_no_color() {
        assert!(want_color(Some(true), false, Some("1")));
        assert!(!want_color(Some(false), true, None));
        assert!(want_color(None, true, None));
        assert!(want_color(None, true, Some("")));
        assert!(!want_color(None, true, Some("1")));
        assert!(!want_color(None, false, None));
    }
}
