//! The `jxray` binary: the command line of the `jxray` library, with its allocator.

use std::process::ExitCode;

/// `check` allocates and frees many small values across threads (a capture is read on one
/// thread, extracted on another, written and dropped on a third); mimalloc does that with
/// far less contention than the system allocator (BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    ExitCode::from(jxray::commands::main(std::env::args_os()))
}
