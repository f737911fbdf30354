//! The `jxray` binary: parse arguments, run one command, map the result to an exit code.

mod cli;
mod commands;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // clap prints usage errors itself and exits 2.
    let cli = cli::Cli::parse();
    match &cli.command {
        None => commands::tui::run(&cli),
        Some(command) => commands::run(command),
    }
}
