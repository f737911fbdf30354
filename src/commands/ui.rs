//! `jxray [PATH]` with no subcommand: the terminal UI's entry point.

use std::io::{self, IsTerminal};

use anyhow::bail;

use super::Status;
use crate::cli::Cli;

pub fn run(cli: &Cli) -> anyhow::Result<Status> {
    let path = cli.path.display();
    if !io::stdout().is_terminal() {
        bail!("the terminal UI needs a terminal; in a pipe or CI run `jxray check {path}`");
    }
    bail!("this build has no terminal UI yet; run `jxray check {path}` for a report");
}
