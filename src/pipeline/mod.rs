//! `check` at any size: captures flow from their source, through a bounded window, to
//! parallel workers, and back into order for the report.
//!
//! ```text
//! jobs (one reader thread) -> window -> workers (read a file, extract + schema) -> in-order sink
//! ```
//!
//! A job is a capture already read (a line of a log) or a file that the worker reads
//! whole, so that reading files and decoding their envelopes run on every core.
//! Memory is bounded by the window (a number of jobs and a budget of bytes) and the
//! largest single file or capture, never by how many captures there are: each outcome is
//! written as soon as every one before it has been, then dropped.

mod window;

use std::collections::BTreeMap;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use crate::capture::RequestBeside;
use crate::capture::{shell_path, Capture, Job, Jobs};
use crate::check::{self, Checked, Checker};
use crate::report::{Sink, Summary};

pub(crate) use window::Window;

/// How the pipeline runs.
#[derive(Debug, Clone, Copy)]
pub struct PipelineSettings {
    /// Worker threads extracting captures.
    pub(crate) workers: usize,
    /// Most jobs read but not yet written.
    pub(crate) window_records: usize,
    /// Most bytes (capture text, or file size) read but not yet written (one larger job
    /// always gets in).
    pub(crate) window_bytes: usize,
    /// Flush the sink whenever the next outcome is not ready yet, so a reader at the other
    /// end of a pipe sees each outcome as soon as it is known.
    pub(crate) flush_when_idle: bool,
    /// Read each capture file's request file: its repair-chain link (`Checked::chain`) and
    /// the schema it asked for, which the capture is judged against (contract §2).
    pub(crate) read_chains: bool,
}

impl Default for PipelineSettings {
    fn default() -> PipelineSettings {
        PipelineSettings {
            workers: thread::available_parallelism().map_or(2, usize::from),
            window_records: 1024,
            window_bytes: 16 * 1024 * 1024,
            flush_when_idle: false,
            read_chains: false,
        }
    }
}

impl PipelineSettings {
    /// The same, reading the request files beside capture files (where the walk saw one).
    pub fn with_requests(mut self, read: bool) -> PipelineSettings {
        self.read_chains = read;
        self
    }

    /// No more workers than `most` can keep busy (at least one); `None` leaves them be.
    pub fn with_most_workers(mut self, most: Option<usize>) -> PipelineSettings {
        if let Some(most) = most {
            self.workers = self.workers.min(most.max(1));
        }
        self
    }
}

/// Writing stopped (the reader of the report went away, or the disk is full): why, and the
/// counts of what was checked until then, which still decide how the run went.
#[derive(Debug)]
pub struct Stopped {
    pub(crate) summary: Summary,
    pub(crate) error: io::Error,
}

/// Check every job's captures with `checker`, writing each outcome to `sink` in job order,
/// and return the counts; the caller ends the report with [`Sink::finish`] (or, when there
/// was nothing to check, says so instead). Fails only when writing fails.
pub fn run(
    jobs: Jobs,
    checker: &Checker,
    sink: &mut dyn Sink,
    settings: &PipelineSettings,
) -> Result<Summary, Stopped> {
    let window = Arc::new(Window::new(settings.window_records, settings.window_bytes));
    let (job_sender, queue) = mpsc::channel::<Queued>();
    // The reader is not joined: when writing fails (the reader of our output went away)
    // the command ends without waiting for input that may never close.
    {
        let window = Arc::clone(&window);
        thread::spawn(move || {
            for (number, job) in (0u64..).zip(jobs) {
                let weight = weight(&job);
                if !window.enter(weight) || job_sender.send((number, job, weight)).is_err() {
                    break;
                }
            }
        });
    }
    let queue = Mutex::new(queue);
    thread::scope(|scope| {
        let (done_sender, done) = mpsc::channel::<Vec<Done>>();
        for _ in 0..settings.workers.max(1) {
            let done_sender = done_sender.clone();
            let queue = &queue;
            let mut chains = settings.read_chains.then(Chains::default);
            scope.spawn(move || loop {
                let batch = take_batch(queue);
                if batch.is_empty() {
                    break;
                }
                let done: Vec<Done> = batch
                    .into_iter()
                    .map(|(number, job, weight)| {
                        (number, finished(checker, job, chains.as_mut()), weight)
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

/// A job, its number in the input and its weight in the window.
type Queued = (u64, Job, usize);

/// A job's checked captures, its number in the input and its weight in the window.
type Done = (u64, Finished, usize);

/// What a job gave: one checked capture, or a file's (none when it held none).
// Most jobs are one capture (the lines of a log): boxing it would allocate for each.
#[allow(clippy::large_enum_variant)]
enum Finished {
    One(Checked),
    File(Vec<Checked>),
    /// A jxray fixture file, passed over (counted in the summary, not reported).
    Fixture(std::path::PathBuf),
}

/// A worker's reading of request files: the chain link and the schemas the request asked
/// for. The captures of one file (a whole file's, or the lines of a log, which come one job
/// each) share one reading.
#[derive(Default)]
struct Chains {
    last: Option<(std::path::PathBuf, Option<Arc<RequestBeside>>)>,
}

impl Chains {
    fn beside(&mut self, path: &std::path::Path) -> Option<Arc<RequestBeside>> {
        match &self.last {
            Some((last, request)) if last == path => request.clone(),
            _ => {
                let request = RequestBeside::read(path).map(Arc::new);
                self.last = Some((path.to_path_buf(), request.clone()));
                request
            }
        }
    }

    /// Judge `capture` against the schema its request asked for (unless it carries one),
    /// and note its chain.
    fn check(&mut self, checker: &Checker, mut capture: Capture) -> Checked {
        let request = self.beside(&capture.path);
        if checker.schema().is_none() {
            capture.ask_schema_of(request.as_deref().map(|request| &request.asked));
        }
        let mut checked = checker.check(capture);
        if let Some(arrival) = request.as_ref().and_then(|r| r.arrival.as_ref()) {
            let early = checked.early.take();
            checked.early = early.map(|early| early.timed(&checked.capture, arrival));
        }
        checked.chain = request.map(|request| Arc::new(request.chain.clone()));
        checked
    }
}

/// Most jobs a worker takes at once.
const BATCH: usize = 64;

/// Most bytes of files a worker takes at once beyond the first job: a batch of large
/// files would leave the other workers idle.
const BATCH_BYTES: usize = 256 * 1024;

/// The next jobs to check: one, waiting for it, then those already read (up to [`BATCH`]
/// jobs, or [`BATCH_BYTES`]; consecutive, as they are taken under the lock), so that
/// channel hand-offs and wake-ups are per batch, not per job, when input is plentiful, and
/// nothing waits for a batch to fill when it is not (a pipe). Empty when input has ended.
fn take_batch(queue: &Mutex<Receiver<Queued>>) -> Vec<Queued> {
    let queue = queue.lock().unwrap_or_else(PoisonError::into_inner);
    let Ok(first) = queue.recv() else {
        return Vec::new();
    };
    let mut bytes = first.2;
    let mut batch = vec![first];
    while batch.len() < BATCH && bytes < BATCH_BYTES {
        match queue.try_recv() {
            Ok(job) => {
                bytes += job.2;
                batch.push(job);
            }
            Err(_) => break,
        }
    }
    batch
}

/// What a job weighs in the window: its text, or its file's size.
fn weight(job: &Job) -> usize {
    match job {
        Job::Capture(capture) => capture.text.as_ref().map_or(0, String::len),
        Job::File { size, .. } => usize::try_from(*size).unwrap_or(usize::MAX),
    }
}

/// Check a job's captures, reading its file first if it has one; a panic while reading is
/// the file's failure (the checker guards each capture's judging).
fn finished(checker: &Checker, job: Job, mut chains: Option<&mut Chains>) -> Finished {
    let mut check = |capture: Capture| match chains.as_deref_mut() {
        Some(chains) => chains.check(checker, capture),
        None => checker.check(capture),
    };
    match job {
        Job::Capture(capture) => Finished::One(check(capture)),
        Job::File { path, read, .. } => match panic::catch_unwind(AssertUnwindSafe(read)) {
            Ok(Some(captures)) => Finished::File(captures.into_iter().map(check).collect()),
            Ok(None) => Finished::Fixture(path),
            Err(_) => Finished::File(vec![check::panicked(shell_path(&path), path, None)]),
        },
    }
}

/// Put outcomes back in job order and write each as soon as it is next.
///
/// A worker's batch is a run of consecutive jobs, so whole batches wait, keyed by their
/// first job's number, and are written front to back: a checked record is a few hundred
/// bytes, and is moved as little as possible.
fn write_in_order(
    done: Receiver<Vec<Done>>,
    sink: &mut dyn Sink,
    window: &Window,
    flush_when_idle: bool,
) -> Result<Summary, Stopped> {
    let mut summary = Summary::default();
    let stopped = |summary: &Summary, error| Stopped {
        summary: summary.clone(),
        error,
    };
    let mut waiting: BTreeMap<u64, Vec<Done>> = BTreeMap::new();
    let mut next = 0u64;
    let mut unflushed = false;
    loop {
        let batch = match done.try_recv() {
            Ok(arrived) => arrived,
            Err(TryRecvError::Disconnected) => break,
            Err(TryRecvError::Empty) => {
                if flush_when_idle && unflushed {
                    sink.flush().map_err(|error| stopped(&summary, error))?;
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
            let (mut jobs, mut bytes) = (0, 0);
            let mut written = Ok(());
            for (_, finished, weight) in batch {
                let items: &[Checked] = match &finished {
                    Finished::One(item) => std::slice::from_ref(item),
                    Finished::File(items) => items,
                    Finished::Fixture(path) => {
                        summary.pass_over_fixture(path.clone());
                        &[]
                    }
                };
                for item in items {
                    if written.is_ok() {
                        summary.count(item);
                        written = sink.record(item);
                    }
                }
                jobs += 1;
                bytes += weight;
            }
            window.leave(jobs, bytes);
            written.map_err(|error| stopped(&summary, error))?;
            next += jobs as u64;
            unflushed = true;
        }
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::capture::Capture;
    use crate::engine::{Acceptor, Options};
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

    fn captures(count: usize) -> Jobs {
        Box::new((0..count).map(|i| {
            // Sizes over three orders of magnitude, so workers finish out of order.
            let pad = "x".repeat([0, 30, 3000][i % 3] * (i % 7));
            Job::Capture(Capture::from_text(
                format!("c{i}"),
                format!("{{\"i\": {i}, \"pad\": \"{pad}\"}}"),
            ))
        }))
    }

    /// Files of 0, 1 or 2 captures between single captures; the file `f7` panics.
    fn files_and_captures(count: usize) -> Jobs {
        Box::new((0..count).map(|i| {
            if i % 2 == 0 {
                return Job::Capture(Capture::from_text(format!("c{i}"), "{}"));
            }
            let read = Box::new(move || {
                assert!(i != 7, "boom");
                Some(
                    (0..i % 3)
                        .map(|n| Capture::from_text(format!("f{i}#{n}"), "[1]"))
                        .collect(),
                )
            });
            let path = PathBuf::from(format!("f{i}"));
            Job::File {
                path,
                size: 100 * (i as u64 % 5),
                read,
            }
        }))
    }

    fn extract(capture: Capture) -> Checked {
        Checker::new(Options::default(), None).check(capture)
    }

    /// The sources that `jobs()` come out as, and the counts, with each of `windows`
    /// (workers, most jobs, most bytes).
    fn under_windows(
        jobs: impl Fn() -> Jobs,
        windows: [(usize, usize, usize); 3],
    ) -> Vec<(PipelineSettings, Vec<String>, Summary)> {
        let run_one = |(workers, window_records, window_bytes)| {
            let settings = PipelineSettings {
                workers,
                window_records,
                window_bytes,
                flush_when_idle: false,
                read_chains: false,
            };
            let mut sink = Collect::default();
            let checker = Checker::new(Options::default(), None);
            let summary = run(jobs(), &checker, &mut sink, &settings).unwrap();
            (settings, sink.sources, summary)
        };
        windows.into_iter().map(run_one).collect()
    }

    #[test]
    fn every_record_comes_out_once_in_input_order_whatever_the_window() {
        let expected: Vec<String> = (0..2000).map(|i| format!("c{i}")).collect();
        let windows = [(1, 1, 0), (4, 3, 100), (3, 1024, 1 << 20)];
        for (settings, sources, summary) in under_windows(|| captures(2000), windows) {
            assert!(sources == expected, "out of order with {settings:?}");
            assert_eq!(summary.total(), 2000);
            assert_eq!(summary.ok(), 2000);
        }
    }

    #[test]
    fn files_read_by_the_workers_come_out_in_order_and_a_panic_is_the_files_failure() {
        let mut expected = Vec::new();
        for i in 0..500 {
            match (i % 2, i) {
                (0, _) => expected.push(format!("c{i}")),
                (_, 7) => expected.push("f7".to_string()),
                _ => expected.extend((0..i % 3).map(|n| format!("f{i}#{n}"))),
            }
        }
        let windows = [(1, 1, 0), (3, 5, 250), (2, 1024, 1 << 20)];
        for (settings, sources, summary) in under_windows(|| files_and_captures(500), windows) {
            assert!(sources == expected, "out of order with {settings:?}");
            assert_eq!(summary.total(), expected.len());
            assert_eq!(summary.failed(), 1, "only the file that panicked fails");
        }
    }

    #[test]
    fn the_counts_match_a_sequential_report() {
        let sequential: Vec<Checked> = captures(300)
            .map(|job| match job {
                Job::Capture(capture) => extract(capture),
                Job::File { .. } => unreachable!("only captures"),
            })
            .collect();
        let expected = write_all(&mut Collect::default(), &sequential).unwrap();
        let summary = run(
            captures(300),
            &Checker::new(Options::default(), None),
            &mut Collect::default(),
            &PipelineSettings::default(),
        )
        .unwrap();
        assert_eq!(summary, expected);
    }

    #[test]
    fn a_panic_in_one_capture_is_its_failure_and_the_rest_go_on() {
        // The engine asks the acceptor about each candidate it finds in prose: this one
        // panics on the sixth capture's.
        let options = Options::default().with_acceptor(Some(Acceptor::new(|value| {
            assert!(value.get("i").and_then(|i| i.as_u64()) != Some(5), "boom");
            true
        })));
        let checker = Checker::new(options, None);
        let jobs: Jobs = Box::new((0..10).map(|i| {
            let text = format!("The answer: {{\"i\": {i}}}");
            Job::Capture(Capture::from_text(format!("c{i}"), text))
        }));
        let mut sink = Collect::default();
        let summary = run(jobs, &checker, &mut sink, &PipelineSettings::default()).unwrap();
        assert_eq!(sink.sources.len(), 10);
        assert_eq!(sink.sources[5], "c5");
        assert_eq!(summary.failed(), 1);
    }
}
