//! `jxray check PATH`: extract every capture, report each as soon as it is known (in
//! order, in bounded memory), exit 1 on any failure.

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

use crate::capture::{self, shell_path, Discovery, Job, Jobs, SourceNames, StdinFormat};
use crate::check::{self, skipped_note, Checker, Found};
use crate::config::Config;
use crate::pipeline::{self, PipelineSettings};
use crate::report::github::step_summary_file;
use crate::report::{
    self, ByGroup, GithubSink, HtmlSink, JsonSink, JsonlSink, JunitSink, OnlyFailures, Sink,
    Summary, TextSink, WithChains,
};
use crate::schema::Schema;
use anyhow::{anyhow, bail};

use super::common::{engine_options, load_options, stdout_painter};
use super::output::{self, ended};
use super::ExitStatus;
use crate::cli::{CheckArgs, Format, InputChoice};

pub(super) fn run(args: &CheckArgs) -> anyhow::Result<ExitStatus> {
    let config = Config::load()?;
    // The schema first: a bad flag should not wait for a large folder to load.
    let schema_file = args.schema.clone().or(config.schema.clone());
    let schema = schema_file
        .as_deref()
        .map(Schema::from_file)
        .transpose()?
        .map(Arc::new);
    let fixtures = config.fixtures_folder();
    let from_stdin = args.path == Path::new("-");
    let format = args.format.or(config.format).unwrap_or(Format::Text);
    let (jobs, discovery, most_workers) = jobs(args, &config, &fixtures, from_stdin)?;
    let mut checker = Checker::new(engine_options(&args.extraction, &config), schema);
    // The text and jsonl reports write the value as compact JSON or not at all: no tree is
    // built for them unless a schema reads it.
    if matches!(format, Format::Text | Format::Jsonl) {
        checker = checker.writing_values_as_text();
    }
    let settings = PipelineSettings {
        flush_when_idle: from_stdin,
        // Only where the walk saw a request file: elsewhere every capture file would cost
        // a lookup that finds nothing.
        read_chains: discovery.recorded,
        ..PipelineSettings::default()
    }
    .with_most_workers(most_workers);
    let stdout = output::stdout();
    let mut sink = sink(
        args,
        (format, stdout_painter(args.color, &config)),
        BufWriter::new(stdout.clone()),
        from_stdin,
        discovery.clone(),
    );
    let summary = match pipeline::run(jobs, &checker, &mut sink, &settings) {
        Ok(summary) => summary,
        // The reader went away (`| head`), or writing failed: what was seen decides.
        Err(stopped) => {
            let seen = ExitStatus::from_all_ok(stopped.summary.failed() == 0);
            return ended(&stdout, Err(stopped.error), seen);
        }
    };
    // What the walk skipped, and the fixture files the workers found and passed over.
    let skipped = skipped_note(&discovery, summary.fixtures_passed_over());
    if summary.total() == 0 {
        return Err(no_capture(args, from_stdin, skipped.as_deref()));
    }
    let written = sink.finish(&summary).and_then(|()| sink.flush());
    drop(sink);
    let seen = ExitStatus::from_all_ok(summary.failed() == 0);
    let status = ended(&stdout, written, seen)?;
    if stdout.reader_gone() {
        // Nothing more is said once the reader has gone.
        return Ok(status);
    }
    // The text report ends with what was skipped; formats for machines keep stdout clean.
    if let (Some(note), false) = (&skipped, format == Format::Text) {
        output::say(&format!("jxray: {note}"));
    }
    let gate_held = drift_gate(args, &summary);
    Ok(ExitStatus::from_all_ok(
        status == ExitStatus::Clean && gate_held,
    ))
}

/// The error for a PATH (or standard input) that held no capture, with what was skipped.
fn no_capture(args: &CheckArgs, from_stdin: bool, skipped: Option<&str>) -> anyhow::Error {
    let what = if from_stdin {
        "standard input".to_string()
    } else {
        shell_path(&args.path)
    };
    let skipped = skipped.map(|note| format!(" ({note})")).unwrap_or_default();
    anyhow!(
        "{what}: holds no capture{skipped}; captures are .txt, .md, .json, .jsonl, .sse \
         files, or lines of JSON on standard input: point check at a capture or a folder \
         of them"
    )
}

/// `--max-share`: say each share over its bound; whether every share held.
fn drift_gate(args: &CheckArgs, summary: &Summary) -> bool {
    let breaches = args
        .max_share
        .as_ref()
        .map(|gate| gate.breaches(summary))
        .unwrap_or_default();
    for breach in &breaches {
        output::say(&format!("jxray: {breach}"));
    }
    breaches.is_empty()
}

/// The report format asked for, writing to `out`, showing failures only with `-q`.
/// The text report ends with what `discovery` and the run skipped.
fn sink<'a, W: Write + 'a>(
    args: &CheckArgs,
    (format, painter): (Format, crate::report::Painter),
    out: W,
    from_stdin: bool,
    discovery: Discovery,
) -> Box<dyn Sink + 'a> {
    let suite = format!("jxray check {}", shell_path(&args.path));
    // Standard input streams line by line; a path's text report lines up its sources first.
    let line_up = if from_stdin { 0 } else { report::LINE_UP };
    let format: Box<dyn Sink + 'a> = match format {
        Format::Jsonl => Box::new(JsonlSink::new(out)),
        Format::Json => Box::new(JsonSink::new(out)),
        Format::Text => Box::new(TextSink::new(out, painter, line_up).ending_with(discovery)),
        Format::Junit => Box::new(JunitSink::new(out, &suite)),
        Format::Github => Box::new(GithubSink::new(out, &suite, step_summary_file())),
        Format::Html => Box::new(HtmlSink::new(out, &suite)),
    };
    let shown: Box<dyn Sink + 'a> = if args.only_failures {
        Box::new(OnlyFailures::new(format))
    } else {
        format
    };
    let grouped: Box<dyn Sink + 'a> = match args.by {
        Some(by) => Box::new(ByGroup::new(shown, by)),
        None => shown,
    };
    if from_stdin {
        grouped
    } else {
        Box::new(WithChains::new(grouped))
    }
}

/// The captures to check: standard input as it arrives, or every capture under the path
/// (the fixtures folder passed over), named as the user can open them; what the walk
/// skipped; and how many workers can be busy at once, when that is known.
fn jobs(
    args: &CheckArgs,
    config: &Config,
    fixtures: &Path,
    from_stdin: bool,
) -> anyhow::Result<(Jobs, Discovery, Option<usize>)> {
    let mut options = load_options(&args.extraction, config)?;
    options.sources = SourceNames::FromWorkingFolder;
    if from_stdin {
        let format = match args.input {
            Some(InputChoice::Text) => StdinFormat::Text,
            Some(InputChoice::Jsonl) | None => StdinFormat::Lines,
        };
        let name = args.stdin_name.as_deref().unwrap_or("-");
        let records = capture::stdin_records(io::stdin(), format, name, &options)?;
        return Ok((
            Box::new(records.map(Job::Capture)),
            Discovery::default(),
            None,
        ));
    }
    if args.input.is_some() || args.stdin_name.is_some() {
        bail!(
            "--input and --stdin-name describe standard input; drop them, or pass - as the \
             path and pipe the captures in"
        );
    }
    let Found {
        jobs,
        discovery,
        most_workers,
    } = check::captures_under(&args.path, fixtures, &options)?;
    Ok((jobs, discovery, most_workers))
}
