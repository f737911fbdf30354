//! `jxray completions SHELL`: a completion script on stdout.

use std::io::{self, Write};

use clap::CommandFactory;
use clap_complete::Shell;

use super::common::quiet_broken_pipe;
use super::Status;
use crate::cli::Cli;

pub fn run(shell: Shell) -> anyhow::Result<Status> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "jxray", &mut script);
    quiet_broken_pipe(io::stdout().lock().write_all(&script))?;
    Ok(Status::Clean)
}
