//! The workbench at the two sizes a user meets most: 80×24 (a default
//! terminal) and 160×45 (a wide one), for the list, each pane, zoom and the
//! dialogs. TestBackend screens as insta snapshots.

use crate::support;

use jxray::tui::action::Command;
use jxray::tui::App;
use support::tui::{app_with, capture, run, screen, styled_screen};

const SIZES: [(u16, u16); 2] = [(80, 24), (160, 45)];

const TICKET: &str = "Here is the ticket:\n```json\n{\"ticket_id\": \"SUP-4821\", \"category\": \"feature-request\", \"priority\": \"high\",\n \"tags\": [\"billing\", \"refund\"], \"summary\": \"Customer asks for a refund of the duplicate charge on the March invoice\"}\n```\nLet me know if you need anything else.";
const INVOICE: &str = "Invoice:\n```json\n{\"invoice\": \"INV-2291\", \"total\": 1250.00,\n \"lines\": [{\"sku\": \"A-100\", \"qty\": 2},],}\n```";
const CUT: &str = "```json\n{\"items\": [\n  {\"sku\": \"A-100\", \"name\": \"Kettle\"},\n  {\"sku\": \"A-101\", \"name\": \"Toas";
const PROSE: &str = "I'm sorry, but I can't help with that request.";

/// A folder of captures as a prompt-iteration run leaves them.
fn workbench(width: u16, height: u16) -> App {
    app_with(
        vec![
            capture(
                "runs/2026-11-29/support-ticket-fenced.md",
                TICKET,
                Some("stop"),
            ),
            capture("runs/2026-11-29/invoice-trailing-comma.txt", INVOICE, None),
            capture(
                "runs/2026-11-29/products-cut-at-the-limit.txt",
                CUT,
                Some("length"),
            ),
            capture(
                "runs/2026-11-29/batch-results.jsonl:12",
                PROSE,
                Some("stop"),
            ),
            capture("runs/2026-11-29/direct.json", "{\"ok\": true}", None),
        ],
        width,
        height,
    )
}

fn name(what: &str, (width, height): (u16, u16)) -> String {
    format!("{what}_{width}x{height}")
}

#[test]
fn the_list() {
    for size in SIZES {
        let app = workbench(size.0, size.1);
        insta::assert_snapshot!(name("list", size), screen(&app));
    }
}

#[test]
fn each_pane() {
    // The support ticket has something in every pane. At 80 columns one pane
    // shows at a time (tabs); at 160 all three stand side by side.
    for (pane, command) in [
        ("raw", Command::FocusRaw),
        ("normalized", Command::FocusNormalized),
        ("decoded", Command::FocusDecoded),
    ] {
        let mut app = workbench(80, 24);
        run(&mut app, &[Command::Bottom, command]);
        insta::assert_snapshot!(name(&format!("pane_{pane}"), (80, 24)), screen(&app));
    }
    let mut app = workbench(160, 45);
    run(&mut app, &[Command::Bottom, Command::FocusDecoded]);
    insta::assert_snapshot!(name("panes", (160, 45)), screen(&app));
}

#[test]
fn a_failure_in_each_pane() {
    for size in SIZES {
        let mut app = workbench(size.0, size.1);
        // The invoice: a trailing comma, with its lenient reading.
        run(
            &mut app,
            &[Command::Down, Command::Down, Command::FocusNormalized],
        );
        insta::assert_snapshot!(name("failure_normalized", size), screen(&app));
    }
}

#[test]
fn zoom_keeps_the_capture_name_and_position() {
    for size in SIZES {
        let mut app = workbench(size.0, size.1);
        run(
            &mut app,
            &[Command::FocusDecoded, Command::Zoom, Command::NextFailure],
        );
        let shown = screen(&app);
        // From the first capture (a failure), `]` goes on to the next failure: the third.
        let title = shown.lines().next().unwrap_or_default();
        assert!(
            title.contains("invoice-trailing-comma.txt") && title.contains("3/5"),
            "{shown}"
        );
        insta::assert_snapshot!(name("zoom", size), shown);
    }
}

#[test]
fn the_copy_menu() {
    for size in SIZES {
        let mut app = workbench(size.0, size.1);
        run(&mut app, &[Command::Down, Command::Copy]);
        insta::assert_snapshot!(name("copy_menu", size), screen(&app));
    }
}

#[test]
fn the_save_dialog() {
    for size in SIZES {
        let mut app = workbench(size.0, size.1);
        run(
            &mut app,
            &[Command::Down, Command::Save, Command::NextChoice],
        );
        insta::assert_snapshot!(name("save_dialog", size), screen(&app));
    }
}

#[test]
fn the_filter_menu() {
    let mut app = workbench(80, 24);
    run(&mut app, &[Command::Filter]);
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn the_raw_pane_highlighted_as_markdown_with_fenced_json() {
    jxray::tui::highlight::load_now();
    let mut app = workbench(100, 16);
    app.highlight.enabled = true;
    // The support ticket: prose, then a fenced json block.
    run(
        &mut app,
        &[Command::Bottom, Command::FocusRaw, Command::Zoom],
    );
    app.settle();
    insta::assert_snapshot!(styled_screen(&app));
}

#[test]
fn at_80_columns_file_names_of_24_characters_show_whole_beside_any_badge_and_marks() {
    let names = [
        "runs/support-ticket-fenced.md",
        "runs/invoice-trail-comma1.txt",
        "runs/products-cut-at-lim1.txt",
        "runs/unreadable-capture-1.txt",
    ];
    let texts = [
        (TICKET, None),
        (INVOICE, None),
        (CUT, Some("length")),
        (PROSE, None),
    ];
    let mut captures: Vec<_> = names
        .iter()
        .zip(texts)
        .map(|(name, (text, stop))| capture(name, text, stop))
        .collect();
    // The widest badge, `unreadable`.
    captures[3].text = Err(jxray::capture::Unreadable::new("not UTF-8"));
    let app = app_with(captures, 80, 24);
    let shown = screen(&app);
    for name in names {
        let file = name.trim_start_matches("runs/");
        assert_eq!(file.chars().count(), 24);
        assert!(shown.contains(&format!(" {file}")), "{file}\n{shown}");
    }
    let list: Vec<&str> = shown
        .lines()
        .filter_map(|line| line.split('│').nth(1))
        .collect();
    assert!(list.iter().all(|row| !row.contains('…')), "{shown}");
    assert!(list.iter().any(|row| row.contains(" W ")), "{shown}");
}

#[test]
fn at_80_columns_sources_keep_22_characters_and_the_key_bar_keeps_help_and_quit() {
    let app = workbench(80, 24);
    let shown = screen(&app);
    let row = shown
        .lines()
        .find(|line| line.contains("cut-at-the-limit"))
        .expect("the products row");
    let list_row = row.split('│').nth(1).unwrap_or_default();
    let source = list_row.rsplit(' ').next().unwrap_or_default();
    // Badges are whole words now (`truncated`, not `trunca…`): the source gives way.
    assert!(source.chars().count() >= 22, "{source:?}\n{shown}");
    let keys = shown.lines().nth(22).unwrap_or_default();
    assert!(keys.contains("? help") && keys.contains("q quit"), "{keys}");
}

#[test]
fn badges_and_the_failure_headline_are_whole_at_80x24_and_160x45() {
    for (width, height) in SIZES {
        let mut app = workbench(width, height);
        run(&mut app, &[Command::Down, Command::Down]);
        let shown = screen(&app);
        assert!(!shown.contains("trunca…"), "{shown}");
        assert!(shown.contains("│ truncated "), "{shown}");
        // At 80 columns the list keeps 24-character file names whole: the headline and
        // the count of further defects stay whole, the word after them may be cut.
        assert!(
            shown.contains("invalid (trailing-comma) at 4:39 +1 mo"),
            "{width}x{height}\n{shown}"
        );
    }
}

#[test]
fn a_notice_keeps_help_and_quit_in_the_key_bar_at_80x24_and_160x45() {
    for (width, height) in SIZES {
        let mut app = workbench(width, height);
        app.notice = Some(jxray::tui::app::Notice {
            text: "a schema.json sits beside the captures: run with --schema runs/schema.json \
                   to check every value against it"
                .to_string(),
            error: false,
        });
        let shown = screen(&app);
        let keys = shown
            .lines()
            .nth(usize::from(height) - 2)
            .unwrap_or_default();
        assert!(keys.contains("a schema.json sits"), "{keys}");
        assert!(keys.trim_end().ends_with("? help  q quit"), "{keys}");
    }
}

#[test]
fn the_save_dialog_wraps_its_refusal_at_80x24_and_160x45() {
    for (width, height) in SIZES {
        let mut app = workbench(width, height);
        run(&mut app, &[Command::Save]);
        jxray::tui::update(
            &mut app,
            jxray::tui::action::Action::Edit(jxray::tui::action::Edit::Insert(':')),
        );
        let shown = screen(&app);
        // Every word of the refusal is on screen, and no line of the dialog is cut.
        let joined: String = shown
            .lines()
            .map(|line| line.trim_matches(|c: char| c == '│' || c == ' '))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            joined.contains("forbids in file names (<>:\"/\\|?*)"),
            "{width}x{height}\n{shown}"
        );
        assert!(
            !shown.contains("(‹…") && !shown.contains("names…"),
            "{shown}"
        );
        insta::assert_snapshot!(format!("save_refusal_{width}x{height}"), shown);
    }
}

#[test]
fn less_and_greater_narrow_hide_and_widen_the_list_at_80x24_and_160x45() {
    for (width, height) in SIZES {
        let mut app = workbench(width, height);
        let row_of = |app: &App| -> String {
            screen(app)
                .lines()
                .find(|line| line.contains("cut-at-the-limit"))
                .unwrap_or_default()
                .split('│')
                .nth(1)
                .unwrap_or_default()
                .to_string()
        };
        let normal = row_of(&app);
        run(&mut app, &[Command::WidenList]);
        let wide = row_of(&app);
        assert!(
            wide.chars().count() > normal.chars().count(),
            "{wide:?} {normal:?}"
        );
        assert!(wide.contains("products-cut-at-the-limit.txt"), "{wide:?}");
        run(&mut app, &[Command::NarrowList, Command::NarrowList]);
        assert!(row_of(&app).chars().count() < normal.chars().count());
        run(&mut app, &[Command::NarrowList]);
        let hidden = screen(&app);
        assert!(!hidden.contains("Captures"), "{hidden}");
        // The header has the whole width: the failure line is not cut.
        assert!(
            hidden.contains("no-json cause refusal at 1:1  the model"),
            "{hidden}"
        );
        insta::assert_snapshot!(format!("list_hidden_{width}x{height}"), hidden);
        run(&mut app, &[Command::WidenList, Command::WidenList]);
        assert_eq!(row_of(&app), normal, "back to where it was");
    }
}
