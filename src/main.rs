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
    // clap prints usage errors itself and exits 2.
    let cli = cli::Cli::parse();
    match &cli.command {
        None => commands::tui::run(&cli),
        Some(command) => commands::run(command),
    }
}
