//! Opening a capture in the user's editor.

use std::path::Path;
use std::process::Command;

/// Editors that understand `+LINE` before the file name.
const PLUS_LINE: &[&str] = &[
    "vi", "vim", "nvim", "nano", "emacs", "micro", "kak", "joe", "ne",
];

/// The command that opens `path` (at `line`, when the editor can): `$VISUAL`,
/// else `$EDITOR`, else `vi`. The variable may hold arguments (`code -w`).
pub fn command(editor: Option<&str>, path: &Path, line: Option<usize>) -> Option<Command> {
    let editor = editor
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .unwrap_or("vi");
    let mut words = editor.split_whitespace();
    let program = words.next()?;
    let mut command = Command::new(program);
    command.args(words);
    let name = Path::new(program)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(program);
    if let Some(line) = line.filter(|_| PLUS_LINE.contains(&name)) {
        command.arg(format!("+{line}"));
    }
    command.arg(path);
    Some(command)
}

/// The editor the environment names.
pub fn from_env() -> Option<String> {
    std::env::var("VISUAL")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .or_else(|| std::env::var("EDITOR").ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(command: &Command) -> Vec<String> {
        std::iter::once(command.get_program())
            .chain(command.get_args())
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn builds_the_editor_command() {
        let path = Path::new("caps/a.jsonl");
        assert_eq!(
            argv(&command(None, path, None).unwrap()),
            ["vi", "caps/a.jsonl"]
        );
        assert_eq!(
            argv(&command(Some("/usr/bin/nvim"), path, Some(12)).unwrap()),
            ["/usr/bin/nvim", "+12", "caps/a.jsonl"]
        );
        assert_eq!(
            argv(&command(Some("code -w"), path, Some(12)).unwrap()),
            ["code", "-w", "caps/a.jsonl"]
        );
        assert_eq!(
            argv(&command(Some("  "), path, None).unwrap()),
            ["vi", "caps/a.jsonl"]
        );
    }
}
