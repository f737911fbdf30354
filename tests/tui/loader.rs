//! The TUI's background loader, driven without a terminal.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use jxray::capture::LoadOptions;
use jxray::check::Checker;
use jxray::engine::Options;
use jxray::tui::action::Action;
use jxray::tui::event::Event;
use jxray::tui::loader::Loader;

/// Judged as `check` judges with no `--schema`.
fn no_schema() -> Checker {
    Checker::new(Options::default(), None)
}

/// Load `root`, passing over `fixtures`, and collect the sources of every capture loaded.
fn loaded_sources(root: &Path, fixtures: &Path) -> Vec<String> {
    let (sender, inbox) = mpsc::channel();
    let loader = Loader::new(
        root.to_path_buf(),
        LoadOptions::default(),
        sender,
        no_schema(),
    )
    .passing_over(fixtures.to_path_buf());
    loader.load_all(Options::default(), Vec::new());
    let mut expected = None;
    let mut files = 0;
    let mut sources = Vec::new();
    while expected != Some(files) {
        let event = inbox
            .recv_timeout(Duration::from_secs(20))
            .expect("the loader reports every file");
        match event {
            Event::Action(Action::Discovered { files: found }) => expected = Some(found),
            Event::Action(Action::FileLoaded { captures, .. }) => {
                files += 1;
                sources.extend(
                    captures
                        .into_iter()
                        .map(|loaded| loaded.capture.source.clone()),
                );
            }
            Event::Action(Action::LoadFailed { message }) => panic!("{message}"),
            _ => {}
        }
    }
    sources.sort();
    sources
}

#[test]
fn the_first_load_passes_over_the_fixtures_folder() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path();
    std::fs::write(root.join("a.txt"), "{\"a\": 1}").unwrap();
    let fixtures = root.join("fixtures");
    std::fs::create_dir(&fixtures).unwrap();
    std::fs::write(fixtures.join("saved.json"), "{\"b\": 2}").unwrap();
    assert_eq!(loaded_sources(root, &fixtures), ["a.txt"]);
}

#[test]
fn a_fixtures_folder_opened_as_the_root_is_read() {
    let temp = tempfile::tempdir().unwrap();
    let fixtures: PathBuf = temp.path().join("fixtures");
    std::fs::create_dir(&fixtures).unwrap();
    std::fs::write(fixtures.join("saved.json"), "{\"b\": 2}").unwrap();
    assert_eq!(loaded_sources(&fixtures, &fixtures), ["saved.json"]);
}

#[test]
fn two_reads_of_one_big_file_send_their_parts_one_read_after_the_other() {
    let temp = tempfile::tempdir().unwrap();
    let log = temp.path().join("log.jsonl");
    let lines: String = (0..20_000)
        .map(|n| format!("{{\"output\": \"{{\\\"n\\\": {n}}}\"}}\n"))
        .collect();
    std::fs::write(&log, lines).unwrap();
    let (sender, inbox) = mpsc::channel();
    let loader = Loader::new(
        temp.path().to_path_buf(),
        LoadOptions::default(),
        sender,
        no_schema(),
    );
    // Two re-reads at once, as a watcher and the editor returning may ask.
    loader.reload(vec![log.clone()], Options::default());
    loader.reload(vec![log], Options::default());
    // Each read is first … last with nothing of the other read in between.
    let mut reads = Vec::new();
    let mut open: Option<usize> = None;
    while reads.len() < 2 {
        let event = inbox
            .recv_timeout(Duration::from_secs(60))
            .expect("both reads arrive");
        let Event::Action(Action::FilePart {
            captures,
            first,
            last,
            ..
        }) = event
        else {
            panic!("a file of 20,000 lines comes in parts");
        };
        assert_eq!(
            open.is_none(),
            first,
            "a read starts only after the other ended"
        );
        let count = open.unwrap_or(0) + captures.len();
        open = Some(count);
        if last {
            reads.push(count);
            open = None;
        }
    }
    assert_eq!(reads, [20_000, 20_000]);
}
