//! The command line's entry point ([`main`], which the `jxray` binary and the Python
//! package's `jxray` command both call): one module per subcommand, each returning whether
//! everything was ok; `main` maps that (or an error) to the exit status.

mod check;
mod common;
mod compare;
mod completions;
mod extract;
mod follow;
mod output;
mod record;
pub(crate) mod test;
mod tui;

use std::ffi::OsString;
use std::io::Write;

use clap::Parser;

use crate::cli::{Cli, CliCommand};

/// Run the command line on `args` (the program's name first, as `std::env::args_os` gives
/// them) and return the exit status (contract §3): 0, 1 when a capture failed or a fixture
/// regressed, 2 for a usage error, 128 + N when ended by signal N.
pub fn main(args: impl IntoIterator<Item = OsString>) -> u8 {
    // Usage errors and help are printed escaped, then end as clap would (2, or 0 for help).
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => return usage(&error),
    };
    match &cli.command {
        None => tui::run(&cli),
        Some(command) => run(command),
    }
}

/// How a command ended when it could do its work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExitStatus {
    /// Every capture ok, every fixture passing: exit 0.
    Clean,
    /// At least one capture failed or one fixture regressed: exit 1.
    Failures,
}

impl ExitStatus {
    pub(crate) fn from_all_ok(all_ok: bool) -> ExitStatus {
        if all_ok {
            ExitStatus::Clean
        } else {
            ExitStatus::Failures
        }
    }

    pub(crate) fn exit_code(self) -> u8 {
        match self {
            ExitStatus::Clean => 0,
            ExitStatus::Failures => 1,
        }
    }
}

/// Exit status for usage errors and unreadable paths (contract §3).
pub(crate) const USAGE_ERROR: u8 = 2;

/// Run a subcommand; an error is one line on stderr and exit status 2.
fn run(command: &CliCommand) -> u8 {
    if let CliCommand::Record(args) = command {
        // It stops on its own signals (captures in flight are written first) and ends as
        // the workbench does with --tui, so it maps its own exit status.
        return record::run(args);
    }
    output::end_on_signals();
    let result = match command {
        CliCommand::Check(args) => check::run(args),
        CliCommand::Extract(args) if args.follow => follow::run(args),
        CliCommand::Extract(args) => extract::run(args),
        CliCommand::Test(args) => test::run(args),
        CliCommand::Compare(args) => compare::run(args),
        CliCommand::Record(args) => return record::run(args),
        CliCommand::Completions { shell } => completions::run(*shell),
    };
    match result {
        Ok(status) => status.exit_code(),
        Err(error) => {
            output::say(&format!("jxray: {}", common::error_line(&error)));
            USAGE_ERROR
        }
    }
}

/// Print what clap has to say (a usage error, `--help`, `--version`) and end as it would:
/// the text is rendered here, without styles, so that every value quoted in it (a file
/// name, a bad option value, a path from the environment) is shown escaped.
fn usage(error: &clap::Error) -> u8 {
    // Rendered as it is, escape sequences and all (a plain rendering strips them: they
    // would be hidden, not shown); the styles are plain, so every one is the user's.
    let text = error.render().ansi().to_string();
    let text = crate::text::escape_lines(&text);
    let written = if error.use_stderr() {
        std::io::stderr().lock().write_all(text.as_bytes())
    } else {
        let mut out = output::stdout();
        out.write_all(text.as_bytes()).and_then(|()| out.finish())
    };
    // A reader that went away is no reason to say more.
    drop(written);
    u8::try_from(error.exit_code()).unwrap_or(USAGE_ERROR)
}
