//! `check` at any size: captures flow from their source, through a bounded window, to
//! parallel workers, and back into order for the report.
//!
//! ```text
//! records (one reader thread) -> window -> workers (extract + schema) -> in-order sink
//! ```
//!
//! Memory is bounded by the window (a number of records and a budget of text bytes) and
//! the largest single capture, never by how many captures there are: each outcome is
//! written as soon as every one before it has been, then dropped.

mod window;

use std::collections::BTreeMap;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use crate::capture::{Capture, Records, Unreadable};
use crate::engine::Outcome;
use crate::report::{Checked, Sink, Summary};

pub use window::Window;

/// How the pipeline runs.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Worker threads extracting captures.
    pub workers: usize,
    /// Most records read but not yet written.
    pub window_records: usize,
    /// Most text bytes read but not yet written (one larger capture always gets in).
    pub window_bytes: usize,
    /// Flush the sink whenever the next outcome is not ready yet, so a reader at the other
    /// end of a pipe sees each outcome as soon as it is known.
    pub flush_when_idle: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            workers: thread::available_parallelism().map_or(2, usize::from),
            window_records: 1024,
            window_bytes: 16 * 1024 * 1024,
            flush_when_idle: false,
        }
    }
}

/// Check every record with `work`, writing each outcome to `sink` in record order, and
/// return the counts; the caller ends the report with [`Sink::finish`] (or, when there was
/// nothing to check, says so instead). Fails only when writing fails.
pub fn run<F>(
    records: Records,
    work: &F,
    sink: &mut dyn Sink,
    settings: &Settings,
) -> io::Result<Summary>
where
    F: Fn(Capture) -> Checked + Sync,
{
    let window = Arc::new(Window::new(settings.window_records, settings.window_bytes));
    let (job_sender, jobs) = mpsc::channel::<(u64, Capture)>();
    // The reader is not joined: when writing fails (the reader of our output went away)
    // the command ends without waiting for input that may never close.
    {
        let window = Arc::clone(&window);
        thread::spawn(move || {
            for (number, capture) in (0u64..).zip(records) {
                if !window.enter(weight(&capture)) || job_sender.send((number, capture)).is_err() {
                    break;
                }
            }
        });
    }
    let jobs = Mutex::new(jobs);
    thread::scope(|scope| {
        let (done_sender, done) = mpsc::channel::<Done>();
        for _ in 0..settings.workers.max(1) {
            let done_sender = done_sender.clone();
            let jobs = &jobs;
            scope.spawn(move || loop {
                let job = jobs.lock().unwrap_or_else(PoisonError::into_inner).recv();
                let Ok((number, capture)) = job else { break };
                let weight = weight(&capture);
                if done_sender
                    .send((number, checked(work, capture), weight))
                    .is_err()
                {
                    break;
                }
            });
        }
        drop(done_sender);
        let written = write_in_order(done, sink, &window, settings.flush_when_idle);
        // Stop the reader if writing ended early; the workers then run out of jobs.
        window.close();
        written
    })
}

/// A checked record, its number in the input and its weight in the window.
type Done = (u64, Checked, usize);

/// What a record weighs in the window: its text.
fn weight(capture: &Capture) -> usize {
    capture.text.as_ref().map_or(0, String::len)
}

/// Extract one capture; a panic becomes this capture's failure rather than a hang.
fn checked<F: Fn(Capture) -> Checked>(work: &F, capture: Capture) -> Checked {
    let Capture {
        source, path, line, ..
    } = &capture;
    let (source, path, line) = (source.clone(), path.clone(), *line);
    panic::catch_unwind(AssertUnwindSafe(|| work(capture))).unwrap_or_else(|_| {
        let why = "internal error: extraction panicked on this capture; please report it \
                   with the capture attached";
        Checked {
            capture: Capture {
                path,
                line,
                text: Err(Unreadable::new(why)),
                ..Capture::from_text(source, "")
            },
            outcome: Outcome::unreadable(why),
        }
    })
}

/// Put outcomes back in record order and write each as soon as it is next.
fn write_in_order(
    done: Receiver<Done>,
    sink: &mut dyn Sink,
    window: &Window,
    flush_when_idle: bool,
) -> io::Result<Summary> {
    let mut summary = Summary::default();
    let mut waiting: BTreeMap<u64, (Checked, usize)> = BTreeMap::new();
    let mut next = 0u64;
    let mut unflushed = false;
    loop {
        let (number, item, weight) = match done.try_recv() {
            Ok(arrived) => arrived,
            Err(TryRecvError::Disconnected) => break,
            Err(TryRecvError::Empty) => {
                if flush_when_idle && unflushed {
                    sink.flush()?;
                    unflushed = false;
                }
                match done.recv() {
                    Ok(arrived) => arrived,
                    Err(_) => break,
                }
            }
        };
        waiting.insert(number, (item, weight));
        while let Some((item, weight)) = waiting.remove(&next) {
            summary.add(&item.outcome);
            sink.record(&item)?;
            unflushed = true;
            drop(item);
            window.leave(weight);
            next += 1;
        }
    }
    Ok(summary)
}
