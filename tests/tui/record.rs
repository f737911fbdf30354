//! Captures recorded by `jxray record` in the workbench: the header names the model asked
//! for, `r` shows the request (system prompt, last user message, format asked for), a
//! fixture saved from one names the request by digest, and watch mode re-reads a capture
//! when its request file arrives.

use crate::support;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use jxray::capture::{load, LoadOptions, RecordedRequest};
use jxray::tui::action::{Action, Command, Effect};
use jxray::tui::app::Overlay;
use jxray::tui::{update, App};
use jxray::watch::{PathChange, WatchEvent};
use sha2::{Digest, Sha256};
use support::tui::{app_with, screen};

const CAPTURE: &str = r#"{"object":"chat.completion","model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"message":{"role":"assistant","content":"{\"city\": \"Par"},"finish_reason":"length"}]}"#;

const REQUEST: &str = r#"{
  "jxray_request": 1,
  "method": "POST",
  "path": "/openai/chat/completions",
  "model": "gpt-4o-mini",
  "stream": false,
  "status": 200,
  "body": {
    "model": "gpt-4o-mini",
    "messages": [
      {"role": "system", "content": "Reply with one JSON object naming the city."},
      {"role": "user", "content": "Where is the Louvre?"}
    ],
    "response_format": {"type": "json_schema", "json_schema": {"name": "place"}}
  }
}
"#;

/// A folder with one recorded capture (and its request) and one plain capture.
fn folder() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let day = dir.path().join("2026-12-01");
    std::fs::create_dir_all(&day).unwrap();
    let capture = day.join("14-03-22.118-gpt-4o-mini.json");
    let request = day.join("14-03-22.118-gpt-4o-mini.request.json");
    std::fs::write(&capture, CAPTURE).unwrap();
    std::fs::write(&request, REQUEST).unwrap();
    std::fs::write(dir.path().join("plain.txt"), "{\"a\": 1}").unwrap();
    (dir, capture, request)
}

fn app_of(root: &Path) -> App {
    let captures = load(root, &LoadOptions::default()).unwrap();
    assert_eq!(captures.len(), 2, "the request file is not a capture");
    app_with(captures, 140, 40)
}

fn command(app: &mut App, command: Command) -> Vec<Effect> {
    update(app, Action::Command(command))
}

#[test]
fn the_header_names_the_model_and_r_shows_the_request() {
    let (dir, _, _) = folder();
    let mut app = app_of(dir.path());
    let shown = screen(&app);
    assert!(shown.contains("model gpt-4o-mini  request r"), "{shown}");
    command(&mut app, Command::Request);
    assert!(matches!(app.overlay, Overlay::Request { .. }));
    let shown = screen(&app);
    for part in [
        "POST /openai/chat/completions",
        "System prompt",
        "Reply with one JSON object naming the city.",
        "Last user message",
        "Where is the Louvre?",
        "Response format asked for",
        "\"type\": \"json_schema\"",
    ] {
        assert!(shown.contains(part), "{part} not in\n{shown}");
    }
    command(&mut app, Command::Back);
    assert!(matches!(app.overlay, Overlay::None));
}

#[test]
fn a_capture_without_a_request_says_so() {
    let (dir, _, _) = folder();
    let mut app = app_of(dir.path());
    command(&mut app, Command::Down);
    app.settle();
    assert!(!screen(&app).contains("request r"));
    command(&mut app, Command::Request);
    assert!(matches!(app.overlay, Overlay::None));
    let notice = app.notice.as_ref().expect("a notice");
    assert!(
        notice.text.contains("no request beside this capture"),
        "{notice:?}"
    );
}

#[test]
fn r_before_a_big_request_file_is_read_says_so_then_shows_it() {
    // The capture was read before its request file was there (jxray record places the
    // capture first; an 8 MB request takes a while to write).
    let (dir, capture, request) = folder();
    std::fs::remove_file(&request).unwrap();
    let mut app = app_of(dir.path());
    let mut big: serde_json::Value = serde_json::from_str(REQUEST).unwrap();
    big["body"]["messages"][1]["content"] = serde_json::json!("x".repeat(8 * 1024 * 1024));
    std::fs::write(&request, big.to_string()).unwrap();
    let effects = command(&mut app, Command::Request);
    assert!(matches!(app.overlay, Overlay::None));
    let notice = app.notice.as_ref().expect("a notice");
    assert!(notice.text.contains("reading the request"), "{notice:?}");
    let [Effect::Reload { paths, .. }] = effects.as_slice() else {
        panic!("the capture is read again: {effects:?}");
    };
    assert_eq!(paths, std::slice::from_ref(&capture));
    // The loader reads it again, its request with it.
    let checker = jxray::check::Checker::new(app.options.clone(), None);
    let loaded = load(&capture, &LoadOptions::default())
        .unwrap()
        .into_iter()
        .map(|capture| jxray::tui::action::Loaded {
            outcome: checker.outcome(&capture),
            request: RecordedRequest::beside(&capture.path).map(|read| Arc::new(read.unwrap())),
            modified: None,
            capture,
        })
        .collect();
    let options = app.options.clone();
    update(
        &mut app,
        Action::FileLoaded {
            path: capture,
            captures: loaded,
            options,
        },
    );
    assert!(
        matches!(app.overlay, Overlay::Request { .. }),
        "the request opens once read"
    );
    assert!(screen(&app).contains("Reply with one JSON object naming the city."));
}

#[test]
fn a_fixture_saved_from_a_recorded_capture_names_its_model_and_request_digest() {
    let (dir, _, request) = folder();
    let mut app = app_of(dir.path());
    command(&mut app, Command::Save);
    // Named by the question it answers, not only the time and model every file has.
    let Overlay::Save(dialog) = &app.overlay else {
        panic!("no dialog: {:?}", app.overlay);
    };
    assert_eq!(dialog.name, "where-is-the-louvre-14-03-22-118-gpt-4o-mini");
    let effects = command(&mut app, Command::Confirm);
    let [Effect::SaveFixtures { fixtures, .. }] = effects.as_slice() else {
        panic!("expected one save, got {effects:?}");
    };
    let fixture = &fixtures[0].1;
    let digest = Sha256::digest(std::fs::read(&request).unwrap());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(fixture.model.as_deref(), Some("gpt-4o-mini"));
    assert_eq!(fixture.request_digest, Some(format!("sha256:{hex}")));
    // The fields are written, and a fixture file with them reads back the same.
    let text = fixture.to_file_text();
    assert!(text.contains("\"request_digest\": \"sha256:"), "{text}");
    let path = dir.path().join("fixture.json");
    std::fs::write(&path, &text).unwrap();
    assert_eq!(&jxray::fixture::load_file(&path).unwrap(), fixture);
}

#[test]
fn a_request_file_arriving_rereads_its_capture_in_watch_mode() {
    let (dir, capture, request) = folder();
    let mut app = app_of(dir.path());
    command(&mut app, Command::ToggleWatch);
    let effects = update(
        &mut app,
        Action::Watch(WatchEvent::Changes(vec![PathChange::Changed(request)])),
    );
    let reloaded: Vec<&PathBuf> = effects
        .iter()
        .filter_map(|effect| match effect {
            Effect::Reload { paths, .. } => Some(paths),
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(reloaded, [&capture]);
}

/// Where the selected capture came from.
fn selected(app: &App) -> String {
    app.selected_entry().unwrap().capture.source.clone()
}

/// The header line of the screen that names the selected capture.
fn header_of(app: &App) -> String {
    let source = selected(app);
    screen(app)
        .lines()
        .find(|line| line.contains(&source))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_repair_chain_shows_its_attempts_and_c_walks_it() {
    use crate::support::chains::{self, DAY, RECORDED_FIRST, RECORDED_SECOND};
    let dir = chains::folder();
    let captures = load(dir.path(), &LoadOptions::default()).unwrap();
    assert_eq!(captures.len(), 5, "request files are not captures");
    let mut app = app_with(captures, 240, 40);
    // The list starts at the recorded re-ask's first attempt.
    while !selected(&app).ends_with(RECORDED_FIRST) {
        command(&mut app, Command::Down);
    }
    let header = header_of(&app);
    assert!(
        header.contains("attempt 1 of 2 c"),
        "{header}\n{}",
        screen(&app)
    );
    command(&mut app, Command::NextInChain);
    assert!(selected(&app).ends_with(RECORDED_SECOND));
    let header = header_of(&app);
    assert!(
        header.contains(&format!(
            "attempt 2 of 2 · re-ask of {DAY}/{RECORDED_FIRST} c"
        )),
        "{header}\n{}",
        screen(&app)
    );
    // It wraps to the first attempt.
    command(&mut app, Command::NextInChain);
    assert!(selected(&app).ends_with(RECORDED_FIRST));
    // A capture in no chain says so, and stays selected.
    while !selected(&app).ends_with("plain.txt") {
        command(&mut app, Command::Down);
    }
    assert!(!header_of(&app).contains("attempt"));
    command(&mut app, Command::NextInChain);
    assert!(selected(&app).ends_with("plain.txt"));
    assert!(screen(&app).contains("not part of a repair chain"));
}

#[test]
fn the_workbench_judges_a_capture_against_the_schema_its_request_carried() {
    let dir = tempfile::tempdir().unwrap();
    let day = dir.path().join("2026-12-06");
    std::fs::create_dir_all(&day).unwrap();
    let capture = r#"{"object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"{\"severity\": \"urgent\"}"},"finish_reason":"stop"}]}"#;
    std::fs::write(day.join("10-00-00.000-m.json"), capture).unwrap();
    let request = serde_json::json!({"jxray_request": 1, "method": "POST", "body": {"messages": [],
        "response_format": {"type": "json_schema", "json_schema": {"name": "t",
            "schema": {"type": "object", "properties": {"severity": {"enum": ["low", "high"]}}}}}}});
    std::fs::write(day.join("10-00-00.000-m.request.json"), request.to_string()).unwrap();
    let captures = load(dir.path(), &LoadOptions::default()).unwrap();
    let app = app_with(captures, 140, 40);
    let entry = app.selected_entry().unwrap();
    let failure = entry
        .outcome
        .failure
        .as_ref()
        .expect("the request's schema applies");
    assert_eq!(failure.kind, jxray::engine::FailureKind::Schema);
    assert!(screen(&app).contains("schema"), "{}", screen(&app));
}

#[test]
fn at_80_columns_the_chain_header_keeps_its_keys() {
    use crate::support::chains::{self, RECORDED_SECOND};
    let dir = chains::folder();
    let captures = load(dir.path(), &LoadOptions::default()).unwrap();
    let mut app = app_with(captures, 80, 24);
    while !selected(&app).ends_with(RECORDED_SECOND) {
        command(&mut app, Command::Down);
    }
    // The header's first line, right of the list (its source cut at the front).
    let shown_now = screen(&app);
    let header = shown_now
        .lines()
        .next()
        .unwrap()
        .rsplit('┐')
        .next()
        .unwrap();
    assert!(header.contains("…mini.json"), "{header}");
    for shown in ["request r", "attempt 2 of 2 c"] {
        assert!(header.contains(shown), "{shown:?} in {header}\n{shown_now}");
    }
    // With room, the attempt re-asked, the provider and the stop reason are said too.
    let mut wide = app_with(load(dir.path(), &LoadOptions::default()).unwrap(), 240, 40);
    while !selected(&wide).ends_with(RECORDED_SECOND) {
        command(&mut wide, Command::Down);
    }
    let header = header_of(&wide);
    for shown in ["re-ask of", "model ", "stop "] {
        assert!(header.contains(shown), "{shown:?} in {header}");
    }
}

#[test]
fn the_filter_menu_picks_captures_by_their_place_in_a_repair_chain() {
    use crate::support::chains::{self, DAY, LOOP_FIRST, LOOP_SECOND, RECORDED_FIRST};
    use jxray::tui::app::{ChainRole, Filter};
    let dir = chains::folder();
    // A third chain, a loop's, whose re-ask failed too: in a chain, not repaired.
    let day = dir.path().join(DAY);
    let line = |text: &str| serde_json::json!({"output": text, "stop_reason": "stop"}).to_string();
    let request = |attempt: u32, re_ask_of: Option<String>| {
        let mut chain = serde_json::json!({"id": "ffff0000ffff0000", "attempt": attempt});
        if let Some(of) = re_ask_of {
            chain["re_ask_of"] = serde_json::json!(of);
        }
        serde_json::json!({"jxray_request": 1, "method": "POST", "model": "m",
            "body": {"messages": [{"role": "user", "content": "Name?"}]}, "chain": chain})
        .to_string()
    };
    let (first, second) = (
        "11-00-00.000-m-ffff0000-a1.jsonl",
        "11-00-01.000-m-ffff0000-a2.jsonl",
    );
    std::fs::write(day.join(first), line("I cannot say.")).unwrap();
    std::fs::write(
        day.join("11-00-00.000-m-ffff0000-a1.request.json"),
        request(1, None),
    )
    .unwrap();
    std::fs::write(day.join(second), line("Still no.")).unwrap();
    let again = request(2, Some(format!("{DAY}/{first}")));
    std::fs::write(day.join("11-00-01.000-m-ffff0000-a2.request.json"), again).unwrap();
    let captures = load(dir.path(), &LoadOptions::default()).unwrap();
    let mut app = app_with(captures, 120, 30);
    let menu = Filter::menu_of(&app.entries.kinds);
    let shown_under = |app: &mut App, role: ChainRole| {
        // Chosen from the menu as a user does: `f` (it opens at the filter in use), down
        // to the entry, Enter.
        let at = menu.iter().position(|f| *f == Filter::Chain(role)).unwrap();
        let now = menu.iter().position(|f| *f == app.entries.filter).unwrap();
        command(app, Command::Filter);
        for _ in now..at {
            command(app, Command::Down);
        }
        command(app, Command::Confirm);
        let mut names: Vec<String> = app
            .entries
            .view
            .iter()
            .map(|&i| app.entries.iter().nth(i).unwrap().capture.source.clone())
            .map(|source| {
                source
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .trim_end_matches(":1")
                    .to_string()
            })
            .collect();
        names.sort();
        names
    };
    let all_six = shown_under(&mut app, ChainRole::InChain);
    assert_eq!(all_six.len(), 6, "{all_six:?}: plain.txt is in no chain");
    assert!(screen(&app).contains("in a chain"), "{}", screen(&app));
    assert_eq!(
        shown_under(&mut app, ChainRole::ReAsked),
        [RECORDED_FIRST, LOOP_FIRST, first]
    );
    let repaired = shown_under(&mut app, ChainRole::Repaired);
    assert_eq!(repaired.len(), 4, "{repaired:?}");
    assert!(repaired.iter().all(|name| !name.contains("ffff0000")));
    assert!(repaired.contains(&LOOP_SECOND.to_string()));
    command(&mut app, Command::Filter);
    let menu_shown = screen(&app);
    // Each entry counts what it shows.
    let counted = |label: &str| {
        let line = menu_shown
            .lines()
            .find(|line| line.contains(label))
            .unwrap();
        let after = &line[line.find(label).unwrap() + label.len()..];
        after.split_whitespace().next().unwrap().to_string()
    };
    assert_eq!(counted("chain in a chain"), "6", "{menu_shown}");
    assert_eq!(counted("chain re-asked"), "3", "{menu_shown}");
    assert_eq!(counted("chain repaired chain"), "4", "{menu_shown}");
}

/// Recorded calls that ask different questions of two models, and a re-ask.
fn questions_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let day = dir.path().join("2026-12-06");
    std::fs::create_dir_all(&day).unwrap();
    let calls = [
        (
            "09-00-04.120-gpt-4o-mini",
            "gpt-4o-mini",
            "Where is the Louvre?",
            "{\"city\": \"Paris\"}",
        ),
        (
            "09-00-05.300-gpt-4o-mini",
            "gpt-4o-mini",
            "Where is the Prado?\n  Answer in JSON.",
            "```json\n{\"city\": \"Madrid\"}\n```",
        ),
        (
            "09-00-06.010-claude-3-5-haiku",
            "claude-3-5-haiku",
            "Where is the Uffizi?",
            "{\"city\": \"Florence\",}",
        ),
    ];
    for (stem, model, question, answer) in calls {
        let capture = serde_json::json!({"object": "chat.completion", "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": answer},
                "finish_reason": "stop"}]});
        std::fs::write(day.join(format!("{stem}.json")), capture.to_string()).unwrap();
        let request = serde_json::json!({"jxray_request": 1, "method": "POST", "model": model,
            "body": {"model": model, "messages": [{"role": "user", "content": question}]}});
        std::fs::write(
            day.join(format!("{stem}.request.json")),
            request.to_string(),
        )
        .unwrap();
    }
    dir
}

#[test]
fn recorded_captures_that_ask_different_questions_are_listed_by_them() {
    let dir = questions_folder();
    for (width, height) in [(80, 24), (160, 45)] {
        let captures = load(dir.path(), &LoadOptions::default()).unwrap();
        let app = app_with(captures, width, height);
        let shown = screen(&app);
        assert!(shown.contains("09-00-04 Where is the Louvre?"), "{shown}");
        assert!(shown.contains("09-00-05 Where is the Prado?"), "{shown}");
        insta::assert_snapshot!(format!("question_names_{width}x{height}"), shown);
    }
    // What the list names a capture by, the search finds it by.
    let mut app = app_with(load(dir.path(), &LoadOptions::default()).unwrap(), 80, 24);
    command(&mut app, Command::Search);
    for ch in "Prado".chars() {
        update(&mut app, Action::Edit(jxray::tui::action::Edit::Insert(ch)));
    }
    command(&mut app, Command::Confirm);
    assert!(selected(&app).ends_with("09-00-05.300-gpt-4o-mini.json"));
}

#[test]
fn a_re_ask_keeps_its_file_name_among_questions() {
    use crate::support::chains;
    // Two chains asking "City?" and "Town?": each re-ask carries a repair request, not a
    // question of its own.
    let dir = chains::folder();
    let captures = load(dir.path(), &LoadOptions::default()).unwrap();
    let shown = screen(&app_with(captures, 120, 30));
    for name in [
        "10-00-00 City?",
        "10-01-00 Town?",
        "-gpt-4o-mini.json",
        "a2.jsonl:1",
    ] {
        assert!(shown.contains(name), "{name} in {shown}");
    }
}

#[test]
fn a_re_ask_at_80x24_and_160x45() {
    use crate::support::chains::{self, RECORDED_SECOND};
    let dir = chains::folder();
    for (width, height) in [(80, 24), (160, 45)] {
        let captures = load(dir.path(), &LoadOptions::default()).unwrap();
        let mut app = app_with(captures, width, height);
        while !selected(&app).ends_with(RECORDED_SECOND) {
            command(&mut app, Command::Down);
        }
        let shown = screen(&app);
        assert!(shown.contains("attempt 2 of 2"), "{shown}");
        // The folder's path is a fresh temporary one: the snapshot names it by its role.
        let shown = shown.replace(&dir.path().display().to_string(), "TMP");
        insta::assert_snapshot!(format!("re_ask_{width}x{height}"), shown);
    }
}
