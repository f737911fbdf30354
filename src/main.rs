//! The `jxray` binary: parse arguments, run one command, map the result to an exit code.

mod cli;
mod commands;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    if cli.command.is_none() {
        return commands::tui::run(&cli);
    }
    ExitCode::SUCCESS
}
