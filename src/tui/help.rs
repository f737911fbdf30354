//! The help overlay's content: the key table by group, then what the marks mean.

use crate::text::shown_path;
use std::path::Path;

use super::keys::{Group, BINDINGS};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HelpLine {
    Heading(&'static str),
    Key { keys: String, help: &'static str },
    Text(String),
    Blank,
}

/// What the help says of this session beside the keys.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HelpContext<'a> {
    pub(crate) mouse: bool,
    pub(crate) root: &'a Path,
    pub(crate) fixtures: &'a Path,
    pub(crate) config_path: &'a str,
}

/// Every line of the help overlay.
pub(crate) fn lines(settings: &HelpContext<'_>) -> Vec<HelpLine> {
    let mut lines = Vec::new();
    for group in Group::ALL {
        lines.push(HelpLine::Heading(group.title()));
        for binding in BINDINGS.iter().filter(|b| b.group == group) {
            let keys = binding
                .keys
                .iter()
                .map(|key| key.label())
                .collect::<Vec<_>>()
                .join(" ");
            lines.push(HelpLine::Key {
                keys,
                help: binding.help,
            });
        }
        lines.push(HelpLine::Blank);
    }
    lines.push(HelpLine::Heading("What you see"));
    for text in LEGEND {
        lines.push(HelpLine::Text(text.to_string()));
    }
    lines.push(HelpLine::Text(if settings.mouse {
        "mouse: on (--mouse); the wheel scrolls, a click selects; hold Shift to select text"
            .to_string()
    } else {
        "mouse: off; start with --mouse to scroll and click with it".to_string()
    }));
    lines.push(HelpLine::Blank);
    lines.push(HelpLine::Heading("Files"));
    lines.push(HelpLine::Text(format!(
        "captures: {}",
        shown_path(&settings.root)
    )));
    lines.push(HelpLine::Text(format!(
        "fixtures: {}",
        shown_path(&settings.fixtures)
    )));
    lines.push(HelpLine::Text(format!(
        "config:   {}",
        settings.config_path
    )));
    lines
}

/// The key table as a markdown table, for the README (a test keeps the docs in step).
pub fn markdown_keys() -> String {
    let mut out = String::from("| | keys | what they do |\n| --- | --- | --- |\n");
    for group in Group::ALL {
        for (index, binding) in BINDINGS.iter().filter(|b| b.group == group).enumerate() {
            let keys: Vec<String> = binding
                .keys
                .iter()
                .map(|key| format!("`{}`", key.label().replace('|', "\\|")))
                .collect();
            let title = if index == 0 { group.title() } else { "" };
            out.push_str(&format!(
                "| {title} | {} | {} |\n",
                keys.join(" "),
                binding.help
            ));
        }
    }
    out
}

const LEGEND: &[&str] = &[
    "badges: direct fenced scanned lenient (accepted), or the failure kind:",
    "        truncated no-json invalid schema unreadable",
    "list marks: R repaired  W warnings  S saved as a fixture",
    "            * new or changed since watching re-read it (until you select it)",
    "            gone: its file was deleted; it leaves the list with the next change",
    "            with --baseline: ↑ fixed  ↓ broke  ≠ value changed  ~ different failure",
    "            + not in the baseline; the header lists a changed value's paths:",
    "            ~ changed  + added  - removed",
    "header: a failure's kind (defect) at line:col, then +N more defects (Decoded lists all)",
    "Raw: ▎ beside lines of the accepted span; accepted text bold; the failure",
    "     reversed; repaired bytes underlined; fences and <think> dimmed",
    "invisible characters: ␉ tab  ␍ carriage return  ␛ escape  ⟨BOM⟩  ⟨U+200B⟩",
    "not UTF-8: each invalid byte as ⟨E9⟩ (its value in hex)",
    "footer, when short of room: dir fen scan len trunc nojs inv sch unr; Δ since watching",
    "Normalized: - raw line, + what the parser saw; changed words underlined",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_binding_and_the_config_path_appear() {
        let settings = HelpContext {
            root: Path::new("caps"),
            fixtures: Path::new("fixtures"),
            config_path: "/home/u/.config/jxray/config.toml",
            mouse: false,
        };
        let lines = lines(&settings);
        let keys = lines
            .iter()
            .filter(|l| matches!(l, HelpLine::Key { .. }))
            .count();
        assert_eq!(keys, BINDINGS.len());
        assert!(lines.contains(&HelpLine::Text(
            "config:   /home/u/.config/jxray/config.toml".to_string()
        )));
    }
}
