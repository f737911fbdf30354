//! Reading and extracting in the background, so the first frame never waits.
//!
//! Files are read and extracted in parallel (rayon); each file's captures go
//! to the event loop as one action as soon as they are ready, and the list
//! fills while the user already looks at it.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use rayon::prelude::*;

use crate::capture::{self, Capture, LoadOptions, RecordedRequest};
use crate::check::Checker;
use crate::engine::Options;
use crate::fixture::{self, Fixture};

use super::action::{Action, EntryId, Loaded, Saved};
use super::event::Event;
use super::pacer::Pacer;
use super::partial_line;

/// Captures per message while a file of many is read: the list fills as the
/// file is read, and a log of a million lines never waits whole in memory.
const LOAD_CHUNK: usize = 8192;

/// Captures re-extracted per message: small enough for steady progress,
/// large enough to keep the channel quiet.
const EXTRACT_CHUNK: usize = 64;

#[derive(Clone)]
pub struct Loader {
    root: PathBuf,
    load: LoadOptions,
    events: Sender<Event>,
    /// The newest extraction generation; older work stops early.
    generation: Arc<AtomicU64>,
    /// How each capture is judged (the options come with each request).
    checker: Checker,
    /// Keeps parts of big files from piling up ahead of the user's keys.
    pacer: Pacer,
    /// One lock a file: two reads of one file (a re-read while it is still being
    /// read) send their parts one read after the other, never interleaved.
    reading: Arc<Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>>,
    /// Folders the walk passes over: the fixtures folder holds saved inputs, not captures.
    passed_over: Vec<PathBuf>,
}

impl Loader {
    pub fn new(
        root: PathBuf,
        load: LoadOptions,
        events: Sender<Event>,
        checker: Checker,
    ) -> Loader {
        Loader {
            root,
            load,
            events,
            generation: Arc::new(AtomicU64::new(0)),
            checker,
            pacer: Pacer::default(),
            reading: Arc::default(),
            passed_over: Vec::new(),
        }
    }

    /// Pass over `folder` when walking the root (unless it is the root itself).
    pub fn passing_over(mut self, folder: PathBuf) -> Loader {
        self.passed_over.push(folder);
        self
    }

    /// Find every capture file under the root and load them all; a `known`
    /// file that is not found any more is reported with no captures.
    pub fn load_all(&self, options: Options, known: Vec<PathBuf>) {
        let loader = self.clone();
        thread::spawn(
            move || match capture::discover_with(&loader.root, &loader.passed_over) {
                Err(error) => loader.send(Action::LoadFailed {
                    message: error.to_string(),
                }),
                Ok(discovery) => {
                    let files = discovery.files;
                    let found: HashSet<&PathBuf> = files.iter().collect();
                    let gone: Vec<PathBuf> =
                        known.into_iter().filter(|p| !found.contains(p)).collect();
                    loader.send(Action::Discovered {
                        files: files.len() + gone.len(),
                    });
                    for path in gone {
                        loader.send(Action::FileLoaded {
                            path,
                            captures: Vec::new(),
                            options: options.clone(),
                        });
                    }
                    files
                        .par_iter()
                        .for_each(|file| loader.load_file(file, &options, false));
                }
            },
        );
    }

    /// Read these files again; a file that is gone takes its captures with it.
    /// A log's unfinished last line waits for its newline (see [`partial_line`]). A path
    /// that is a folder now is walked as the first load walks (the same files, the same
    /// links followed or reported), and its captures are read.
    pub fn reload(&self, paths: Vec<PathBuf>, options: Options) {
        let loader = self.clone();
        thread::spawn(move || {
            let files: Vec<PathBuf> = paths
                .into_iter()
                .flat_map(|path| match std::fs::metadata(&path) {
                    Ok(metadata) if metadata.is_dir() => {
                        capture::discover_below(&loader.root, &path, &loader.passed_over)
                    }
                    _ => vec![path],
                })
                .collect();
            files
                .par_iter()
                .for_each(|path| loader.load_file(path, &options, true));
        });
    }

    /// Extract these captures again, for generation `generation`.
    pub(crate) fn extract(
        &self,
        generation: u64,
        captures: Vec<(EntryId, Arc<Capture>)>,
        options: Options,
    ) {
        self.generation.store(generation, Ordering::SeqCst);
        let loader = self.clone();
        let checker = self.checker.with_options(options);
        thread::spawn(move || {
            captures.par_chunks(EXTRACT_CHUNK).for_each(|chunk| {
                if loader.generation.load(Ordering::SeqCst) != generation {
                    return;
                }
                let outcomes = chunk
                    .iter()
                    .map(|(id, capture)| (*id, checker.outcome(capture)))
                    .collect();
                loader.send(Action::Extracted {
                    generation,
                    outcomes,
                });
            });
        });
    }

    /// Write fixtures into `dir`, each unless its input is a fixture there already.
    pub fn save_fixtures(&self, dir: PathBuf, fixtures: Vec<(EntryId, Fixture)>) {
        let loader = self.clone();
        thread::spawn(move || {
            let mut existing = fixture_inputs(&dir);
            let results = fixtures
                .into_iter()
                .map(|(id, fixture)| {
                    let key = fixture.input_key().into_owned();
                    let hash = fixture::input_hash(&key);
                    let known = existing.get(&hash).filter(|(_, input)| *input == key);
                    let saved = match known {
                        Some((path, _)) => Saved::Existing(path.clone()),
                        None => match fixture::save(&dir, &fixture) {
                            Ok(path) => {
                                existing.insert(hash, (path.clone(), key));
                                Saved::New(path)
                            }
                            Err(error) => Saved::Failed(error.to_string()),
                        },
                    };
                    (id, saved)
                })
                .collect();
            loader.send(Action::SaveDone { results });
        });
    }

    /// Find the inputs the fixtures folder holds, so their captures show as saved.
    pub(crate) fn index_fixtures(&self, dir: PathBuf) {
        let loader = self.clone();
        thread::spawn(move || {
            loader.send(fixtures_found(&dir));
        });
    }

    /// Read and extract one file, sent in parts of [`LOAD_CHUNK`] captures when it has more.
    fn load_file(&self, path: &Path, options: &Options, hold_partial: bool) {
        let lock = self.file_lock(path);
        let _reading = lock.lock().unwrap_or_else(PoisonError::into_inner);
        if !path.exists() && !path.is_symlink() {
            self.send(Action::FileLoaded {
                path: path.to_path_buf(),
                captures: Vec::new(),
                options: options.clone(),
            });
            return;
        }
        let mut records = capture::file_records(path, &self.root, &self.load).peekable();
        // Read once for the file: the request `jxray record` wrote beside it, if any.
        let request = RecordedRequest::shared_beside(path);
        let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let mut first = true;
        let checker = self.checker.with_options(options.clone());
        loop {
            let mut chunk: Vec<Capture> = records.by_ref().take(LOAD_CHUNK).collect();
            let last = records.peek().is_none();
            if last && hold_partial {
                partial_line::hold_back(path, &mut chunk);
            }
            let captures = chunk
                .into_par_iter()
                .map(|capture| {
                    let capture = asked_of(capture, request.as_deref(), &checker);
                    Loaded {
                        outcome: checker.outcome(&capture),
                        capture,
                        request: request.clone(),
                        modified,
                    }
                })
                .collect();
            let path = path.to_path_buf();
            let options = options.clone();
            self.send(match (first, last) {
                (true, true) => Action::FileLoaded {
                    path,
                    captures,
                    options,
                },
                _ => Action::FilePart {
                    expected: if first { expected_lines(&path) } else { 0 },
                    path,
                    captures,
                    options,
                    first,
                    last,
                    permit: self.pacer.permit(),
                },
            });
            if last {
                return;
            }
            first = false;
        }
    }

    fn file_lock(&self, path: &Path) -> Arc<Mutex<()>> {
        let mut locks = self.reading.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(locks.entry(path.to_path_buf()).or_default())
    }

    fn send(&self, action: Action) {
        // A closed channel means the app is quitting; the work is simply dropped.
        let _ = self.events.send(Event::Action(action));
    }
}

/// Room made at most in advance: a wrong guess must not reserve gigabytes.
const EXPECTED_MAX: usize = 2_000_000;

/// About how many lines a file holds, from its size and the lines in its first 64 KiB
/// (0 when that cannot be read): the list makes room once instead of growing by doubling,
/// which at a million entries moves 100 MB on the UI thread.
fn expected_lines(path: &Path) -> usize {
    use std::io::Read;
    let sample = |file: std::fs::File| -> std::io::Result<(u64, usize, usize)> {
        let size = file.metadata()?.len();
        let mut head = Vec::with_capacity(64 * 1024);
        file.take(64 * 1024).read_to_end(&mut head)?;
        let lines = head.iter().filter(|&&byte| byte == b'\n').count();
        Ok((size, head.len(), lines))
    };
    match std::fs::File::open(path).and_then(sample) {
        Ok((size, read, lines)) if read > 0 => {
            let estimate = size.saturating_mul(lines as u64) / read as u64;
            usize::try_from(estimate)
                .unwrap_or(usize::MAX)
                .min(EXPECTED_MAX)
        }
        _ => 0,
    }
}

/// What the fixtures folder holds now: each fixture's input by hash, and every name in
/// it (the work of [`Effect::IndexFixtures`](super::Effect::IndexFixtures)).
pub fn fixtures_found(dir: &Path) -> Action {
    let inputs: HashMap<u64, PathBuf> = fixture_inputs(dir)
        .into_iter()
        .map(|(hash, (path, _))| (hash, path))
        .collect();
    let names = fixture::TakenNames::in_dir(dir);
    Action::FixturesFound { inputs, names }
}

/// Every readable fixture's input in `dir`, by hash. Broken fixture files are
/// `jxray test`'s to report; here they are only not recognised.
fn fixture_inputs(dir: &Path) -> HashMap<u64, (PathBuf, String)> {
    if !dir.is_dir() {
        return HashMap::new();
    }
    fixture::load_dir(dir)
        .into_iter()
        .filter_map(Result::ok)
        .map(|(path, fixture)| {
            let key = fixture.input_key().into_owned();
            (fixture::input_hash(&key), (path, key))
        })
        .collect()
}

/// A capture with the schema its request asked for, unless it carries one or `--schema`
/// was given (contract §2).
pub(crate) fn asked_of(
    mut capture: Capture,
    request: Option<&RecordedRequest>,
    checker: &Checker,
) -> Capture {
    if checker.schema().is_none() {
        capture.ask_schema_of(request.map(|request| &request.asked));
    }
    capture
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_of_a_file_are_guessed_from_its_size_and_its_head() {
        let temp = tempfile::tempdir().unwrap();
        let small = temp.path().join("small.jsonl");
        std::fs::write(&small, "{}\n".repeat(10_000)).unwrap();
        assert_eq!(expected_lines(&small), 10_000);
        let big = temp.path().join("big.jsonl");
        std::fs::write(&big, "{}\n".repeat(200_000)).unwrap();
        let guess = expected_lines(&big);
        assert!((199_000..=200_000).contains(&guess), "{guess}");
        let huge = temp.path().join("huge.jsonl");
        std::fs::write(&huge, "\n".repeat(3_000_000)).unwrap();
        assert_eq!(expected_lines(&huge), EXPECTED_MAX);
        assert_eq!(expected_lines(&temp.path().join("missing.jsonl")), 0);
    }
}
