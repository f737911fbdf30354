//! What the commands share: flags to options, colour, and stdout writes
//! that end quietly when the reader goes away (`jxray check | head`).

use std::io::{self, IsTerminal};

use jxray::engine::{Options, Pick};
use jxray::report::{want_color, Painter};

use std::sync::Arc;

use crate::cli::{ColorChoice, ExtractionArgs, PickChoice, PresetChoice};
use jxray::capture::fields::{PathFlags, Preset};
use jxray::capture::LoadOptions;

pub fn engine_options(args: &ExtractionArgs) -> Options {
    Options {
        accept_lenient: args.accept_lenient,
        pick: match args.pick {
            PickChoice::First => Pick::First,
            PickChoice::Last => Pick::Last,
        },
        ..Options::default()
    }
}

pub fn load_options(args: &ExtractionArgs) -> anyhow::Result<LoadOptions> {
    let log = &args.log;
    let flags = PathFlags {
        preset: log.preset.map(|preset| match preset {
            PresetChoice::Litellm => Preset::Litellm,
            PresetChoice::Langfuse => Preset::Langfuse,
            PresetChoice::Helicone => Preset::Helicone,
            PresetChoice::Otel => Preset::Otel,
        }),
        text: log.text_path.clone(),
        stop: log.stop_path.clone(),
        id: log.id_path.clone(),
        model: log.model_path.clone(),
    };
    Ok(LoadOptions {
        max_bytes: args.max_bytes,
        fields: flags.field_map()?.map(Arc::new),
    })
}

/// A painter for standard output, following `--color` and `NO_COLOR`.
pub fn stdout_painter(choice: ColorChoice) -> Painter {
    let explicit = match choice {
        ColorChoice::Always => Some(true),
        ColorChoice::Never => Some(false),
        ColorChoice::Auto => None,
    };
    let no_color = std::env::var("NO_COLOR").ok();
    Painter::new(want_color(
        explicit,
        io::stdout().is_terminal(),
        no_color.as_deref(),
    ))
}

/// A closed pipe on stdout is the reader's choice, not an error.
pub fn quiet_broken_pipe(result: io::Result<()>) -> io::Result<()> {
    match result {
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}
