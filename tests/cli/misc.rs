//! Version, completions, and no subcommand without a terminal.

use crate::support;

use support::cli::{assert_one_line_error, jxray};

#[test]
fn version_is_printed() {
    let run = jxray(&["--version"]);
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout, format!("jxray {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn completions_for_each_shell() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef jxray"),
        ("fish", "complete -c jxray"),
    ] {
        let run = jxray(&["completions", shell]);
        assert_eq!(run.code, 0, "{shell}");
        assert!(
            run.stdout.contains(marker),
            "{shell}: {}",
            &run.stdout[..200.min(run.stdout.len())]
        );
        assert!(
            run.stdout.contains("check"),
            "{shell} completes subcommands"
        );
    }
    assert_eq!(jxray(&["completions", "tcsh"]).code, 2);
}

#[test]
fn no_subcommand_without_a_terminal_points_at_check() {
    let run = jxray(&["assets"]);
    assert_eq!(run.code, 2);
    assert_one_line_error(&run, "jxray check assets");
}
