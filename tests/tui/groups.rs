//! The group view (`b`) and the filter menu's model and prompt entries, on a folder of
//! recorded captures (two models, two days, two prompts).

use crate::support;

use jxray::capture::{load, LoadOptions};
use jxray::group::GroupBy;
use jxray::tui::action::Command;
use jxray::tui::app::{Filter, Overlay};
use jxray::tui::App;
use support::triage::write_recorded;
use support::tui::{app_with, run, screen};

fn recorded(width: u16, height: u16) -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().unwrap();
    write_recorded(dir.path());
    let captures = load(dir.path(), &LoadOptions::default()).unwrap();
    assert_eq!(captures.len(), 12, "request files are not captures");
    (dir, app_with(captures, width, height))
}

#[test]
fn the_group_view_at_80x24_and_160x45() {
    for (width, height) in [(80, 24), (160, 45)] {
        let (_dir, mut app) = recorded(width, height);
        run(&mut app, &[Command::Groups]);
        let shown = screen(&app);
        assert!(shown.contains("Groups by model"), "{shown}");
        insta::assert_snapshot!(format!("group_view_by_model_{width}x{height}"), shown);
        run(&mut app, &[Command::Groups]);
        let shown = screen(&app);
        insta::assert_snapshot!(format!("group_view_by_prompt_{width}x{height}"), shown);
    }
}

#[test]
fn the_worst_group_comes_first_and_b_steps_through_the_keys() {
    let (_dir, mut app) = recorded(160, 45);
    run(&mut app, &[Command::Groups]);
    let screen_text = screen(&app);
    let shown = screen_text
        .split("Groups by model")
        .nth(1)
        .expect("the group view");
    let claude = shown.find("claude-3-5-haiku").expect("claude's group");
    let gpt = shown.find("gpt-4o-mini ").expect("gpt's group");
    assert!(claude < gpt, "3 of 6 failed comes before 2 of 6:\n{shown}");
    assert!(
        shown.contains("50.0%") && shown.contains("33.3%"),
        "{shown}"
    );
    for by in ["prompt", "provider", "folder", "day", "model"] {
        run(&mut app, &[Command::Groups]);
        assert!(
            screen(&app).contains(&format!("Groups by {by}")),
            "{by}: {}",
            screen(&app)
        );
    }
}

#[test]
fn enter_shows_the_chosen_groups_captures_and_esc_closes() {
    let (_dir, mut app) = recorded(160, 45);
    run(
        &mut app,
        &[Command::Groups, Command::Down, Command::Confirm],
    );
    assert_eq!(app.overlay, Overlay::None);
    assert_eq!(
        app.entries.filter,
        Filter::Group(GroupBy::Model, "gpt-4o-mini".into())
    );
    assert_eq!(app.entries.view.len(), 6);
    let shown = screen(&app);
    assert!(shown.contains("Captures 6/12 · gpt-4o-mini"), "{shown}");
    assert!(!shown.contains("claude-3-5-haiku.json"), "{shown}");
    run(&mut app, &[Command::Groups, Command::Back]);
    assert_eq!(app.overlay, Overlay::None);
}

#[test]
fn the_filter_menu_has_an_entry_for_each_model_and_prompt() {
    let (_dir, mut app) = recorded(80, 24);
    let menu = Filter::menu_of(&app.entries.kinds);
    let groups: Vec<String> = menu
        .iter()
        .filter_map(|filter| match filter {
            Filter::Group(by, name) => Some(format!("{} {name}", by.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(groups.len(), 4, "{groups:?}");
    assert_eq!(groups[0], "model claude-3-5-haiku");
    assert_eq!(groups[1], "model gpt-4o-mini");
    assert!(groups[3].starts_with("prompt You extract invoice fields. Reply… · "));
    let at = menu.len() - 1;
    let mut keys = vec![Command::Filter];
    keys.extend(std::iter::repeat_n(Command::Down, at));
    run(&mut app, &keys);
    let shown = screen(&app);
    assert!(shown.contains("prompt You extract"), "{shown}");
    run(&mut app, &[Command::Confirm]);
    assert_eq!(app.entries.view.len(), 6, "the second day's captures");
    assert!(app
        .entries
        .iter()
        .filter(|entry| entry.shown_by(&app.entries.filter))
        .all(|entry| entry.capture.source.starts_with("2026-12-01/")));
}
