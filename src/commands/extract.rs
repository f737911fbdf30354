//! `jxray extract [FILE|-]`: the value on stdout, the outcome on stderr, like `jq`. A file
//! of several captures gives one line per capture, in order, `null` for a failed one, so
//! stdout stays aligned with the records.

use crate::text::shown_path;
use std::io::{BufWriter, Write};
use std::sync::Arc;

use crate::check::Checker;
use crate::report::describe;
use crate::schema::Schema;
use crate::text;
use anyhow::bail;

use super::common::{engine_options, load_options};
use super::output::{self, ended};
use super::ExitStatus;
use crate::capture;
use crate::cli::ExtractArgs;

pub(super) fn run(args: &ExtractArgs) -> anyhow::Result<ExitStatus> {
    if args.file.is_dir() {
        bail!(
            "{}: is a folder; extract reads one capture file, use `jxray check {}` for a folder",
            shown_path(&args.file),
            shown_path(&args.file)
        );
    }
    let config = crate::config::Config::load()?;
    let schema_file = args.schema.clone().or_else(|| config.schema.clone());
    let schema = schema_file
        .as_deref()
        .map(Schema::from_file)
        .transpose()?
        .map(Arc::new);
    let mut captures = capture::load(&args.file, &load_options(&args.extraction, &config)?)?;
    // A raw text has no stop reason of its own; a provider's envelope keeps its own.
    for capture in captures.iter_mut().filter(|c| c.stop_reason.is_none()) {
        capture.stop_reason.clone_from(&args.stop_reason);
    }
    if captures.is_empty() {
        output::say(&format!(
            "{}: no capture in this file",
            args.file.to_string_lossy()
        ));
        return Ok(ExitStatus::Failures);
    }
    let checker = Checker::new(engine_options(&args.extraction, &config), schema);
    let stdout = output::stdout();
    let mut out = BufWriter::new(stdout.clone());
    let mut all_ok = true;
    let mut written = Ok(());
    // One capture that fails prints nothing; among several, its place is kept with `null`.
    let keep_places = captures.len() > 1;
    for capture in &captures {
        let outcome = checker.outcome(capture);
        let source = if capture.source == "-" {
            "stdin"
        } else {
            &capture.source
        };
        output::say(&format!("{source}: {}", describe(&outcome)));
        let value = match &outcome.value {
            Some(value) if outcome.ok() => Some(value),
            _ => {
                all_ok = false;
                keep_places.then_some(&serde_json::Value::Null)
            }
        };
        if let Some(value) = value {
            written = text::write_json(&mut out, value, args.pretty)
                .and_then(|()| out.write_all(b"\n"))
                .and_then(|()| out.flush());
        }
        if written.is_err() {
            break;
        }
    }
    drop(out);
    ended(&stdout, written, ExitStatus::from_all_ok(all_ok))
}
