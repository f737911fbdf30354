//! The engine against the plain-text conformance cases (tests/data/spec/cases, a copy of the
//! shared spec/cases).
//! (Envelope cases go through the capture loader; see the root crate's tests/library/conformance.rs.)

mod support;

use jxray_engine::{extract, Options};
use serde_json::Value;

#[test]
fn plain_text_cases_meet_their_expectations() {
    let dir = support::data("spec/cases");
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in support::files(&dir) {
        if path.extension().and_then(|e| e.to_str()) != Some("txt") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let expect_path = path.with_extension("expect.json");
        let expect: Value =
            serde_json::from_str(&std::fs::read_to_string(&expect_path).unwrap()).unwrap();
        let outcome = extract(&text, &Options::default());
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let mut problems = Vec::new();
        if expect["ok"].as_bool() != Some(outcome.ok()) {
            problems.push(format!(
                "ok: expected {} got {}",
                expect["ok"],
                outcome.ok()
            ));
        }
        if expect["ok"] == Value::Bool(true) {
            let layer = outcome.layer.map(|l| l.as_str()).unwrap_or("null");
            if expect["layer"].as_str() != Some(layer) {
                problems.push(format!("layer: expected {} got {layer}", expect["layer"]));
            }
            if Some(&expect["value"]) != outcome.value.as_ref() {
                problems.push(format!(
                    "value: expected {} got {:?}",
                    expect["value"], outcome.value
                ));
            }
            for kind in expect["repairs"].as_array().unwrap() {
                if !outcome
                    .repairs
                    .iter()
                    .any(|r| r.kind.as_str() == kind.as_str().unwrap())
                {
                    problems.push(format!("missing repair {kind}"));
                }
            }
            for kind in expect["warnings"].as_array().unwrap() {
                if !outcome
                    .warnings
                    .iter()
                    .any(|w| w.kind.as_str() == kind.as_str().unwrap())
                {
                    problems.push(format!("missing warning {kind}"));
                }
            }
        } else {
            let failure = outcome.failure.as_ref();
            let kind = failure.map(|f| f.kind.as_str()).unwrap_or("none");
            if expect["failure"].as_str() != Some(kind) {
                problems.push(format!(
                    "failure: expected {} got {kind}",
                    expect["failure"]
                ));
            }
            let defect = failure.and_then(|f| f.defect).map(|d| d.as_str());
            if expect["defect"].as_str() != defect {
                problems.push(format!(
                    "defect: expected {} got {defect:?}",
                    expect["defect"]
                ));
            }
        }
        checked += 1;
        if !problems.is_empty() {
            failures.push(format!(
                "{name}: {} | outcome: {:?} {:?} {:?}",
                problems.join("; "),
                outcome.layer,
                outcome.failure,
                outcome.warnings
            ));
        }
    }
    assert!(checked >= 39, "only {checked} cases found");
    assert!(
        failures.is_empty(),
        "{} cases fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
