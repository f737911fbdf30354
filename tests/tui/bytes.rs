//! A capture that is not UTF-8: the workbench shows its text with each invalid byte
//! marked `⟨E9⟩` and the offset in the header, `s` (and `S`) keep its bytes in a fixture
//! (`input_base64`), and `jxray test` replays that fixture as `unreadable` exactly.

use crate::support;

use jxray::capture::{self, Capture, LoadOptions};
use jxray::engine::FailureKind;
use jxray::fixture::{self, Expectation, ReplayStatus};
use jxray::tui::action::{Action, Command, Effect};
use jxray::tui::update;
use support::tui::{app_with, screen};

/// Latin-1 `é` (0xE9) where UTF-8 was expected, as a Windows editor saves it.
const LATIN1: &[u8] = b"{\"city\": \"Montr\xE9al\",\n \"note\": \"caf\xE9\"}\n";

fn latin1_capture(dir: &std::path::Path) -> Capture {
    let path = dir.join("latin1.txt");
    std::fs::write(&path, LATIN1).unwrap();
    let mut captures = capture::load(&path, &LoadOptions::default()).unwrap();
    let mut capture = captures.remove(0);
    capture.source = "runs/latin1.txt".to_string();
    capture
}

#[test]
fn the_text_shows_each_invalid_byte_and_the_header_its_offset_at_80x24_and_160x45() {
    let dir = tempfile::tempdir().unwrap();
    for (width, height) in [(80, 24), (160, 45)] {
        let app = app_with(vec![latin1_capture(dir.path())], width, height);
        let text = screen(&app);
        assert!(text.contains("\"Montr⟨E9⟩al\""), "{text}");
        assert!(text.contains("\"caf⟨E9⟩\""), "{text}");
        assert!(text.contains("not UTF-8: byte 0xE9 at offset 15"), "{text}");
        insta::assert_snapshot!(format!("latin1_{width}x{height}"), text);
    }
}

#[test]
fn s_keeps_the_bytes_and_the_fixture_replays_as_unreadable() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with(vec![latin1_capture(dir.path())], 120, 30);
    update(&mut app, Action::Command(Command::Save));
    let effects = update(&mut app, Action::Command(Command::Confirm));
    let [Effect::SaveFixtures { fixtures, .. }] = effects.as_slice() else {
        panic!("expected one save, got {effects:?}");
    };
    let (_, saved) = &fixtures[0];
    assert_eq!(saved.input_base64.as_deref(), Some(LATIN1));
    assert_eq!(
        saved.expect,
        Expectation::fail(FailureKind::Unreadable, None)
    );

    // Through the file: the bytes survive, and the replay is the same verdict.
    let folder = dir.path().join("fixtures");
    std::fs::create_dir(&folder).unwrap();
    let path = fixture::save(&folder, saved).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("\"input_base64\": \"eyJjaXR5IjogIk1vbnRy6WFsIiwKICJub3RlIjogImNhZukifQo=\""),
        "{text}"
    );
    let loaded = fixture::load_file(&path).unwrap();
    assert_eq!(&loaded, saved);
    let replay = fixture::replay(&loaded);
    assert_eq!(replay.status, ReplayStatus::Passed);
    assert!(replay
        .outcome
        .failure
        .unwrap()
        .message
        .contains("byte 0xE9 at offset 15"));

    let run = std::process::Command::new(env!("CARGO_BIN_EXE_jxray"))
        .arg("test")
        .arg(&folder)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stdout)
    );
}

#[test]
fn a_fixture_whose_bytes_now_read_as_text_fails_its_replay() {
    let mut fixture = fixture::Fixture::new(
        "was-latin1",
        "",
        Expectation::fail(FailureKind::Unreadable, None),
    );
    fixture.input_base64 = Some(b"{\"a\": 1}".to_vec());
    assert_eq!(fixture::replay(&fixture).status, ReplayStatus::Failed);
    fixture.input_base64 = Some(LATIN1.to_vec());
    assert_eq!(fixture::replay(&fixture).status, ReplayStatus::Passed);
}

#[test]
fn shift_s_keeps_the_bytes_too_and_leaves_out_only_what_has_none() {
    let dir = tempfile::tempdir().unwrap();
    // Over the size limit: unreadable with no bytes kept.
    let big = dir.path().join("big.txt");
    std::fs::write(&big, "{\"a\": 1}".repeat(10)).unwrap();
    let limited = LoadOptions {
        max_bytes: 16,
        ..LoadOptions::default()
    };
    let missing = capture::load(&big, &limited).unwrap().remove(0);
    assert!(missing.text.as_ref().is_err_and(|u| u.bytes.is_none()));
    let text = Capture::from_text("runs/ok.txt", "{\"a\": 1}");
    let mut app = app_with(vec![latin1_capture(dir.path()), missing, text], 120, 30);
    update(&mut app, Action::Command(Command::SaveAll));
    let shown = screen(&app);
    assert!(
        shown.contains("2 of 3 in the list (1 unreadable: nothing to keep)"),
        "{shown}"
    );
    let effects = update(&mut app, Action::Command(Command::Confirm));
    let [Effect::SaveFixtures { fixtures, .. }] = effects.as_slice() else {
        panic!("expected one save, got {effects:?}");
    };
    let kept: Vec<Option<&[u8]>> = fixtures
        .iter()
        .map(|(_, fixture)| fixture.input_base64.as_deref())
        .collect();
    assert_eq!(kept, [Some(LATIN1), None]);
}
