//! The arrival view (`T`): a recorded runaway stream and a recorded fenced stream, stepped
//! to the chunk where the signal fires, at 80×24 and 160×45; and the real binary under tmux.

use std::path::Path;

use crate::support;

use crate::tmux::{loaded, Tmux};
use support::streams::openai_stream;

use jxray::capture::{load, LoadOptions};
use jxray::tui::action::{Action, Command, Edit};
use jxray::tui::{update, App};
use support::tui::{app_with, screen};

/// A runaway (a value, then 100 chunks of 8 spaces: certain at chunk 65) and a fenced answer.
fn streams(dir: &Path) {
    let mut runaway = vec!["{\"summary\": \"ok\","];
    runaway.extend(std::iter::repeat_n("        ", 100));
    std::fs::write(dir.join("runaway.sse"), openai_stream(&runaway, "length")).unwrap();
    let fenced = [
        "Here:\n```json\n",
        "{\"city\": \"Pa",
        "ris\", \"tags\": [1",
        ", 2]}\n```",
    ];
    std::fs::write(dir.join("fenced.sse"), openai_stream(&fenced, "stop")).unwrap();
}

fn command(app: &mut App, command: Command) {
    update(app, Action::Command(command));
}

/// The workbench at `width`×`height` on `dir`'s streams, the arrival view of `name` open.
fn arrival_of(dir: &Path, name: &str, (width, height): (u16, u16)) -> App {
    let mut app = app_with(load(dir, &LoadOptions::default()).unwrap(), width, height);
    while !app.selected_entry().unwrap().capture.source.ends_with(name) {
        command(&mut app, Command::Down);
    }
    command(&mut app, Command::Timeline);
    app
}

#[test]
fn the_arrival_view_steps_to_the_chunk_where_a_runaway_became_certain() {
    let dir = tempfile::tempdir().unwrap();
    streams(dir.path());
    for (width, height) in [(80, 24), (160, 45)] {
        let mut app = arrival_of(dir.path(), "runaway.sse", (width, height));
        let first = screen(&app);
        assert!(first.contains("chunk 1 of 101"), "{first}");
        // `64` then → : from chunk 1 to chunk 65, where the runaway became certain.
        for digit in ['6', '4'] {
            update(&mut app, Action::Edit(Edit::Insert(digit)));
        }
        command(&mut app, Command::StepForward);
        let shown = screen(&app);
        assert!(shown.contains("chunk 65 of 101"), "{shown}");
        assert!(
            shown.contains("runaway certain at chunk 65 of 101"),
            "{shown}"
        );
        assert!(shown.contains("signals so far: runaway"), "{shown}");
        insta::assert_snapshot!(format!("runaway_{width}x{height}"), shown);
        command(&mut app, Command::Back);
        assert!(!screen(&app).contains("Arrival"));
    }
}

#[test]
fn the_arrival_view_shows_a_fenced_stream_never_inventing_a_value() {
    let dir = tempfile::tempdir().unwrap();
    streams(dir.path());
    for (width, height) in [(80, 24), (160, 45)] {
        let mut app = arrival_of(dir.path(), "fenced.sse", (width, height));
        command(&mut app, Command::StepForward);
        command(&mut app, Command::StepForward);
        let shown = screen(&app);
        assert!(shown.contains("chunk 3 of 4"), "{shown}");
        // `[1` has arrived, but the number's token has not ended: no item yet.
        assert!(shown.contains("\"tags\": []"), "{shown}");
        insta::assert_snapshot!(format!("fenced_{width}x{height}"), shown);
        command(&mut app, Command::Bottom);
        assert!(screen(&app).contains("chunk 4 of 4"));
    }
}

#[test]
fn a_capture_that_was_not_streamed_says_so() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "{\"a\": 1}").unwrap();
    let mut app = app_with(load(dir.path(), &LoadOptions::default()).unwrap(), 100, 30);
    command(&mut app, Command::Timeline);
    assert!(
        screen(&app).contains("not a saved stream"),
        "{}",
        screen(&app)
    );
}

#[test]
fn the_real_binary_opens_the_arrival_view_and_steps_with_a_count() {
    let dir = tempfile::tempdir().unwrap();
    streams(dir.path());
    let folder = dir.path().to_str().unwrap().to_string();
    let tmux = Tmux::start("arrival", 80, 24, &[&folder], &[]);
    tmux.wait_for("the captures to load", loaded);
    tmux.keys(&["j", "T"]);
    tmux.wait_for("the arrival view", |s| s.contains("chunk 1 of 101"));
    tmux.keys(&["6", "4", "Right"]);
    let shown = tmux.wait_for("chunk 65", |s| s.contains("chunk 65 of 101"));
    assert!(shown.contains("runaway certain at chunk 65"), "{shown}");
    tmux.keys(&["End"]);
    tmux.wait_for("the last chunk", |s| s.contains("chunk 101 of 101"));
    tmux.keys(&["Escape"]);
    tmux.wait_for("the list again", |s| !s.contains("Arrival"));
}

#[test]
fn a_recorded_stream_says_when_each_chunk_came() {
    let dir = tempfile::tempdir().unwrap();
    let day = dir.path().join("2026-12-06");
    std::fs::create_dir_all(&day).unwrap();
    let chunks = ["{\"city\": \"Pa", "ris\"}"];
    let sse = openai_stream(&chunks, "stop");
    // The proxy's points: each event's end, 120 ms after the request and 40 ms apart.
    let ends: Vec<usize> = sse.match_indices("\n\n").map(|(at, _)| at + 2).collect();
    let ms: Vec<usize> = (0..ends.len()).map(|i| 120 + 40 * i).collect();
    std::fs::write(day.join("10-00-00.000-m.sse"), &sse).unwrap();
    let request = serde_json::json!({"jxray_request": 1, "method": "POST", "model": "m",
        "stream": true, "body": {"messages": []}, "arrival": {"ms": ms, "bytes": ends}});
    std::fs::write(day.join("10-00-00.000-m.request.json"), request.to_string()).unwrap();
    let mut app = app_with(load(dir.path(), &LoadOptions::default()).unwrap(), 100, 30);
    command(&mut app, Command::Timeline);
    let shown = screen(&app);
    assert!(
        shown.contains("chunk 1 of 2 · byte 12 of 17 · 120 ms"),
        "{shown}"
    );
    assert!(
        shown.contains("first byte at 120 ms · first value at chunk 1 (byte 12, 120 ms)"),
        "{shown}"
    );
    command(&mut app, Command::StepForward);
    assert!(
        screen(&app).contains("chunk 2 of 2 · byte 17 of 17 · 160 ms"),
        "{}",
        screen(&app)
    );
}
