//! The copy menu (`y`): what of the selected capture can go to the clipboard.
//!
//! The clipboard is reached with OSC 52, an escape sequence the terminal
//! turns into a copy. Terminals cap what they accept (often ~100 KB) and a
//! multi-megabyte sequence freezes some of them, so anything larger is
//! refused with its size and a way around it.

use crate::text::shown_path;
use crate::tui::action::Effect;
use crate::tui::detail::pretty;

use super::{App, Entry, Overlay};

/// The most OSC 52 is asked to carry.
pub(crate) const OSC52_LIMIT: usize = 100 * 1024;

/// One line of the copy menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CopyChoice {
    /// The accepted value, pretty-printed.
    Value,
    /// The text exactly as the model wrote it.
    Raw,
    /// What the lenient reading of a failed candidate gives.
    Lenient,
    /// The capture's file (with its line, for a log).
    Path,
}

impl CopyChoice {
    pub(crate) const ALL: [CopyChoice; 4] = [
        CopyChoice::Value,
        CopyChoice::Raw,
        CopyChoice::Lenient,
        CopyChoice::Path,
    ];

    pub(crate) fn label(self) -> &'static str {
        match self {
            CopyChoice::Value => "decoded value",
            CopyChoice::Raw => "raw text",
            CopyChoice::Lenient => "lenient reading",
            CopyChoice::Path => "path",
        }
    }

    /// How many bytes this choice would copy (the raw text without copying it).
    pub(crate) fn size(self, entry: &Entry) -> Result<usize, &'static str> {
        match (self, &entry.capture.text) {
            (CopyChoice::Raw, Ok(text)) => Ok(text.len()),
            _ => self.text(entry).map(|text| text.len()),
        }
    }

    /// The text this choice copies for `entry`, or why there is none.
    pub(crate) fn text(self, entry: &Entry) -> Result<String, &'static str> {
        let outcome = &entry.outcome;
        match self {
            CopyChoice::Value => outcome
                .value
                .as_ref()
                .filter(|_| outcome.ok())
                .map(pretty)
                .ok_or("no value was accepted"),
            CopyChoice::Raw => entry
                .capture
                .text
                .clone()
                .map_err(|_| "the capture could not be read"),
            CopyChoice::Lenient => {
                let reading = outcome
                    .lenient
                    .as_ref()
                    .ok_or("no lenient reading: nothing to fix")?;
                Ok(match &reading.value {
                    Some(value) => pretty(value),
                    None => reading.text.clone(),
                })
            }
            CopyChoice::Path => Ok(match entry.capture.line {
                Some(line) => format!("{}:{line}", shown_path(&entry.capture.path)),
                None => shown_path(&entry.capture.path).to_string(),
            }),
        }
    }
}

/// Enter in the copy menu: copy the choice, or say why not.
pub(super) fn copy(app: &mut App, cursor: usize) -> Vec<Effect> {
    app.overlay = Overlay::None;
    let choice = CopyChoice::ALL[cursor.min(CopyChoice::ALL.len() - 1)];
    let Some(entry) = app.selected_entry() else {
        app.warn("nothing to copy: the list is empty");
        return Vec::new();
    };
    match choice.text(entry) {
        Err(why) => {
            app.warn(format!("no {} to copy: {why}", choice.label()));
            Vec::new()
        }
        Ok(text) if text.len() > OSC52_LIMIT => {
            let hint = match choice {
                CopyChoice::Raw => "open it with o instead",
                _ => "use jxray extract or check --format json instead",
            };
            app.warn(format!(
                "the {} is {}, over the {} KB that terminals accept through OSC 52; nothing copied ({hint})",
                choice.label(),
                size(text.len()),
                OSC52_LIMIT / 1024
            ));
            Vec::new()
        }
        Ok(text) => {
            app.say(format!(
                "copied the {} ({}) with OSC 52; the terminal must allow clipboard access",
                choice.label(),
                size(text.len())
            ));
            vec![Effect::Copy(text)]
        }
    }
}

/// "812 bytes", "14.2 KB", "3.1 MB".
pub(crate) fn size(bytes: usize) -> String {
    if bytes < 1024 {
        crate::text::count_of(bytes, "byte")
    } else if bytes < 1024 * 1024 {
        format!("{:.1} KB", bytes as f64 / 1024.0)
    } else {
        format!("{:.1} MB", bytes as f64 / (1024.0 * 1024.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_like_a_person_would_say_them() {
        assert_eq!(size(1), "1 byte");
        assert_eq!(size(812), "812 bytes");
        assert_eq!(size(14_540), "14.2 KB");
        assert_eq!(size(3_250_586), "3.1 MB");
    }
}
