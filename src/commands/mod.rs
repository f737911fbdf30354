//! Binary-side glue: one module per subcommand, each returning whether
//! everything was ok; `main` maps that (or an error) to the exit status.

mod check;
mod common;
mod completions;
mod extract;
mod test;
mod ui;

use std::process::ExitCode;

use crate::cli::{Cli, Command};

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

/// Run the command the user asked for. With no subcommand, the terminal UI.
pub fn run(cli: Cli) -> anyhow::Result<Status> {
    match &cli.command {
        Some(Command::Check(args)) => check::run(args),
        Some(Command::Extract(args)) => extract::run(args),
        Some(Command::Test(args)) => test::run(args),
        Some(Command::Completions { shell }) => completions::run(*shell),
        None => ui::run(&cli),
    }
}
