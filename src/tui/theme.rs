//! Colours and emphasis, for dark and light terminals, with or without colour.
//!
//! Meaning never rides on colour alone: every paint has a modifier (bold,
//! underline, reverse) that survives `NO_COLOR`, and badges are words. Only
//! the terminal's default foreground and the eight basic ANSI colours are used,
//! so the palette follows the user's terminal scheme.

use ratatui::style::{Color, Modifier, Style};

use super::doc::Paint;
use crate::config::ThemeName;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub(crate) name: ThemeName,
    pub(crate) color: bool,
}

/// The roles a colour plays; each theme picks an ANSI colour per role.
#[derive(Debug, Clone, Copy)]
enum Role {
    Good,
    Fenced,
    Scanned,
    Lenient,
    Warn,
    Bad,
    Accent,
}

impl Theme {
    pub fn new(name: ThemeName, color: bool) -> Theme {
        Theme { name, color }
    }

    fn color(&self, role: Role) -> Option<Color> {
        if !self.color {
            return None;
        }
        // Yellow and cyan wash out on light backgrounds; blue and magenta do not.
        Some(match (self.name, role) {
            (_, Role::Good) => Color::Green,
            (ThemeName::Dark, Role::Fenced) => Color::Cyan,
            (ThemeName::Light, Role::Fenced) => Color::Blue,
            (ThemeName::Dark, Role::Scanned) => Color::Blue,
            (ThemeName::Light, Role::Scanned) => Color::Cyan,
            (_, Role::Lenient) => Color::Magenta,
            (ThemeName::Dark, Role::Warn) => Color::Yellow,
            (ThemeName::Light, Role::Warn) => Color::Magenta,
            (_, Role::Bad) => Color::Red,
            (ThemeName::Dark, Role::Accent) => Color::Cyan,
            (ThemeName::Light, Role::Accent) => Color::Blue,
        })
    }

    fn fg(&self, role: Role) -> Style {
        match self.color(role) {
            Some(color) => Style::new().fg(color),
            None => Style::new(),
        }
    }

    /// The style of a piece of pane text.
    pub(crate) fn paint(&self, paint: Paint) -> Style {
        let bold = Modifier::BOLD;
        match paint {
            Paint::Plain => Style::new(),
            Paint::Dim | Paint::Note => Style::new().add_modifier(Modifier::DIM),
            Paint::Heading => Style::new().add_modifier(bold | Modifier::UNDERLINED),
            Paint::Key => self.fg(Role::Accent),
            Paint::Str => self.fg(Role::Good),
            Paint::Num => self.fg(Role::Lenient),
            Paint::Literal => self.fg(Role::Warn),
            Paint::Accepted => self.fg(Role::Good).add_modifier(bold),
            Paint::Failure => self.fg(Role::Bad).add_modifier(Modifier::REVERSED | bold),
            Paint::Repair => self.fg(Role::Warn).add_modifier(Modifier::UNDERLINED),
            Paint::Match => self
                .fg(Role::Warn)
                .add_modifier(Modifier::UNDERLINED | bold),
            Paint::DiffDelete => self.fg(Role::Bad),
            Paint::DiffInsert => self.fg(Role::Good),
            Paint::DiffEmphasis => Style::new().add_modifier(Modifier::UNDERLINED | bold),
            Paint::Good => self.fg(Role::Good).add_modifier(bold),
            Paint::Bad => self.fg(Role::Bad).add_modifier(bold),
        }
    }

    /// The style of a list badge: the layer or failure kind as `badge()` spells it.
    pub(crate) fn badge(&self, badge: &str) -> Style {
        let role = match badge {
            "direct" => Role::Good,
            "fenced" => Role::Fenced,
            "scanned" => Role::Scanned,
            "lenient" => Role::Lenient,
            "truncated" => Role::Warn,
            _ => Role::Bad,
        };
        let style = self.fg(role);
        if matches!(role, Role::Bad | Role::Warn) {
            style.add_modifier(Modifier::BOLD)
        } else {
            style
        }
    }

    /// Drawn over invisible characters: `␍`, `␉`, `⟨BOM⟩`.
    pub(crate) fn marker(&self) -> Style {
        self.fg(Role::Warn).add_modifier(Modifier::DIM)
    }

    pub(crate) fn selected(&self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }

    pub(crate) fn border(&self, focused: bool) -> Style {
        if focused {
            self.fg(Role::Accent).add_modifier(Modifier::BOLD)
        } else {
            Style::new().add_modifier(Modifier::DIM)
        }
    }

    pub(crate) fn title(&self, focused: bool) -> Style {
        if focused {
            Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED)
        } else {
            Style::new().add_modifier(Modifier::BOLD)
        }
    }

    pub(crate) fn gutter(&self) -> Style {
        Style::new().add_modifier(Modifier::DIM)
    }

    /// The bar in the gutter beside lines of the accepted span.
    pub(crate) fn span_bar(&self) -> Style {
        self.fg(Role::Good).add_modifier(Modifier::BOLD)
    }

    pub(crate) fn key_hint(&self) -> Style {
        self.fg(Role::Accent).add_modifier(Modifier::BOLD)
    }

    pub(crate) fn label(&self) -> Style {
        Style::new().add_modifier(Modifier::DIM)
    }

    pub(crate) fn error(&self) -> Style {
        self.fg(Role::Bad).add_modifier(Modifier::BOLD)
    }

    pub(crate) fn notice(&self) -> Style {
        self.fg(Role::Good).add_modifier(Modifier::BOLD)
    }

    pub(crate) fn strong(&self) -> Style {
        Style::new().add_modifier(Modifier::BOLD)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_colour_meaning_survives_as_modifiers() {
        let theme = Theme::new(ThemeName::Dark, false);
        for paint in [
            Paint::Accepted,
            Paint::Failure,
            Paint::Repair,
            Paint::Match,
            Paint::DiffEmphasis,
        ] {
            let style = theme.paint(paint);
            assert_eq!(style.fg, None, "{paint:?}");
            assert!(!style.add_modifier.is_empty(), "{paint:?}");
        }
        assert_eq!(theme.badge("invalid").fg, None);
    }

    #[test]
    fn light_theme_avoids_yellow() {
        let theme = Theme::new(ThemeName::Light, true);
        assert_ne!(theme.badge("truncated").fg, Some(Color::Yellow));
        assert_ne!(theme.paint(Paint::Repair).fg, Some(Color::Yellow));
        let dark = Theme::new(ThemeName::Dark, true);
        assert_eq!(dark.badge("fenced").fg, Some(Color::Cyan));
    }
}
