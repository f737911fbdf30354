//! Saving fixtures from the TUI: the dialog (driven by actions), the writes
//! (through the loader, on a temp folder), and `jxray test` on the result.

use crate::support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use jxray::capture::LoadOptions;
use jxray::check::Checker;
use jxray::engine::FailureKind;
use jxray::fixture::{self, Expectation, Fixture};
use jxray::tui::action::{Action, Command, Edit, Effect, EntryId, Saved};
use jxray::tui::app::{Expect, Overlay, SaveScope};
use jxray::tui::event::Event;
use jxray::tui::loader::Loader;
use jxray::tui::{update, App};
use support::tui::{app_with, capture};

fn command(app: &mut App, command: Command) -> Vec<Effect> {
    update(app, Action::Command(command))
}

fn typed(app: &mut App, text: &str) {
    for ch in text.chars() {
        update(app, Action::Edit(Edit::Insert(ch)));
    }
}

fn save_effect(effects: Vec<Effect>) -> (PathBuf, Vec<(EntryId, Fixture)>) {
    match effects.as_slice() {
        [Effect::SaveFixtures { dir, fixtures }] => (dir.clone(), fixtures.clone()),
        other => panic!("expected one save, got {other:?}"),
    }
}

const INVALID: &str = "Here:\n{'name': 'Ada', \"tags\": [\"x\",],}";

fn app() -> App {
    app_with(
        vec![
            capture("runs/2026-11-29/run-14.txt", INVALID, None),
            capture("runs/ok.txt", "{\"a\": 1}", None),
        ],
        120,
        30,
    )
}

#[test]
fn s_suggests_a_name_that_can_be_edited_and_saves_the_current_outcome() {
    let mut app = app();
    command(&mut app, Command::Save);
    let Overlay::Save(dialog) = &app.overlay else {
        panic!("no dialog: {:?}", app.overlay);
    };
    assert_eq!(dialog.name, "2026-11-29-run-14");
    assert_eq!(dialog.choices[0], Expect::Current);
    update(&mut app, Action::Edit(Edit::Clear));
    typed(&mut app, "ada single quotes");
    update(&mut app, Action::Edit(Edit::Backspace));
    let (dir, fixtures) = save_effect(command(&mut app, Command::Confirm));
    assert_eq!(dir, PathBuf::from("fixtures"));
    let [(_, fixture)] = fixtures.as_slice() else {
        panic!()
    };
    assert_eq!(fixture.name, "ada single quote");
    assert_eq!(fixture.input, INVALID);
    assert!(!fixture.known_gap);
    assert_eq!(
        fixture.expect,
        Expectation::fail(FailureKind::Invalid, fixture_defect(fixture))
    );
    assert_eq!(app.overlay, Overlay::None);
}

fn fixture_defect(fixture: &Fixture) -> Option<jxray::engine::Defect> {
    match &fixture.expect {
        Expectation::Fail { defect, .. } => *defect,
        Expectation::Ok { .. } => None,
    }
}

#[test]
fn the_outcome_can_be_marked_wrong_as_a_known_gap() {
    let mut app = app();
    command(&mut app, Command::Save);
    command(&mut app, Command::NextChoice);
    let Overlay::Save(dialog) = &app.overlay else {
        panic!()
    };
    assert!(
        matches!(dialog.choices[1], Expect::OkWith { .. }),
        "{:?}",
        dialog.choices
    );
    let (_, fixtures) = save_effect(command(&mut app, Command::Confirm));
    let fixture = &fixtures[0].1;
    assert!(fixture.known_gap);
    assert!(fixture
        .note
        .as_deref()
        .unwrap()
        .contains("the engine says invalid"));
    match &fixture.expect {
        Expectation::Ok { value, .. } => {
            assert_eq!(value, &serde_json::json!({"name": "Ada", "tags": ["x"]}))
        }
        other => panic!("{other:?}"),
    }

    // A success can be marked as one that should have failed.
    command(&mut app, Command::Down);
    command(&mut app, Command::Save);
    command(&mut app, Command::PrevChoice);
    let Overlay::Save(dialog) = &app.overlay else {
        panic!()
    };
    assert_eq!(
        dialog.choices[dialog.choice],
        Expect::FailAs(FailureKind::NoJson)
    );
    let (_, fixtures) = save_effect(command(&mut app, Command::Confirm));
    assert_eq!(
        fixtures[0].1.expect,
        Expectation::fail(FailureKind::NoJson, None)
    );
}

#[test]
fn esc_cancels_and_an_empty_name_is_refused() {
    let mut app = app();
    command(&mut app, Command::Save);
    command(&mut app, Command::Back);
    assert_eq!(app.overlay, Overlay::None);
    command(&mut app, Command::Save);
    update(&mut app, Action::Edit(Edit::Clear));
    assert!(command(&mut app, Command::Confirm).is_empty());
    let Overlay::Save(dialog) = &app.overlay else {
        panic!()
    };
    assert!(dialog.error.as_deref().unwrap().contains("type a name"));
}

#[test]
fn a_result_marks_the_row_and_a_failure_reopens_the_dialog() {
    let mut app = app();
    command(&mut app, Command::Save);
    let (_, fixtures) = save_effect(command(&mut app, Command::Confirm));
    let id = fixtures[0].0;
    update(
        &mut app,
        Action::SaveDone {
            results: vec![(
                id,
                Saved::Failed("fixtures: cannot write a fixture here".into()),
            )],
        },
    );
    let Overlay::Save(dialog) = &app.overlay else {
        panic!()
    };
    assert!(dialog.error.as_deref().unwrap().contains("cannot write"));
    let (_, fixtures) = save_effect(command(&mut app, Command::Confirm));
    let path = PathBuf::from("fixtures/2026-11-29-run-14.json");
    update(
        &mut app,
        Action::SaveDone {
            results: vec![(fixtures[0].0, Saved::New(path.clone()))],
        },
    );
    assert_eq!(app.entries.get(id).unwrap().saved, Some(path.clone()));
    assert_eq!(app.saved_paths, [path]);
    assert_eq!(
        app.notice.as_ref().unwrap().text,
        "saved fixtures/2026-11-29-run-14.json"
    );
}

#[test]
fn shift_s_saves_every_readable_capture_under_the_filter() {
    let mut app = app();
    command(&mut app, Command::Filter);
    command(&mut app, Command::Down);
    command(&mut app, Command::Confirm);
    command(&mut app, Command::SaveAll);
    let Overlay::Save(dialog) = &app.overlay else {
        panic!()
    };
    assert!(matches!(&dialog.scope, SaveScope::All(ids) if ids.len() == 1));
    typed(&mut app, "ignored");
    let (_, fixtures) = save_effect(command(&mut app, Command::Confirm));
    let names: Vec<&str> = fixtures.iter().map(|(_, f)| f.name.as_str()).collect();
    assert_eq!(names, ["2026-11-29-run-14"]);
}

/// Run one save through the loader and wait for its result.
fn save_through_loader(dir: &Path, fixtures: Vec<(EntryId, Fixture)>) -> Vec<(EntryId, Saved)> {
    let (sender, inbox) = mpsc::channel();
    let loader = Loader::new(
        PathBuf::from("."),
        LoadOptions::default(),
        sender,
        Checker::new(jxray::engine::Options::default(), None),
    );
    loader.save_fixtures(dir.to_path_buf(), fixtures);
    loop {
        match inbox
            .recv_timeout(Duration::from_secs(20))
            .expect("a save result")
        {
            Event::Action(Action::SaveDone { results }) => return results,
            _ => continue,
        }
    }
}

fn listing(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn saving_writes_one_file_byte_exact_and_never_twice() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("fixtures");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a fixture").unwrap();
    let input = "\u{feff}```json\r\n{\"a\":\t\"é\"}  \r\n```\r\n  ";
    let mut app = app_with(
        vec![capture("runs/tricky.txt", input, Some("stop"))],
        120,
        30,
    );
    app.settings.fixtures = dir.clone();
    command(&mut app, Command::Save);
    let (_, fixtures) = save_effect(command(&mut app, Command::Confirm));
    let before = listing(&dir);

    let results = save_through_loader(&dir, fixtures.clone());
    let [(_, Saved::New(path))] = results.as_slice() else {
        panic!("{results:?}")
    };
    let after = listing(&dir);
    let added: Vec<_> = after.difference(&before).collect();
    assert_eq!(added, ["runs-tricky.json"], "one new file and nothing else");
    assert_eq!(fixture::load_file(path).unwrap().input, input);

    // The same input again: nothing written, the existing fixture named.
    let results = save_through_loader(&dir, fixtures.clone());
    assert_eq!(results[0].1, Saved::Existing(path.clone()));
    assert_eq!(listing(&dir), after);

    // Another input under a taken name gets a suffix.
    let mut other = fixtures[0].1.clone();
    other.input.push(' ');
    let results = save_through_loader(&dir, vec![(1, other)]);
    assert_eq!(results[0].1, Saved::New(dir.join("runs-tricky-2.json")));

    // `jxray test` replays them and passes.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_jxray"))
        .arg("test")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[cfg(unix)]
#[test]
fn a_read_only_folder_is_a_clear_message_and_nothing_written() {
    use std::os::unix::fs::PermissionsExt;
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("locked");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::write(dir.join("probe"), "x").is_ok() {
        // Running as root: permissions do not stop writes, so there is nothing to test.
        let _ = std::fs::remove_file(dir.join("probe"));
        eprintln!("skipped: the folder is writable despite its mode (running as root)");
        return;
    }
    let fixture = Fixture::new("x", "{}", Expectation::fail(FailureKind::NoJson, None));
    let results = save_through_loader(&dir, vec![(1, fixture)]);
    let [(_, Saved::Failed(message))] = results.as_slice() else {
        panic!("{results:?}")
    };
    assert!(message.contains("cannot write a fixture here"), "{message}");
    assert!(listing(&dir).is_empty());
}

#[test]
fn captures_already_in_the_fixtures_folder_get_the_saved_mark() {
    let mut app = app();
    let input_hash = jxray::fixture::input_hash(INVALID);
    // The mark holds while the fixture's file is there.
    let temp = tempfile::tempdir().unwrap();
    let path = temp.path().join("old.json");
    std::fs::write(&path, "{}").unwrap();
    update(
        &mut app,
        Action::FixturesFound {
            inputs: [(input_hash, path.clone())].into_iter().collect(),
            names: jxray::fixture::TakenNames::in_dir(temp.path()),
        },
    );
    app.settle();
    let saved: Vec<Option<PathBuf>> = app.entries.iter().map(|e| e.saved.clone()).collect();
    assert_eq!(saved, [Some(path.clone()), None]);
    command(&mut app, Command::Save);
    let screen = support::tui::screen(&app);
    assert!(
        screen.contains(&format!("already a fixture: {}", path.display())),
        "{screen}"
    );
    // Deleted since: opening the dialog asks for the folder to be indexed again (an effect,
    // never a look at the disk from `update`), and the index no longer holds it.
    command(&mut app, Command::Back);
    std::fs::remove_file(&path).unwrap();
    let effects = command(&mut app, Command::Save);
    assert!(
        effects
            .iter()
            .any(|effect| matches!(effect, Effect::IndexFixtures { .. })),
        "{effects:?}"
    );
    update(
        &mut app,
        Action::FixturesFound {
            inputs: Default::default(),
            names: jxray::fixture::TakenNames::in_dir(temp.path()),
        },
    );
    app.settle();
    let screen = support::tui::screen(&app);
    assert!(!screen.contains("already a fixture"), "{screen}");
    assert_eq!(app.entries.iter().next().unwrap().saved, None);
}

#[test]
fn a_folder_that_cannot_be_made_is_a_clear_message_and_nothing_written() {
    // A file where a folder should be stops even root, unlike permission bits.
    let temp = tempfile::tempdir().unwrap();
    let blocker = temp.path().join("not-a-folder");
    std::fs::write(&blocker, "x").unwrap();
    let dir = blocker.join("fixtures");
    let fixture = Fixture::new("x", "{}", Expectation::fail(FailureKind::NoJson, None));
    let results = save_through_loader(&dir, vec![(1, fixture)]);
    let [(_, Saved::Failed(message))] = results.as_slice() else {
        panic!("{results:?}")
    };
    assert!(message.contains("not-a-folder"), "{message}");
    assert_eq!(
        listing(temp.path()),
        BTreeSet::from(["not-a-folder".to_string()])
    );
}
