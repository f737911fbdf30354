//! Opening a capture in the user's editor.

use std::path::Path;
use std::process::Command;

/// Editors that understand `+LINE` before the file name.
const PLUS_LINE: &[&str] = &[
    "vi",
    "vim",
    "nvim",
    "view",
    "vis",
    "nano",
    "pico",
    "emacs",
    "emacsclient",
    "mg",
    "micro",
    "kak",
    "joe",
    "jed",
    "ne",
    "mcedit",
    "gedit",
    "less",
    "more",
];
/// Editors that take `--goto FILE:LINE`.
const GOTO: &[&str] = &["code", "code-insiders", "codium", "cursor", "windsurf"];
/// Editors that take `FILE:LINE`.
const COLON_LINE: &[&str] = &["subl", "zed", "hx", "helix", "mate"];

/// The command that opens `path` (at `line`, when the editor can): `$VISUAL`,
/// else `$EDITOR`, else `vi`. The variable may hold arguments (`code -w`).
pub(crate) fn command(editor: Option<&str>, path: &Path, line: Option<usize>) -> Option<Command> {
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
    match line {
        Some(line) if PLUS_LINE.contains(&name) => {
            command.arg(format!("+{line}"));
            command.arg(path);
        }
        Some(line) if GOTO.contains(&name) => {
            command.arg("--goto");
            command.arg(with_line(path, line));
        }
        Some(line) if COLON_LINE.contains(&name) => {
            command.arg(with_line(path, line));
        }
        _ => {
            command.arg(path);
        }
    }
    Some(command)
}

/// Whether the editor can be told which line to open at.
pub(crate) fn knows_lines(editor: Option<&str>) -> bool {
    let program = editor
        .and_then(|e| e.split_whitespace().next())
        .unwrap_or("vi");
    let name = Path::new(program)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(program);
    [PLUS_LINE, GOTO, COLON_LINE]
        .iter()
        .any(|list| list.contains(&name))
}

fn with_line(path: &Path, line: usize) -> std::ffi::OsString {
    let mut arg = path.as_os_str().to_os_string();
    arg.push(format!(":{line}"));
    arg
}

/// The editor the environment names.
pub(crate) fn from_env() -> Option<String> {
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
            ["code", "-w", "--goto", "caps/a.jsonl:12"]
        );
        assert_eq!(
            argv(&command(Some("hx"), path, Some(3)).unwrap()),
            ["hx", "caps/a.jsonl:3"]
        );
        assert_eq!(
            argv(&command(Some("ed"), path, Some(3)).unwrap()),
            ["ed", "caps/a.jsonl"]
        );
        assert!(knows_lines(None));
        assert!(!knows_lines(Some("ed")));
        assert_eq!(
            argv(&command(Some("  "), path, None).unwrap()),
            ["vi", "caps/a.jsonl"]
        );
    }
}
