//! `jxray record`: start the recording proxy (`jxray-record`), print the lines to paste,
//! and serve until stopped; with `--tui`, open the watching workbench on the capture
//! folder in the same process.

mod chains;

use chains::RecordChains;

use std::collections::VecDeque;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::record_stop::{StopWatches, PROXY_SIGNALS};
use crate::text::escape_line;
use crate::tui::action::ProxyNote;
use crate::tui::recording::{Feed, Recording};
use jxray_record::{CallEnd, Limits, Log, ProxySettings, Route, Routes, Running, Timeouts};

use super::USAGE_ERROR;
use crate::cli::{Cli, RecordArgs};

/// Start the proxy; a bad flag, a taken port or an unusable folder is one line and exit 2.
pub(super) fn run(args: &RecordArgs) -> u8 {
    let mut settings = match settings(args) {
        Ok(settings) => settings,
        Err(error) => return usage_error(&error),
    };
    match super::common::stop_signals(&args.stop_on, &PROXY_SIGNALS) {
        // Beside the workbench streams are watched, for it to show the calls in flight.
        Ok(kinds) if kinds.is_empty() && !args.tui => {}
        Ok(kinds) => settings.watches = Some(Arc::new(StopWatches::new(kinds))),
        Err(error) => return usage_error(&error),
    }
    if !settings.listen.ip().to_canonical().is_loopback() {
        eprintln!(
            "jxray record: warning: listening on {}: anyone who can reach it can call your upstreams with the keys your app sends, and fill the capture folder",
            settings.listen
        );
    }
    let feed = Feed::default();
    let held = Arc::new(HeldLog {
        lines: Mutex::default(),
        not_kept: Mutex::default(),
        calls: AtomicUsize::new(0),
        not_kept_count: AtomicUsize::new(0),
        stopped_count: AtomicUsize::new(0),
        feed: feed.clone(),
    });
    let log: Arc<dyn Log> = if args.tui {
        held.clone()
    } else {
        Arc::new(StderrLog)
    };
    // Catch the stop signals before the banner says "listening": a script that sends
    // SIGTERM as soon as it reads that line must get the clean stop, never the default death.
    let stop = (!args.tui).then(StopSignals::catch);
    let running = match Running::start(settings.clone(), log) {
        Ok(running) => running,
        Err(error) => return usage_error(&error),
    };
    let recording = Recording::new(running.addr(), &settings.routes, &args.to, feed);
    print_banner(&recording, args.tui);
    if let Some(stop) = stop {
        let signal = stop.wait();
        eprintln!("jxray record: stopping: no new calls; writing the captures of calls in flight as far as they arrived");
        let stopped = running.stop();
        if stopped.unwritten > 0 {
            eprintln!(
                "jxray record: {} capture(s) still not written after {} s: stopped without them",
                stopped.unwritten,
                jxray_record::STOP_GRACE.as_secs()
            );
        }
        return 128 + signal;
    }
    let cli = Cli {
        command: None,
        path: args.to.clone(),
        watch: true,
        ui: args.ui.clone(),
        extraction: args.extraction.clone(),
    };
    let code = super::tui::run_beside(&cli, Some(recording));
    drop(running);
    held.print(args.print_log);
    code
}

fn usage_error(error: &dyn std::fmt::Display) -> u8 {
    eprintln!("jxray record: {}", escape_line(&error.to_string()));
    USAGE_ERROR
}

/// The proxy's settings from the flags.
fn settings(args: &RecordArgs) -> Result<ProxySettings, jxray_record::RecordError> {
    let extra = args
        .upstream
        .iter()
        .map(|spec| Route::parse(spec))
        .collect::<Result<Vec<_>, _>>()?;
    let ip = args.listen.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    Ok(ProxySettings {
        listen: SocketAddr::new(ip, args.port),
        to: args.to.clone(),
        routes: Routes::with(extra),
        // The flags' ranges (at most `Limits::MAX`) fit any 64-bit usize.
        limits: Limits {
            request_bytes: usize::try_from(args.max_request_bytes).unwrap_or(Limits::MAX),
            response_bytes: usize::try_from(args.max_response_bytes).unwrap_or(Limits::MAX),
            memory_bytes: usize::try_from(args.max_memory_bytes).unwrap_or(Limits::MAX),
        },
        timeouts: Timeouts {
            connect: Duration::from_secs(args.connect_timeout),
            idle: Duration::from_secs(args.idle_timeout),
        },
        chains: Some(Arc::new(RecordChains::default())),
        watches: None,
    })
}

/// What the user needs at start: where it listens, where captures go, what to paste
/// (the workbench's recording panel shows the same `recording`).
fn print_banner(recording: &Recording, tui: bool) {
    let folder = &recording.folder;
    let mut text = format!(
        "jxray record: listening on {}, saving captures under {folder}\n\
         Point your app here (paste in its terminal, or set in its code):\n",
        recording.address
    );
    for line in &recording.env_lines {
        text.push_str(&format!("  {line}\n"));
    }
    text.push_str(&format!("Routes: {}\n", recording.routes.join("; ")));
    if !tui {
        text.push_str(&format!(
            "Watch them arrive: jxray --watch {folder}    (Ctrl-C stops recording)\n"
        ));
    }
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// The signals that stop the proxy cleanly, caught from [`StopSignals::catch`] on, for
/// [`StopSignals::wait`]: SIGINT and SIGTERM on Unix, Ctrl-C and Ctrl-Break on Windows.
struct StopSignals {
    #[cfg(unix)]
    signals: Option<signal_hook::iterator::Signals>,
    #[cfg(windows)]
    events: Option<ConsoleEvents>,
}

impl StopSignals {
    #[cfg(unix)]
    fn catch() -> Self {
        use signal_hook::consts::{SIGINT, SIGTERM};
        // Without a handler the default action (ending the process) still stops the proxy.
        let signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]).ok();
        Self { signals }
    }

    /// Without a handler Windows' default (ending the process) still stops the proxy.
    #[cfg(windows)]
    fn catch() -> Self {
        Self {
            events: ConsoleEvents::catch(),
        }
    }

    #[cfg(not(any(unix, windows)))]
    fn catch() -> Self {
        Self {}
    }

    /// Block until SIGINT or SIGTERM; its number. A second signal ends the process at once.
    #[cfg(unix)]
    fn wait(self) -> u8 {
        let Some(mut signals) = self.signals else {
            loop {
                std::thread::park();
            }
        };
        let first = signals
            .forever()
            .next()
            .unwrap_or(signal_hook::consts::SIGTERM);
        std::thread::spawn(move || {
            if let Some(second) = signals.forever().next() {
                std::process::exit(128 + second);
            }
        });
        u8::try_from(first).unwrap_or(15)
    }

    /// Block until Ctrl-C or Ctrl-Break; the C runtime's number for it (SIGINT, SIGBREAK),
    /// so the exit status is Unix's. A second one ends the process at once.
    #[cfg(windows)]
    fn wait(self) -> u8 {
        let Some(mut events) = self.events else {
            loop {
                std::thread::park();
            }
        };
        let first = events.next();
        std::thread::spawn(move || std::process::exit(128 + i32::from(events.next())));
        first
    }

    #[cfg(not(any(unix, windows)))]
    fn wait(self) -> u8 {
        loop {
            std::thread::park();
        }
    }
}

/// The console's Ctrl-C and Ctrl-Break, through a console control handler (tokio's): while
/// they are listened for, neither ends the process.
#[cfg(windows)]
struct ConsoleEvents {
    runtime: tokio::runtime::Runtime,
    ctrl_c: tokio::signal::windows::CtrlC,
    ctrl_break: tokio::signal::windows::CtrlBreak,
}

#[cfg(windows)]
impl ConsoleEvents {
    fn catch() -> Option<Self> {
        let runtime = tokio::runtime::Builder::new_current_thread().build().ok()?;
        let (ctrl_c, ctrl_break) = {
            let _context = runtime.enter();
            let ctrl_c = tokio::signal::windows::ctrl_c().ok()?;
            (ctrl_c, tokio::signal::windows::ctrl_break().ok()?)
        };
        Some(Self {
            runtime,
            ctrl_c,
            ctrl_break,
        })
    }

    /// The next event: 2 for Ctrl-C (SIGINT), 21 for Ctrl-Break (SIGBREAK).
    fn next(&mut self) -> u8 {
        let Self {
            runtime,
            ctrl_c,
            ctrl_break,
        } = self;
        runtime.block_on(async {
            tokio::select! {
                _ = ctrl_c.recv() => 2,
                _ = ctrl_break.recv() => 21,
            }
        })
    }
}

/// The proxy's lines on standard error, escaped: a model name or path from a request
/// must not act on the terminal.
struct StderrLog;

impl Log for StderrLog {
    fn line(&self, line: &str) {
        eprintln!("jxray record: {}", escape_line(line));
    }
}

/// With `--tui` the screen belongs to the workbench: the proxy's lines go to it (its
/// log overlay and footer), and are held (the latest [`HELD_LINES`]) for when it closes:
/// then a summary and the calls not kept are printed, the whole log with `--print-log`.
struct HeldLog {
    lines: Mutex<VecDeque<String>>,
    /// The lines of calls not kept (the latest [`HELD_NOT_KEPT`]): why matters afterwards.
    not_kept: Mutex<VecDeque<String>>,
    calls: AtomicUsize,
    not_kept_count: AtomicUsize,
    /// Calls whose stream `--stop-on` ended early.
    stopped_count: AtomicUsize,
    feed: Feed,
}

const HELD_LINES: usize = 200;
const HELD_NOT_KEPT: usize = 5;

impl HeldLog {
    /// Keep the line (escaped) for the end; the escaped line.
    fn hold(&self, line: &str) -> String {
        let line = escape_line(line).into_owned();
        push_bounded(&self.lines, line.clone(), HELD_LINES);
        line
    }

    /// What the workbench leaves on the normal screen: one summary line and the reasons
    /// calls were not kept, or (`whole`) every line held.
    fn print(&self, whole: bool) {
        let held = |lines: &Mutex<VecDeque<String>>| -> Vec<String> {
            let lines = lines
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            lines.iter().cloned().collect()
        };
        if whole {
            for line in held(&self.lines) {
                eprintln!("jxray record: {line}");
            }
            return;
        }
        let not_kept = held(&self.not_kept);
        let calls = self.calls.load(Ordering::Relaxed);
        let lost = self.not_kept_count.load(Ordering::Relaxed);
        let stopped = match self.stopped_count.load(Ordering::Relaxed) {
            0 => String::new(),
            stopped => format!(" ({stopped} stopped early by --stop-on)"),
        };
        eprintln!(
            "jxray record: {calls} call{} through the proxy, {} recorded{stopped}, {lost} not kept{}",
            if calls == 1 { "" } else { "s" },
            calls - lost,
            if calls > 0 {
                "; the whole log: --print-log"
            } else {
                ""
            }
        );
        for line in not_kept {
            eprintln!("jxray record: {line}");
        }
    }
}

fn push_bounded(lines: &Mutex<VecDeque<String>>, line: String, most: usize) {
    let mut lines = lines
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if lines.len() == most {
        lines.pop_front();
    }
    lines.push_back(line);
}

impl Log for HeldLog {
    fn line(&self, line: &str) {
        let line = self.hold(line);
        self.feed.send(ProxyNote::Line(line));
    }

    fn call(&self, end: CallEnd, line: &str) {
        let line = self.hold(line);
        self.calls.fetch_add(1, Ordering::Relaxed);
        if end == CallEnd::NotKept {
            self.not_kept_count.fetch_add(1, Ordering::Relaxed);
            push_bounded(&self.not_kept, line.clone(), HELD_NOT_KEPT);
        }
        if end == CallEnd::Stopped {
            self.stopped_count.fetch_add(1, Ordering::Relaxed);
        }
        self.feed.send(match end {
            CallEnd::Kept => ProxyNote::Kept(line),
            CallEnd::Stopped => ProxyNote::Stopped(line),
            CallEnd::NotKept => ProxyNote::NotKept(line),
        });
    }

    fn in_flight(&self, call: u64, line: Option<&str>) {
        let line = line.map(|line| escape_line(line).into_owned());
        self.feed.send(ProxyNote::InFlight { call, line });
    }
}
