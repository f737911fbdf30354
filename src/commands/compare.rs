//! `jxray compare OLD NEW`: did the prompt change help? Exit 1 when a capture
//! that was ok has failed, with `--fail-on-change` when a value changed, and with
//! `--fail-on-layer-change` when the same value came from another layer.

use crate::text::shown_path;
use std::io::{BufWriter, Write};

use crate::compare::{self, Comparison, Movement, Run};
use crate::schema::Schema;

use super::common::{engine_options, load_options, stdout_painter};
use super::output::{self, ended};
use super::ExitStatus;
use crate::cli::{CompareArgs, CompareFormat};

pub(super) fn run(args: &CompareArgs) -> anyhow::Result<ExitStatus> {
    let config = crate::config::Config::load()?;
    let schema_file = args.schema.clone().or_else(|| config.schema.clone());
    let schema = schema_file
        .as_deref()
        .map(Schema::from_file)
        .transpose()?
        .map(std::sync::Arc::new);
    let (load, options) = (
        load_options(&args.extraction, &config)?,
        engine_options(&args.extraction, &config),
    );
    let old = Run::load_by(&args.old, &load, &options, schema.as_ref(), args.by)?;
    let new = Run::load_by(&args.new, &load, &options, schema.as_ref(), args.by)?;
    for (path, run) in [(&args.old, &old), (&args.new, &new)] {
        if run.is_empty() {
            anyhow::bail!(
                "{}: no capture found; pass a folder of captures or a log file",
                shown_path(&path)
            );
        }
    }
    let mut comparison = Comparison::new(&old, &new);
    if let Some(by) = args.by {
        comparison = comparison.with_groups(by, &old, &new);
    }
    let names = (
        args.old.to_string_lossy().into_owned(),
        args.new.to_string_lossy().into_owned(),
    );
    let names = (names.0.as_str(), names.1.as_str());
    let stdout = output::stdout();
    let mut out = BufWriter::new(stdout.clone());
    let written = match args.format {
        CompareFormat::Text => compare::write_text(
            &mut out,
            &comparison,
            names,
            stdout_painter(args.color, &config),
        ),
        CompareFormat::Json => compare::write_json(&mut out, &comparison, names),
        CompareFormat::Jsonl => compare::write_jsonl(&mut out, &comparison),
    };
    let changed = (args.fail_on_change && comparison.count(Movement::ValueChanged) > 0)
        || (args.fail_on_layer_change && comparison.count(Movement::LayerMoved) > 0);
    let written = written.and_then(|()| out.flush());
    drop(out);
    ended(
        &stdout,
        written,
        ExitStatus::from_all_ok(!comparison.regressed() && !changed),
    )
}
