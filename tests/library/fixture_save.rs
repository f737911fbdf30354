//! Saving fixtures the way the TUI does: from a capture, never overwriting,
//! byte-exact, and replayable.

use crate::support;

use std::fs;
use std::path::Path;

use jxray::capture::Capture;
use jxray::engine::{Defect, FailureKind, Layer, Options, RepairKind};
use jxray::fixture::{self, Expectation, Fixture, ReplayStatus, SaveError};
use serde_json::json;

/// Every file in `dir` with its bytes, sorted by name.
fn listing(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            (name, fs::read(entry.path()).unwrap())
        })
        .collect();
    files.sort();
    files
}

fn fixture_of(source: &str, text: &str) -> Fixture {
    let capture = Capture::from_text(source, text);
    let options = Options::default();
    let outcome = support::capture::outcome_of(&capture, &options);
    let name = fixture::suggest_name(source, None);
    fixture::from_capture(&name, &capture, &outcome, &options, None).unwrap()
}

#[test]
fn saving_adds_one_file_and_changes_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("notes.md"), "keep me").unwrap();
    fixture::save(dir.path(), &fixture_of("runs/a.txt", "{\"a\": 1}")).unwrap();
    let before = listing(dir.path());

    let path = fixture::save(dir.path(), &fixture_of("other/a.txt", "[1]")).unwrap();

    let mut after = listing(dir.path());
    let new_name = path.file_name().unwrap().to_string_lossy().into_owned();
    let index = after
        .iter()
        .position(|(name, _)| *name == new_name)
        .unwrap();
    after.remove(index);
    assert_eq!(after, before, "only the new fixture appeared");
}

#[test]
fn colliding_names_get_numeric_suffixes() {
    let dir = tempfile::tempdir().unwrap();
    let first = fixture_of("runs/a.txt", "{\"a\": 1}");
    let paths: Vec<_> = (0..3)
        .map(|_| fixture::save(dir.path(), &first).unwrap())
        .collect();
    let names: Vec<_> = paths
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["runs-a.json", "runs-a-2.json", "runs-a-3.json"]);
    assert_eq!(fixture::load_file(&paths[2]).unwrap().name, "runs-a-3");
    assert_eq!(
        fixture::load_file(&paths[0]).unwrap(),
        first,
        "the first save is untouched"
    );
}

#[test]
fn names_that_differ_only_in_case_are_one_name() {
    // On a macOS or Windows checkout `Answer.json` and `answer.json` are one file.
    let dir = tempfile::tempdir().unwrap();
    let named = |name: &str| Fixture {
        name: name.to_string(),
        ..fixture_of("runs/a.txt", "{\"a\": 1}")
    };
    let saved: Vec<String> = ["Answer", "answer", "ANSWER", "answer-2"]
        .into_iter()
        .map(|name| {
            let planned = fixture::planned_path(dir.path(), name).unwrap();
            let path = fixture::save(dir.path(), &named(name)).unwrap();
            assert_eq!(planned, path, "the preview names the file the save writes");
            path.file_name().unwrap().to_string_lossy().into_owned()
        })
        .collect();
    assert_eq!(
        saved,
        [
            "Answer.json",
            "answer-2.json",
            "ANSWER-3.json",
            "answer-2-2.json"
        ]
    );
    let folded: std::collections::HashSet<String> =
        saved.iter().map(|name| name.to_lowercase()).collect();
    assert_eq!(folded.len(), saved.len(), "no two files would be one");
}

#[test]
fn an_unwritable_folder_is_a_clear_error_and_nothing_is_lost() {
    // Tests may run as root, where permissions do not stop writes: a folder
    // below a regular file can never exist.
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("fixtures");
    fs::write(&blocker, "a file where the folder should be").unwrap();
    let before = listing(dir.path());
    let error = fixture::save(&blocker.join("inner"), &fixture_of("a.txt", "{}")).unwrap_err();
    assert!(matches!(error, SaveError::CreateDir { .. }), "{error:?}");
    let message = error.to_string();
    assert!(message.contains("fixtures/inner"), "{message}");
    assert!(!message.contains('\n'));
    assert_eq!(listing(dir.path()), before);
}

#[test]
fn input_is_kept_byte_for_byte() {
    let inputs = [
        ("crlf", "```json\r\n{\"a\": \"b\"}\r\n```\r\n"),
        ("tabs", "\t{\"a\":\t1}\t"),
        ("bom", "\u{feff}{\"a\": 1}"),
        (
            "non-ascii",
            "Voilà: {\"ville\": \"Zürich\", \"emoji\": \"🦀\", \"rtl\": \"שלום\"}",
        ),
        ("trailing-spaces", "{\"a\": 1}   \n  "),
        ("controls", "{\"a\": \"x\u{1b}[31m\u{0}\"}\u{2028}"),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (name, input) in inputs {
        let fixture = fixture_of(&format!("{name}.txt"), input);
        let path = fixture::save(dir.path(), &fixture).unwrap();
        // Any JSON reader gets the same bytes back.
        let raw: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        assert_eq!(
            raw["input"].as_str().unwrap().as_bytes(),
            input.as_bytes(),
            "{name}"
        );
        let loaded = fixture::load_file(&path).unwrap();
        assert_eq!(loaded.input.as_bytes(), input.as_bytes(), "{name}");
        assert_eq!(
            fixture::replay(&loaded).status,
            ReplayStatus::Passed,
            "{name}"
        );
    }
}

#[test]
fn an_input_already_kept_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let text = "Sure:\n```json\n{\"a\": 1}\n```";
    let path = fixture::save(dir.path(), &fixture_of("a.txt", text)).unwrap();
    assert_eq!(fixture::find_by_input(dir.path(), text), Some(path));
    assert_eq!(fixture::find_by_input(dir.path(), "Sure:\n"), None);
}

#[test]
fn known_gaps_are_expected_failing_then_fixed() {
    let dir = tempfile::tempdir().unwrap();
    // The user says a python-literal reply should have been read leniently.
    let text = "{\"done\": True}";
    let wish = Expectation::Ok {
        layer: Layer::Lenient,
        value: json!({"done": true}),
        repairs: vec![RepairKind::Lenient(Defect::PythonLiteral)],
        warnings: vec![],
    };
    let gap =
        fixture_of("py.txt", text).into_known_gap(wish, Some("should read True as true".into()));
    let path = fixture::save(dir.path(), &gap).unwrap();
    let loaded = fixture::load_file(&path).unwrap();
    assert!(loaded.known_gap);
    assert_eq!(loaded.note.as_deref(), Some("should read True as true"));
    assert_eq!(
        fixture::replay(&loaded).status,
        ReplayStatus::ExpectedFailing
    );

    // With lenient acceptance the engine does what the gap asks: fixed.
    let mut fixed = loaded.clone();
    fixed.options.accept_lenient = true;
    let replay = fixture::replay(&fixed);
    assert_eq!(replay.status, ReplayStatus::Fixed, "{:?}", replay.actual);

    // A gap whose wish is a different failure stays expected-failing.
    let other = loaded.into_known_gap(Expectation::fail(FailureKind::Truncated, None), None);
    assert_eq!(
        fixture::replay(&other).status,
        ReplayStatus::ExpectedFailing
    );
}

#[test]
fn concurrent_saves_of_one_name_never_overwrite_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let paths: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let dir = dir.path();
                scope.spawn(move || {
                    let fixture = fixture_of("same.txt", &format!("[{i}]"));
                    (i, fixture::save(dir, &fixture).unwrap())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(listing(dir.path()).len(), 8, "eight files, no temporaries");
    for (i, path) in paths {
        let saved = fixture::load_file(&path).unwrap();
        assert_eq!(saved.input, format!("[{i}]"), "{}", path.display());
        assert_eq!(
            format!("{}.json", saved.name),
            path.file_name().unwrap().to_string_lossy()
        );
    }
}
