//! The repair loop for a JavaScript `repair` (npm/src/repair.js), decided and counted by the
//! pure core (`jxray_formats::repair`), as Python's is: the decision about an output (its
//! action, the repair request's text, the output's digest), and the loop's [`Run`]. A
//! WebAssembly instance keeps nothing between calls (the package lends any free one), so
//! the host carries the run's state from one call to the next without reading it.

use jxray_formats::judge::Judgement;
use jxray_formats::record::Origin;
use jxray_formats::repair::{required_keys, Decision, Limits, Policy, Run};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::reply::{Explained, Judged};

/// The reply about one output.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Decided<'a> {
    #[serde(flatten)]
    pub decision: Decision,
    /// The outcome the decision is about, explained: the host keeps it, so reading the
    /// failure afterwards does not run the engine again.
    pub explained: Explained<'a>,
    /// The run after this output, when the request carried one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<Run>,
    /// The next request to send; `null` when the loop stops (or no run was carried).
    pub next: Option<String>,
}

/// The decision about `judged` (its request carries the caller's table, the cap and the
/// required keys, and the run with this call's usage when a loop asks), its outcome
/// explained with `origin` on its line (and the text judged when `with_text`).
pub fn decide(judged: &Judged<'_>, origin: Origin<'_>, with_text: bool) -> Result<Vec<u8>, String> {
    let Judgement {
        outcome,
        violations,
    } = judged.outcome()?;
    let request = judged.request;
    let table = Policy::table_from_names(request.repair_table.iter().cloned())
        .map_err(|error| format!("jxray: {error}"))?;
    let policy = Policy {
        table,
        required: match &request.required_of {
            Some(schema) => required_keys(schema),
            None => request.required.clone(),
        },
        max_output_chars: request.max_output_chars(),
    };
    let decision = policy.decide(&outcome, judged.text, &violations);
    let mut run = request.run.clone();
    let next = run.as_mut().and_then(|run| {
        let usage = request.usage.as_ref().unwrap_or(&Value::Null);
        run.took(&outcome, &decision, usage)
    });
    let decided = Decided {
        decision,
        explained: Explained::of(judged, origin, &outcome, with_text),
        run,
        next,
    };
    Ok(serde_json::to_vec(&decided).expect("a decision serializes to JSON"))
}

/// One step of a run that is not an output: its start, whether to call again, its end.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
enum Step {
    Start {
        prompt: String,
        limits: Limits,
    },
    #[serde(rename_all = "camelCase")]
    MayCall {
        run: Run,
        elapsed_ms: f64,
    },
    #[serde(rename_all = "camelCase")]
    End {
        run: Run,
        fallback_kind: Option<String>,
        #[serde(default)]
        schema_version: Value,
    },
}

/// The step in `text` (JSON): `{"start"}` gives `{"run"}`, `{"mayCall"}` gives `{"run",
/// "mayCall"}`, `{"end"}` gives the ending (`status`, `repaired`, `lenient`, `stopped`,
/// `telemetry`).
pub fn step(text: &str) -> Result<Vec<u8>, String> {
    let step: Step = serde_json::from_str(text)
        .map_err(|error| format!("jxray bug: a repair run's step is not readable: {error}"))?;
    let reply = match step {
        Step::Start { prompt, limits } => serde_json::json!({ "run": Run::new(prompt, limits) }),
        Step::MayCall {
            mut run,
            elapsed_ms,
        } => {
            let may = run.may_call(elapsed_ms);
            serde_json::json!({ "run": run, "mayCall": may })
        }
        Step::End {
            run,
            fallback_kind,
            schema_version,
        } => serde_json::to_value(run.end(fallback_kind.as_deref(), schema_version))
            .expect("an ending serializes to JSON"),
    };
    Ok(serde_json::to_vec(&reply).expect("JSON values serialize"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::Request;

    fn decided(text: &str, request: &Request) -> Value {
        let judged = Judged {
            text,
            request,
            validator: None,
            warnings: &[],
            refused: false,
        };
        let decided = decide(&judged, request.origin(), false).unwrap();
        serde_json::from_slice(&decided).unwrap()
    }

    fn stepped(step: Value) -> Value {
        serde_json::from_slice(&super::step(&step.to_string()).unwrap()).unwrap()
    }

    #[test]
    fn a_syntax_failure_is_worth_a_repair_and_gets_its_request() {
        let decision = decided("{\"a\": 1,}", &Request::default());
        assert_eq!(decision["action"], "repair");
        assert!(decision["prompt"]
            .as_str()
            .unwrap()
            .contains("a comma after the last item"));
        let digest = jxray_formats::repair::digest(b"{\"a\": 1,}");
        assert_eq!(decision["rawOutputHash"], digest.as_str());
    }

    #[test]
    fn a_cut_output_is_not_and_a_table_can_say_otherwise() {
        let request = Request {
            stop_reason: Some("length".into()),
            ..Request::default()
        };
        assert_eq!(decided("{\"a\": 1", &request)["action"], "raise-limit");
        let request = Request {
            stop_reason: Some("length".into()),
            repair_table: vec![("truncated".into(), "repair".into())],
            ..Request::default()
        };
        assert_eq!(decided("{\"a\": 1", &request)["action"], "repair");
    }

    #[test]
    fn the_host_carries_a_run_through_its_steps() {
        let limits = serde_json::json!({"maxRepairs": 1, "maxTokens": null, "maxMs": null});
        let started = stepped(serde_json::json!({"start": {"prompt": "p", "limits": limits}}));
        let run: Run = serde_json::from_value(started["run"].clone()).unwrap();
        let request = Request {
            run: Some(run),
            usage: Some(serde_json::json!({"total_tokens": 7})),
            ..Request::default()
        };
        let first = decided("{\"a\": 1,}", &request);
        assert!(first["next"]
            .as_str()
            .unwrap()
            .starts_with("p\n\nYour last reply"));
        let may = stepped(serde_json::json!({"mayCall": {"run": first["run"], "elapsedMs": 5.0}}));
        assert_eq!(may["mayCall"], true);
        let ending = stepped(serde_json::json!({"end": {"run": may["run"], "fallbackKind": null}}));
        assert_eq!(ending["status"], "failure");
        assert_eq!(ending["telemetry"]["initial_failure"], "invalid");
    }
}
