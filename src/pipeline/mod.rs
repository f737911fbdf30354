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
        let (done_sender, done) = mpsc::channel::<Vec<Done>>();
        for _ in 0..settings.workers.max(1) {
            let done_sender = done_sender.clone();
            let jobs = &jobs;
            scope.spawn(move || loop {
                let batch = take_batch(jobs);
                if batch.is_empty() {
                    break;
                }
                let done: Vec<Done> = batch
                    .into_iter()
                    .map(|(number, capture)| {
                        let weight = weight(&capture);
                        (number, checked(work, capture), weight)
                    })
                    .collect();
                if done_sender.send(done).is_err() {
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

/// Most records a worker takes at once.
const BATCH: usize = 64;

/// The next records to check: one, waiting for it, then those already read (up to
/// [`BATCH`]; consecutive, as they are taken under the lock), so that channel hand-offs and wake-ups are per batch, not per record, when
/// input is plentiful, and nothing waits for a batch to fill when it is not (a pipe).
/// Empty when input has ended.
fn take_batch(jobs: &Mutex<Receiver<(u64, Capture)>>) -> Vec<(u64, Capture)> {
    let jobs = jobs.lock().unwrap_or_else(PoisonError::into_inner);
    let Ok(first) = jobs.recv() else {
        return Vec::new();
    };
    let mut batch = vec![first];
    while batch.len() < BATCH {
        match jobs.try_recv() {
            Ok(job) => batch.push(job),
            Err(_) => break,
        }
    }
    batch
}

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
///
/// A worker's batch is a run of consecutive records, so whole batches wait, keyed by their
/// first record's number, and are written front to back: a checked record is a few hundred
/// bytes, and is moved as little as possible.
fn write_in_order(
    done: Receiver<Vec<Done>>,
    sink: &mut dyn Sink,
    window: &Window,
    flush_when_idle: bool,
) -> io::Result<Summary> {
    let mut summary = Summary::default();
    let mut waiting: BTreeMap<u64, Vec<Done>> = BTreeMap::new();
    let mut next = 0u64;
    let mut unflushed = false;
    loop {
        let batch = match done.try_recv() {
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
        if let Some((first, ..)) = batch.first() {
            waiting.insert(*first, batch);
        }
        while let Some(batch) = waiting.remove(&next) {
            let (mut records, mut bytes) = (0, 0);
            let mut written = Ok(());
            for (_, item, weight) in batch {
                if written.is_ok() {
                    summary.add(&item.outcome);
                    written = sink.record(&item);
                }
                records += 1;
                bytes += weight;
            }
            window.leave(records, bytes);
            written?;
            next += records as u64;
            unflushed = true;
        }
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Options;
    use crate::report::write_all;

    /// Records what it is given, in order.
    #[derive(Default)]
    struct Collect {
        sources: Vec<String>,
        finished: bool,
    }

    impl Sink for Collect {
        fn record(&mut self, item: &Checked) -> io::Result<()> {
            self.sources.push(item.capture.source.clone());
            Ok(())
        }
        fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
            self.finished = true;
            Ok(())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn captures(count: usize) -> Records {
        Box::new((0..count).map(|i| {
            // Sizes over three orders of magnitude, so workers finish out of order.
            let pad = "x".repeat([0, 30, 3000][i % 3] * (i % 7));
            Capture::from_text(
                format!("c{i}"),
                format!("{{\"i\": {i}, \"pad\": \"{pad}\"}}"),
            )
        }))
    }

    fn extract(capture: Capture) -> Checked {
        let outcome = capture.extract(&Options::default());
        Checked { capture, outcome }
    }

    #[test]
    fn every_record_comes_out_once_in_input_order_whatever_the_window() {
        for (workers, window_records, window_bytes) in [(1, 1, 0), (4, 3, 100), (3, 1024, 1 << 20)]
        {
            let settings = Settings {
                workers,
                window_records,
                window_bytes,
                flush_when_idle: false,
            };
            let mut sink = Collect::default();
            let summary = run(captures(2000), &extract, &mut sink, &settings).unwrap();
            let expected: Vec<String> = (0..2000).map(|i| format!("c{i}")).collect();
            assert!(sink.sources == expected, "out of order with {settings:?}");
            assert_eq!(summary.total(), 2000);
            assert_eq!(summary.ok(), 2000);
        }
    }

    #[test]
    fn the_counts_match_a_sequential_report() {
        let sequential: Vec<Checked> = captures(300).map(extract).collect();
        let expected = write_all(&mut Collect::default(), &sequential).unwrap();
        let summary = run(
            captures(300),
            &extract,
            &mut Collect::default(),
            &Settings::default(),
        )
        .unwrap();
        assert_eq!(summary, expected);
    }

    #[test]
    fn a_panic_in_one_capture_is_its_failure_and_the_rest_go_on() {
        let work = |capture: Capture| {
            assert!(capture.source != "c5", "boom");
            extract(capture)
        };
        let mut sink = Collect::default();
        let summary = run(captures(10), &work, &mut sink, &Settings::default()).unwrap();
        assert_eq!(sink.sources.len(), 10);
        assert_eq!(sink.sources[5], "c5");
        assert_eq!(summary.failed(), 1);
    }
}
