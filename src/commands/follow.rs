//! `jxray extract --follow`: standard input (or a file) read as it arrives, through the
//! engine's streaming extractor (contract §7). One JSON line per change — the state, the
//! value's deltas, the open and final paths, the signals — flushed as it is known; then the
//! outcome of what was read, the line `check --format jsonl` writes (one per capture: a
//! stream with several tool calls has several), and the usual exit status. `--stop-on`
//! ends early on a signal: a `{"stopped": …}` line, then the outcome of what came so far.
//!
//! With `--input sse` the input is a provider's stream (SSE or NDJSON, as `curl -N`
//! prints it): the extractor is fed what the output gained with each whole event, and the
//! end judges the stream as `check` judges a saved one.

use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use serde::Serialize;

use super::common::{engine_options, load_options, stop_signals};
use super::output::{self, ended};
use super::ExitStatus;
use crate::capture::{self, LiveStream};
use crate::check::Checker;
use crate::cli::{ExtractArgs, FollowInput};
use crate::engine::{Extractor, Signal, SignalKind, Snapshot, State};
use crate::report::{JsonlSink, Sink};
use crate::schema::Schema;
use crate::text;
use jxray_formats::judge;

/// How much is read at a time: whatever has arrived, up to this.
const READ_SIZE: usize = 8 * 1024;

/// The line that says the stream was stopped, and why.
#[derive(Serialize)]
struct Stopped<'s> {
    stopped: &'s Signal,
}

/// What was read, and how it reaches the extractor.
struct Input {
    kind: FollowInput,
    /// Every byte read, judged whole at the end.
    bytes: Vec<u8>,
    live: LiveStream,
}

impl Input {
    /// Take what was read; the bytes of the output it gained.
    fn take(&mut self, read: &[u8]) -> Vec<u8> {
        self.bytes.extend_from_slice(read);
        if self.kind == FollowInput::Text {
            return read.to_vec();
        }
        self.live.push_bytes(read).into_bytes()
    }

    /// A name the readers recognise what was read by.
    fn name(&self) -> &'static str {
        match self.kind {
            FollowInput::Text => "-",
            _ if self.bytes.trim_ascii_start().starts_with(b"{") => "stdin.ndjson",
            _ => "stdin.sse",
        }
    }
}

pub(super) fn run(args: &ExtractArgs) -> anyhow::Result<ExitStatus> {
    let stop_on = stop_signals(&args.stop_on, &SignalKind::ALL)?;
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
    let mut source = open(&args.file)?;
    let mut extractor = Extractor::new(options.clone());
    if let Some(schema) = &schema {
        // Each item and member judged as it closes, not only the whole at the end.
        extractor = extractor.with_validator(judge::items(Arc::clone(schema) as _));
    }
    let mut input = Input {
        kind: args.input,
        bytes: Vec::new(),
        live: LiveStream::default(),
    };
    let stdout = output::stdout();
    let mut out = io::BufWriter::new(stdout.clone());
    let mut buffer = vec![0; READ_SIZE];
    let mut stopped = None;
    let mut written = Ok(());
    let mut state: Option<State> = None;
    let mut snapshot = Snapshot::default();
    while stopped.is_none() && written.is_ok() {
        let read = match source.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => {
                return Err(error).with_context(|| format!("{}: cannot read", shown(&args.file)))
            }
        };
        let gained = input.take(&buffer[..read]);
        extractor.feed_into(&gained, &mut snapshot);
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
    let (judged, all_ok) = judge(args, &config, input, stopped.is_none(), (options, schema))?;
    for checked in &judged {
        written = written.and_then(|()| JsonlSink::new(&mut out).record(checked));
    }
    written = written.and_then(|()| out.flush());
    drop(out);
    ended(&stdout, written, ExitStatus::from_all_ok(all_ok))
}

/// What was read, judged as `check` judges a capture of it: the stop reason given (a
/// stream's own), the schema; a stopped stream is judged as what it is, with no ending.
/// The outcomes, and whether every one is ok.
fn judge(
    args: &ExtractArgs,
    config: &crate::config::Config,
    input: Input,
    ended: bool,
    (options, schema): (crate::engine::Options, Option<Arc<Schema>>),
) -> anyhow::Result<(Vec<crate::check::Checked>, bool)> {
    let name = input.name();
    let shown_name = if args.file == Path::new("-") {
        "-".to_string()
    } else {
        shown(&args.file)
    };
    let captures = capture::load_bytes(
        &shown_name,
        Path::new(name),
        input.bytes,
        &load_options(&args.extraction, config)?,
    );
    if captures.is_empty() {
        anyhow::bail!("{shown_name}: no capture in what was read");
    }
    let checker = Checker::new(options, schema);
    let judged: Vec<_> = captures
        .into_iter()
        .map(|mut capture| {
            if ended && capture.stop_reason.is_none() {
                capture.stop_reason.clone_from(&args.stop_reason);
            }
            checker.check(capture)
        })
        .collect();
    let all_ok = judged.iter().all(|checked| checked.outcome.ok());
    Ok((judged, all_ok))
}

fn open(file: &Path) -> anyhow::Result<Box<dyn Read>> {
    if file == Path::new("-") {
        return Ok(Box::new(io::stdin()));
    }
    let opened = match capture::special_file(file) {
        Some(what) => Err(anyhow::anyhow!("is {what}; give a regular file or -")),
        None => std::fs::File::open(file).map_err(anyhow::Error::from),
    };
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
