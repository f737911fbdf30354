//! `jxray extract --follow`: standard input (or a file) read as it arrives, through the
//! engine's streaming extractor (contract §7). One JSON line per change — the state, the
//! value's deltas, the open and final paths, the signals — flushed as it is known; then the
//! outcome of the whole text, the line `check --format jsonl` writes, and the usual exit
//! status. `--stop-on` ends early on a signal: a `{"stopped": …}` line, then the outcome of
//! the text so far.

use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use serde::Serialize;

use super::common::{engine_options, load_options};
use super::output::{self, ended};
use super::ExitStatus;
use crate::capture;
use crate::check::Checker;
use crate::cli::ExtractArgs;
use crate::engine::{Extractor, Signal, SignalKind, Snapshot};
use crate::report::{JsonlSink, Sink};
use crate::schema::Schema;
use crate::text;

/// How much is read at a time: whatever has arrived, up to this.
const READ_SIZE: usize = 8 * 1024;

/// The line that says the stream was stopped, and why.
#[derive(Serialize)]
struct Stopped<'s> {
    stopped: &'s Signal,
}

pub(super) fn run(args: &ExtractArgs) -> anyhow::Result<ExitStatus> {
    let stop_on = stop_signals(&args.stop_on)?;
    let config = crate::config::Config::load()?;
    let schema = args
        .schema
        .clone()
        .or_else(|| config.schema.clone())
        .as_deref()
        .map(Schema::from_file)
        .transpose()?
        .map(Arc::new);
    let options = engine_options(&args.extraction, &config);
    let mut input = open(&args.file)?;
    let mut extractor = Extractor::new(options.clone());
    let stdout = output::stdout();
    let mut out = io::BufWriter::new(stdout.clone());
    let mut buffer = vec![0; READ_SIZE];
    let mut stopped = None;
    let mut written = Ok(());
    let mut state = None;
    while stopped.is_none() && written.is_ok() {
        let read = match input.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => {
                return Err(error).with_context(|| format!("{}: cannot read", shown(&args.file)))
            }
        };
        let snapshot = extractor.feed(&buffer[..read]);
        stopped = snapshot
            .signals
            .iter()
            .find(|signal| stop_on.contains(&signal.kind))
            .cloned();
        if changed(&snapshot) || state != Some(snapshot.state) {
            state = Some(snapshot.state);
            written = line(&mut out, &snapshot);
        }
        if let Some(signal) = &stopped {
            written = written.and_then(|()| line(&mut out, &Stopped { stopped: signal }));
        }
    }
    // The whole text is judged as `check` judges a capture read from it: the stop reason
    // given, the schema; a stopped stream is judged as what it is, a text with no ending.
    let bytes = extractor.text().as_bytes().to_vec();
    let source = if args.file == Path::new("-") {
        "-"
    } else {
        &shown(&args.file)
    };
    let mut captures = capture::load_bytes(
        source,
        Path::new("-"),
        bytes,
        &load_options(&args.extraction, &config)?,
    );
    let Some(mut capture) = captures.pop() else {
        anyhow::bail!("{}: no capture in what was read", shown(&args.file));
    };
    if stopped.is_none() {
        capture.stop_reason = args.stop_reason.clone();
    }
    let checked = Checker::new(options, schema).check(capture);
    let ok = checked.outcome.ok();
    written = written.and_then(|()| {
        JsonlSink::new(&mut out).record(&checked)?;
        out.flush()
    });
    drop(out);
    ended(&stdout, written, ExitStatus::from_all_ok(ok))
}

/// The signals `--stop-on` names.
fn stop_signals(names: &[String]) -> anyhow::Result<Vec<SignalKind>> {
    names
        .iter()
        .flat_map(|names| names.split(','))
        .map(|name| {
            SignalKind::from_name(name.trim()).with_context(|| {
                format!("--stop-on: unknown signal {name:?}; the signals are runaway, tool-call-text, reasoning, refusal and invalid")
            })
        })
        .collect()
}

fn open(file: &Path) -> anyhow::Result<Box<dyn Read>> {
    if file == Path::new("-") {
        return Ok(Box::new(io::stdin()));
    }
    let opened = capture::special_file(file).map_or_else(
        || std::fs::File::open(file).map_err(anyhow::Error::from),
        |what| Err(anyhow::anyhow!("is {what}; give a regular file or -")),
    );
    Ok(Box::new(opened.with_context(|| {
        format!("{}: cannot read", shown(file))
    })?))
}

fn shown(file: &Path) -> String {
    file.to_string_lossy().into_owned()
}

/// Whether a snapshot says anything the last one did not (a chunk of prose says nothing).
fn changed(snapshot: &Snapshot) -> bool {
    !(snapshot.deltas.is_empty() && snapshot.signals.is_empty() && snapshot.final_paths.is_empty())
}

fn line(out: &mut impl Write, item: &impl Serialize) -> io::Result<()> {
    text::write_json(&mut *out, item, false)?;
    out.write_all(b"\n")?;
    out.flush()
}
