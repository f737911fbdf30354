//! `jxray record --tui`: the panel that says where to point the app (open at start until
//! the first call, `a` later, `y` copies a line), the footer's count of calls, the proxy's
//! log (`L`), and what an empty watched folder says.

use crate::support;

use jxray::config::ThemeName;
use jxray::engine::Options;
use jxray::tui::action::{Action, Command, Effect, ProxyNote};
use jxray::tui::app::Overlay;
use jxray::tui::recording::{Feed, Recording};
use jxray::tui::theme::Theme;
use jxray::tui::{update, App, TuiSettings};
use jxray_record::{Route, Routes};
use ratatui::layout::Rect;
use support::tui::{run, run_effects, screen, settings};

fn recording() -> Recording {
    let routes = Routes::with(vec![Route::parse("vllm=http://127.0.0.1:8000/v1").unwrap()]);
    Recording::new(
        "127.0.0.1:8788".parse().unwrap(),
        &routes,
        "captures".as_ref(),
        Feed::default(),
    )
}

/// An app as `jxray record --tui` starts it on an empty folder, loaded.
fn recording_app(width: u16, height: u16) -> App {
    app_of(
        TuiSettings {
            watch: true,
            recording: Some(recording()),
            ..settings()
        },
        width,
        height,
    )
}

fn app_of(settings: TuiSettings, width: u16, height: u16) -> App {
    let mut app = App::new(
        settings,
        Theme::new(ThemeName::Dark, true),
        Options::default(),
        Rect::new(0, 0, width, height),
    );
    app.load_now(Vec::new());
    app
}

fn footer(app: &App) -> String {
    screen(app).lines().last().unwrap_or_default().to_string()
}

#[test]
fn empty_recording_80x24() {
    insta::assert_snapshot!(screen(&recording_app(80, 24)));
}

#[test]
fn empty_recording_160x45() {
    insta::assert_snapshot!(screen(&recording_app(160, 45)));
}

#[test]
fn the_panel_shows_the_same_lines_plain_record_prints() {
    let app = recording_app(160, 45);
    let shown = screen(&app);
    for line in &app.settings.recording.as_ref().unwrap().env_lines {
        let paste = jxray::tui::recording::to_paste(line);
        assert!(shown.contains(paste), "{paste} not in\n{shown}");
    }
    assert!(shown.contains("waiting for the first call"), "{shown}");
    assert!(
        shown.contains("/vllm -> http://127.0.0.1:8000/v1"),
        "{shown}"
    );
}

#[test]
fn the_first_call_closes_the_panel_and_the_footer_counts_calls() {
    let mut app = recording_app(120, 30);
    assert!(footer(&app).contains("recording :8788 · 0 calls · 0 not kept"));
    update(&mut app, Action::Proxy(ProxyNote::Line("a note".into())));
    assert!(matches!(app.overlay, Overlay::Recording { .. }));
    update(
        &mut app,
        Action::Proxy(ProxyNote::Kept("recorded a.json".into())),
    );
    assert_eq!(app.overlay, Overlay::None);
    let reason = "cannot reach http://127.0.0.1:9/v1: connection refused";
    update(&mut app, Action::Proxy(ProxyNote::NotKept(reason.into())));
    assert!(
        footer(&app).contains("recording :8788 · 2 calls · 1 not kept (L why)"),
        "{}",
        footer(&app)
    );
    run(&mut app, &[Command::ProxyLog]);
    let shown = screen(&app);
    let last = shown.find("Last call not kept").expect("the last reason");
    assert!(shown[last..].contains(reason), "{shown}");
    assert!(shown.contains("a note") && shown.contains("recorded a.json"));
    run(&mut app, &[Command::Back]);
    assert_eq!(app.overlay, Overlay::None);
    // A stream --stop-on ended is a call kept, counted apart.
    let stopped = "recorded b.sse (200, 0.1 s); stopped by jxray (--stop-on runaway) at byte 519";
    update(&mut app, Action::Proxy(ProxyNote::Stopped(stopped.into())));
    assert!(
        footer(&app).contains("recording :8788 · 3 calls · 1 stopped · 1 not kept (L why)"),
        "{}",
        footer(&app)
    );
}

#[test]
fn a_opens_the_panel_again_and_y_copies_the_chosen_line() {
    let mut app = recording_app(120, 30);
    run(&mut app, &[Command::Back]);
    assert_eq!(app.overlay, Overlay::None);
    run(&mut app, &[Command::PointApp]);
    let effects = run_effects(&mut app, &[Command::Down, Command::Copy]);
    let copied: Vec<&Effect> = effects
        .iter()
        .filter(|e| matches!(e, Effect::Copy(_)))
        .collect();
    assert!(
        matches!(copied[..], [Effect::Copy(text)] if text == "export ANTHROPIC_BASE_URL=http://127.0.0.1:8788/anthropic"),
        "{effects:?}"
    );
    // The comment after a line is not pasted.
    run(&mut app, &[Command::Up]);
    let effects = run_effects(&mut app, &[Command::Confirm]);
    assert!(
        matches!(&effects[..], [Effect::Copy(text)] if text == "export OPENAI_BASE_URL=http://127.0.0.1:8788/openai"),
        "{effects:?}"
    );
}

#[test]
fn without_a_proxy_a_and_l_say_so() {
    let mut app = app_of(settings(), 120, 30);
    assert_eq!(app.overlay, Overlay::None);
    run(&mut app, &[Command::PointApp]);
    assert_eq!(app.overlay, Overlay::None);
    assert!(notice_of(&app).contains("jxray record --tui"));
    run(&mut app, &[Command::ProxyLog]);
    assert_eq!(app.overlay, Overlay::None);
}

fn notice_of(app: &App) -> String {
    app.notice
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default()
}

#[test]
fn empty_watched_folder_80x24() {
    let app = app_of(
        TuiSettings {
            watch: true,
            ..settings()
        },
        80,
        24,
    );
    insta::assert_snapshot!(screen(&app));
}
