//! Binary-side glue: one module per subcommand, each returning whether
//! everything was ok; `main` maps that (or an error) to the exit status.

mod check;
mod common;
mod compare;
mod completions;
mod extract;
mod record;
mod test;
pub mod tui;

use std::process::ExitCode;

use crate::cli::Command;

/// How a command ended when it could do its work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Every capture ok, every fixture passing: exit 0.
    Clean,
    /// At least one capture failed or one fixture regressed: exit 1.
    Failures,
}

impl Status {
    pub fn from_all_ok(all_ok: bool) -> Status {
        if all_ok {
            Status::Clean
        } else {
            Status::Failures
        }
    }

    pub fn exit_code(self) -> ExitCode {
        match self {
            Status::Clean => ExitCode::SUCCESS,
            Status::Failures => ExitCode::from(1),
        }
    }
}

/// Exit status for usage errors and unreadable paths (contract §3).
pub const USAGE_ERROR: u8 = 2;

/// Run a subcommand; an error is one line on stderr and exit status 2.
pub fn run(command: &Command) -> ExitCode {
    let result = match command {
        Command::Check(args) => check::run(args),
        Command::Extract(args) => extract::run(args),
        Command::Test(args) => test::run(args),
        Command::Compare(args) => compare::run(args),
        // It ends as the workbench does with --tui, so it maps its own exit status.
        Command::Record(args) => return record::run(args),
        Command::Completions { shell } => completions::run(*shell),
    };
    match result {
        Ok(status) => status.exit_code(),
        Err(error) => {
            eprintln!("jxray: {}", common::error_line(&error));
            ExitCode::from(USAGE_ERROR)
        }
    }
}
