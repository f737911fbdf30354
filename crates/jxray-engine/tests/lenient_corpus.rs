//! The lenient reading measured on a corpus of broken outputs, each with the
//! value the model meant (tests/data/lenient/corpus.jsonl, written by
//! make_corpus.py beside it). A wrong value is worse than none: the corpus
//! may leave cases unrecovered, never one read wrong — with or without
//! lenient acceptance — and valid or cut-off text is never changed.
//!
//! See the figures: `cargo test --test lenient_corpus -- --nocapture`

use std::collections::BTreeMap;

use jxray_engine::{extract, Layer, Options};
use serde_json::Value;

struct Case {
    family: String,
    input: String,
    /// The value meant; `None` where no value may be given.
    want: Option<Value>,
}

fn corpus() -> Vec<Case> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/lenient/corpus.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("the corpus is committed");
    text.lines()
        .map(|line| {
            let case: Value = serde_json::from_str(line).expect("a JSON line");
            Case {
                family: case["family"].as_str().unwrap().to_owned(),
                input: case["input"].as_str().unwrap().to_owned(),
                want: case.get("want").cloned(),
            }
        })
        .collect()
}

#[derive(Default, Debug)]
struct Tally {
    recovered: usize,
    wrong: usize,
    refused: usize,
}

#[test]
fn the_lenient_reading_recovers_much_and_never_a_wrong_value() {
    let lenient = Options::default().with_accept_lenient(true);
    let strict = Options::default();
    let mut families: BTreeMap<String, Tally> = BTreeMap::new();
    let mut wrong = Vec::new();
    let mut fragments = Vec::new();
    for case in corpus() {
        let outcome = extract(&case.input, &lenient);
        let plain = extract(&case.input, &strict);
        let tally = families.entry(case.family.clone()).or_default();
        if plain.ok() && plain.value != case.want {
            // A fragment taken by the strict layers: the fragment rule's business.
            fragments.push(format!("{:?} gave {:?}", case.input, plain.value));
        }
        match (&case.want, outcome.ok()) {
            (Some(want), true) if outcome.value.as_ref() == Some(want) => tally.recovered += 1,
            (_, true) => {
                tally.wrong += 1;
                if outcome.layer == Some(Layer::Lenient) {
                    wrong.push(format!("{:?} gave {:?}", case.input, outcome.value));
                }
            }
            (_, false) => {
                tally.refused += 1;
                if case.want.is_some() {
                    println!(
                        "refused {:?}: {:?}",
                        case.input,
                        outcome.lenient.as_ref().and_then(|r| r.error.as_deref())
                    );
                }
            }
        }
        match case.family.as_str() {
            "valid" => {
                assert!(
                    outcome.ok() && outcome.layer != Some(Layer::Lenient),
                    "valid {:?}: {outcome:?}",
                    case.input
                );
                assert!(
                    outcome.repairs.iter().all(|r| r.kind.is_lossless()),
                    "{:?}",
                    case.input
                );
            }
            "truncated" => assert!(
                !outcome.ok() && outcome.lenient.as_ref().is_none_or(|r| r.value.is_none()),
                "cut-off {:?} was completed",
                case.input
            ),
            _ => {}
        }
    }
    let broken = |name: &str| !matches!(name, "valid" | "truncated");
    let mut total = Tally::default();
    println!(
        "{:<22} {:>9} {:>6} {:>8}",
        "family", "recovered", "wrong", "refused"
    );
    for (name, tally) in &families {
        println!(
            "{name:<22} {:>9} {:>6} {:>8}",
            tally.recovered, tally.wrong, tally.refused
        );
        if broken(name) {
            total.recovered += tally.recovered;
            total.wrong += tally.wrong;
            total.refused += tally.refused;
        }
    }
    println!(
        "broken inputs: {} recovered, {} wrong, {} refused",
        total.recovered, total.wrong, total.refused
    );
    println!("fragments from the strict layers: {}", fragments.len());
    for fragment in &fragments {
        println!("  {fragment}");
    }
    assert!(
        wrong.is_empty(),
        "wrong lenient values:\n{}",
        wrong.join("\n")
    );
    assert!(total.recovered >= 290, "only {} recovered", total.recovered);
    // Never a fragment: no strict layer may accept a piece of a broken input.
    assert!(
        fragments.is_empty(),
        "fragments accepted by the strict layers:\n{}",
        fragments.join("\n")
    );
}
