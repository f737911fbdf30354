//! The event loop: wait for events, apply them, perform effects, draw once.
//!
//! Nothing is drawn on a timer: the loop blocks until something happens, so an
//! idle screen uses no CPU. A burst of results from the background is applied
//! as a whole and drawn at most once per frame interval.

use std::io;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::{Duration, Instant};

use crossterm::event::{Event as Input, KeyCode, KeyModifiers, MouseEventKind};
use ratatui::layout::Rect;

use crate::capture::LoadOptions;
use crate::engine::Options;
use crate::watch::{WatchEvent, WatchOptions, Watcher};

use super::action::{Action, Edit, Effect, Mouse, WatchControl};
use super::app::{update, App, TuiSettings};
use super::builder::Builder;
use super::event::{
    ended_by_signal, spawn_input, spawn_signals, stop_until_continued, Event, InputControl,
};
use super::keys::{action_for, KeyMode};
use super::loader::Loader;
use super::terminal::TerminalGuard;
use super::theme::Theme;
use super::{editor, ui};
use crate::mix::Mix;

/// Draw at most this often while results pour in.
const FRAME: Duration = Duration::from_millis(16);

/// What the user is told on the normal screen after leaving.
#[derive(Debug, Clone)]
pub(crate) struct SessionSummary {
    pub(crate) mix: Mix,
    pub(crate) saved: Vec<std::path::PathBuf>,
    pub(crate) lenient: bool,
    /// The signal that ended the session (SIGINT, SIGTERM, …), for the exit status.
    pub(crate) signal: Option<i32>,
}

/// Run the workbench until the user quits.
pub(crate) fn run(
    settings: TuiSettings,
    theme: Theme,
    options: Options,
    load: LoadOptions,
) -> io::Result<SessionSummary> {
    let mut guard = TerminalGuard::enter(settings.mouse)?;
    let size = guard.terminal.size()?;
    let (events, inbox) = mpsc::channel();
    if let Some(recording) = &settings.recording {
        // The proxy's notes arrive as actions, like every other producer's.
        recording.feed.connect(events.clone());
    }
    let input = spawn_input(events.clone());
    spawn_signals(events.clone());
    let fixtures = settings.fixtures.clone();
    let area = Rect::new(0, 0, size.width, size.height);
    let mut app = App::new(settings, theme, options, area);
    let loader = Loader::new(
        app.settings.root.clone(),
        load,
        events.clone(),
        app.checker().clone(),
    )
    .passing_over(fixtures);
    if theme.color {
        // Syntax colours load off this thread; the first frames are drawn plain.
        app.highlight.enabled = true;
        let ready = events.clone();
        super::highlight::warm(move || {
            let _ = ready.send(Event::Action(Action::SyntaxesLoaded));
        });
    }
    let mut session = Session {
        guard: &mut guard,
        loader,
        builder: Builder::start(events.clone()),
        input,
        events,
        watcher: None,
    };
    for effect in app.start() {
        session.perform(&mut app, effect);
    }
    session.event_loop(&mut app, &inbox)?;
    drop(session);
    drop(guard);
    Ok(SessionSummary {
        mix: app.entries.mix_all.clone(),
        saved: app.saved_paths.clone(),
        lenient: app.options.accept_lenient,
        signal: ended_by_signal(),
    })
}

struct Session<'a> {
    guard: &'a mut TerminalGuard,
    loader: Loader,
    builder: Builder,
    input: InputControl,
    /// For producers started later (the watcher).
    events: Sender<Event>,
    watcher: Option<Watcher>,
}

impl Session<'_> {
    fn event_loop(&mut self, app: &mut App, inbox: &Receiver<Event>) -> io::Result<()> {
        self.settle(app);
        self.draw(app)?;
        let mut last_draw = Instant::now();
        while !app.quit {
            let Ok(event) = inbox.recv() else {
                break;
            };
            let mut from_user = matches!(event, Event::Input(_));
            self.handle(app, event);
            // Take everything already queued; while only background results
            // arrive, keep taking them until the frame is due.
            loop {
                let next = if from_user {
                    inbox.try_recv().map_err(|e| match e {
                        TryRecvError::Empty => RecvTimeoutError::Timeout,
                        TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
                    })
                } else {
                    let due = (last_draw + FRAME).saturating_duration_since(Instant::now());
                    inbox.recv_timeout(due)
                };
                match next {
                    Ok(event) => {
                        from_user |= matches!(event, Event::Input(_));
                        self.handle(app, event);
                    }
                    Err(_) => break,
                }
                if app.quit {
                    break;
                }
            }
            if app.quit {
                break;
            }
            self.settle(app);
            self.draw(app)?;
            last_draw = Instant::now();
        }
        Ok(())
    }

    /// Bring the app up to date before a frame, and perform what settling asked for (the
    /// panes of a big capture to build).
    fn settle(&mut self, app: &mut App) {
        for effect in app.frame_effects() {
            self.perform(app, effect);
        }
    }

    fn draw(&mut self, app: &App) -> io::Result<()> {
        self.guard.terminal.draw(|frame| ui::render(app, frame))?;
        Ok(())
    }

    fn handle(&mut self, app: &mut App, event: Event) {
        if is_suspend(&event) {
            self.suspend(app);
            return;
        }
        for action in actions(app, event) {
            for effect in update(app, action) {
                self.perform(app, effect);
            }
        }
    }

    fn perform(&mut self, app: &mut App, effect: Effect) {
        match effect {
            Effect::LoadAll { options, known } => self.loader.load_all(options, known),
            Effect::Reload { paths, options } => self.loader.reload(paths, options),
            Effect::Extract {
                generation,
                captures,
                options,
            } => self.loader.extract(generation, captures, options),
            Effect::SaveFixtures { dir, fixtures } => self.loader.save_fixtures(dir, fixtures),
            Effect::IndexFixtures { dir } => self.loader.index_fixtures(dir),
            Effect::Watch(control) => self.watch(app, control),
            Effect::BuildDetail(job) => self.builder.request(*job),
            Effect::Copy(text) => {
                let copy = crossterm::clipboard::CopyToClipboard::to_clipboard_from(text);
                if let Err(error) = crossterm::execute!(io::stdout(), copy) {
                    self.notice(app, format!("could not copy: {error}"), true);
                }
            }
            Effect::Edit { path, line } => {
                let editor = app.settings.editor.clone();
                let Some(mut command) = editor::command(editor.as_deref(), &path, line) else {
                    return;
                };
                let (status, resumed) = self.away_from_screen(app, || command.status());
                match (status, resumed) {
                    (_, Err(error)) => {
                        self.notice(app, format!("could not restore the screen: {error}"), true)
                    }
                    (Err(error), _) => {
                        let name = editor.unwrap_or_else(|| "vi".to_string());
                        let text =
                            format!("could not start the editor `{name}`: {error}; set $EDITOR");
                        self.notice(app, text, true);
                    }
                    (Ok(_), Ok(())) => self.apply(app, Action::FilesChanged(vec![path])),
                }
            }
        }
    }

    /// Give the terminal back (input paused, normal screen), run `away`, take it back and
    /// redraw at the size it has now.
    fn away_from_screen<T>(
        &mut self,
        app: &mut App,
        away: impl FnOnce() -> T,
    ) -> (T, io::Result<()>) {
        self.input.pause();
        self.guard.suspend();
        let result = away();
        let resumed = self.guard.resume();
        self.input.resume();
        if let Ok(size) = self.guard.terminal.size() {
            self.apply(
                app,
                Action::Resize {
                    width: size.width,
                    height: size.height,
                },
            );
        }
        (result, resumed)
    }

    /// Ctrl-Z: the shell's prompt on a restored terminal; `fg` brings the screen back.
    fn suspend(&mut self, app: &mut App) {
        let ((), resumed) = self.away_from_screen(app, stop_until_continued);
        if let Err(error) = resumed {
            self.notice(app, format!("could not restore the screen: {error}"), true);
        }
    }

    fn watch(&mut self, app: &mut App, control: WatchControl) {
        match control {
            WatchControl::Start => {
                let options = WatchOptions {
                    ignore_folders: vec![app.settings.fixtures.clone()],
                    ..WatchOptions::default()
                };
                let started =
                    Watcher::start(&app.settings.root, options, self.events.clone(), |event| {
                        Event::Action(Action::Watch(event))
                    });
                match started {
                    Ok(watcher) => {
                        let status = watcher.status();
                        self.watcher = Some(watcher);
                        self.apply(app, Action::Watch(WatchEvent::Status(status)));
                    }
                    Err(error) => {
                        self.apply(app, Action::Command(crate::tui::Command::ToggleWatch));
                        self.notice(app, error.to_string(), true);
                    }
                }
            }
            // Dropping the watcher stops its thread and the platform watch.
            WatchControl::Stop => self.watcher = None,
            WatchControl::Pause => {
                if let Some(watcher) = &self.watcher {
                    watcher.pause();
                }
            }
            WatchControl::Resume => {
                if let Some(watcher) = &self.watcher {
                    watcher.resume();
                }
            }
        }
    }

    fn apply(&mut self, app: &mut App, action: Action) {
        for effect in update(app, action) {
            self.perform(app, effect);
        }
    }

    fn notice(&mut self, app: &mut App, text: String, error: bool) {
        self.apply(app, Action::Notice { text, error });
    }
}

/// Ctrl-Z (raw mode delivers it as a key, not as SIGTSTP) or a SIGTSTP from outside.
fn is_suspend(event: &Event) -> bool {
    match event {
        Event::Suspend => true,
        Event::Input(Input::Key(key)) => {
            key.code == KeyCode::Char('z') && key.modifiers.contains(KeyModifiers::CONTROL)
        }
        _ => false,
    }
}

/// What a terminal event means now, in the app's current mode.
fn actions(app: &App, event: Event) -> Vec<Action> {
    match event {
        Event::Action(action) => vec![action],
        Event::Input(Input::Key(key)) => action_for(app.mode(), &key).into_iter().collect(),
        Event::Input(Input::Resize(width, height)) => vec![Action::Resize { width, height }],
        Event::Input(Input::Paste(text)) if app.mode() == KeyMode::Prompt => text
            .chars()
            .filter(|ch| !ch.is_control())
            .map(|ch| Action::Edit(Edit::Insert(ch)))
            .collect(),
        Event::Input(Input::Mouse(mouse)) if app.settings.mouse => {
            let (column, row) = (mouse.column, mouse.row);
            let gesture = match mouse.kind {
                MouseEventKind::ScrollDown => Some(Mouse::ScrollDown { column, row }),
                MouseEventKind::ScrollUp => Some(Mouse::ScrollUp { column, row }),
                MouseEventKind::Down(_) => Some(Mouse::Click { column, row }),
                _ => None,
            };
            gesture.map(Action::Mouse).into_iter().collect()
        }
        Event::Input(_) | Event::Suspend => Vec::new(),
    }
}
