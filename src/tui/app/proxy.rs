//! The recording proxy as the workbench sees it (`jxray record --tui`): the calls counted,
//! why the last one not kept was not, its log lines; the panel that says where to point
//! the app (`a`, open at start until the first call) and the log overlay (`L`).

use std::collections::VecDeque;

use crate::tui::action::{Command, Effect, ProxyNote};
use crate::tui::help::HelpLine;
use crate::tui::layout::{help_area, inner};

use super::navigate::moved;
use super::{App, Overlay};

/// How many of the proxy's lines the log overlay keeps (the newest).
pub(super) const LOG_LINES: usize = 500;

/// What the proxy said so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ProxyState {
    /// Calls that ended, kept or not.
    pub(crate) calls: usize,
    pub(crate) not_kept: usize,
    /// Calls whose stream `--stop-on` ended early.
    pub(crate) stopped: usize,
    /// The streamed calls in flight, by number: where each stands.
    pub(crate) in_flight: std::collections::BTreeMap<u64, String>,
    /// Why the last call not kept was not.
    pub(crate) last_not_kept: Option<String>,
    /// Its log lines, oldest first.
    pub(crate) log: VecDeque<String>,
}

impl ProxyState {
    fn note(&mut self, note: ProxyNote) {
        let line = match note {
            ProxyNote::Kept(line) => {
                self.calls += 1;
                line
            }
            ProxyNote::Stopped(line) => {
                self.calls += 1;
                self.stopped += 1;
                line
            }
            ProxyNote::NotKept(line) => {
                self.calls += 1;
                self.not_kept += 1;
                self.last_not_kept = Some(line.clone());
                line
            }
            ProxyNote::Line(line) => line,
            ProxyNote::InFlight { call, line } => {
                match line {
                    Some(line) => self.in_flight.insert(call, line),
                    None => self.in_flight.remove(&call),
                };
                return;
            }
        };
        if self.log.len() == LOG_LINES {
            self.log.pop_front();
        }
        self.log.push_back(line);
    }

    /// The log overlay's lines: the streamed calls in flight, the last reason a call was
    /// not kept, then the log.
    pub(crate) fn log_lines(&self) -> Vec<HelpLine> {
        let mut lines = Vec::new();
        if !self.in_flight.is_empty() {
            lines.push(HelpLine::Heading("Streams in flight"));
            lines.extend(self.in_flight.values().cloned().map(HelpLine::Text));
            lines.push(HelpLine::Blank);
        }
        if let Some(reason) = &self.last_not_kept {
            lines.push(HelpLine::Heading("Last call not kept"));
            lines.push(HelpLine::Text(reason.clone()));
            lines.push(HelpLine::Blank);
        }
        lines.push(HelpLine::Heading("The proxy's log, newest last"));
        if self.log.is_empty() {
            let nothing = match self.in_flight.is_empty() {
                true => "nothing yet: no call has come through",
                false => "nothing yet: no call has ended",
            };
            lines.push(HelpLine::Text(nothing.into()));
        }
        lines.extend(self.log.iter().cloned().map(HelpLine::Text));
        lines
    }
}

/// A note from the proxy; the first call closes the panel that was open at start.
pub(super) fn note(app: &mut App, note: ProxyNote) {
    let call = !matches!(note, ProxyNote::Line(_));
    app.proxy.note(note);
    if call && matches!(app.overlay, Overlay::Recording { auto: true, .. }) {
        app.overlay = Overlay::None;
    }
}

/// `a`: the panel of lines to point an app with.
pub(super) fn open_panel(app: &mut App) {
    if app.settings.recording.is_some() {
        app.overlay = Overlay::Recording {
            cursor: 0,
            auto: false,
        };
    } else {
        app.warn(NO_PROXY);
    }
}

/// `L`: the proxy's log, scrolled to its end.
pub(super) fn open_log(app: &mut App) {
    if app.settings.recording.is_some() {
        let (_, last) = log_extent(app);
        app.overlay = Overlay::ProxyLog { scroll: last };
    } else {
        app.warn(NO_PROXY);
    }
}

const NO_PROXY: &str = "no proxy runs here: `jxray record --tui` records calls and watches them";

/// Keys in the panel: choose a line, copy it, close.
pub(super) fn panel_command(app: &mut App, cursor: usize, command: Command) -> Vec<Effect> {
    let lines = app
        .settings
        .recording
        .as_ref()
        .map_or(Vec::new(), |recording| recording.env_lines.clone());
    match command {
        Command::Back => app.overlay = Overlay::None,
        Command::Copy | Command::Confirm => {
            let Some(line) = lines.get(cursor) else {
                return Vec::new();
            };
            let text = crate::tui::recording::to_paste(line).to_string();
            app.say(format!(
                "copied `{text}` with OSC 52; the terminal must allow clipboard access"
            ));
            return vec![Effect::Copy(text)];
        }
        movement => {
            let last = lines.len().saturating_sub(1);
            let cursor = moved(movement, cursor, last, lines.len());
            app.overlay = Overlay::Recording {
                cursor,
                auto: false,
            };
        }
    }
    Vec::new()
}

/// Keys in the log overlay: scroll, close.
pub(super) fn log_command(app: &mut App, scroll: usize, command: Command) {
    match command {
        Command::Back => app.overlay = Overlay::None,
        movement => {
            let (height, last) = log_extent(app);
            let scroll = moved(movement, scroll, last, height);
            app.overlay = Overlay::ProxyLog { scroll };
        }
    }
}

/// The log overlay's page height and last scroll position.
fn log_extent(app: &App) -> (usize, usize) {
    let height = usize::from(inner(help_area(app.area)).height);
    let lines = app.proxy.log_lines().len();
    (height, lines.saturating_sub(height))
}
