//! The app driven by key presses and background results, without a terminal.

use crate::support;

use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use jxray::engine::{Layer, Options, Outcome};
use jxray::mix::MixKey;
use jxray::tui::action::{Action, Effect, EntryId, Loaded, Mouse};
use jxray::tui::app::{Filter, Focus, Overlay};
use jxray::tui::keys::action_for;
use jxray::tui::layout::PaneId;
use jxray::tui::{update, App};
use support::tui::{app_with, capture, screen};

/// Press keys, written as in the help ("j", "G", "Tab", "Enter", "Esc", "Ctrl-d"),
/// and collect the effects.
fn press(app: &mut App, keys: &[&str]) -> Vec<Effect> {
    let mut effects = Vec::new();
    for key in keys {
        let event = match *key {
            "Tab" => KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE),
            "Shift-Tab" => KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT),
            "Enter" => KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE),
            "Esc" => KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE),
            "Backspace" => KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE),
            "PgDn" => KeyEvent::new(KeyCode::PageDown, KeyModifiers::NONE),
            "Ctrl-c" => KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
            "Ctrl-d" => KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL),
            text => {
                let ch = text.chars().next().unwrap();
                let modifiers = if ch.is_uppercase() {
                    KeyModifiers::SHIFT
                } else {
                    KeyModifiers::NONE
                };
                KeyEvent::new(KeyCode::Char(ch), modifiers)
            }
        };
        if let Some(action) = action_for(app.mode(), &event) {
            effects.extend(update(app, action));
        }
    }
    effects
}

fn typed(app: &mut App, text: &str) {
    let keys: Vec<String> = text.chars().map(String::from).collect();
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    press(app, &keys);
}

fn selected_source(app: &App) -> String {
    app.selected_entry()
        .map(|e| e.capture.source.clone())
        .unwrap_or_default()
}

fn demo() -> App {
    app_with(
        vec![
            capture("a-direct.txt", "{\"a\": 1}", None),
            capture(
                "b-fenced.md",
                "Here:\n```json\n{\"city\": \"Paris\"}\n```\nDone.",
                None,
            ),
            capture("c-truncated.txt", "{\"items\": [1, 2,", Some("length")),
            capture("d-invalid.txt", "{'name': 'Ada', 'ok': True}", None),
            capture(
                "e-prose.txt",
                "The answer is {\"n\": 42} as requested.",
                None,
            ),
            capture("f-no-json.txt", "I cannot help with that.", None),
        ],
        150,
        40,
    )
}

#[test]
fn the_list_moves_with_vim_keys_and_arrows() {
    let mut app = demo();
    assert_eq!(selected_source(&app), "a-direct.txt");
    press(&mut app, &["j", "j"]);
    assert_eq!(selected_source(&app), "c-truncated.txt");
    press(&mut app, &["k"]);
    assert_eq!(selected_source(&app), "b-fenced.md");
    press(&mut app, &["G"]);
    assert_eq!(selected_source(&app), "f-no-json.txt");
    press(&mut app, &["j"]);
    assert_eq!(
        selected_source(&app),
        "f-no-json.txt",
        "stays on the last row"
    );
    press(&mut app, &["g"]);
    assert_eq!(selected_source(&app), "a-direct.txt");
    press(&mut app, &["PgDn"]);
    assert_eq!(selected_source(&app), "f-no-json.txt");
    // The panes follow the selection.
    let detail = app.detail.as_ref().unwrap();
    assert!(detail.pane(PaneId::Raw).doc.text.contains("I cannot help"));
}

#[test]
fn failures_are_one_key_away_and_wrap_around() {
    let mut app = demo();
    press(&mut app, &["]"]);
    assert_eq!(selected_source(&app), "c-truncated.txt");
    press(&mut app, &["]", "]"]);
    assert_eq!(selected_source(&app), "f-no-json.txt");
    press(&mut app, &["]"]);
    assert_eq!(selected_source(&app), "c-truncated.txt");
    assert!(app.notice.as_ref().unwrap().text.contains("wrapped"));
    press(&mut app, &["["]);
    assert_eq!(selected_source(&app), "f-no-json.txt");
}

#[test]
fn focus_cycles_through_panes_and_zoom_is_undone_by_esc() {
    let mut app = demo();
    assert_eq!(app.focus, Focus::List);
    press(&mut app, &["Tab"]);
    assert_eq!((app.focus, app.pane), (Focus::Pane, PaneId::Raw));
    press(&mut app, &["Tab", "Tab"]);
    assert_eq!(app.pane, PaneId::Decoded);
    press(&mut app, &["Tab"]);
    assert_eq!(app.focus, Focus::List);
    press(&mut app, &["Shift-Tab"]);
    assert_eq!((app.focus, app.pane), (Focus::Pane, PaneId::Decoded));
    press(&mut app, &["2", "Enter"]);
    assert!(app.zoom);
    assert_eq!(app.pane, PaneId::Normalized);
    assert_eq!(
        app.screen().panes[1].unwrap().width,
        150,
        "a zoomed pane takes the width"
    );
    press(&mut app, &["Esc"]);
    assert!(!app.zoom);
    assert_eq!(app.focus, Focus::Pane);
    press(&mut app, &["Esc"]);
    assert_eq!(app.focus, Focus::List);
}

#[test]
fn a_focused_pane_scrolls_and_the_list_stays() {
    let long: String = (1..=200).map(|n| format!("line {n}\n")).collect();
    let mut app = app_with(
        vec![
            capture("long.txt", &long, None),
            capture("z.txt", "{}", None),
        ],
        150,
        30,
    );
    press(&mut app, &["1", "j", "j", "Ctrl-d"]);
    assert_eq!(selected_source(&app), "long.txt");
    let raw = app.detail.as_ref().unwrap().pane(PaneId::Raw);
    assert!(
        raw.scroll > 2,
        "scrolled by a line, a line and half a page: {}",
        raw.scroll
    );
    press(&mut app, &["G"]);
    let raw = app.detail.as_ref().unwrap().pane(PaneId::Raw);
    assert_eq!(raw.scroll, raw.max_scroll());
    assert_eq!(
        raw.scroll + raw.height,
        raw.rows.len(),
        "the last row is on screen"
    );
}

#[test]
fn search_matches_sources_and_texts_with_n_and_shift_n() {
    let mut app = demo();
    press(&mut app, &["/"]);
    assert_eq!(app.mode(), jxray::tui::keys::KeyMode::Prompt);
    typed(&mut app, "paris");
    press(&mut app, &["Enter"]);
    assert_eq!(selected_source(&app), "b-fenced.md");
    assert!(app
        .notice
        .as_ref()
        .unwrap()
        .text
        .contains("1 capture matches"));
    press(&mut app, &["/"]);
    typed(&mut app, "txx");
    press(&mut app, &["Backspace", "Enter"]);
    // "tx" matches every .txt source; the next one after the selection is taken.
    assert_eq!(selected_source(&app), "c-truncated.txt");
    press(&mut app, &["n"]);
    assert_eq!(selected_source(&app), "d-invalid.txt");
    press(&mut app, &["N", "N"]);
    assert_eq!(selected_source(&app), "a-direct.txt");
    press(&mut app, &["N"]);
    assert_eq!(selected_source(&app), "f-no-json.txt", "N wraps to the end");
    press(&mut app, &["/", "z", "q", "Esc"]);
    assert_eq!(
        app.overlay,
        Overlay::None,
        "Esc cancels; q was typed, not a quit"
    );
    assert!(!app.quit);
}

#[test]
fn a_search_that_matches_nothing_says_so() {
    let mut app = demo();
    press(&mut app, &["/"]);
    typed(&mut app, "nowhere");
    press(&mut app, &["Enter"]);
    let notice = app.notice.clone().unwrap();
    assert!(notice.error);
    assert!(notice.text.contains("no capture matches \"nowhere\""));
    assert_eq!(selected_source(&app), "a-direct.txt");
}

#[test]
fn the_filter_menu_narrows_the_list_and_counts_follow() {
    let mut app = demo();
    press(&mut app, &["f"]);
    assert_eq!(app.overlay, Overlay::Filter { cursor: 0 });
    press(&mut app, &["j", "Enter"]);
    assert_eq!(app.entries.filter, Filter::Failures);
    assert_eq!(app.entries.view.len(), 3);
    assert_eq!(app.entries.mix_view.failed(), 3);
    assert_eq!(app.entries.mix_all.total(), 6);
    assert_eq!(selected_source(&app), "c-truncated.txt");
    press(&mut app, &["f", "j", "j", "Esc"]);
    assert_eq!(
        app.entries.filter,
        Filter::Failures,
        "Esc leaves the filter as it was"
    );
    press(&mut app, &["f", "g", "Enter"]);
    assert_eq!(app.entries.view.len(), 6);
}

#[test]
fn sorting_by_outcome_puts_failures_first() {
    let mut app = demo();
    press(&mut app, &["t", "g"]);
    let first: Vec<String> = (0..3)
        .map(|i| app.entries.at(i).unwrap().outcome.badge().to_string())
        .collect();
    assert_eq!(first, ["truncated", "no-json", "invalid"]);
    press(&mut app, &["t", "g"]);
    assert_eq!(selected_source(&app), "a-direct.txt");
}

/// The one re-extraction `effects` asks for, performed as the loader would: its
/// generation, its options and the outcomes.
fn requested_extraction(effects: &[Effect]) -> (u64, Options, Vec<(EntryId, Outcome)>) {
    let [Effect::Extract {
        generation,
        captures,
        options,
    }] = effects
    else {
        panic!("expected one extraction, got {effects:?}");
    };
    let outcomes = captures
        .iter()
        .map(|(id, capture)| (*id, support::capture::outcome_of(capture, options)))
        .collect();
    (*generation, options.clone(), outcomes)
}

/// Results of a re-extraction arrive from the loader.
fn deliver(app: &mut App, generation: u64, outcomes: Vec<(EntryId, Outcome)>) {
    update(
        app,
        Action::Extracted {
            generation,
            outcomes,
        },
    );
    app.settle();
}

#[test]
fn lenient_toggle_re_extracts_everything_and_drops_stale_results() {
    let mut app = demo();
    let (generation, options, outcomes) = requested_extraction(&press(&mut app, &["l"]));
    assert!(options.accept_lenient);
    assert_eq!(outcomes.len(), 6);
    assert!(app.progress.extracting());
    // A result from before the toggle is ignored.
    deliver(&mut app, generation - 1, outcomes.clone());
    assert_eq!(app.entries.mix_all.count(MixKey::Layer(Layer::Lenient)), 0);
    deliver(&mut app, generation, outcomes);
    assert!(!app.progress.extracting());
    assert_eq!(app.entries.mix_all.count(MixKey::Layer(Layer::Lenient)), 1);
    press(&mut app, &["g", "j", "j", "j"]);
    assert_eq!(app.selected_entry().unwrap().outcome.badge(), "lenient");
}

#[test]
fn copy_sends_the_pretty_value_and_the_raw_text_of_a_failure() {
    let mut app = demo();
    // `y` opens the copy menu on its first line, the decoded value.
    assert!(press(&mut app, &["y"]).is_empty());
    let effects = press(&mut app, &["Enter"]);
    assert!(matches!(effects.as_slice(), [Effect::Copy(text)] if text == "{\n  \"a\": 1\n}"));
    // A failure has no value: the menu opens on the raw text instead.
    press(&mut app, &["j", "j"]);
    let effects = press(&mut app, &["y", "Enter"]);
    assert!(
        matches!(effects.as_slice(), [Effect::Copy(text)] if text == "{\"items\": [1, 2,"),
        "{effects:?}"
    );
}

#[test]
fn edit_opens_the_file_and_its_return_re_reads_it() {
    let mut app = demo();
    let effects = press(&mut app, &["j", "o"]);
    let [Effect::Edit { path, line }] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert_eq!(path, &PathBuf::from("b-fenced.md"));
    assert_eq!(*line, None);
    let effects = update(&mut app, Action::FilesChanged(vec![path.clone()]));
    assert!(
        matches!(effects.as_slice(), [Effect::Reload { paths, .. }] if paths == std::slice::from_ref(path))
    );
}

#[test]
fn a_re_read_file_keeps_the_selection_and_a_gone_file_leaves_the_list() {
    let mut app = demo();
    press(&mut app, &["j"]);
    let id = app.selected.unwrap();
    let changed = capture("b-fenced.md", "{\"city\": \"Lyon\"}", None);
    let outcome = support::capture::outcome_of(&changed, &app.options);
    update(
        &mut app,
        Action::FileLoaded {
            path: PathBuf::from("b-fenced.md"),
            captures: vec![Loaded {
                capture: changed,
                outcome,
                request: None,
                modified: None,
            }],
            options: Options::default(),
        },
    );
    app.settle();
    assert_eq!(app.selected, Some(id));
    assert_eq!(app.selected_entry().unwrap().outcome.badge(), "direct");
    assert!(app
        .detail
        .as_ref()
        .unwrap()
        .pane(PaneId::Raw)
        .doc
        .text
        .contains("Lyon"));
    update(
        &mut app,
        Action::FileLoaded {
            path: PathBuf::from("b-fenced.md"),
            captures: Vec::new(),
            options: Options::default(),
        },
    );
    app.settle();
    assert_eq!(app.entries.len(), 5);
    assert_eq!(selected_source(&app), "c-truncated.txt");
}

/// A file read under the default options arrives after an option was toggled.
fn late_result(app: &mut App, text: &str) -> Vec<Effect> {
    let late = capture("g-late.txt", text, None);
    let outcome = support::capture::outcome_of(&late, &Options::default());
    update(
        app,
        Action::FileLoaded {
            path: PathBuf::from("g-late.txt"),
            captures: vec![Loaded {
                capture: late,
                outcome,
                request: None,
                modified: None,
            }],
            options: Options::default(),
        },
    )
}

#[test]
fn results_read_before_a_lenient_toggle_are_extracted_again() {
    let mut app = demo();
    press(&mut app, &["l"]);
    let effects = late_result(&mut app, "{'late': True}");
    assert!(
        matches!(effects.as_slice(), [Effect::Extract { captures, options, .. }]
        if captures.len() == 1 && options.accept_lenient)
    );
}

#[test]
fn loading_progress_counts_files_until_all_arrive() {
    let mut app = app_with(Vec::new(), 100, 30);
    assert!(!app.progress.loading(), "an empty folder is loaded");
    app.progress = Default::default();
    update(&mut app, Action::Discovered { files: 2 });
    assert!(app.progress.loading());
    for name in ["b.txt", "a.txt"] {
        let c = capture(name, "{}", None);
        let outcome = Outcome::default();
        update(
            &mut app,
            Action::FileLoaded {
                path: PathBuf::from(name),
                captures: vec![Loaded {
                    capture: c,
                    outcome,
                    request: None,
                    modified: None,
                }],
                options: Options::default(),
            },
        );
    }
    app.settle();
    assert!(!app.progress.loading());
    assert_eq!(
        selected_source(&app),
        "a.txt",
        "the first row stays selected while loading"
    );
}

#[test]
fn help_opens_scrolls_and_closes_without_quitting() {
    let mut app = app_with(vec![capture("a.txt", "{}", None)], 100, 20);
    press(&mut app, &["?"]);
    assert_eq!(app.overlay, Overlay::Help { scroll: 0 });
    press(&mut app, &["j", "j"]);
    assert_eq!(app.overlay, Overlay::Help { scroll: 2 });
    press(&mut app, &["G"]);
    let Overlay::Help { scroll } = app.overlay else {
        panic!()
    };
    press(&mut app, &["j"]);
    assert_eq!(
        app.overlay,
        Overlay::Help { scroll },
        "help stops at its end"
    );
    press(&mut app, &["q"]);
    assert_eq!(app.overlay, Overlay::None);
    assert!(!app.quit);
    press(&mut app, &["?", "?"]);
    assert_eq!(app.overlay, Overlay::None);
}

#[test]
fn q_and_ctrl_c_quit_and_ctrl_c_works_in_a_prompt() {
    let mut app = demo();
    press(&mut app, &["q"]);
    assert!(app.quit);
    let mut app = demo();
    press(&mut app, &["/", "Ctrl-c"]);
    assert!(app.quit);
    let mut app = demo();
    update(&mut app, Action::Terminate);
    assert!(app.quit);
}

#[test]
fn resizing_switches_between_tabs_and_columns_and_rewraps() {
    let mut app = demo();
    press(&mut app, &["j"]);
    let wide = app.detail.as_ref().unwrap().pane(PaneId::Raw).rows.width;
    update(
        &mut app,
        Action::Resize {
            width: 80,
            height: 24,
        },
    );
    assert!(app.screen().tabs.is_some());
    let narrow = app.detail.as_ref().unwrap().pane(PaneId::Raw).rows.width;
    assert_ne!(wide, narrow);
    for (width, height) in [(20, 5), (1, 1), (0, 0), (300, 100)] {
        update(&mut app, Action::Resize { width, height });
        press(&mut app, &["j", "Tab", "j", "Enter", "Esc"]);
    }
}

#[test]
fn mouse_clicks_select_rows_and_focus_panes() {
    let mut app = demo();
    let list = app.screen().list.unwrap();
    update(
        &mut app,
        Action::Mouse(Mouse::Click {
            column: list.x + 2,
            row: list.y + 3,
        }),
    );
    assert_eq!(selected_source(&app), "c-truncated.txt");
    let decoded = app.screen().panes[2].unwrap();
    update(
        &mut app,
        Action::Mouse(Mouse::Click {
            column: decoded.x + 2,
            row: decoded.y + 2,
        }),
    );
    assert_eq!((app.focus, app.pane), (Focus::Pane, PaneId::Decoded));
    update(
        &mut app,
        Action::Mouse(Mouse::ScrollDown {
            column: list.x + 2,
            row: list.y + 2,
        }),
    );
    assert_eq!(selected_source(&app), "f-no-json.txt");
}

/// Lines `from..to` of `log.jsonl`, extracted, as one part of the file.
fn log_part(range: std::ops::Range<usize>, first: bool, last: bool) -> Action {
    let captures = range
        .map(|n| {
            let mut c = capture(&format!("log.jsonl:{n}"), &format!("{{\"n\": {n}}}"), None);
            c.path = PathBuf::from("log.jsonl");
            c.line = Some(n);
            let outcome = support::capture::outcome_of(&c, &Options::default());
            Loaded {
                capture: c,
                outcome,
                request: None,
                modified: None,
            }
        })
        .collect();
    Action::FilePart {
        path: PathBuf::from("log.jsonl"),
        captures,
        options: Options::default(),
        first,
        last,
        expected: 10,
        permit: Default::default(),
    }
}

#[test]
fn a_file_read_in_parts_fills_the_list_and_keys_work_between_parts() {
    let mut app = app_with(Vec::new(), 100, 30);
    app.progress = Default::default();
    update(&mut app, Action::Discovered { files: 1 });
    update(&mut app, log_part(1..4, true, false));
    app.settle();
    assert_eq!(app.entries.len(), 3);
    assert!(
        app.progress.loading(),
        "the file is not read to its end yet"
    );
    assert!(
        screen(&app).contains("loading 0/1 files, 3 captures"),
        "the footer shows one large file moving:\n{}",
        screen(&app)
    );
    press(&mut app, &["G"]);
    assert_eq!(selected_source(&app), "log.jsonl:3");
    // The list keeps slim outcomes; the selected capture has its whole one.
    let selected = app.selected_entry().unwrap();
    assert!(!selected.slim);
    assert_eq!(selected.outcome.value, Some(serde_json::json!({"n": 3})));
    assert!(!selected.outcome.trace.is_empty());
    // Line 1 was selected on arrival; line 2 never was.
    let other = app.entries.at(1).unwrap();
    assert!(other.slim && other.outcome.trace.is_empty());
    assert_eq!(other.outcome.badge(), "direct");
    update(&mut app, log_part(4..11, false, true));
    app.settle();
    assert!(!app.progress.loading());
    assert_eq!(app.entries.len(), 10);
    assert_eq!(app.entries.mix_all.total(), 10);
    assert_eq!(
        selected_source(&app),
        "log.jsonl:3",
        "the selection stays put"
    );
    press(&mut app, &["G"]);
    assert_eq!(selected_source(&app), "log.jsonl:10");
    // Read again in parts: ids are kept by source, lines that did not come again go.
    let id = app.selected.unwrap();
    update(&mut app, log_part(5..9, true, false));
    update(&mut app, log_part(9..11, false, true));
    app.settle();
    assert_eq!(app.entries.len(), 6);
    assert_eq!(app.selected, Some(id));
    assert_eq!(app.cursor, 5);
}

#[test]
fn saving_every_capture_of_a_file_read_in_parts_expects_their_whole_values() {
    let mut app = app_with(Vec::new(), 100, 30);
    update(&mut app, log_part(1..3, true, false));
    update(&mut app, log_part(3..5, false, true));
    app.settle();
    press(&mut app, &["S"]);
    let effects = press(&mut app, &["Enter"]);
    let [Effect::SaveFixtures { fixtures, .. }] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    let values: Vec<_> = fixtures
        .iter()
        .map(|(_, fixture)| match &fixture.expect {
            jxray::fixture::Expectation::Ok { value, .. } => value.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    let expected: Vec<_> = (1..5).map(|n| serde_json::json!({ "n": n })).collect();
    assert_eq!(values, expected);
}

#[test]
fn d_decodes_stringified_json_into_the_value_and_back() {
    let mut app = app_with(
        vec![capture(
            "tool-args.json",
            r#"{"name": "lookup", "arguments": "{\"sku\": 7}"}"#,
            None,
        )],
        160,
        45,
    );
    // Before: the string is kept, with its decoded value shown beneath in the Decoded pane.
    let before = support::tui::screen(&app);
    assert!(before.contains("stringified JSON, decoded"), "{before}");
    let (generation, options, outcomes) = requested_extraction(&press(&mut app, &["d"]));
    assert!(options.decode_stringified);
    deliver(&mut app, generation, outcomes);
    let value = app.selected_entry().unwrap().outcome.value.clone().unwrap();
    assert_eq!(value["arguments"]["sku"], 7);
    assert!(support::tui::screen(&app).contains("decoding stringified"));
    let effects = press(&mut app, &["d"]);
    assert!(
        matches!(effects.as_slice(), [Effect::Extract { options, .. }] if !options.decode_stringified)
    );
}

#[test]
fn results_read_before_d_are_extracted_again() {
    let mut app = demo();
    press(&mut app, &["d"]);
    let effects = late_result(&mut app, r#"{"a": "[1]"}"#);
    assert!(
        matches!(effects.as_slice(), [Effect::Extract { captures, options, .. }]
        if captures.len() == 1 && options.decode_stringified)
    );
}
