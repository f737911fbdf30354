//! The coalescer driven by event timelines on a fake clock: no file system,
//! no sleeping, every time exact.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use jxray::watch::{restat, Batch, Coalescer, Hint, HintKind, IgnoreRules, PathChange, Timing};

const QUIET: u64 = 200;
const MAX_LATENCY: u64 = 500;

fn coalescer() -> Coalescer {
    let timing = Timing {
        quiet: Duration::from_millis(QUIET),
        max_latency: Duration::from_millis(MAX_LATENCY),
    };
    Coalescer::new(timing, IgnoreRules::for_tree("w").ignore_folder("fixtures"))
}

/// A batch as the test reads it: when (ms) and which paths, root-relative.
#[derive(Debug, PartialEq)]
struct Flush {
    at: u64,
    paths: Vec<String>,
    appeared: Vec<bool>,
    rescan: bool,
}

/// Drive the coalescer as the watch thread does: each hint enters at its
/// time, and a batch is taken the moment it is due.
fn run(coalescer: &mut Coalescer, timeline: &[(u64, Hint)]) -> Vec<Flush> {
    let start = Instant::now();
    let ms = |instant: Instant| instant.duration_since(start).as_millis() as u64;
    let mut flushes = Vec::new();
    let mut take_due_before = |coalescer: &mut Coalescer, limit: Option<u64>| {
        while let Some(due) = coalescer.deadline() {
            if limit.is_some_and(|limit| ms(due) > limit) {
                break;
            }
            let batch = coalescer.take_due(due).expect("due at its deadline");
            flushes.push(flush(ms(due), batch));
        }
    };
    for (at, hint) in timeline {
        take_due_before(coalescer, Some(*at));
        coalescer.push(hint.clone(), start + Duration::from_millis(*at));
    }
    take_due_before(coalescer, None);
    flushes
}

fn flush(at: u64, batch: Batch) -> Flush {
    Flush {
        at,
        paths: batch
            .touched
            .iter()
            .map(|touched| relative(&touched.path))
            .collect(),
        appeared: batch
            .touched
            .iter()
            .map(|touched| touched.appeared)
            .collect(),
        rescan: batch.rescan,
    }
}

fn relative(path: &Path) -> String {
    path.strip_prefix("w")
        .expect("under w")
        .display()
        .to_string()
}

fn hint(at: u64, path: &str, kind: HintKind) -> (u64, Hint) {
    (at, Hint::new(Path::new("w").join(path), kind))
}

fn paths(flushes: &[Flush]) -> Vec<(u64, Vec<&str>)> {
    flushes
        .iter()
        .map(|flush| (flush.at, flush.paths.iter().map(String::as_str).collect()))
        .collect()
}

#[test]
fn one_write_is_delivered_after_the_quiet_window() {
    let flushes = run(&mut coalescer(), &[hint(10, "a.txt", HintKind::Created)]);
    assert_eq!(paths(&flushes), vec![(210, vec!["a.txt"])]);
}

#[test]
fn hints_within_the_window_merge_and_restart_it() {
    let timeline = [
        hint(0, "b.txt", HintKind::Created),
        hint(120, "a.txt", HintKind::Created),
        hint(150, "b.txt", HintKind::Modified),
    ];
    let flushes = run(&mut coalescer(), &timeline);
    assert_eq!(paths(&flushes), vec![(350, vec!["a.txt", "b.txt"])]);
}

#[test]
fn bursts_separated_by_quiet_are_separate_batches() {
    let timeline = [
        hint(0, "a.txt", HintKind::Created),
        hint(50, "b.txt", HintKind::Created),
        hint(400, "c.txt", HintKind::Created),
    ];
    let flushes = run(&mut coalescer(), &timeline);
    assert_eq!(
        paths(&flushes),
        vec![(250, vec!["a.txt", "b.txt"]), (600, vec!["c.txt"])]
    );
}

#[test]
fn a_thousand_new_files_at_once_are_one_batch() {
    let timeline: Vec<(u64, Hint)> = (0..1000)
        .flat_map(|index| {
            let name = format!("case-{index:04}.txt");
            let at = index / 100;
            [
                hint(at, &name, HintKind::Created),
                hint(at, &name, HintKind::Modified),
            ]
        })
        .collect();
    let flushes = run(&mut coalescer(), &timeline);
    assert_eq!(flushes.len(), 1);
    assert_eq!(flushes[0].at, 9 + QUIET);
    assert_eq!(flushes[0].paths.len(), 1000);
}

#[test]
fn a_continuous_burst_is_cut_at_the_maximum_latency() {
    // One new file every millisecond for a second: never quiet.
    let timeline: Vec<(u64, Hint)> = (0..1000)
        .map(|at| hint(at, &format!("f{at:04}"), HintKind::Created))
        .collect();
    let flushes = run(&mut coalescer(), &timeline);
    assert_eq!(
        flushes.iter().map(|flush| flush.at).collect::<Vec<_>>(),
        vec![500, 1000]
    );
    assert_eq!(flushes[0].paths.len(), 500);
    assert_eq!(flushes[1].paths.len(), 500);
    assert_eq!(flushes[0].paths.first().map(String::as_str), Some("f0000"));
    assert_eq!(flushes[1].paths.last().map(String::as_str), Some("f0999"));
}

#[test]
fn a_modify_storm_delivers_periodically_and_once_more_after_the_last_write() {
    // A model streaming into one file every 10 ms for two seconds.
    let timeline: Vec<(u64, Hint)> = (0..200)
        .map(|step| hint(step * 10, "stream.txt", HintKind::Modified))
        .collect();
    let last_write = 1990;
    let flushes = run(&mut coalescer(), &timeline);
    assert_eq!(
        flushes.iter().map(|flush| flush.at).collect::<Vec<_>>(),
        vec![500, 1000, 1500, 2000]
    );
    let final_flush = flushes.last().expect("flushed").at;
    assert!(
        final_flush > last_write,
        "the final content is read after the last write"
    );
    assert!(flushes.iter().all(|flush| flush.paths == ["stream.txt"]));
    assert!(flushes.iter().all(|flush| flush.appeared == [false]));
}

#[test]
fn a_save_by_rename_is_one_change_of_the_target() {
    // Write a temporary, rename it over the target (what most editors do).
    let timeline = [
        hint(0, "x.tmp", HintKind::Created),
        hint(1, "x.tmp", HintKind::Modified),
        hint(2, "x.tmp", HintKind::Renamed),
        hint(2, "x.txt", HintKind::Renamed),
    ];
    let flushes = run(&mut coalescer(), &timeline);
    assert_eq!(paths(&flushes), vec![(202, vec!["x.txt"])]);
    assert_eq!(flushes[0].appeared, [true]);
}

#[test]
fn a_vim_save_moves_the_original_aside_and_writes_anew() {
    // vim: rename a.txt to a.txt~, probe with 4913, write a.txt, drop the backup.
    let timeline = [
        hint(0, "4913", HintKind::Created),
        hint(0, "4913", HintKind::Removed),
        hint(1, "a.txt", HintKind::Renamed),
        hint(1, "a.txt~", HintKind::Renamed),
        hint(2, "a.txt", HintKind::Created),
        hint(3, "a.txt", HintKind::Modified),
        hint(4, ".a.txt.swp", HintKind::Modified),
        hint(5, "a.txt~", HintKind::Removed),
    ];
    let flushes = run(&mut coalescer(), &timeline);
    // The ignored names never move the window: it ends 200 ms after a.txt's last hint.
    assert_eq!(paths(&flushes), vec![(203, vec!["a.txt"])]);
}

#[test]
fn a_delete_is_delivered_as_a_path_to_look_at() {
    let flushes = run(&mut coalescer(), &[hint(0, "gone.txt", HintKind::Removed)]);
    assert_eq!(paths(&flushes), vec![(200, vec!["gone.txt"])]);
    assert_eq!(flushes[0].appeared, [true]);
}

#[test]
fn created_then_deleted_within_the_window_resolves_to_removed() {
    let mut coalescer = coalescer();
    let flushes = run(
        &mut coalescer,
        &[
            hint(0, "brief.txt", HintKind::Created),
            hint(30, "brief.txt", HintKind::Removed),
        ],
    );
    assert_eq!(paths(&flushes), vec![(230, vec!["brief.txt"])]);
    // The batch is a hint; the file system has the last word.
    let temp = tempfile::tempdir().expect("temp dir");
    let root = temp.path().join("w");
    let batch = Batch {
        touched: vec![jxray::watch::Touched {
            path: root.join("brief.txt"),
            appeared: true,
        }],
        rescan: false,
    };
    let result = restat(&batch);
    assert_eq!(result, vec![PathChange::Removed(root.join("brief.txt"))]);
}

#[test]
fn ignored_paths_never_start_a_batch() {
    let mut coalescer = coalescer();
    let ignored = [
        "a.txt.swp",
        "a.swx",
        "a.txt~",
        "4913",
        ".#a.txt",
        "x.tmp",
        ".a.txt.kate-swp",
        ".jxray-tmp-1234",
        ".git/index",
        "sub/.cache/a.txt",
        "target/debug/out.txt",
        "node_modules/pkg/package.json",
        "fixtures/saved.json",
    ];
    let start = Instant::now();
    for path in ignored {
        let accepted = coalescer.push(
            Hint::new(Path::new("w").join(path), HintKind::Created),
            start,
        );
        assert!(!accepted, "{path} should be ignored");
    }
    assert!(!coalescer.push(Hint::new("elsewhere/a.txt", HintKind::Created), start));
    assert_eq!(coalescer.pending(), 0);
    assert_eq!(coalescer.deadline(), None);
    assert_eq!(coalescer.take_due(start + Duration::from_secs(60)), None);
}

#[test]
fn a_folder_only_modified_is_not_listed_one_created_is() {
    let timeline = [
        hint(0, "old", HintKind::Modified),
        hint(0, "new", HintKind::Modified),
        hint(1, "new", HintKind::Created),
        hint(2, "unknown", HintKind::Any),
    ];
    let flushes = run(&mut coalescer(), &timeline);
    assert_eq!(paths(&flushes), vec![(202, vec!["new", "old", "unknown"])]);
    assert_eq!(flushes[0].appeared, [true, false, true]);
}

#[test]
fn lost_events_ask_for_one_rescan() {
    let mut coalescer = coalescer();
    let start = Instant::now();
    coalescer.push_rescan(start);
    coalescer.push(Hint::new("w/a.txt", HintKind::Modified), start);
    let batch = coalescer
        .take_due(start + Duration::from_millis(QUIET))
        .expect("due");
    assert!(batch.rescan);
    coalescer.push(Hint::new("w/a.txt", HintKind::Modified), start);
    let batch = coalescer.take_all().expect("pending");
    assert!(!batch.rescan, "a rescan is asked for once");
}

#[test]
fn paused_changes_accumulate_and_come_out_together() {
    // While paused the thread does not take due batches; on resume it takes all.
    let mut coalescer = coalescer();
    let start = Instant::now();
    for (at, path) in [(0, "w/a.txt"), (900, "w/b.txt"), (5000, "w/a.txt")] {
        coalescer.push(
            Hint::new(path, HintKind::Modified),
            start + Duration::from_millis(at),
        );
    }
    assert_eq!(coalescer.pending(), 2);
    let batch = coalescer.take_all().expect("pending");
    let resumed: Vec<PathBuf> = batch
        .touched
        .into_iter()
        .map(|touched| touched.path)
        .collect();
    assert_eq!(
        resumed,
        [PathBuf::from("w/a.txt"), PathBuf::from("w/b.txt")]
    );
    assert_eq!(coalescer.take_all(), None);
    assert_eq!(coalescer.deadline(), None);
}

#[test]
fn canonical_event_paths_are_reported_in_the_callers_spelling() {
    let rules = IgnoreRules::for_tree("w").with_canonical_root(PathBuf::from("/private/w"));
    let mut coalescer = Coalescer::new(Timing::default(), rules);
    let start = Instant::now();
    assert!(coalescer.push(Hint::new("/private/w/a.txt", HintKind::Created), start));
    let batch = coalescer.take_all().expect("pending");
    assert_eq!(batch.touched[0].path, PathBuf::from("w/a.txt"));
}
