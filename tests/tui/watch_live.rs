//! The real watcher on a temporary folder, once with native notifications
//! and once with forced polling. Waits are bounded (`recv_timeout`) and
//! generous; nothing asserts how long anything took.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use jxray::watch::{PathChange, Timing, WatchEvent, WatchOptions, Watcher};

const PATIENCE: Duration = Duration::from_secs(20);

/// What a caller has learnt so far.
#[derive(Debug, Default)]
struct Seen {
    /// The last change per path.
    last: BTreeMap<PathBuf, PathChange>,
    /// Every change, in order.
    all: Vec<PathChange>,
    batches: usize,
    other: Vec<WatchEvent>,
}

impl Seen {
    fn changed(&self, path: &Path) -> bool {
        matches!(self.last.get(path), Some(PathChange::Changed(_)))
    }

    fn removed(&self, path: &Path) -> bool {
        matches!(self.last.get(path), Some(PathChange::Removed(_)))
    }

    /// Whether `file` was reported, itself or as part of a folder that appeared.
    fn changed_or_in_folder(&self, file: &Path) -> bool {
        self.changed(file)
            || self.all.iter().any(
                |change| matches!(change, PathChange::Folder(folder) if file.starts_with(folder)),
            )
    }

    fn mentions(&self, name: &str) -> bool {
        self.all
            .iter()
            .any(|change| change.path().to_string_lossy().contains(name))
    }
}

struct Harness {
    _temp: tempfile::TempDir,
    outside: PathBuf,
    root: PathBuf,
    watcher: Watcher,
    events: Receiver<WatchEvent>,
}

fn options(polling: bool, root: &Path) -> WatchOptions {
    WatchOptions {
        timing: Timing {
            quiet: Duration::from_millis(100),
            max_latency: Duration::from_millis(400),
        },
        ignore_folders: vec![root.join("fixtures")],
        force_polling: polling,
        poll_interval: Duration::from_millis(50),
    }
}

/// A watched `captures/` folder holding `files`, and a sibling folder outside it.
fn start(polling: bool, files: &[&str]) -> Harness {
    let temp = tempfile::tempdir().expect("temp dir");
    let root = temp.path().join("captures");
    let outside = temp.path().join("outside");
    fs::create_dir(&root).expect("root");
    fs::create_dir(&outside).expect("outside");
    for file in files {
        fs::write(root.join(file), "{\"before\": true}").expect("seed");
    }
    let (sender, events) = mpsc::channel();
    let watcher =
        Watcher::start(&root, options(polling, &root), sender, |event| event).expect("start");
    assert_eq!(
        watcher.status().is_polling(),
        polling,
        "{}",
        watcher.status()
    );
    Harness {
        _temp: temp,
        outside,
        root,
        watcher,
        events,
    }
}

impl Harness {
    fn path(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    /// Collect events until `done` holds; fails after [`PATIENCE`].
    fn wait_until(&self, seen: &mut Seen, done: impl Fn(&Seen) -> bool) {
        let give_up = Instant::now() + PATIENCE;
        while !done(seen) {
            let left = give_up.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(WatchEvent::Changes(changes)) => {
                    seen.batches += 1;
                    for change in changes {
                        seen.last
                            .insert(change.path().to_path_buf(), change.clone());
                        seen.all.push(change);
                    }
                }
                Ok(other) => seen.other.push(other),
                Err(RecvTimeoutError::Timeout) => panic!("gave up waiting; saw {seen:#?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("watcher ended; saw {seen:#?}"),
            }
        }
    }

    fn wait(&self, done: impl Fn(&Seen) -> bool) -> Seen {
        let mut seen = Seen::default();
        self.wait_until(&mut seen, done);
        seen
    }
}

fn create(polling: bool) {
    let h = start(polling, &[]);
    let file = h.path("new.txt");
    fs::write(&file, "```json\n{}\n```").expect("write");
    let seen = h.wait(|seen| seen.changed(&file));
    assert!(seen.other.is_empty(), "{:?}", seen.other);
}

fn modify(polling: bool) {
    let h = start(polling, &["a.txt"]);
    let file = h.path("a.txt");
    fs::write(&file, "{\"after\": true, \"longer\": 1}").expect("rewrite");
    h.wait(|seen| seen.changed(&file));
}

fn rename_into_place(polling: bool) {
    let h = start(polling, &["x.txt"]);
    let temporary = h.path("x.tmp");
    let target = h.path("x.txt");
    fs::write(&temporary, "{\"saved\": \"by rename\"}").expect("write temporary");
    fs::rename(&temporary, &target).expect("rename into place");
    let seen = h.wait(|seen| seen.changed(&target));
    assert!(!seen.mentions("x.tmp"), "{seen:#?}");
}

fn delete(polling: bool) {
    let h = start(polling, &["doomed.txt"]);
    let file = h.path("doomed.txt");
    fs::remove_file(&file).expect("delete");
    h.wait(|seen| seen.removed(&file));
}

fn burst_of_a_thousand(polling: bool) {
    let h = start(polling, &[]);
    let files: Vec<PathBuf> = (0..1000)
        .map(|index| h.path(&format!("case-{index:04}.txt")))
        .collect();
    for file in &files {
        fs::write(file, "{\"n\": 1}").expect("write");
    }
    let seen = h.wait(|seen| files.iter().all(|file| seen.changed(file)));
    assert!(
        seen.batches <= 50,
        "1,000 files should arrive in a few batches, not {}",
        seen.batches
    );
}

fn ignored_files_produce_nothing(polling: bool) {
    let h = start(polling, &[]);
    fs::create_dir_all(h.path("fixtures")).expect("fixtures");
    fs::create_dir_all(h.path("node_modules/pkg")).expect("node_modules");
    fs::create_dir_all(h.path(".git")).expect(".git");
    for name in [
        "a.txt.swp",
        "4913",
        "b.txt~",
        ".jxray-tmp-1",
        "fixtures/.jxray-tmp-2",
        "fixtures/saved.json",
        "node_modules/pkg/index.json",
        ".git/HEAD",
    ] {
        fs::write(h.path(name), "x").expect("write ignored");
    }
    fs::rename(
        h.path("fixtures/.jxray-tmp-2"),
        h.path("fixtures/moved.json"),
    )
    .expect("rename");
    // Events arrive in order, so once this one is seen the others would have been.
    let sentinel = h.path("sentinel.txt");
    fs::write(&sentinel, "{}").expect("sentinel");
    let seen = h.wait(|seen| seen.changed(&sentinel));
    assert_eq!(seen.all, vec![PathChange::Changed(sentinel)], "{seen:#?}");
}

fn new_subfolder(polling: bool) {
    let h = start(polling, &[]);
    // A folder made in place, and one filled elsewhere then moved in whole.
    let made = h.path("made");
    fs::create_dir(&made).expect("mkdir");
    fs::write(made.join("one.txt"), "{}").expect("write");
    let staged = h.outside.join("batch-7");
    fs::create_dir_all(staged.join("deep")).expect("stage");
    fs::write(staged.join("two.json"), "{}").expect("write");
    fs::write(staged.join("deep/three.md"), "{}").expect("write");
    let moved = h.path("batch-7");
    fs::rename(&staged, &moved).expect("move in");
    let expected = [
        made.join("one.txt"),
        moved.join("two.json"),
        moved.join("deep/three.md"),
    ];
    h.wait(|seen| expected.iter().all(|file| seen.changed_or_in_folder(file)));
}

fn half_written_file_is_delivered_again_when_complete(polling: bool) {
    let h = start(polling, &[]);
    let file = h.path("streaming.txt");
    fs::write(&file, "{\"partial\": ").expect("first half");
    h.wait(|seen| seen.changed(&file));
    let mut appending = fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .expect("reopen");
    appending.write_all(b"true}").expect("second half");
    drop(appending);
    h.wait(|seen| seen.changed(&file));
}

fn reading_a_file_is_not_a_change(polling: bool) {
    // The caller re-reads every changed file; that must not wake the watcher.
    let h = start(polling, &["a.txt"]);
    assert_eq!(
        fs::read_to_string(h.path("a.txt")).expect("read"),
        "{\"before\": true}"
    );
    let sentinel = h.path("sentinel.txt");
    fs::write(&sentinel, "{}").expect("sentinel");
    let seen = h.wait(|seen| seen.changed(&sentinel));
    assert_eq!(seen.all, vec![PathChange::Changed(sentinel)], "{seen:#?}");
}

fn pause_holds_changes_until_resume(polling: bool) {
    let h = start(polling, &[]);
    h.watcher.pause();
    assert!(h.watcher.is_paused());
    let file = h.path("while-paused.txt");
    fs::write(&file, "{}").expect("write");
    let give_up = Instant::now() + PATIENCE;
    while h.watcher.pending() == 0 {
        assert!(
            Instant::now() < give_up,
            "the change never reached the watcher"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // The pause was received before the change, so nothing can have been sent.
    assert!(h.events.try_recv().is_err(), "delivered while paused");
    h.watcher.resume();
    h.wait(|seen| seen.changed(&file));
}

fn a_single_file_root_sees_rename_saves(polling: bool) {
    let temp = tempfile::tempdir().expect("temp dir");
    let file = temp.path().join("out.jsonl");
    fs::write(&file, "{\"output\": \"1\"}\n").expect("seed");
    let (sender, events) = mpsc::channel();
    let options = options(polling, temp.path());
    let _watcher = Watcher::start(&file, options, sender, |event| event).expect("start");
    fs::write(temp.path().join("neighbour.txt"), "{}").expect("neighbour");
    let staged = temp.path().join("out.jsonl.tmp");
    fs::write(&staged, "{\"output\": \"2\"}\n").expect("stage");
    fs::rename(&staged, &file).expect("rename over");
    match events.recv_timeout(PATIENCE).expect("an event") {
        WatchEvent::Changes(changes) => assert_eq!(changes, vec![PathChange::Changed(file)]),
        other => panic!("expected changes, got {other:?}"),
    }
}

fn dropping_the_watcher_ends_the_thread(polling: bool) {
    let h = start(polling, &[]);
    let Harness {
        watcher, events, ..
    } = h;
    drop(watcher);
    // The thread has been joined, so the sender is gone: the channel ends.
    loop {
        match events.recv_timeout(PATIENCE) {
            Ok(_) => continue,
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => panic!("the watch thread outlived its handle"),
        }
    }
}

macro_rules! both_modes {
    ($($name:ident),* $(,)?) => {
        mod native {
            $(#[test] fn $name() { super::$name(false) })*
        }
        mod polling {
            $(#[test] fn $name() { super::$name(true) })*
        }
    };
}

both_modes!(
    create,
    modify,
    rename_into_place,
    delete,
    burst_of_a_thousand,
    ignored_files_produce_nothing,
    new_subfolder,
    half_written_file_is_delivered_again_when_complete,
    reading_a_file_is_not_a_change,
    pause_holds_changes_until_resume,
    a_single_file_root_sees_rename_saves,
    dropping_the_watcher_ends_the_thread,
);

#[test]
fn forced_polling_says_so() {
    let h = start(true, &[]);
    let status = h.watcher.status().to_string();
    assert_eq!(
        status,
        "watching by polling every 50 ms: polling was asked for"
    );
    assert_eq!(h.watcher.root(), h.root.as_path());
}
