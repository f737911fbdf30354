//! Watch mode in the app: the watcher's batches drive re-reads, marks and the
//! footer's mix since watching started. No file system here: the watcher's
//! events are fed as actions (the watcher itself is tested in src/watch/).

use crate::support;

use std::path::PathBuf;

use jxray::tui::action::{Action, Command, Effect, Loaded, WatchControl};
use jxray::tui::{update, App};
use jxray::watch::{PathChange, WatchEvent, WatchStatus};
use support::tui::{app_with, capture, screen};

fn load(app: &mut App, source: &str, text: &str) {
    let capture = capture(source, text, None);
    let outcome = support::capture::outcome_of(&capture, &app.options);
    update(
        app,
        Action::FileLoaded {
            path: PathBuf::from(source),
            captures: vec![Loaded {
                capture,
                outcome,
                request: None,
                modified: None,
            }],
            options: app.options.clone(),
        },
    );
    app.settle();
}

fn watching() -> App {
    let mut app = app_with(
        vec![
            capture("a.txt", "{\"a\": 1}", None),
            capture("b.txt", "```json\n{\"b\": 2}\n```", None),
        ],
        120,
        24,
    );
    let effects = update(&mut app, Action::Command(Command::ToggleWatch));
    assert!(matches!(effects[0], Effect::Watch(WatchControl::Start)));
    // Starting walks the folder again, and names the files it knows, so that
    // one deleted meanwhile is reported gone.
    assert!(effects
        .iter()
        .any(|e| matches!(e, Effect::LoadAll { known, .. } if known.len() == 2)));
    update(&mut app, Action::Discovered { files: 2 });
    update(
        &mut app,
        Action::Watch(WatchEvent::Status(WatchStatus::native())),
    );
    // The re-read finds nothing new: no marks.
    load(&mut app, "a.txt", "{\"a\": 1}");
    load(&mut app, "b.txt", "```json\n{\"b\": 2}\n```");
    app
}

fn changes(app: &mut App, changes: Vec<PathChange>) -> Vec<Effect> {
    update(app, Action::Watch(WatchEvent::Changes(changes)))
}

#[test]
fn with_watch_on_the_watcher_starts_before_the_load() {
    let mut settings = support::tui::settings();
    settings.watch = true;
    let app = App::new(
        settings,
        jxray::tui::theme::Theme::new(jxray::config::ThemeName::Dark, false),
        Default::default(),
        ratatui::layout::Rect::new(0, 0, 80, 24),
    );
    let effects = app.start();
    assert!(matches!(effects[0], Effect::Watch(WatchControl::Start)));
    assert!(matches!(effects[1], Effect::LoadAll { .. }));
}

#[test]
fn changed_files_are_re_read_and_marked_until_viewed() {
    let mut app = watching();
    assert!(app.entries.iter().all(|e| !e.changed));
    let effects = changes(
        &mut app,
        vec![
            PathChange::Changed(PathBuf::from("b.txt")),
            PathChange::Changed(PathBuf::from("README.md")),
            PathChange::Changed(PathBuf::from("c.txt")),
        ],
    );
    let [Effect::Reload { paths, .. }] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert_eq!(
        paths,
        &[PathBuf::from("b.txt"), PathBuf::from("c.txt")],
        "README is not a capture"
    );
    load(&mut app, "b.txt", "{\"b\": 2, \"cut\": \"of");
    load(&mut app, "c.txt", "{}");
    let marked: Vec<(String, bool)> = app
        .entries
        .iter()
        .map(|e| (e.capture.source.clone(), e.changed))
        .collect();
    assert_eq!(
        marked,
        [
            ("a.txt".into(), false),
            ("b.txt".into(), true),
            ("c.txt".into(), true)
        ]
    );
    assert_eq!(
        app.selected_entry().unwrap().capture.source,
        "a.txt",
        "the selection stays"
    );
    let text = screen(&app);
    assert!(
        text.contains("since start: direct 1→2  fenced 1→0  truncated 0→1"),
        "{text}"
    );
    update(&mut app, Action::Command(Command::Down));
    assert!(
        !app.selected_entry().unwrap().changed,
        "viewing clears the mark"
    );
}

#[test]
fn deleted_files_are_marked_gone_then_dropped() {
    let mut app = watching();
    update(&mut app, Action::Command(Command::Down));
    changes(&mut app, vec![PathChange::Removed(PathBuf::from("b.txt"))]);
    app.settle();
    let b = app
        .entries
        .iter()
        .find(|e| e.capture.source == "b.txt")
        .unwrap();
    assert!(b.gone);
    assert!(screen(&app).contains("gone"));
    changes(&mut app, vec![PathChange::Changed(PathBuf::from("a.txt"))]);
    app.settle();
    assert_eq!(app.entries.len(), 1);
    assert_eq!(app.selected_entry().unwrap().capture.source, "a.txt");
}

#[test]
fn pause_holds_changes_and_w_stops_watching() {
    let mut app = watching();
    let effects = update(&mut app, Action::Command(Command::PauseWatch));
    assert!(matches!(
        effects.as_slice(),
        [Effect::Watch(WatchControl::Pause)]
    ));
    assert!(screen(&app).contains("paused"));
    let effects = update(&mut app, Action::Command(Command::PauseWatch));
    assert!(matches!(
        effects.as_slice(),
        [Effect::Watch(WatchControl::Resume)]
    ));
    let effects = update(&mut app, Action::Command(Command::ToggleWatch));
    assert!(matches!(
        effects.as_slice(),
        [Effect::Watch(WatchControl::Stop)]
    ));
    assert!(!app.watch.active);
    // Late events from a stopped watcher change nothing.
    assert!(changes(&mut app, vec![PathChange::Changed(PathBuf::from("a.txt"))]).is_empty());
    let effects = update(&mut app, Action::Command(Command::PauseWatch));
    assert!(effects.is_empty());
    assert!(app.notice.as_ref().unwrap().error);
}

#[test]
fn a_rescan_reads_everything_again() {
    let mut app = watching();
    let effects = update(&mut app, Action::Watch(WatchEvent::Rescan));
    assert!(effects.iter().any(|e| matches!(e, Effect::LoadAll { .. })));
    assert!(app.progress.loading());
}

#[test]
fn at_80x24_the_watch_delta_is_abbreviated_not_cut() {
    let mut app = watching();
    update(
        &mut app,
        Action::Resize {
            width: 80,
            height: 24,
        },
    );
    changes(
        &mut app,
        vec![
            PathChange::Changed(PathBuf::from("b.txt")),
            PathChange::Changed(PathBuf::from("c.txt")),
        ],
    );
    load(&mut app, "b.txt", "{\"b\": 2, \"cut\": \"of");
    load(&mut app, "c.txt", "{}");
    let text = screen(&app);
    let footer = text.lines().last().unwrap_or_default();
    assert!(!footer.contains('…'), "{footer}");
    assert!(footer.contains("Δ dir 1→2 fen 1→0 trunc 0→1"), "{footer}");
}

#[test]
fn the_failure_share_of_arriving_captures_is_a_sparkline_at_80x24_and_160x45() {
    for (width, height) in [(80, 24), (160, 45)] {
        let mut app = watching();
        update(&mut app, Action::Resize { width, height });
        // The first load and watching's own re-read are not arrivals.
        assert!(app.watch.arrivals.is_empty());
        assert!(!screen(&app).contains("arrived"), "{}", screen(&app));
        let arriving: Vec<(String, &str)> = (0..12)
            .map(|n| {
                let text = if n < 6 && n % 2 == 0 {
                    "{\"a\": 1,}"
                } else {
                    "{\"a\": 1}"
                };
                (format!("new-{n:02}.txt"), text)
            })
            .collect();
        let paths = arriving
            .iter()
            .map(|(name, _)| PathChange::Changed(PathBuf::from(name)))
            .collect();
        changes(&mut app, paths);
        for (name, text) in &arriving {
            load(&mut app, name, text);
        }
        let shares = app.watch.failure_shares(12);
        assert_eq!(shares[..3], [100, 50, 66], "{shares:?}");
        assert_eq!(shares[9..], [30, 20, 20], "{shares:?}");
        let shown = screen(&app);
        assert!(
            shown.contains("failed 20% of last 10 · 12 arrived"),
            "{shown}"
        );
        insta::assert_snapshot!(format!("sparkline_{width}x{height}"), shown);
    }
}
