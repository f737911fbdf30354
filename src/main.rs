//! The `jxray` binary: parse arguments, run one command, map the result to an exit code.

mod cli;
mod commands;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // clap prints usage errors itself and exits 2.
    let cli = cli::Cli::parse();
    match commands::run(cli) {
        Ok(status) => status.exit_code(),
        Err(error) => {
            let message = format!("{error:#}");
            eprintln!(
                "jxray: {}",
                message.split_whitespace().collect::<Vec<_>>().join(" ")
            );
            ExitCode::from(commands::USAGE_ERROR)
        }
    }
}
