//! `jxray [PATH]` with no subcommand: the terminal UI's entry point. The UI
//! itself is built on the `tui` branch, which replaces this file; until then
//! the binary says where the report is.

use std::io::{self, IsTerminal};
use std::process::ExitCode;

use super::USAGE_ERROR;
use crate::cli::Cli;

pub fn run(cli: &Cli) -> ExitCode {
    let path = cli.path.display();
    if io::stdin().is_terminal() && io::stdout().is_terminal() {
        eprintln!("jxray: this build has no terminal UI; run `jxray check {path}` for a report");
    } else {
        eprintln!("jxray: the terminal UI needs a terminal; for a report run `jxray check {path}`");
    }
    ExitCode::from(USAGE_ERROR)
}
