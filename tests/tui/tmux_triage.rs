//! Triage end to end in a real terminal: on a folder of recorded captures, `b` opens the
//! group view, Enter shows the worst group's captures, and the filter menu's model entry
//! narrows the list to one model.

use crate::support;
use crate::tmux::{loaded, Tmux};

use support::triage::write_recorded;

/// The list's rows: (badge, source) of each row on screen.
fn rows(screen: &str) -> Vec<(String, String)> {
    screen
        .lines()
        .skip(1)
        .filter_map(|line| line.strip_prefix('│'))
        .map(|line| line.split('│').next().unwrap_or_default())
        .map(|row| row.trim_start_matches('▶'))
        .filter_map(|row| {
            let mut words = row.split_whitespace();
            Some((words.next()?.to_string(), words.last()?.to_string()))
        })
        .collect()
}

#[test]
fn the_group_view_enters_a_group_and_the_filter_menu_narrows_to_a_model() {
    let dir = tempfile::tempdir().unwrap();
    write_recorded(dir.path());
    let folder = dir.path().to_str().unwrap().to_string();
    let tmux = Tmux::start("triage", 140, 40, &[&folder], &[]);
    tmux.wait_for("the captures to load", loaded);

    tmux.keys(&["b"]);
    let screen = tmux.wait_for("the group view", |s| s.contains("Groups by model"));
    let claude = screen
        .find("▶ claude-3-5-haiku")
        .expect("the worst group first");
    let gpt = screen.find("  gpt-4o-mini").expect("the other group");
    assert!(claude < gpt, "{screen}");
    assert!(
        screen.contains("50.0%") && screen.contains("33.3%"),
        "{screen}"
    );

    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("claude's captures", |s| {
        s.contains("Captures 6/12 · claude-3-5-hai")
    });
    let shown = rows(&screen);
    assert_eq!(shown.len(), 6, "{screen}");
    assert!(
        shown
            .iter()
            // The name is cut from the left when a capture's warning mark takes a column.
            .all(|(_, source)| source.ends_with("-haiku.json")),
        "{shown:?}\n{screen}"
    );

    // The filter menu ends with the models, then the prompts (two of them).
    tmux.keys(&["f"]);
    tmux.wait_for("the filter menu", |s| s.contains("┌ Filter "));
    tmux.keys(&["G", "k", "k"]);
    tmux.wait_for("the model entry", |s| s.contains("model gpt-4o-mini"));
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("gpt's captures", |s| {
        s.contains("Captures 6/12 · gpt-4o-mini")
    });
    let shown = rows(&screen);
    assert_eq!(shown.len(), 6, "{screen}");
    assert!(
        shown
            .iter()
            .all(|(_, source)| source.ends_with("gpt-4o-mini.json")),
        "{shown:?}\n{screen}"
    );
    assert_eq!(
        shown
            .iter()
            .filter(|(badge, _)| badge == "invalid" || badge == "truncated")
            .count(),
        2,
        "{screen}"
    );

    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_status(), 0);
}
