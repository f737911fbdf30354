//! The repair loop for a JavaScript `repair` (npm/src/repair.js), decided and counted by the
//! pure core (`jxray_formats::repair`), as Python's is: the decision about an output (its
//! action, the repair request's text, the output's digest), and the loop's [`Run`]. A
//! WebAssembly instance keeps nothing between calls (the package lends any free one), so
//! the host carries the run's state from one call to the next without reading it.

use jxray_formats::judge::Judgement;
use jxray_formats::record::Origin;
use jxray_formats::repair::{required_keys, Action, Limits, Policy, Run};
use serde::Serialize;
use serde_json::Value;

use crate::reply::{Explained, Judged};

/// The reply about one output.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Decided<'a> {
    /// `accept`, `repair`, `raise-limit`, `change-request`, `fix-serving` or `fix-capture`.
    pub action: Action,
    /// The repair request for this output; `null` when the outcome is ok.
    pub prompt: Option<String>,
    /// `sha256:` and the hex digest of the output, to correlate repeats without keeping it.
    pub raw_output_hash: String,
    /// The outcome the decision is about, explained: the host keeps it, so reading the
    /// failure afterwards does not run the engine again.
    pub explained: Explained<'a>,
    /// The run after this output (its state as JSON text), when the request carried one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
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
            Some(schema) => required_keys(&json_text(schema)),
            None => request.required.clone(),
        },
        max_output_chars: request.max_output_chars(),
    };
    let decision = policy.decide(&outcome, judged.text, &violations);
    let (run, next) = match &request.run {
        Some(state) => {
            let mut run = Run::from_state(state)?;
            let usage = request.usage.as_deref().map(json_text).unwrap_or_default();
            let next = run.took(&outcome, &decision, &usage);
            (Some(run.state()), next)
        }
        None => (None, None),
    };
    let decided = Decided {
        action: decision.action,
        prompt: decision.prompt,
        raw_output_hash: decision.raw_output_hash,
        explained: Explained::of(judged, origin, &outcome, with_text),
        run,
        next,
    };
    Ok(serde_json::to_vec(&decided).expect("a decision serializes to JSON"))
}

/// The JSON in `text` (null when it is none): the host sends documents as text, read by
/// the one reader of text in the module.
fn json_text(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_default()
}

/// A run's step that is not an output, its lines in `text`: `start`, the repair requests
/// after the first call, the token and millisecond budgets (`-` for none), the caller's
/// policy table as JSON (refused when it names an action that does not exist) and the
/// prompt (the reply is the run); `mayCall`, the milliseconds since the first call began and the
/// run (the reply is `1` or `0`, then the run); `end`, the fallback's kind and the caller's
/// schema version, each as JSON, and the run (the reply is the ending: `status`,
/// `repaired`, `lenient`, `stopped`, `telemetry`). The run crosses as text the host keeps
/// without reading ([`Run::state`]).
pub fn step(text: &str) -> Result<Vec<u8>, String> {
    let bad = || format!("jxray bug: a repair run's step is not readable: {text:?}");
    let (name, rest) = text.split_once('\n').ok_or_else(bad)?;
    let number = |line: &str| match line {
        "-" => Ok(None),
        line => line.parse::<f64>().map(Some).map_err(|_| bad()),
    };
    match name {
        "start" => {
            let [repairs, tokens, ms, rest] = lines(rest).ok_or_else(bad)?;
            let (table, prompt) = rest.split_once('\n').ok_or_else(bad)?;
            // A table naming an action that does not exist is refused before the first call.
            let table: Vec<(String, String)> = serde_json::from_str(table).map_err(|_| bad())?;
            Policy::table_from_names(table).map_err(|error| format!("jxray: {error}"))?;
            let limits = Limits {
                max_repairs: repairs.parse().map_err(|_| bad())?,
                max_tokens: number(tokens)?,
                max_ms: number(ms)?,
            };
            Ok(Run::new(prompt, limits).state().into_bytes())
        }
        "mayCall" => {
            let (elapsed, state) = rest.split_once('\n').ok_or_else(bad)?;
            let mut run = Run::from_state(state)?;
            let may = run.may_call(number(elapsed)?.unwrap_or_default());
            let mut reply = vec![if may { b'1' } else { b'0' }];
            reply.extend(run.state().into_bytes());
            Ok(reply)
        }
        "end" => {
            let (kind, rest) = rest.split_once('\n').ok_or_else(bad)?;
            let (version, state) = rest.split_once('\n').ok_or_else(bad)?;
            let json = |line: &str| serde_json::from_str::<Value>(line).map_err(|_| bad());
            let (kind, version) = (json(kind)?, json(version)?);
            let ending = Run::from_state(state)?.end(kind.as_str(), version);
            Ok(serde_json::to_vec(&ending).expect("an ending serializes to JSON"))
        }
        _ => Err(bad()),
    }
}

/// The first three lines of `text` and the rest.
fn lines(text: &str) -> Option<[&str; 4]> {
    let mut parts = text.splitn(4, '\n');
    Some([parts.next()?, parts.next()?, parts.next()?, parts.next()?])
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

    fn stepped(text: &str) -> Vec<u8> {
        super::step(text).unwrap()
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
        let run = String::from_utf8(stepped("start\n1\n-\n-\n[]\np")).unwrap();
        let request = Request {
            run: Some(run),
            usage: Some(r#"{"total_tokens": 7}"#.into()),
            ..Request::default()
        };
        let first = decided("{\"a\": 1,}", &request);
        assert!(first["next"]
            .as_str()
            .unwrap()
            .starts_with("p\n\nYour last reply"));
        let run = first["run"].as_str().unwrap();
        let reply = stepped(&format!("mayCall\n5\n{run}"));
        assert_eq!(reply[0], b'1');
        let run = String::from_utf8(reply[1..].to_vec()).unwrap();
        let ending: Value =
            serde_json::from_slice(&stepped(&format!("end\nnull\n\"v2\"\n{run}"))).unwrap();
        assert_eq!(ending["status"], "failure");
        assert_eq!(ending["telemetry"]["initial_failure"], "invalid");
        assert_eq!(ending["telemetry"]["schema_version"], "v2");
        assert!(super::step("start\nx\n-\n-\n[]\np").is_err());
        let error = super::step("start\n1\n-\n-\n[[\"no-json\",\"retry\"]]\np").unwrap_err();
        assert!(error.contains("unknown action \"retry\""), "{error}");
    }
}
