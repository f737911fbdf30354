//! The entries store: reading files in parts, marks, search, and the view and mixes.

use std::path::PathBuf;

use super::matching::matches;
use super::view::common_folder;
use super::*;
use crate::engine::Layer;
use crate::mix::Mix;
use crate::tui::action::Loaded;
use crate::tui::app::filter::Filter;
use crate::tui::search::Query;

fn loaded(source: &str, path: &str, layer: Option<Layer>) -> Loaded {
    let mut capture = Capture::from_text(source, "text");
    capture.path = PathBuf::from(path);
    let outcome = match layer {
        Some(layer) => {
            let mut outcome = Outcome::default();
            outcome.layer = Some(layer);
            outcome.value = Some(serde_json::json!({}));
            outcome
        }
        None => Outcome::unreadable("gone"),
    };
    Loaded {
        capture,
        outcome,
        request: None,
        modified: None,
    }
}

#[test]
fn entries_sort_by_source_and_filter() {
    let mut entries = Entries::default();
    entries.replace_file(
        Path::new("b"),
        vec![loaded("b", "b", Some(Layer::Direct))],
        None,
        false,
    );
    entries.replace_file(Path::new("a"), vec![loaded("a", "a", None)], None, false);
    entries.settle();
    let sources: Vec<&str> = (0..2)
        .map(|i| entries.at(i).unwrap().capture.source.as_str())
        .collect();
    assert_eq!(sources, ["a", "b"]);
    entries.set_filter(Filter::Failures);
    entries.settle();
    assert_eq!(entries.view.len(), 1);
    assert_eq!(entries.mix_all.total(), 2);
    assert_eq!(entries.mix_view.total(), 1);
}

#[test]
fn rereading_a_file_keeps_ids_by_source_and_drops_the_gone() {
    let mut entries = Entries::default();
    let first = entries.replace_file(
        Path::new("log.jsonl"),
        vec![
            loaded("log.jsonl:1", "log.jsonl", None),
            loaded("log.jsonl:2", "log.jsonl", None),
        ],
        None,
        false,
    );
    let again = entries.replace_file(
        Path::new("log.jsonl"),
        vec![loaded("log.jsonl:2", "log.jsonl", Some(Layer::Fenced))],
        None,
        false,
    );
    entries.settle();
    assert_eq!(again, [first[1]]);
    assert_eq!(entries.len(), 1);
    assert!(entries.get(first[0]).is_none());
    entries.replace_file(Path::new("log.jsonl"), Vec::new(), None, false);
    entries.settle();
    assert!(entries.is_empty());
}

#[test]
fn gone_files_leave_the_counts_at_once_and_the_list_at_the_next_change() {
    let mut entries = Entries::default();
    for name in ["dir/a", "dir/b", "c"] {
        entries.replace_file(
            Path::new(name),
            vec![loaded(name, name, Some(Layer::Direct))],
            None,
            false,
        );
    }
    entries.settle();
    assert_eq!(entries.mark_gone(Path::new("dir")), 2);
    assert_eq!(entries.mark_gone(Path::new("c")), 1);
    assert_eq!(entries.mark_gone(Path::new("c")), 0, "already gone");
    entries.settle();
    assert_eq!(
        entries.mix_all.total(),
        0,
        "the footer counts live captures"
    );
    assert_eq!(entries.len(), 3, "still listed, marked gone");
    entries.drop_gone();
    entries.settle();
    assert!(entries.is_empty());
    assert!(entries.paths().is_empty());
    // A file that comes back is listed again.
    entries.replace_file(Path::new("c"), vec![loaded("c", "c", None)], None, false);
    entries.settle();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries.at(0).unwrap().capture.source, "c");
}

#[test]
fn jsonl_lines_sort_by_number() {
    let mut entries = Entries::default();
    let lines: Vec<Loaded> = [10, 2, 1]
        .iter()
        .map(|n| {
            let mut l = loaded(&format!("log.jsonl:{n}"), "log.jsonl", None);
            l.capture.line = Some(*n);
            l
        })
        .collect();
    entries.replace_file(Path::new("log.jsonl"), lines, None, false);
    entries.replace_file(
        Path::new("a"),
        vec![loaded("log.jsonl.txt", "a", None)],
        None,
        false,
    );
    entries.settle();
    let sources: Vec<&str> = (0..4)
        .map(|i| entries.at(i).unwrap().capture.source.as_str())
        .collect();
    assert_eq!(
        sources,
        [
            "log.jsonl:1",
            "log.jsonl:2",
            "log.jsonl:10",
            "log.jsonl.txt"
        ]
    );
}

#[test]
fn search_marks_sources_and_texts() {
    let mut entries = Entries::default();
    entries.replace_file(
        Path::new("a"),
        vec![loaded("alpha", "a", None)],
        None,
        false,
    );
    entries.replace_file(Path::new("b"), vec![loaded("beta", "b", None)], None, false);
    assert_eq!(entries.mark_matches(Query::new("alp").as_ref()), 1);
    assert_eq!(entries.mark_matches(Query::new("TEXT").as_ref()), 0);
    assert_eq!(entries.mark_matches(Query::new("text").as_ref()), 2);
}

/// The view and every count, to compare a settle that counted only what was
/// appended with one that counted everything.
fn summary(entries: &Entries) -> (Vec<usize>, Mix, Mix, String, Vec<Filter>) {
    (
        entries.view.clone(),
        entries.mix_all.clone(),
        entries.mix_view.clone(),
        entries.folder.clone(),
        Filter::menu_of(&entries.kinds),
    )
}

#[test]
fn parts_appended_in_order_are_counted_as_a_full_settle_counts_them() {
    let mut entries = Entries::default();
    entries.set_filter(Filter::Failures);
    let part = |range: std::ops::Range<usize>| -> Vec<Loaded> {
        range
            .map(|n| {
                let layer = (n % 3 != 0).then_some(Layer::Direct);
                let mut l = loaded(&format!("runs/log.jsonl:{n}"), "runs/log.jsonl", layer);
                l.capture.line = Some(n);
                l
            })
            .collect()
    };
    let path = Path::new("runs/log.jsonl");
    entries.begin_file(path, false);
    entries.add_to_file(path, part(1..5), None, true);
    entries.settle();
    entries.add_to_file(path, part(5..12), None, true);
    entries.end_file(path);
    entries.settle();
    let appended = summary(&entries);
    assert_eq!(appended.0.len(), 3, "lines 3, 6 and 9 failed");
    assert_eq!(appended.3, "runs/");
    entries.set_sort(Sort::Source);
    entries.settle();
    assert_eq!(summary(&entries), appended);
}

#[test]
fn identical_outcomes_are_kept_once() {
    let mut entries = Entries::default();
    let lines = (1..4)
        .map(|n| {
            let mut l = loaded(&format!("log.jsonl:{n}"), "log.jsonl", None);
            l.capture.line = Some(n);
            l
        })
        .collect();
    entries.replace_file(Path::new("log.jsonl"), lines, None, false);
    entries.settle();
    let (a, b) = (entries.at(0).unwrap(), entries.at(2).unwrap());
    assert!(Arc::ptr_eq(&a.outcome, &b.outcome));
}

#[test]
fn the_common_folder_ends_at_a_slash() {
    let folder = |list: &[&str]| common_folder(list.iter().copied());
    assert_eq!(folder(&["runs/a/x.txt", "runs/a/y/z.txt"]), "runs/a/");
    assert_eq!(folder(&["runs/ab.txt", "runs/ac.txt"]), "runs/");
    assert_eq!(folder(&["runs/a.txt", "other.txt"]), "");
    assert_eq!(folder(&["a.jsonl:1"]), "");
    assert_eq!(folder(&[]), "");
}

#[test]
fn search_finds_decoded_values_whose_raw_text_is_escaped() {
    let raw = r#"{"city": "Caf\u00e9 M\u00fcller"}"#;
    let capture = Capture::from_text("a.txt", raw);
    let outcome = crate::engine::extract(raw, &crate::engine::Options::default());
    assert!(matches(
        &Query::new("café").unwrap(),
        &capture,
        &outcome,
        None
    ));
    assert!(matches(
        &Query::new("müller").unwrap(),
        &capture,
        &outcome,
        None
    ));
    assert!(!matches(
        &Query::new("zürich").unwrap(),
        &capture,
        &outcome,
        None
    ));
}

/// The mix kept as captures come and go equals a count of the live captures, at every
/// step: added, re-read with a different outcome, re-extracted, marked gone, dropped.
#[test]
fn the_mix_follows_every_change_without_a_recount() {
    let mut entries = Entries::default();
    let recount = |entries: &Entries| {
        Mix::of(
            entries
                .iter()
                .filter(|entry| !entry.gone)
                .map(|entry| &*entry.outcome),
        )
    };
    let check = |entries: &Entries, step: &str| {
        assert_eq!(entries.mix_all, recount(entries), "after {step}");
    };
    entries.replace_file(
        Path::new("a"),
        vec![
            loaded("a:1", "a", Some(Layer::Direct)),
            loaded("a:2", "a", None),
        ],
        None,
        false,
    );
    entries.replace_file(
        Path::new("b"),
        vec![loaded("b", "b", Some(Layer::Fenced))],
        None,
        false,
    );
    check(&entries, "adding");
    // Not settled yet: the mix is already right (the footer reads it between settles).
    entries.replace_file(Path::new("a"), vec![loaded("a:1", "a", None)], None, true);
    check(&entries, "a re-read");
    let id = entries.iter().find(|e| e.capture.source == "b").unwrap().id;
    let mut outcome = Outcome::default();
    outcome.layer = Some(Layer::Lenient);
    outcome.value = Some(serde_json::json!(1));
    entries.set_outcome(id, outcome);
    check(&entries, "a re-extraction");
    entries.mark_gone(Path::new("b"));
    check(&entries, "marking gone");
    entries.drop_gone();
    entries.settle();
    check(&entries, "dropping");
    assert_eq!(entries.mix_all.total(), 1);
}

#[test]
fn a_file_read_in_parts_then_whole_marks_only_what_changed() {
    let mut entries = Entries::default();
    let path = Path::new("log.jsonl");
    let mut whole = loaded("log.jsonl:1", "log.jsonl", Some(Layer::Direct));
    whole.outcome.warnings.push(crate::engine::Warning::new(
        crate::engine::WarningKind::DuplicateKey,
        Some(3),
        "a key twice",
    ));
    entries.begin_file(path, false);
    entries.add_to_file(path, vec![whole.clone()], None, true);
    entries.end_file(path);
    entries.begin_file(path, true);
    let changed = loaded("log.jsonl:2", "log.jsonl", None);
    entries.add_to_file(path, vec![whole, changed], None, false);
    entries.end_file(path);
    entries.settle();
    let marked: Vec<bool> = (0..2).map(|i| entries.at(i).unwrap().changed).collect();
    assert_eq!(
        marked,
        [false, true],
        "the same outcome, once slim, is no change"
    );
}
