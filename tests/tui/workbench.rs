//! The workbench as a user drives it: search as you type, filters by defect,
//! the copy menu, following the newest capture, the save dialog's previews.
//! Each test feeds actions to `update` and checks the state or the screen.

use crate::support;

use std::time::{Duration, SystemTime};

use jxray::tui::action::{Action, Command, Edit, Effect};
use jxray::tui::app::{Filter, Overlay, Sort};
use jxray::tui::{update, App};
use support::tui::{app_with, capture, screen};

fn run(app: &mut App, commands: &[Command]) -> Vec<Effect> {
    support::tui::run_effects(app, commands)
}

fn type_text(app: &mut App, text: &str) {
    for ch in text.chars() {
        update(app, Action::Edit(Edit::Insert(ch)));
    }
}

fn selected_source(app: &App) -> String {
    app.selected_entry()
        .map(|e| e.capture.source.clone())
        .unwrap_or_default()
}

fn notice(app: &App) -> String {
    app.notice
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default()
}

const FENCED: &str = "```json\n{\"sku\": \"A-1\", \"city\": \"Caf\\u00e9\"}\n```";
const TRAILING: &str = "{\"a\": [1, 2,]}";
const TRUNCATED: &str = "{\"items\": [1, 2";

fn three() -> App {
    app_with(
        vec![
            capture("runs/a.txt", FENCED, None),
            capture("runs/b.txt", TRAILING, None),
            capture("runs/c.txt", TRUNCATED, Some("length")),
        ],
        100,
        30,
    )
}

#[test]
fn search_marks_matches_while_typing_and_esc_brings_back_the_old_search() {
    let mut app = three();
    run(&mut app, &[Command::Search]);
    type_text(&mut app, "SK");
    assert!(app.entries.iter().all(|e| !e.matched), "a capital is exact");
    update(&mut app, Action::Edit(Edit::Backspace));
    update(&mut app, Action::Edit(Edit::Backspace));
    type_text(&mut app, "sk");
    let matched: Vec<bool> = app.entries.iter().map(|e| e.matched).collect();
    assert_eq!(matched, [true, false, false], "marked before Enter");
    assert!(screen(&app).contains("1 matching"), "{}", screen(&app));
    run(&mut app, &[Command::Back]);
    assert!(app.query.is_none());
    assert!(app.entries.iter().all(|e| !e.matched));
}

#[test]
fn search_finds_a_decoded_value_the_raw_text_spells_with_escapes() {
    let mut app = three();
    run(&mut app, &[Command::Down, Command::Search]);
    type_text(&mut app, "café");
    run(&mut app, &[Command::Confirm]);
    assert_eq!(selected_source(&app), "runs/a.txt");
}

#[test]
fn the_filter_menu_offers_the_defects_present_and_filters_by_them() {
    let mut app = three();
    let menu = Filter::menu(app.entries.iter().map(|e| &*e.outcome));
    let defect = menu
        .iter()
        .position(|f| matches!(f, Filter::Defect(_)))
        .expect("the trailing comma is offered");
    run(&mut app, &[Command::Filter]);
    for _ in 0..defect {
        run(&mut app, &[Command::Down]);
    }
    run(&mut app, &[Command::Confirm]);
    assert!(matches!(app.entries.filter, Filter::Defect(_)));
    assert_eq!(app.entries.view.len(), 1);
    assert_eq!(selected_source(&app), "runs/b.txt");
}

#[test]
fn the_copy_menu_copies_raw_text_of_a_failure_and_refuses_what_is_too_big() {
    let mut app = three();
    run(&mut app, &[Command::Down, Command::Copy]);
    assert_eq!(
        app.overlay,
        Overlay::Copy { cursor: 1 },
        "raw text first for a failure"
    );
    let effects = run(&mut app, &[Command::Confirm]);
    assert!(matches!(&effects[..], [Effect::Copy(text)] if text == TRAILING));

    // The lenient reading of the trailing comma.
    let effects = run(&mut app, &[Command::Copy, Command::Down, Command::Confirm]);
    assert!(
        matches!(&effects[..], [Effect::Copy(text)] if text.contains('2') && !text.contains(",]")),
        "{effects:?}"
    );

    // The path, with nothing else about it.
    let effects = run(
        &mut app,
        &[Command::Copy, Command::Bottom, Command::Confirm],
    );
    assert!(matches!(&effects[..], [Effect::Copy(text)] if text.ends_with("b.txt")));

    let big = format!("{{\"text\": \"{}\"}}", "x".repeat(200 * 1024));
    let mut app = app_with(vec![capture("big.txt", &big, None)], 100, 30);
    let effects = run(&mut app, &[Command::Copy, Command::Confirm]);
    assert!(effects.is_empty());
    assert!(notice(&app).contains("200.0 KB"), "{}", notice(&app));
    assert!(notice(&app).contains("nothing copied"), "{}", notice(&app));
}

#[test]
fn a_capture_with_no_value_has_no_value_to_copy_but_says_why() {
    let mut app = three();
    run(
        &mut app,
        &[
            Command::Bottom,
            Command::Copy,
            Command::Up,
            Command::Confirm,
        ],
    );
    assert!(
        notice(&app).starts_with("no decoded value to copy"),
        "{}",
        notice(&app)
    );
}

#[test]
fn going_back_from_the_top_says_it_wrapped_to_the_last_failure() {
    let mut app = three();
    run(&mut app, &[Command::PrevFailure]);
    assert_eq!(selected_source(&app), "runs/c.txt");
    assert_eq!(notice(&app), "wrapped around to the last failure");
    run(&mut app, &[Command::NextFailure]);
    assert_eq!(notice(&app), "wrapped around to the first failure");
}

/// Three captures whose files were written a minute apart, the middle one last.
fn aged() -> App {
    let mut app = three();
    let now = SystemTime::now();
    let ages = [120, 0, 60];
    let ids: Vec<u64> = app.entries.iter().map(|e| e.id).collect();
    for (id, age) in ids.into_iter().zip(ages) {
        app.entries.get_mut(id).unwrap().modified = Some(now - Duration::from_secs(age));
    }
    app.settle();
    app
}

#[test]
fn t_sorts_newest_first_after_source_and_outcome() {
    let mut app = aged();
    run(&mut app, &[Command::Sort, Command::Sort]);
    assert_eq!(app.entries.sort, Sort::Modified);
    let order: Vec<String> = (0..3)
        .map(|i| app.entries.at(i).unwrap().capture.source.clone())
        .collect();
    assert_eq!(order, ["runs/b.txt", "runs/c.txt", "runs/a.txt"]);
    assert!(screen(&app).contains("newest first"));
    run(&mut app, &[Command::Sort]);
    assert_eq!(app.entries.sort, Sort::Source);
}

#[test]
fn f_follows_the_newest_capture_until_a_move() {
    let mut app = aged();
    run(&mut app, &[Command::Follow]);
    assert_eq!(selected_source(&app), "runs/b.txt");
    assert!(screen(&app).contains("following"));
    // A newer capture arrives: the selection goes with it.
    let id = app.entries.at(2).unwrap().id;
    app.entries.get_mut(id).unwrap().modified = Some(SystemTime::now() + Duration::from_secs(5));
    app.settle();
    assert_eq!(selected_source(&app), "runs/c.txt");
    run(&mut app, &[Command::Up]);
    assert!(!app.follow_newest);
    assert_eq!(selected_source(&app), "runs/b.txt");
    assert!(notice(&app).contains("stopped following"));
}

#[test]
fn the_save_dialog_shows_the_final_name_and_refuses_a_slash_in_the_dialog() {
    let temp = tempfile::tempdir().unwrap();
    let mut app = three();
    app.settings.fixtures = temp.path().to_path_buf();
    std::fs::write(temp.path().join("runs-a.json"), "{}").unwrap();
    run(&mut app, &[Command::Save]);
    let shown = screen(&app);
    assert!(shown.contains("runs-a-2.json"), "{shown}");
    assert!(shown.contains("the name is taken"), "{shown}");

    update(&mut app, Action::Edit(Edit::Clear));
    type_text(&mut app, "x/y");
    let effects = run(&mut app, &[Command::Confirm]);
    assert!(effects.is_empty(), "nothing is attempted");
    assert!(
        matches!(&app.overlay, Overlay::Save(dialog) if dialog.error.as_deref().is_some_and(|e| e.contains("forbids") && e.contains("\"x-y\""))),
        "the dialog says why and offers a name that works: {:?}",
        app.overlay
    );
    assert!(app.notice.is_none(), "no \"saving…\" left behind");
}

#[test]
fn save_all_says_why_unreadable_captures_are_left_out() {
    let mut captures = vec![
        capture("a.txt", FENCED, None),
        capture("b.txt", TRAILING, None),
    ];
    captures.push(jxray::capture::Capture {
        text: Err(jxray::capture::Unreadable::new("not UTF-8")),
        ..capture("c.bin", "", None)
    });
    let mut app = app_with(captures, 100, 30);
    run(&mut app, &[Command::SaveAll]);
    let shown = screen(&app);
    assert!(
        shown.contains("2 of 3 in the list (1 unreadable"),
        "{shown}"
    );
}

#[test]
fn a_deleted_fixture_is_no_longer_called_one() {
    let temp = tempfile::tempdir().unwrap();
    let mut app = three();
    let fixture = temp.path().join("a.json");
    std::fs::write(&fixture, "{}").unwrap();
    let id = app.selected.unwrap();
    update(
        &mut app,
        Action::SaveDone {
            results: vec![(id, jxray::tui::action::Saved::New(fixture.clone()))],
        },
    );
    assert!(app.selected_entry().unwrap().saved.is_some());
    std::fs::remove_file(&fixture).unwrap();
    run(&mut app, &[Command::Save]);
    assert!(app.selected_entry().unwrap().saved.is_none());
    assert!(!screen(&app).contains("already a fixture"));
}
