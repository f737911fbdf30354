//! One channel, many producers: terminal input, background loading and
//! extraction, signals (and a file watcher) all send [`Event`]s into it.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
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
    /// Hand the terminal back to the shell and stop, as Ctrl-Z does (`kill -TSTP`).
    Suspend,
}

/// How often the input thread looks up from waiting for a key to see whether
/// it must pause. Only that flag is checked: nothing is drawn, so an idle
/// screen costs no measurable CPU.
const INPUT_POLL: Duration = Duration::from_millis(200);

/// Lets the event loop stop the input thread from reading while an editor owns the terminal.
pub(crate) struct InputControl {
    pause: Arc<AtomicBool>,
    paused: Receiver<()>,
    resume: Sender<()>,
}

impl InputControl {
    /// Wait until the input thread no longer reads the terminal.
    pub(crate) fn pause(&self) {
        self.pause.store(true, Ordering::SeqCst);
        let _ = self.paused.recv_timeout(INPUT_POLL * 5);
    }

    pub(crate) fn resume(&self) {
        self.pause.store(false, Ordering::SeqCst);
        let _ = self.resume.send(());
    }
}

/// Read terminal input on a thread of its own. Only key presses are sent
/// (Windows also reports releases and repeats).
pub(crate) fn spawn_input(events: Sender<Event>) -> InputControl {
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

/// The signal that ended the UI, if one did (0 for none): the exit status is 128 + it.
static ENDED_BY: AtomicI32 = AtomicI32::new(0);

/// The signal that ended the UI: SIGINT gives exit status 130, SIGTERM 143.
pub(crate) fn ended_by_signal() -> Option<i32> {
    match ENDED_BY.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// Turn SIGTERM, SIGHUP, SIGINT, SIGQUIT and SIGUSR1 into a clean exit that restores the
/// terminal (and remembers the signal for the exit status), and SIGTSTP into a suspend
/// that restores it first.
#[cfg(unix)]
pub(crate) fn spawn_signals(events: Sender<Event>) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP, SIGUSR1};
    use signal_hook::iterator::Signals;
    let Ok(mut signals) = Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGTSTP]) else {
        return;
    };
    thread::spawn(move || {
        for signal in signals.forever() {
            let event = if signal == SIGTSTP {
                Event::Suspend
            } else {
                // The first signal decides the status.
                let _ = ENDED_BY.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
                Event::Action(Action::Terminate)
            };
            if events.send(event).is_err() {
                return;
            }
        }
    });
}

/// Stop this process until the shell continues it (`fg`). The terminal must already be
/// handed back: SIGSTOP cannot be caught, so nothing runs until SIGCONT.
#[cfg(unix)]
pub(crate) fn stop_until_continued() {
    let _ = signal_hook::low_level::raise(signal_hook::consts::SIGSTOP);
}

#[cfg(not(unix))]
pub(crate) fn stop_until_continued() {}

#[cfg(not(unix))]
pub(crate) fn spawn_signals(_events: Sender<Event>) {}
