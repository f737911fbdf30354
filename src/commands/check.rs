//! `jxray check PATH`: extract every capture, report each as soon as it is known (in
//! order, in bounded memory), exit 1 on any failure.

use std::io::{self, BufWriter};
use std::path::Path;

use anyhow::bail;
use jxray::capture::{self, Capture, Records, StdinFormat};
use jxray::pipeline::{self, Settings};
use jxray::report::{self, Checked, JsonSink, JsonlSink, Sink, TextSink};
use jxray::schema::Schema;

use super::common::{engine_options, load_options, quiet_broken_pipe, stdout_painter};
use super::Status;
use crate::cli::{CheckArgs, Format, InputChoice};

pub fn run(args: &CheckArgs) -> anyhow::Result<Status> {
    // The schema first: a bad flag should not wait for a large folder to load.
    let schema = args.schema.as_deref().map(Schema::from_file).transpose()?;
    let from_stdin = args.path == Path::new("-");
    let records = records(args, from_stdin)?;
    let options = engine_options(&args.extraction);
    let work = |capture: Capture| {
        let mut outcome = capture.extract(&options);
        if let (Some(schema), Ok(text)) = (&schema, &capture.text) {
            schema.apply(&mut outcome, text);
        }
        Checked { capture, outcome }
    };
    let settings = Settings {
        flush_when_idle: from_stdin,
        ..Settings::default()
    };
    let out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    // Standard input streams line by line; a path's text report lines up its sources first.
    let line_up = if from_stdin { 0 } else { report::LINE_UP };
    let mut sink: Box<dyn Sink + '_> = match args.format {
        Format::Jsonl => Box::new(JsonlSink::new(out)),
        Format::Json => Box::new(JsonSink::new(out)),
        Format::Text => Box::new(TextSink::new(out, stdout_painter(args.color), line_up)),
    };
    let summary = match pipeline::run(records, &work, &mut *sink, &settings) {
        Ok(summary) => summary,
        // The reader of our output went away (`| head`): nothing more to say.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => return Ok(Status::Clean),
        Err(error) => return Err(error.into()),
    };
    if summary.total() == 0 {
        bail!(
            "{}: holds no capture (captures are .txt, .md, .json, .jsonl, .sse files, or \
             lines of JSON on standard input); point check at a capture or a folder of them",
            if from_stdin {
                "standard input".to_string()
            } else {
                args.path.display().to_string()
            }
        );
    }
    quiet_broken_pipe(sink.finish(&summary).and_then(|()| sink.flush()))?;
    Ok(Status::from_all_ok(summary.failed() == 0))
}

/// The captures to check: standard input as it arrives, or every capture under the path.
fn records(args: &CheckArgs, from_stdin: bool) -> anyhow::Result<Records> {
    let options = load_options(&args.extraction);
    if from_stdin {
        let format = match args.input {
            Some(InputChoice::Text) => StdinFormat::Text,
            Some(InputChoice::Jsonl) | None => StdinFormat::Lines,
        };
        return Ok(capture::stdin_records(io::stdin(), format, &options));
    }
    if args.input.is_some() {
        bail!(
            "--input describes standard input; drop it, or pass - as the path and pipe the \
             captures in"
        );
    }
    Ok(capture::records(&args.path, &options)?)
}
