//! The `jxray` binary: parse arguments, run one command, map the result to an exit code.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    let _ = cli;
    ExitCode::SUCCESS
}
