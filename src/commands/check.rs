//! `jxray check PATH`: extract every capture, report each, exit 1 on any failure.

use std::io::{self, BufWriter, Write};

use jxray::report::{self, Checked};
use jxray::schema::{CaptureSchemas, Schema};
use rayon::prelude::*;

use super::common::{engine_options, load_options, quiet_broken_pipe, stdout_painter};
use super::Status;
use crate::cli::{CheckArgs, Format};
use jxray::capture;

pub fn run(args: &CheckArgs) -> anyhow::Result<Status> {
    // The schema first: a bad flag should not wait for a large folder to load.
    let schema = args.schema.as_deref().map(Schema::from_file).transpose()?;
    let captures = capture::load(&args.path, &load_options(&args.extraction)?)?;
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

    let mut out = BufWriter::new(io::stdout().lock());
    let written = match args.format {
        Format::Jsonl => report::write_jsonl(&mut out, &checked),
        Format::Json => report::write_json(&mut out, &checked),
        Format::Text => report::write_text(&mut out, &checked, stdout_painter(args.color)),
    };
    quiet_broken_pipe(written.and_then(|()| out.flush()))?;
    Ok(Status::from_all_ok(
        checked.iter().all(|item| item.outcome.ok()),
    ))
}
