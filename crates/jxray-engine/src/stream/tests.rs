use serde_json::{json, Value};

use crate::Defect;

use super::*;

/// An extractor and the value its snapshots' deltas build.
struct Watched {
    extractor: Extractor,
    replay: Replay,
}

impl Watched {
    fn new() -> Watched {
        Watched {
            extractor: Extractor::new(Options::default()),
            replay: Replay::new(),
        }
    }

    fn feed(&mut self, chunk: &[u8]) -> Snapshot {
        let snapshot = self.extractor.feed(chunk);
        self.replay.apply_all(&snapshot.deltas);
        snapshot
    }

    fn feed_str(&mut self, chunk: &str) -> Snapshot {
        self.feed(chunk.as_bytes())
    }

    fn value(&self) -> Option<&Value> {
        self.replay.value()
    }

    fn end(self, stop_reason: Option<&str>) -> crate::Outcome {
        self.extractor.end(stop_reason)
    }
}

/// Feed `text` in pieces of `size` bytes; every snapshot, and what watched them.
fn fed(text: &str, size: usize) -> (Vec<Snapshot>, Watched) {
    let mut watched = Watched::new();
    let snapshots = text
        .as_bytes()
        .chunks(size.max(1))
        .map(|chunk| watched.feed(chunk))
        .collect();
    (snapshots, watched)
}

fn signals(snapshots: &[Snapshot]) -> Vec<SignalKind> {
    snapshots
        .iter()
        .flat_map(|s| s.signals.iter().map(|signal| signal.kind))
        .collect()
}

#[test]
fn a_fenced_value_is_shown_as_it_arrives_and_never_invented() {
    let text =
        "Here you go:\n```json\n{\"city\": \"Paris\", \"zip\": 75001, \"tags\": [true]}\n```\n";
    for size in [1, 2, 7, 64] {
        let (snapshots, extractor) = fed(text, size);
        assert_eq!(
            extractor.value(),
            Some(&json!({"city": "Paris", "zip": 75001, "tags": [true]}))
        );
        let states: Vec<State> = snapshots.iter().map(|s| s.state).collect();
        if size < 12 {
            assert_eq!(
                states[0],
                State::Waiting {
                    why: Waiting::Prose
                },
                "{size}"
            );
        }
        assert!(states.contains(&State::Reading {
            layer: StreamLayer::Fenced,
            dialect: None
        }));
        let finals: Vec<&str> = snapshots
            .iter()
            .flat_map(|s| s.final_paths.iter())
            .collect();
        assert!(finals.contains(&"/city"));
        assert_eq!(finals.last(), Some(&""));
        assert!(snapshots.iter().all(|s| !s.provisional));
        assert!(extractor.end(None).ok());
    }
}

#[test]
fn numbers_and_literals_appear_only_once_their_token_ended() {
    let mut extractor = Watched::new();
    extractor.feed_str("{\"n\": 12");
    assert_eq!(extractor.value(), Some(&json!({})));
    extractor.feed_str(".5, \"ok\": tru");
    assert_eq!(extractor.value(), Some(&json!({"n": 12.5})));
    let snapshot = extractor.feed_str("e}");
    assert_eq!(extractor.value(), Some(&json!({"n": 12.5, "ok": true})));
    assert!(snapshot.open_paths.is_empty());
}

#[test]
fn an_open_string_is_its_prefix_and_its_path_is_open() {
    let mut extractor = Watched::new();
    let snapshot = extractor.feed_str("{\"items\": [{\"name\": \"Jo");
    assert_eq!(extractor.value(), Some(&json!({"items": [{"name": "Jo"}]})));
    let open: Vec<&str> = snapshot.open_paths.iter().collect();
    assert_eq!(open, ["", "/items", "/items/0", "/items/0/name"]);
    let snapshot = extractor.feed_str("hn\\n\\u00e9");
    assert_eq!(
        snapshot.deltas.to_vec(),
        [Delta::Append {
            path: "/items/0/name".into(),
            text: "hn\né".into()
        }]
    );
}

#[test]
fn a_split_utf8_sequence_and_escape_wait_for_their_rest() {
    let text = "{\"a\": \"é\\u00e9\\ud83d\\ude00\"}";
    for size in [1, 2, 3] {
        let (_, extractor) = fed(text, size);
        assert_eq!(extractor.value(), Some(&json!({"a": "éé😀"})), "{size}");
        assert_eq!(extractor.extractor.not_utf8(), None);
    }
}

#[test]
fn a_key_is_its_text_with_its_escapes_read_wherever_the_chunks_split_it() {
    let text = "{\"plain\": 1, \"a\\u00e9\\/b\": [2], \"x\ny\": {\"\\ud83d\\ude00~\": \"s\"}, \"q\\\"\": \"v\"}";
    let expected = json!({"plain": 1, "aé/b": [2], "x\ny": {"😀~": "s"}, "q\"": "v"});
    for size in 1..=9 {
        let (snapshots, extractor) = fed(text, size);
        assert_eq!(extractor.value(), Some(&expected), "chunks of {size}");
        let finals: Vec<&str> = snapshots
            .iter()
            .flat_map(|snapshot| snapshot.final_paths.iter())
            .collect();
        assert_eq!(
            finals,
            ["/a\u{e9}~1b", "/x\ny/\u{1f600}~0", "/x\ny", "/q\"", ""],
            "chunks of {size}"
        );
    }
}

#[test]
fn a_bracket_in_prose_is_provisional_and_a_sentence_in_braces_is_withdrawn() {
    let mut extractor = Watched::new();
    let snapshot = extractor.feed_str("Sure {Happy to help} and the answer: {\"a\": [1");
    assert!(snapshot.provisional);
    assert_eq!(extractor.value(), Some(&json!({"a": []})));
    assert!(
        snapshot.signals.is_empty(),
        "braces around prose are no defect"
    );
    assert!(snapshot
        .deltas
        .iter()
        .any(|delta| delta == DeltaRef::Withdraw));
    extractor.feed_str("]}");
    assert_eq!(extractor.value(), Some(&json!({"a": [1]})));
}

#[test]
fn a_defect_no_continuation_repairs_is_signalled_where_it_is() {
    let (snapshots, _) = fed("{\"total\": 1240,}", 1);
    let invalid: Vec<&Signal> = snapshots.iter().flat_map(|s| &s.signals).collect();
    assert_eq!(invalid.len(), 1);
    assert_eq!(invalid[0].kind, SignalKind::Invalid);
    assert_eq!(invalid[0].defect, Some(Defect::TrailingComma));
    assert_eq!(
        (invalid[0].byte, invalid[0].line, invalid[0].column),
        (15, 1, 16)
    );
    assert_eq!(invalid[0].later_may_change, Some(false));
}

#[test]
fn reasoning_and_tool_calls_are_waiting_states_with_their_signals() {
    let text = "<think>maybe {\"a\": 1}</think><tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>";
    let (snapshots, extractor) = fed(text, 3);
    assert!(snapshots.iter().any(|s| s.state
        == State::Waiting {
            why: Waiting::Reasoning
        }));
    assert_eq!(
        signals(&snapshots),
        [SignalKind::Reasoning, SignalKind::ToolCallText]
    );
    assert_eq!(
        snapshots.last().unwrap().state,
        State::Reading {
            layer: StreamLayer::ToolCallText,
            dialect: Some(Dialect::Hermes)
        }
    );
    assert_eq!(
        extractor.value(),
        Some(&json!({"name": "f", "arguments": {}}))
    );
}

#[test]
fn a_whitespace_flood_is_a_runaway_at_the_bound() {
    let text = format!("{{\"a\": \"x\"{}", " \n".repeat(400));
    let (snapshots, _) = fed(&text, 5);
    let runaway: Vec<&Signal> = snapshots.iter().flat_map(|s| &s.signals).collect();
    assert_eq!(runaway.len(), 1);
    assert_eq!(runaway[0].kind, SignalKind::Runaway);
    // Nine bytes of value, then the run: its 512th byte is where it is certain.
    assert_eq!(runaway[0].byte, 9 + DEFAULT_RUNAWAY_BYTES - 1);
    let (snapshots, _) = fed(&format!("[{}", "\"ha\", ".repeat(200)), 7);
    assert_eq!(signals(&snapshots), [SignalKind::Runaway]);
}

#[test]
fn a_refusal_is_signalled_at_its_sentence_end() {
    let (snapshots, _) = fed("I'm sorry, but I can't help with that request.", 4);
    assert_eq!(signals(&snapshots), [SignalKind::Refusal]);
    let (snapshots, _) = fed("Sure! {\"a\": 1}", 4);
    assert!(signals(&snapshots).is_empty());
}

#[test]
fn end_is_extract_of_the_joined_text() {
    let text = "```json\n{\"a\": [1, 2";
    let (_, extractor) = fed(text, 3);
    let outcome = extractor.end(Some("length"));
    let expected = crate::extract(text, &Options::default().with_stop_reason(Some("length")));
    assert_eq!(
        serde_json::to_value(&outcome).unwrap(),
        serde_json::to_value(&expected).unwrap()
    );
    assert!(!outcome.ok());
}

#[test]
fn bytes_that_are_not_utf8_make_the_output_unreadable() {
    let mut extractor = Watched::new();
    extractor.feed(b"{\"a\": \"\xff\"}");
    assert_eq!(extractor.extractor.not_utf8(), Some(7));
}

#[test]
fn replaying_the_deltas_gives_the_value() {
    let text = "{\"a\": {\"b~/c\": [\"x\", {\"d\": null}]}, \"e\": -0.5e3}";
    for size in [1, 2, 5] {
        let (_, watched) = fed(text, size);
        assert_eq!(
            watched.value(),
            Some(&crate::decode_exact(text).unwrap()),
            "{size}"
        );
    }
}

#[test]
fn a_kept_snapshot_shows_the_open_paths_a_fresh_one_would() {
    let text = "```json\n{\"a\": [1, {\"b\": \"xy\"}], \"c\": \"long enough to span\"}\n```\n{\"d\": [\"e\"]}";
    for size in [1, 2, 3, 7] {
        let mut fresh = Extractor::new(Options::default());
        let mut kept = Extractor::new(Options::default());
        let mut other = Extractor::new(Options::default());
        let (mut one, mut shared) = (Snapshot::default(), Snapshot::default());
        for chunk in text.as_bytes().chunks(size) {
            let expected = fresh.feed(chunk);
            kept.feed_into(chunk, &mut one);
            assert_eq!(one.open_paths, expected.open_paths, "chunks of {size}");
            // One snapshot moved between two extractors is never taken for either's.
            kept.feed_into(b"", &mut shared);
            assert_eq!(shared.open_paths, expected.open_paths, "chunks of {size}");
            other.feed_into(chunk, &mut shared);
            assert_eq!(shared.open_paths, expected.open_paths, "chunks of {size}");
        }
    }
}

#[test]
fn each_change_reads_back_its_own_path_and_characters_at_every_chunk_size() {
    let text = "{\"a\": [1, true, \"xy\", {\"b\": null}], \"c\": {\"d\": [2.50, 3]}, \"e\": \"f\"}";
    let added = [
        "", "/a", "/a/0", "/a/1", "/a/2", "/a/3", "/a/3/b", "/c", "/c/d", "/c/d/0", "/c/d/1", "/e",
    ];
    let finals = ["/a/2", "/a/3", "/a", "/c/d", "/c", "/e", ""];
    for size in 1..=text.len() {
        let mut extractor = Extractor::new(Options::default());
        // One snapshot for the whole stream, as the bindings keep it.
        let mut snapshot = Snapshot::default();
        let (mut adds, mut ends, mut strings, mut numbers) =
            (Vec::new(), Vec::new(), String::new(), Vec::new());
        for chunk in text.as_bytes().chunks(size) {
            extractor.feed_into(chunk, &mut snapshot);
            for delta in &snapshot.deltas {
                match delta {
                    DeltaRef::Add { path, value } => {
                        adds.push(path.to_owned());
                        match value {
                            Part::String(text) => strings.push_str(text),
                            Part::Number(spelling) => numbers.push(spelling.to_owned()),
                            _ => {}
                        }
                    }
                    DeltaRef::Append { path, text } => {
                        assert!(["/a/2", "/e"].contains(&path), "{path}");
                        strings.push_str(text);
                    }
                    DeltaRef::Withdraw => panic!("nothing to withdraw in {text}"),
                }
            }
            // The borrowed changes say what owned ones say.
            assert_eq!(
                serde_json::to_value(&snapshot.deltas).unwrap(),
                serde_json::to_value(snapshot.deltas.to_vec()).unwrap()
            );
            ends.extend(snapshot.final_paths.iter().map(str::to_owned));
        }
        assert_eq!(adds, added, "chunks of {size}");
        assert_eq!(ends, finals, "chunks of {size}");
        assert_eq!(strings, "xyf", "chunks of {size}");
        assert_eq!(numbers, ["1", "2.50", "3"], "chunks of {size}");
    }
}

#[test]
fn a_reader_that_used_its_block_of_stamps_takes_a_new_one() {
    let first = OpenPaths::stamps();
    assert_eq!(OpenPaths::next_stamp(first), first + 1);
    // The block's last stamp: the next is the first of a block no reader has had.
    let last = first + STAMP_BLOCK - 2;
    assert_eq!(OpenPaths::next_stamp(last - 1), last);
    let next = OpenPaths::next_stamp(last);
    assert!(
        next > last + 1,
        "past the old block and the reader's after it"
    );
    assert_eq!(next % STAMP_BLOCK, first % STAMP_BLOCK);
}
