//! One channel, many producers: terminal input, background loading and
//! extraction, signals (and a file watcher) all send [`Event`]s into it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use crossterm::event;

use super::action::Action;

/// Something for the event loop.
#[derive(Debug)]
pub enum Event {
    /// Raw terminal input; keys are mapped to actions when handled, in the mode of that moment.
    Input(event::Event),
    /// Anything else, already an action.
    Action(Action),
}

/// How often the input thread looks up from waiting for a key to see whether
/// it must pause. Only that flag is checked: nothing is drawn, so an idle
/// screen costs no measurable CPU.
const INPUT_POLL: Duration = Duration::from_millis(200);

/// Lets the event loop stop the input thread from reading while an editor owns the terminal.
pub struct InputControl {
    pause: Arc<AtomicBool>,
    paused: Receiver<()>,
    resume: Sender<()>,
}

impl InputControl {
    /// Wait until the input thread no longer reads the terminal.
    pub fn pause(&self) {
        self.pause.store(true, Ordering::SeqCst);
        let _ = self.paused.recv_timeout(INPUT_POLL * 5);
    }

    pub fn resume(&self) {
        self.pause.store(false, Ordering::SeqCst);
        let _ = self.resume.send(());
    }
}

/// Read terminal input on a thread of its own. Only key presses are sent
/// (Windows also reports releases and repeats).
pub fn spawn_input(events: Sender<Event>) -> InputControl {
    let pause = Arc::new(AtomicBool::new(false));
    let (paused_tx, paused) = mpsc::channel();
    let (resume, resume_rx) = mpsc::channel::<()>();
    let flag = Arc::clone(&pause);
    thread::spawn(move || loop {
        if flag.load(Ordering::SeqCst) {
            let _ = paused_tx.send(());
            if resume_rx.recv().is_err() {
                return;
            }
            continue;
        }
        match event::poll(INPUT_POLL) {
            Ok(false) => {}
            Ok(true) => match event::read() {
                Ok(event::Event::Key(key)) if key.kind != event::KeyEventKind::Press => {}
                Ok(input) => {
                    if events.send(Event::Input(input)).is_err() {
                        return;
                    }
                }
                Err(_) => return terminal_gone(&events),
            },
            Err(_) => return terminal_gone(&events),
        }
    });
    InputControl {
        pause,
        paused,
        resume,
    }
}

/// The terminal cannot be read any more: leave rather than sit deaf.
fn terminal_gone(events: &Sender<Event>) {
    let _ = events.send(Event::Action(Action::Terminate));
}

/// Turn SIGTERM, SIGHUP, SIGINT and SIGQUIT into a clean exit that restores the terminal.
#[cfg(unix)]
pub fn spawn_signals(events: Sender<Event>) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    use signal_hook::iterator::Signals;
    let Ok(mut signals) = Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT]) else {
        return;
    };
    thread::spawn(move || {
        for _ in signals.forever() {
            if events.send(Event::Action(Action::Terminate)).is_err() {
                return;
            }
        }
    });
}

#[cfg(not(unix))]
pub fn spawn_signals(_events: Sender<Event>) {}
