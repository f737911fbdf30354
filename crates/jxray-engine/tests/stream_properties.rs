//! The streaming extractor's contract (§7), proved over every conformance case, every
//! JSONTestSuite file and a generated corpus (fences, prose, reasoning blocks, tool-call
//! dialects, cut outputs, runaways), each fed at every chunking tried (1, 2, 7 and 64
//! bytes, and random cuts):
//!
//! - `end` is `extract` of the joined text, field for field;
//! - while a candidate lives, each snapshot's value grows into the next (strings and arrays
//!   only grow, objects only gain members, no type changes, nothing vanishes);
//! - every delta fits the value the earlier ones built, which never holds a number or
//!   literal before its token ended nor a closer that was not written;
//! - when the output has a value, every snapshot of the candidate that was not withdrawn
//!   holds only what the final value holds at that path (strings as prefixes);
//! - a value whose container has not closed is never complete: a tool call cut after a
//!   prefix that would parse if closed (vercel/ai #13137, pi #6284, mastra #24442) is never
//!   `ok`, and its root is never final.

mod support;

use jxray_engine::{extract, DeltaRef, Extractor, Options, Replay, Snapshot, WarningKind};
use proptest::prelude::*;
use serde_json::Value;

/// `a` is what `b` may grow from: the same type, a string's prefix, an array's first items
/// (each growing into its counterpart), an object's members (each growing into its own).
fn grows_into(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(a), Value::String(b)) => b.starts_with(a.as_str()),
        (Value::Array(a), Value::Array(b)) => {
            a.len() <= b.len() && a.iter().zip(b).all(|(a, b)| grows_into(a, b))
        }
        (Value::Object(a), Value::Object(b)) => a
            .iter()
            .all(|(key, a)| b.get(key).is_some_and(|b| grows_into(a, b))),
        (a, b) => a == b,
    }
}

/// Feed `bytes` cut at `cuts`; check every invariant; return what failed, if anything.
fn check(bytes: &[u8], cuts: &[usize], stop: Option<&str>) -> Result<(), String> {
    let text = std::str::from_utf8(bytes).ok();
    // An object that repeats a key shows the later value where it begins, as the final
    // value keeps it (the outcome warns `duplicate-key`): the one place a member changes.
    let repeats_a_key = text.is_some_and(|text| {
        extract(text, &Options::default().with_stop_reason(stop))
            .warnings
            .iter()
            .any(|warning| warning.kind == WarningKind::DuplicateKey)
    });
    let mut extractor = Extractor::new(Options::default());
    // Fed the way the bindings feed: one snapshot, its buffers used again; it must say
    // what a fresh snapshot per chunk says.
    let mut lending = Extractor::new(Options::default());
    let mut lent = Snapshot::default();
    let mut replay = Replay::new();
    // The values shown since the candidate began, one per snapshot.
    let mut history: Vec<Value> = Vec::new();
    let mut from = 0;
    for &cut in cuts.iter().chain([&bytes.len()]) {
        let cut = cut.clamp(from, bytes.len());
        let snapshot = extractor.feed(&bytes[from..cut]);
        lending.feed_into(&bytes[from..cut], &mut lent);
        if lent != snapshot {
            return Err(format!("a lent snapshot {lent:?} is not {snapshot:?}"));
        }
        from = cut;
        for delta in &snapshot.deltas {
            if delta == DeltaRef::Withdraw {
                history.clear();
            }
            if !replay.apply_ref(delta) {
                return Err(format!("{delta:?} does not fit {:?}", replay.value()));
            }
        }
        let shown = replay.value().cloned();
        if let Some(value) = &shown {
            if let Some(last) = history.last().filter(|_| !repeats_a_key) {
                if !grows_into(last, value) {
                    return Err(format!("{last} does not grow into {value}"));
                }
            }
            history.push(value.clone());
        }
    }
    let Some(text) = text else {
        return extractor
            .not_utf8()
            .map(|_| ())
            .ok_or_else(|| "bytes that are not UTF-8 were not noticed".to_string());
    };
    if extractor.text() != text {
        return Err("the text fed is not the text received".into());
    }
    let settled = replay.value().cloned();
    let outcome = extractor.end(stop);
    let expected = extract(text, &Options::default().with_stop_reason(stop));
    if serde_json::to_value(&outcome).unwrap() != serde_json::to_value(&expected).unwrap() {
        return Err("end is not extract".into());
    }
    if let (true, Some(value), Some(shown)) = (outcome.ok(), outcome.value.as_ref(), settled) {
        if !grows_into(&shown, value) {
            return Err(format!(
                "the stream showed {shown}, the output's value is {value}"
            ));
        }
        if !repeats_a_key && !history.iter().all(|snapshot| grows_into(snapshot, value)) {
            return Err(format!("a snapshot held what {value} does not"));
        }
    }
    Ok(())
}

fn every_chunking(bytes: &[u8], stop: Option<&str>) -> Result<(), String> {
    for size in [1, 2, 7, 64] {
        let cuts: Vec<usize> = (size..bytes.len()).step_by(size).collect();
        check(bytes, &cuts, stop).map_err(|why| format!("in chunks of {size}: {why}"))?;
    }
    Ok(())
}

fn corpus_files() -> Vec<std::path::PathBuf> {
    let mut files = support::files(&support::data("spec/cases"));
    files.extend(support::files(&support::data(
        "suites/JSONTestSuite/test_parsing",
    )));
    files
}

/// Every output (named, with its stop reason) at every chunking; the ones that failed.
fn all_pass(outputs: impl Iterator<Item = (String, Vec<u8>, Option<String>)>) -> usize {
    let mut failed = Vec::new();
    let mut read = 0;
    for (name, bytes, stop) in outputs {
        read += 1;
        if let Err(why) = every_chunking(&bytes, stop.as_deref()) {
            failed.push(format!("{name}: {why}"));
        }
    }
    assert!(
        failed.is_empty(),
        "{} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
    read
}

#[test]
fn every_case_and_suite_file_at_every_chunking() {
    all_pass(corpus_files().into_iter().map(|path| {
        let bytes = std::fs::read(&path).unwrap();
        (path.display().to_string(), bytes, None)
    }));
}

/// The project's fixtures (`fixtures/` at the workspace's root: real outputs saved from the
/// workbench), each with its stop reason.
#[test]
fn every_fixture_of_the_project_at_every_chunking() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let fixtures = support::files(&dir).into_iter().filter_map(|path| {
        let fixture = serde_json::from_slice::<Value>(&std::fs::read(&path).ok()?).ok()?;
        let input = fixture.get("input")?.as_str()?.as_bytes().to_vec();
        let stop = fixture
            .get("stop_reason")
            .and_then(Value::as_str)
            .map(str::to_owned);
        Some((path.display().to_string(), input, stop))
    });
    let read = all_pass(fixtures);
    assert!(
        read >= 100,
        "only {read} fixtures read from {}",
        dir.display()
    );
}

/// A tool call's arguments cut after a prefix that would parse if closed is never a
/// complete value: the stream never marks its root final, and the end is never `ok`.
#[test]
fn a_cut_tool_call_is_never_complete() {
    let cases = [
        r#"{"query": "test", "limit": 10}"#,
        r#"{"command": "rm -rf build/tmp", "confirm": false}"#,
        r#"{"name":"Ana","items":["lechuga","zanahoria","tomate"]}"#,
        r#"<tool_call>{"name": "search", "arguments": {"query": "test", "limit": 10}}</tool_call>"#,
    ];
    for text in cases {
        // Where the JSON value ends: before that, it is cut.
        let whole = text.rfind('}').unwrap() + 1;
        for cut in (1..whole).filter(|&cut| text.is_char_boundary(cut)) {
            let prefix = &text[..cut];
            let mut extractor = Extractor::new(Options::default());
            let snapshot = extractor.feed_str(prefix);
            assert!(
                !snapshot.final_paths.iter().any(|path| path.is_empty()),
                "{prefix:?}: the root was called final"
            );
            for stop in [None, Some("length"), Some("stop"), Some("end_turn")] {
                let mut again = Extractor::new(Options::default());
                again.feed_str(prefix);
                let outcome = again.end(stop);
                assert!(
                    !outcome.ok(),
                    "{prefix:?} with {stop:?} was called complete"
                );
            }
        }
    }
}

/// The outputs models write around JSON, built from generated values.
fn output() -> impl Strategy<Value = String> {
    let value = support::values::json_value();
    let wrap = prop_oneof![
        Just(("", "")),
        Just(("Here is the result:\n```json\n", "\n```\nHope this helps.")),
        Just(("```\n", "\n```")),
        Just(("Sure! The answer is ", " — let me know.")),
        Just(("<think>The user wants JSON. {\"draft\": 1}</think>\n", "")),
        Just(("<tool_call>\n", "\n</tool_call>")),
        Just(("[TOOL_CALLS]search[ARGS]", "")),
        Just(("I found {two} things: ", "")),
    ];
    let tail = prop_oneof![
        Just(String::new()),
        Just(" ".repeat(600)),
        Just("\"ha\", ".repeat(120)),
        Just("\n\nThat's all.".to_string()),
    ];
    (
        value,
        wrap,
        tail,
        any::<prop::sample::Index>(),
        any::<bool>(),
    )
        .prop_map(|(value, (before, after), tail, cut, is_cut)| {
            let body = if value.is_object() || value.is_array() {
                value.to_string()
            } else {
                format!("{{\"v\": {value}}}")
            };
            let whole = format!("{before}{body}{after}{tail}");
            if !is_cut {
                return whole;
            }
            let mut at = cut.index(whole.len() + 1);
            while !whole.is_char_boundary(at) {
                at -= 1;
            }
            whole[..at].to_string()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn a_generated_output_at_random_cuts(
        text in output(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..12),
    ) {
        let bytes = text.as_bytes();
        let mut at: Vec<usize> = cuts.iter().map(|i| i.index(bytes.len() + 1)).collect();
        at.sort_unstable();
        prop_assert_eq!(check(bytes, &at, None), Ok(()));
        prop_assert_eq!(every_chunking(bytes, Some("length")), Ok(()));
    }
}
