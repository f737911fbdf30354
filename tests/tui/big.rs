//! A big capture's panes are built off the UI thread: a preview at once, the
//! panes when the build arrives, and kept for the next visit. The build runs
//! here by hand, where the event loop would run it on its builder thread.

use crate::support;

use jxray::tui::action::{Action, Command, Effect};
use jxray::tui::{update, App};
use support::tui::{app_with, capture, run, screen};

/// About 1.2 MB (over the 1 MiB line): a fenced array of records with one raw newline.
fn big_text() -> String {
    let mut text = String::from("Here is the export:\n```json\n[\n");
    let mut i = 0;
    while text.len() < 1_200_000 {
        text.push_str(&format!(
            "  {{\"id\": {i}, \"name\": \"record {i}\", \"body\": \"the quick brown fox\"}},\n"
        ));
        i += 1;
    }
    text.push_str("  {\"id\": -1, \"body\": \"raw\nnewline\"}\n]\n```\n");
    text
}

fn app() -> App {
    let small = |name: &str| capture(name, "```json\n{\"ok\": true}\n```", Some("stop"));
    let big = capture("runs/big.txt", &big_text(), Some("stop"));
    app_with(vec![small("runs/a.txt"), big, small("runs/c.txt")], 160, 30)
}

fn building(app: &App) -> bool {
    app.detail.as_ref().is_some_and(|detail| detail.building)
}

fn built_into(app: &mut App, job: jxray::tui::app::DetailJob) {
    update(app, Action::DetailBuilt(Box::new(job.run())));
    app.settle();
}

#[test]
fn a_big_capture_shows_its_head_while_its_panes_are_built() {
    let mut app = app();
    assert!(!building(&app), "a small capture is built at once");
    assert!(app.big.take_job().is_none());
    run(&mut app, &[Command::Down]);
    assert!(building(&app));
    insta::assert_snapshot!(screen(&app));
    let job = app.big.take_job().expect("the build is asked for");
    built_into(&mut app, job);
    assert!(!building(&app));
    let shown = screen(&app);
    assert!(shown.contains("Decoded · array, "), "{shown}");
    assert!(shown.contains("Normalized · 1 repair"), "{shown}");
}

#[test]
fn moving_past_a_big_capture_keeps_the_keys_and_its_build() {
    let mut app = app();
    run(&mut app, &[Command::Down, Command::Down]);
    // The user is past it before it is built: c.txt is shown, built here.
    assert!(!building(&app));
    assert!(screen(&app).contains("runs/c.txt"));
    let job = app.big.take_job().expect("asked for while it was selected");
    // Back on it while it builds: no second build is asked for.
    run(&mut app, &[Command::Up]);
    assert!(building(&app));
    assert!(app.big.take_job().is_none());
    built_into(&mut app, job);
    assert!(!building(&app), "the build arrives and is shown");
    // Away and back again: kept, shown at once, nothing built.
    run(&mut app, &[Command::Up, Command::Down]);
    assert!(!building(&app));
    assert!(app.big.take_job().is_none());
    assert!(screen(&app).contains("Decoded · array, "));
}

#[test]
fn a_build_that_arrives_after_the_user_left_is_kept_for_the_next_visit() {
    let mut app = app();
    run(&mut app, &[Command::Down]);
    let job = app.big.take_job().expect("the build is asked for");
    run(&mut app, &[Command::Down]);
    built_into(&mut app, job);
    assert!(screen(&app).contains("runs/c.txt"), "the selection stays");
    run(&mut app, &[Command::Up]);
    assert!(!building(&app));
    assert!(app.big.take_job().is_none());
}

#[test]
fn small_captures_passed_on_the_way_back_do_not_push_a_big_one_out() {
    let small = |name: &str| capture(name, "{\"ok\": true}", None);
    let big = capture("runs/big.txt", &big_text(), Some("stop"));
    let mut app = app_with(
        vec![
            big,
            small("runs/c.txt"),
            small("runs/d.txt"),
            small("runs/e.txt"),
        ],
        160,
        30,
    );
    let job = app.big.take_job().expect("the first capture is big");
    built_into(&mut app, job);
    run(&mut app, &[Command::Down, Command::Down, Command::Down]);
    run(&mut app, &[Command::Up, Command::Up, Command::Up]);
    assert!(!building(&app), "kept: {}", screen(&app));
    assert!(app.big.take_job().is_none());
}

#[test]
fn zooming_wraps_a_big_capture_again_off_the_ui_thread_and_keeps_both_widths() {
    let mut app = app();
    run(&mut app, &[Command::Down]);
    let job = app.big.take_job().expect("the build is asked for");
    built_into(&mut app, job);
    run(&mut app, &[Command::Zoom]);
    assert!(building(&app), "a preview while it is wrapped for the zoom");
    let job = app.big.take_job().expect("a build at the zoomed width");
    built_into(&mut app, job);
    assert!(!building(&app));
    let zoomed = screen(&app);
    assert!(
        zoomed.contains("Raw · runs/big.txt · 2/3 · 1200"),
        "{zoomed}"
    );
    // Back to the side-by-side panes: the first build fits them, kept.
    run(&mut app, &[Command::Back]);
    assert!(!building(&app));
    assert!(app.big.take_job().is_none());
}

#[test]
fn where_the_user_scrolled_the_preview_is_kept() {
    let mut app = app();
    run(&mut app, &[Command::Down, Command::FocusRaw]);
    run(&mut app, &[Command::PageDown, Command::PageDown]);
    let top = |app: &App| {
        let raw = &app.detail.as_ref().unwrap().panes[0];
        raw.rows.rows[raw.scroll].line
    };
    let before = top(&app);
    assert!(before > 0);
    let job = app.big.take_job().expect("the build is asked for");
    built_into(&mut app, job);
    assert!(!building(&app));
    assert_eq!(top(&app), before);
}

#[test]
fn the_build_is_an_effect_the_event_loop_performs() {
    let mut app = app();
    update(&mut app, Action::Command(Command::Down));
    let effects = app.frame_effects();
    assert!(
        matches!(effects.as_slice(), [Effect::BuildDetail(_)]),
        "the big capture's build is asked of the event loop: {effects:?}"
    );
    assert!(app.frame_effects().is_empty(), "asked for once");
}
