//! `jxray completions SHELL`: a completion script on stdout.

use std::io::Write;

use clap::CommandFactory;
use clap_complete::Shell;

use super::output::{self, ended};
use super::ExitStatus;
use crate::cli::Cli;

pub(super) fn run(shell: Shell) -> anyhow::Result<ExitStatus> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "jxray", &mut script);
    let mut stdout = output::stdout();
    let written = stdout.write_all(&script);
    ended(&stdout, written, ExitStatus::Clean)
}
