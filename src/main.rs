//! The `jxray` binary: parse arguments, run one command, map the result to an exit code.

mod cli;
mod commands;

use std::process::ExitCode;

use clap::Parser;

/// `check` allocates and frees many small values across threads (a capture is read on one
/// thread, extracted on another, written and dropped on a third); mimalloc does that with
/// far less contention than the system allocator (BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // Usage errors and help are printed escaped, then end as clap would (2, or 0 for help).
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return commands::usage(&error),
    };
    match &cli.command {
        None => commands::tui::run(&cli),
        Some(command) => commands::run(command),
    }
}
