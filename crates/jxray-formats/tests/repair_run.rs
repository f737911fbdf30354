//! The repair loop's bookkeeping, driven as a loop drives it, over the scenarios in
//! `tests/runs/scenarios.json`: the requests sent and how the loop ended are golden files
//! that the Python and TypeScript loops are held to as well (their tests run the same
//! scenarios with a scripted `generate`).

use jxray_engine::Options;
use jxray_formats::judge::{judge, Reading};
use jxray_formats::repair::{Limits, Policy, Run};
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Scenario {
    name: String,
    prompt: String,
    max_repairs: u32,
    #[serde(default)]
    max_tokens: Option<f64>,
    #[serde(default)]
    fallback: Option<String>,
    #[serde(default)]
    schema_version: Option<String>,
    replies: Vec<Reply>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Reply {
    text: String,
    #[serde(default)]
    stop_reason: Option<String>,
    #[serde(default)]
    usage: Value,
}

/// The requests a loop sends for `scenario`, and its ending.
fn run(scenario: &Scenario) -> Value {
    let limits = Limits {
        max_repairs: scenario.max_repairs,
        max_tokens: scenario.max_tokens,
        max_ms: None,
    };
    let mut run = Run::new(scenario.prompt.as_str(), limits);
    let policy = Policy::default();
    let mut request = scenario.prompt.clone();
    let mut requests = Vec::new();
    let mut replies = scenario.replies.iter();
    while run.may_call(0.0) {
        requests.push(request.clone());
        let reply = replies
            .next()
            .expect("a reply for every call the loop makes");
        let reading = Reading {
            stop_reason: reply.stop_reason.as_deref(),
            ..Reading::default()
        };
        let judged = judge(&reply.text, &Options::default(), &reading, None).unwrap();
        let decision = policy.decide(&judged.outcome, &reply.text, &judged.violations);
        match run.took(&judged.outcome, &decision, &reply.usage) {
            Some(next) => request = next,
            None => break,
        }
    }
    assert!(
        replies.next().is_none(),
        "{}: every reply is asked for",
        scenario.name
    );
    let ending = run.end(scenario.fallback.as_deref(), json!(scenario.schema_version));
    json!({"requests": requests, "ending": ending})
}

#[test]
fn each_scenario_sends_and_ends_as_its_golden_file_says() {
    let scenarios: Vec<Scenario> =
        serde_json::from_str(include_str!("runs/scenarios.json")).unwrap();
    assert!(scenarios.len() >= 4);
    for scenario in &scenarios {
        let golden = serde_json::to_string_pretty(&run(scenario)).unwrap();
        insta::assert_snapshot!(scenario.name.as_str(), golden);
    }
}
