//! The key table: each binding declared once. It drives dispatch, the footer
//! hints and the help overlay, so the three can never disagree.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::{Action, Command, Edit};

mod table;

pub(crate) use table::BINDINGS;

/// Which keys are live: the main screen or an overlay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyMode {
    Normal,
    Help,
    Menu,
    Prompt,
    /// The arrival view: chunks step, digits count.
    Timeline,
}

/// Sections of the help overlay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    Move,
    Panes,
    Find,
    Act,
    General,
    Overlays,
}

impl Group {
    pub const ALL: [Group; 6] = [
        Group::Move,
        Group::Panes,
        Group::Find,
        Group::Act,
        Group::General,
        Group::Overlays,
    ];

    pub(crate) fn title(self) -> &'static str {
        match self {
            Group::Move => "Move",
            Group::Panes => "Panes",
            Group::Find => "Find",
            Group::Act => "Act",
            Group::General => "General",
            Group::Overlays => "In menus and prompts",
        }
    }
}

/// A key and its modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub(crate) code: KeyCode,
    pub(crate) modifiers: KeyModifiers,
}

pub(super) const fn key(ch: char) -> Key {
    Key {
        code: KeyCode::Char(ch),
        modifiers: KeyModifiers::NONE,
    }
}

pub(super) const fn ctrl(ch: char) -> Key {
    Key {
        code: KeyCode::Char(ch),
        modifiers: KeyModifiers::CONTROL,
    }
}

pub(super) const fn code(code: KeyCode) -> Key {
    Key {
        code,
        modifiers: KeyModifiers::NONE,
    }
}

impl Key {
    /// How the key is written in hints and help: `j`, `↓`, `Ctrl-d`, `PgDn`.
    pub(crate) fn label(self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "Space".to_string(),
            KeyCode::Char(ch) => ch.to_string(),
            KeyCode::Down => "↓".to_string(),
            KeyCode::Up => "↑".to_string(),
            KeyCode::Left => "←".to_string(),
            KeyCode::Right => "→".to_string(),
            KeyCode::Home => "Home".to_string(),
            KeyCode::End => "End".to_string(),
            KeyCode::PageDown => "PgDn".to_string(),
            KeyCode::PageUp => "PgUp".to_string(),
            KeyCode::Tab => "Tab".to_string(),
            KeyCode::BackTab => "Shift-Tab".to_string(),
            KeyCode::Enter => "Enter".to_string(),
            KeyCode::Esc => "Esc".to_string(),
            KeyCode::Backspace => "Backspace".to_string(),
            KeyCode::F(n) => format!("F{n}"),
            other => format!("{other:?}"),
        };
        if self.modifiers.contains(KeyModifiers::CONTROL) {
            format!("Ctrl-{base}")
        } else {
            base
        }
    }
}

/// One entry of the table.
#[derive(Debug, Clone, Copy)]
pub struct Binding {
    pub(crate) command: Command,
    pub(crate) keys: &'static [Key],
    pub(crate) modes: &'static [KeyMode],
    pub(crate) group: Group,
    /// What the help overlay says.
    pub(crate) help: &'static str,
    /// The footer's word for it, if it earns a place there.
    pub(crate) hint: Option<&'static str>,
    /// A command whose first key the footer shows with this one: `j/k move`.
    pub(crate) pair: Option<Command>,
}

/// Crossterm reports `G` as Shift+g and Shift-Tab as Shift+BackTab; the table
/// spells them without Shift.
fn normalize(event: &KeyEvent) -> Key {
    let mut modifiers = event.modifiers & (KeyModifiers::CONTROL | KeyModifiers::SHIFT);
    if matches!(event.code, KeyCode::Char(_) | KeyCode::BackTab) {
        modifiers.remove(KeyModifiers::SHIFT);
    }
    let code = match (event.code, modifiers.contains(KeyModifiers::CONTROL)) {
        (KeyCode::Char(ch), true) => KeyCode::Char(ch.to_ascii_lowercase()),
        (code, _) => code,
    };
    Key { code, modifiers }
}

/// The command a key runs in a mode, from the table.
pub(crate) fn command_for(mode: KeyMode, event: &KeyEvent) -> Option<Command> {
    let key = normalize(event);
    BINDINGS
        .iter()
        .find(|binding| binding.modes.contains(&mode) && binding.keys.contains(&key))
        .map(|binding| binding.command)
}

/// The action a key press means in a mode: a table command, or typing in a prompt.
pub fn action_for(mode: KeyMode, event: &KeyEvent) -> Option<Action> {
    if let Some(command) = command_for(mode, event) {
        return Some(Action::Command(command));
    }
    let key = normalize(event);
    // A count before a step: `12` then → steps twelve chunks.
    if let (KeyMode::Timeline, KeyCode::Char(digit @ '0'..='9')) = (mode, key.code) {
        return Some(Action::Edit(Edit::Insert(digit)));
    }
    if mode != KeyMode::Prompt {
        return None;
    }
    match (key.code, key.modifiers) {
        (KeyCode::Backspace, _) => Some(Action::Edit(Edit::Backspace)),
        (KeyCode::Char('u'), KeyModifiers::CONTROL) => Some(Action::Edit(Edit::Clear)),
        (KeyCode::Char(ch), KeyModifiers::NONE) => {
            Some(Action::Edit(Edit::Insert(event_char(event, ch))))
        }
        _ => None,
    }
}

/// The typed character, with its case as typed.
fn event_char(event: &KeyEvent, normalized: char) -> char {
    match event.code {
        KeyCode::Char(ch) => ch,
        _ => normalized,
    }
}

/// The keys of the first binding of `command` in `mode`, as written in help.
pub(crate) fn keys_label(command: Command, mode: KeyMode) -> String {
    BINDINGS
        .iter()
        .find(|binding| binding.command == command && binding.modes.contains(&mode))
        .map(|binding| {
            binding
                .keys
                .iter()
                .map(|key| key.label())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

/// The footer's hints for a mode: (`keys`, `word`), in table order.
pub(crate) fn hints(mode: KeyMode) -> Vec<(String, &'static str)> {
    BINDINGS
        .iter()
        .filter(|binding| binding.modes.contains(&mode))
        .filter_map(|binding| {
            let hint = binding.hint?;
            let mut keys = binding.keys.first()?.label();
            if let Some(pair) = binding.pair {
                let other = BINDINGS
                    .iter()
                    .find(|b| b.command == pair && b.modes.contains(&mode))
                    .and_then(|b| b.keys.first());
                if let Some(other) = other {
                    keys = format!("{keys}/{}", other.label());
                }
            }
            Some((keys, hint))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn keys_dispatch_per_mode() {
        let j = press(KeyCode::Char('j'), KeyModifiers::NONE);
        assert_eq!(command_for(KeyMode::Normal, &j), Some(Command::Down));
        assert_eq!(command_for(KeyMode::Help, &j), Some(Command::Down));
        assert_eq!(
            action_for(KeyMode::Prompt, &j).map(|a| format!("{a:?}")),
            Some("Edit(Insert('j'))".into())
        );
        let shift_g = press(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(
            command_for(KeyMode::Normal, &shift_g),
            Some(Command::Bottom)
        );
        let back_tab = press(KeyCode::BackTab, KeyModifiers::SHIFT);
        assert_eq!(
            command_for(KeyMode::Normal, &back_tab),
            Some(Command::PrevPane)
        );
    }

    #[test]
    fn ctrl_c_quits_everywhere_and_q_only_closes_overlays() {
        let ctrl_c = press(KeyCode::Char('c'), KeyModifiers::CONTROL);
        for mode in [
            KeyMode::Normal,
            KeyMode::Help,
            KeyMode::Menu,
            KeyMode::Prompt,
        ] {
            assert_eq!(command_for(mode, &ctrl_c), Some(Command::Quit), "{mode:?}");
        }
        let q = press(KeyCode::Char('q'), KeyModifiers::NONE);
        assert_eq!(command_for(KeyMode::Normal, &q), Some(Command::Quit));
        assert_eq!(command_for(KeyMode::Help, &q), Some(Command::Back));
        assert!(command_for(KeyMode::Prompt, &q).is_none());
    }

    #[test]
    fn no_key_is_bound_twice_in_one_mode() {
        for mode in [
            KeyMode::Normal,
            KeyMode::Help,
            KeyMode::Menu,
            KeyMode::Prompt,
        ] {
            let mut seen = Vec::new();
            for binding in BINDINGS.iter().filter(|b| b.modes.contains(&mode)) {
                for key in binding.keys {
                    assert!(!seen.contains(key), "{:?} bound twice in {mode:?}", key);
                    seen.push(*key);
                }
            }
        }
    }

    #[test]
    fn hints_come_from_the_table() {
        let hints = hints(KeyMode::Normal);
        assert_eq!(hints[0], ("j/k".to_string(), "move"));
        assert!(hints.contains(&("?".to_string(), "help")));
        assert_eq!(keys_label(Command::HalfDown, KeyMode::Normal), "Ctrl-d");
    }
}
