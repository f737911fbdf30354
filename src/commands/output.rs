//! The one way the commands write: standard output a whole line at a time, standard error
//! one escaped line at a time, and an end that keeps what was seen.
//!
//! - A reader that goes away (`jxray check | head -1`) breaks the pipe: nothing more is
//!   written, and the command still exits with the status of what it saw (1 when a failure
//!   was seen), so `set -o pipefail` CI never turns a failed run green.
//! - SIGINT and SIGTERM end the command with 130 and 143 after the line being written is
//!   finished, or before any of it: bytes reach the pipe only in whole lines, and the
//!   signal waits for a write in progress. A second signal ends it at once.
//! - Every line on standard error goes through [`say`], which escapes it as one line.

use std::io::{self, Write};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use crate::text::escape_line;

use super::ExitStatus;

/// Bytes gathered before whole lines are written out.
const CHUNK: usize = 64 * 1024;

/// Standard output, shared by the command and the signal watcher.
#[derive(Clone)]
pub(super) struct Stdout {
    shared: Arc<Mutex<Pending>>,
}

/// What was written but is not out yet, and whether the reader went away.
#[derive(Default)]
struct Pending {
    bytes: Vec<u8>,
    gone: bool,
}

/// The process's standard output.
pub(super) fn stdout() -> Stdout {
    static STDOUT: OnceLock<Stdout> = OnceLock::new();
    STDOUT
        .get_or_init(|| Stdout {
            shared: Arc::default(),
        })
        .clone()
}

impl Stdout {
    fn lock(&self) -> MutexGuard<'_, Pending> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether the reader went away (the pipe broke).
    pub(super) fn reader_gone(&self) -> bool {
        self.lock().gone
    }

    /// Write out everything, the last line too, unended or not: the end of a report.
    pub(super) fn finish(&self) -> io::Result<()> {
        let mut pending = self.lock();
        let all = pending.bytes.len();
        pending.write_out(all)
    }
}

impl Pending {
    /// Write the first `end` bytes to the real standard output, keeping the rest.
    fn write_out(&mut self, end: usize) -> io::Result<()> {
        if self.gone {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        if end == 0 {
            return Ok(());
        }
        let mut real = io::stdout().lock();
        let written = real
            .write_all(&self.bytes[..end])
            .and_then(|()| real.flush());
        self.bytes.drain(..end);
        if let Err(error) = &written {
            if error.kind() == io::ErrorKind::BrokenPipe {
                self.gone = true;
                self.bytes = Vec::new();
            }
        }
        written
    }

    /// Where the whole lines end.
    fn lines_end(&self) -> usize {
        self.bytes
            .iter()
            .rposition(|&byte| byte == b'\n')
            .map_or(0, |at| at + 1)
    }
}

impl Write for Stdout {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut pending = self.lock();
        if pending.gone {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        pending.bytes.extend_from_slice(bytes);
        if pending.bytes.len() >= CHUNK {
            let end = pending.lines_end();
            pending.write_out(end)?;
        }
        Ok(bytes.len())
    }

    /// Push the whole lines written so far to the reader (a pipe waits for them); a line
    /// still being written waits for its end.
    fn flush(&mut self) -> io::Result<()> {
        let mut pending = self.lock();
        let end = pending.lines_end();
        pending.write_out(end)
    }
}

/// How a command that wrote to standard output ends: `status` (what it saw) when the
/// report was written whole, or when writing stopped because the reader went away; the
/// error when writing failed for another reason.
pub(super) fn ended(
    out: &Stdout,
    written: io::Result<()>,
    status: ExitStatus,
) -> anyhow::Result<ExitStatus> {
    match written.and_then(|()| out.finish()) {
        Ok(()) => Ok(status),
        Err(_) if out.reader_gone() => Ok(status),
        Err(error) => Err(anyhow::Error::new(error).context("cannot write to standard output")),
    }
}

/// One line on standard error, escaped as one line whatever it holds.
pub(super) fn say(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{}", escape_line(line));
}

/// End the process on SIGINT or SIGTERM with 128 + the signal, once the line being written
/// to standard output is out (the watcher takes the output's lock, which a write holds);
/// a second signal ends it at once.
#[cfg(unix)]
pub(super) fn end_on_signals() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    std::thread::spawn(move || {
        let mut first = true;
        for signal in signals.forever() {
            let code = 128 + signal;
            if !first {
                std::process::exit(code);
            }
            first = false;
            std::thread::spawn(move || {
                let out = stdout();
                let _between_lines = out.lock();
                std::process::exit(code);
            });
        }
    });
}

#[cfg(not(unix))]
pub(crate) fn end_on_signals() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_whole_lines_are_due_until_the_end() {
        let mut pending = Pending::default();
        pending.bytes.extend_from_slice(b"one\ntwo\nthr");
        assert_eq!(pending.lines_end(), 8);
        pending.bytes.drain(..8);
        assert_eq!(pending.lines_end(), 0);
    }
}
