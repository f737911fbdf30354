//! `jxray check PATH`: extract every capture, report each, exit 1 on any failure.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use jxray::capture::{self, shell_path, Capture, Discovery, SourceNames};
use jxray::config::Config;
use jxray::report::github::step_summary_file;
use jxray::report::{self, Checked, CiCase, GithubReport, JunitReport, Summary};
use jxray::schema::{CaptureSchemas, Schema};
use rayon::prelude::*;

use super::common::{engine_options, load_options, quiet_broken_pipe, stdout_painter};
use super::Status;
use crate::cli::{CheckArgs, Format};

pub fn run(args: &CheckArgs) -> anyhow::Result<Status> {
    let config = Config::load()?;
    // The schema first: a bad flag should not wait for a large folder to load.
    let schema_file = args.schema.clone().or(config.schema.clone());
    let schema = schema_file.as_deref().map(Schema::from_file).transpose()?;
    let fixtures = config.fixtures.unwrap_or_else(|| PathBuf::from("fixtures"));
    let (captures, discovery) = load(&args.path, &fixtures, args)?;
    let options = engine_options(&args.extraction);
    let recorded = CaptureSchemas::default();
    let checked: Vec<Checked> = captures
        .into_par_iter()
        .map(|capture| {
            let mut outcome = capture.extract(&options);
            recorded.apply(schema.as_ref(), &capture, &mut outcome);
            Checked { capture, outcome }
        })
        .collect();
    let summary = Summary::from_outcomes(checked.iter().map(|c| &c.outcome));

    let mut out = BufWriter::new(io::stdout().lock());
    let written = write(&mut out, args, &checked, &summary, &discovery);
    quiet_broken_pipe(written.and_then(|()| out.flush()))?;

    let breaches = args
        .max_share
        .as_ref()
        .map(|gate| gate.breaches(&summary))
        .unwrap_or_default();
    for breach in &breaches {
        eprintln!("jxray: {breach}");
    }
    Ok(Status::from_all_ok(
        summary.failed() == 0 && breaches.is_empty(),
    ))
}

/// The captures under `path` (the fixtures folder passed over), named as the user can
/// open them, and what the walk skipped.
fn load(
    path: &Path,
    fixtures: &Path,
    args: &CheckArgs,
) -> anyhow::Result<(Vec<Capture>, Discovery)> {
    let mut options = load_options(&args.extraction)?;
    options.sources = SourceNames::FromWorkingFolder;
    if path == Path::new("-") {
        return Ok((capture::load(path, &options)?, Discovery::default()));
    }
    let discovery = capture::discover_with(path, &[fixtures.to_path_buf()])?;
    let captures = capture::load_found(path, &discovery.files, &options);
    Ok((captures, discovery))
}

fn write(
    out: &mut dyn Write,
    args: &CheckArgs,
    checked: &[Checked],
    summary: &Summary,
    discovery: &Discovery,
) -> io::Result<()> {
    let show = |item: &Checked| !args.only_failures || !item.outcome.ok();
    let shown = || checked.iter().filter(|item| show(item));
    let suite = format!("jxray check {}", shell_path(&args.path));
    let skipped = skipped_note(discovery);
    match args.format {
        Format::Jsonl => {
            let shown: Vec<Checked> = shown().cloned().collect();
            report::write_jsonl(out, &shown)?;
        }
        Format::Json => report::write_json_where(out, checked, &show)?,
        Format::Text => {
            report::write_text_where(out, checked, stdout_painter(args.color), &show)?;
            if let Some(note) = &skipped {
                writeln!(out, "{note}")?;
            }
            return Ok(());
        }
        Format::Junit => {
            let mut junit = JunitReport::new(&suite);
            for item in shown() {
                junit.add(&CiCase::of_checked(item));
            }
            junit.write(out)?;
        }
        Format::Github => {
            let mut github = GithubReport::new(&suite, "capture");
            for item in shown() {
                github.add(out, &CiCase::of_checked(item))?;
            }
            let closing = format!(
                "{} captures: {} ok, {} failed",
                summary.total(),
                summary.ok(),
                summary.failed()
            );
            let counts = report::github::mix_counts(summary);
            github.finish(
                out,
                &closing,
                &counts,
                summary.total(),
                step_summary_file().as_deref(),
            )?;
        }
    }
    // Formats for machines keep stdout clean: what was skipped goes to stderr.
    if let Some(note) = skipped {
        eprintln!("jxray: {note}");
    }
    Ok(())
}

/// `skipped 3 files: .csv, .png; skipped the fixtures folder fixtures`, or nothing.
fn skipped_note(discovery: &Discovery) -> Option<String> {
    let mut parts: Vec<String> = discovery.skipped.note().into_iter().collect();
    for folder in &discovery.skipped_folders {
        parts.push(format!(
            "skipped the fixtures folder {}",
            shell_path(folder)
        ));
    }
    (!parts.is_empty()).then(|| report::ci::inert(&parts.join("; ")))
}
