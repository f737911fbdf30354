//! What the commands share: flags to options, colour, and stdout writes
//! that end quietly when the reader goes away (`jxray check | head`).

use std::io::{self, IsTerminal};

use jxray::engine::{Options, Pick};
use jxray::report::{want_color, Painter};

use crate::cli::{ColorChoice, ExtractionArgs, PickChoice};
use jxray::capture::LoadOptions;

pub fn engine_options(args: &ExtractionArgs) -> Options {
    Options {
        accept_lenient: args.accept_lenient,
        decode_stringified: args.decode_stringified,
        pick: match args.pick {
            PickChoice::First => Pick::First,
            PickChoice::Last => Pick::Last,
        },
        ..Options::default()
    }
}

pub fn load_options(args: &ExtractionArgs) -> LoadOptions {
    LoadOptions {
        max_bytes: args.max_bytes,
        ..LoadOptions::default()
    }
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
