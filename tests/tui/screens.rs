//! Whole screens, drawn with ratatui's `TestBackend`, as insta snapshots.
//! Where colour carries meaning the snapshot writes styles as markers.

use crate::support;

use jxray::config::ThemeName;
use jxray::tui::action::Command;
use jxray::tui::theme::Theme;
use support::tui::{app_with, capture, run, screen, styled_screen};

const FENCED: &str = "Here is the ticket:\n```json\n{\"ticket_id\": \"SUP-4821\", \"priority\": \"high\",\n \"tags\": [\"billing\", \"refund\"], \"escalate\": true}\n```\nLet me know if you need anything else.";
const REPAIRED: &str = "{\"invoice\": \"INV-2291\",\n \"notes\": \"Paid in full.\nThanks!\",\n \"memo\": \"ref\\`42\\`\tdone\"}";
const TRUNCATED: &str = "```json\n{\"items\": [\n  {\"sku\": \"A-100\", \"name\": \"Kettle\"},\n  {\"sku\": \"A-101\", \"name\": \"Toas";
const INVALID: &str =
    "Sure! Here it is:\n{'name': 'Ada', \"tags\": [\"x\", \"y\",],\n  active: True}";

#[test]
fn fenced_success() {
    let app = app_with(
        vec![capture("support/ticket.md", FENCED, Some("stop"))],
        130,
        26,
    );
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn repaired_capture_shows_the_diff() {
    let app = app_with(
        vec![capture("invoices/raw-newline.txt", REPAIRED, None)],
        130,
        22,
    );
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn truncated_capture_marks_where_the_text_ends() {
    let app = app_with(
        vec![capture("products/cut.txt", TRUNCATED, Some("length"))],
        130,
        30,
    );
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn invalid_capture_with_its_lenient_diff() {
    let app = app_with(vec![capture("people/ada.txt", INVALID, None)], 130, 34);
    insta::assert_snapshot!(styled_screen(&app));
}

#[test]
fn invalid_capture_without_colour_keeps_its_marks() {
    let mut app = app_with(vec![capture("people/ada.txt", INVALID, None)], 130, 12);
    app.theme = Theme::new(ThemeName::Dark, false);
    insta::assert_snapshot!(styled_screen(&app));
}

#[test]
fn help_overlay() {
    let mut app = app_with(vec![capture("a.txt", "{}", None)], 100, 50);
    run(&mut app, &[Command::Help]);
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn narrow_screen_uses_tabs() {
    let mut app = app_with(
        vec![
            capture("support/ticket.md", FENCED, Some("stop")),
            capture("invoices/raw-newline.txt", REPAIRED, None),
            capture("products/cut.txt", TRUNCATED, Some("length")),
            capture("people/ada.txt", INVALID, None),
        ],
        60,
        20,
    );
    run(&mut app, &[Command::NextFailure, Command::FocusNormalized]);
    insta::assert_snapshot!(styled_screen(&app));
}

#[test]
fn the_list_under_a_filter_with_the_folder_mix_in_the_footer() {
    let mut app = app_with(
        vec![
            capture("a.txt", FENCED, None),
            capture("b.txt", TRUNCATED, Some("length")),
            capture("c.txt", INVALID, None),
            capture("d.txt", "no json here", None),
        ],
        100,
        14,
    );
    run(
        &mut app,
        &[Command::Filter, Command::Down, Command::Confirm],
    );
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn tiny_screens_do_not_break() {
    let mut app = app_with(vec![capture("a.txt", INVALID, None)], 20, 5);
    insta::assert_snapshot!("tiny_20x5", screen(&app));
    run(&mut app, &[Command::Zoom]);
    insta::assert_snapshot!("tiny_20x5_zoomed", screen(&app));
}

#[test]
fn save_dialog_with_its_expectations() {
    let mut app = app_with(vec![capture("people/ada.txt", INVALID, None)], 100, 20);
    run(&mut app, &[Command::Save, Command::NextChoice]);
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn stringified_json_is_decoded_beneath_the_value() {
    let mut app = app_with(
        vec![capture(
            "tools/lookup.json",
            r#"{"name": "lookup", "arguments": "{\"sku\": \"A-100\", \"qty\": 2}"}"#,
            Some("tool_calls"),
        )],
        160,
        30,
    );
    run(&mut app, &[Command::FocusDecoded, Command::Zoom]);
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn a_tool_call_written_as_text_is_named_in_the_header() {
    let xml = "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n</function>\n</tool_call>";
    let hermes = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n</tool_call>";
    for (text, badge_line, detail) in [
        (
            xml,
            "✗ no-json  tool call as text (xml-parameters)",
            "no-json cause tool call as text (xml-parameters) at 2:1",
        ),
        (
            hermes,
            "✓ scanned  tool call as text (hermes)",
            "! tool-call-text:",
        ),
    ] {
        let app = app_with(vec![capture("calls/call.txt", text, None)], 130, 12);
        let drawn = screen(&app);
        assert!(drawn.contains(badge_line), "{drawn}");
        assert!(drawn.contains(detail), "{drawn}");
    }
}
