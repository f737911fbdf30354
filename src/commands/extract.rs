//! `jxray extract [FILE|-]`: the value on stdout, the outcome on stderr, like `jq`.

use std::io::{self, BufWriter, Write};

use anyhow::bail;
use jxray::report::describe;
use jxray::schema::{CaptureSchemas, Schema};
use jxray::text::{escape_line, JsonSafe};

use super::common::{engine_options, load_options, quiet_broken_pipe};
use super::Status;
use crate::cli::ExtractArgs;
use jxray::capture;

pub fn run(args: &ExtractArgs) -> anyhow::Result<Status> {
    if args.file.is_dir() {
        bail!(
            "{}: is a folder; extract reads one capture file, use `jxray check {}` for a folder",
            args.file.display(),
            args.file.display()
        );
    }
    let config = jxray::config::Config::load()?;
    let schema_file = args.schema.clone().or_else(|| config.schema.clone());
    let schema = schema_file.as_deref().map(Schema::from_file).transpose()?;
    let captures = capture::load(&args.file, &load_options(&args.extraction)?)?;
    if captures.is_empty() {
        eprintln!(
            "{}: no capture in this file",
            escape_line(&args.file.to_string_lossy())
        );
        return Ok(Status::Failures);
    }
    let options = engine_options(&args.extraction, &config);
    let recorded = CaptureSchemas::default();
    // The value is JSON output: C1 and bidi controls leave as `\uXXXX`.
    let mut out = JsonSafe::new(BufWriter::new(io::stdout().lock()));
    let mut all_ok = true;
    for capture in &captures {
        let mut outcome = capture.extract(&options);
        recorded.apply(schema.as_ref(), capture, &mut outcome);
        let source = if capture.source == "-" {
            "stdin".into()
        } else {
            escape_line(&capture.source)
        };
        eprintln!("{source}: {}", describe(&outcome));
        match &outcome.value {
            Some(value) if outcome.ok() => {
                let written = if args.pretty {
                    serde_json::to_writer_pretty(&mut out, value)
                } else {
                    serde_json::to_writer(&mut out, value)
                };
                let written = written
                    .map_err(io::Error::from)
                    .and_then(|()| out.write_all(b"\n"))
                    .and_then(|()| out.flush());
                quiet_broken_pipe(written)?;
            }
            _ => all_ok = false,
        }
    }
    Ok(Status::from_all_ok(all_ok))
}
