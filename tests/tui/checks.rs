//! The workbench with a schema (`--schema`) and a baseline (`--baseline`):
//! screens at 80×24 and 160×45, drawn with `TestBackend`, as insta snapshots.

use crate::support;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use jxray::compare::{Observed, Run};
use jxray::engine::Options;
use jxray::schema::Schema;
use jxray::tui::action::{Action, Command};
use jxray::tui::{update, App, Checks};
use serde_json::json;
use support::tui::{app_with_checks, capture, screen, styled_screen};

const TICKET: &str = "Here is the ticket:\n```json\n{\"ticket_id\": \"SUP-4821\", \"priority\": \"P2\",\n \"tags\": [\"billing\", 7]}\n```";

fn schema() -> Arc<Schema> {
    let document = json!({
        "type": "object",
        "required": ["ticket_id", "priority", "escalate"],
        "properties": {
            "ticket_id": {"type": "string"},
            "priority": {"enum": ["low", "medium", "high", "urgent"]},
            "tags": {"type": "array", "items": {"type": "string"}}
        }
    });
    Arc::new(Schema::from_value(&document, "schema.json").unwrap())
}

fn schema_app(width: u16, height: u16) -> App {
    let checks = Checks {
        schema: Some(schema()),
        ..Checks::default()
    };
    let mut app = app_with_checks(
        vec![capture("support/ticket.md", TICKET, None)],
        checks,
        width,
        height,
    );
    update(&mut app, Action::Command(Command::FocusDecoded));
    app.settle();
    app
}

#[test]
fn schema_failure_lists_every_violation_at_80x24() {
    let app = schema_app(80, 24);
    let text = screen(&app);
    assert!(text.contains("schema"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn schema_failure_marks_the_offending_values_at_160x45() {
    let app = schema_app(160, 45);
    let text = screen(&app);
    for expected in ["/priority", "\"P2\"", "/tags/1", "enum", "escalate"] {
        assert!(text.contains(expected), "{expected} in\n{text}");
    }
    insta::assert_snapshot!(styled_screen(&app));
}

/// The earlier run: the ticket was fenced and fine, the invoice was cut off,
/// the note was plain JSON, the draft had a trailing comma, the memo was fenced.
fn baseline() -> Arc<(PathBuf, Run)> {
    let root = Path::new("monday");
    let mut run = Run::default();
    let options = Options::default();
    for (source, text, stop) in [
        (
            "ticket.md",
            "```json\n{\"vendor\": \"Acme\", \"n\": 1}\n```",
            None,
        ),
        ("invoice.txt", "{\"total\": [1, 2,", Some("length")),
        ("note.txt", "{\"ok\": true}", None),
        ("draft.txt", "{\"x\": 1,}", None),
        ("memo.md", "```json\n{\"m\": 1.0}\n```", None),
    ] {
        let outcome = support::capture::outcome_of(&capture(source, text, stop), &options);
        run.insert(root, source.to_string(), Observed::of(&outcome));
    }
    Arc::new((root.to_path_buf(), run))
}

fn compare_app(width: u16, height: u16) -> App {
    let checks = Checks {
        baseline: Some(baseline()),
        ..Checks::default()
    };
    app_with_checks(
        vec![
            // A value changed, fixed, broke, a different failure, the same value
            // from another layer, new.
            capture(
                "ticket.md",
                "{\"n\": 1, \"vendor\": \"Evil Corp\", \"x\": 0}",
                None,
            ),
            capture("invoice.txt", "{\"total\": [1, 2]}", None),
            capture("note.txt", "{\"ok\": tr", Some("length")),
            capture("draft.txt", "{'x': 1}", None),
            capture("memo.md", "{\"m\": 1.00}", None),
            capture("fresh.txt", "{}", None),
        ],
        checks,
        width,
        height,
    )
}

#[test]
fn baseline_marks_each_change_and_the_footer_sets_both_mixes_side_by_side_at_80x24() {
    let app = compare_app(80, 24);
    let text = screen(&app);
    assert!(text.contains("vs monday (5)"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn baseline_at_160x45() {
    let app = compare_app(160, 45);
    let text = screen(&app);
    for mark in ['↑', '↓', '≠', '~', '+'] {
        assert!(text.contains(mark), "{mark} in\n{text}");
    }
    // The same value from another layer is not a change.
    let memo = text.lines().find(|line| line.contains("memo.md")).unwrap();
    assert!(memo.contains("direct      memo.md"), "{memo}");
    insta::assert_snapshot!(text);
}

#[test]
fn a_changed_value_shows_its_paths_in_the_header_at_80x24_and_160x45() {
    for (width, height) in [(80, 24), (160, 45)] {
        let mut app = compare_app(width, height);
        while app.selected_entry().map(|e| e.capture.source.as_str()) != Some("ticket.md") {
            update(&mut app, Action::Command(Command::Down));
        }
        let text = screen(&app);
        assert!(text.contains("≠ vs monday: ~$.vendor +$.x"), "{text}");
        insta::assert_snapshot!(format!("value_diff_{width}x{height}"), text);
    }
}

#[test]
fn a_fixture_saved_under_a_schema_keeps_it_and_replays_its_verdict() {
    let mut app = schema_app(160, 45);
    update(&mut app, Action::Command(Command::Save));
    let effects = update(&mut app, Action::Command(Command::Confirm));
    let [jxray::tui::action::Effect::SaveFixtures { fixtures, .. }] = effects.as_slice() else {
        panic!("expected one save, got {effects:?}");
    };
    let (_, fixture) = &fixtures[0];
    assert_eq!(fixture.schema.as_ref(), Some(schema().document()));
    assert_eq!(
        fixture.expect,
        jxray::fixture::Expectation::fail(jxray::engine::FailureKind::Schema, None)
    );
    assert_eq!(
        jxray::fixture::replay(fixture).status,
        jxray::fixture::ReplayStatus::Passed
    );
}

#[test]
fn at_80x24_the_footer_abbreviates_the_mix_and_the_baseline_delta_rather_than_cutting_them() {
    let app = compare_app(80, 24);
    let text = screen(&app);
    let footer = text.lines().last().unwrap_or_default();
    assert!(!footer.contains('…'), "{footer}");
    assert!(footer.starts_with("6: dir "), "{footer}");
    assert!(footer.contains("vs monday (5): "), "{footer}");
    assert!(
        footer.contains("trunc 1→1") || footer.contains("fen 2→0"),
        "{footer}"
    );
    // With room, the words are whole.
    let wide = screen(&compare_app(160, 45));
    assert!(wide
        .lines()
        .last()
        .unwrap_or_default()
        .starts_with("6 captures: direct"));
}
