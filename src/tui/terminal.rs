//! Entering and leaving the full-screen terminal, with one restore for every
//! way out: normal exit, error, panic and signals.
//!
//! Whatever was enabled (raw mode, the alternate screen, mouse capture,
//! bracketed paste, a hidden cursor) is undone by [`restore`], which the
//! guard's `Drop` and the panic hook both call; it does nothing when the
//! terminal is already restored, so calling it twice is harmless.

use std::io::{self, Stdout, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once, OnceLock};
use std::thread::{self, ThreadId};

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, execute};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;

/// Whether the terminal is in full-screen mode now.
static ACTIVE: AtomicBool = AtomicBool::new(false);
/// Whether mouse capture was turned on (and so must be turned off).
static MOUSE: AtomicBool = AtomicBool::new(false);
static PANIC_HOOK: Once = Once::new();
/// The thread that draws: only its panic ends the UI (a background thread's
/// panic is caught where it happens and shown as a capture's failure).
static UI_THREAD: OnceLock<ThreadId> = OnceLock::new();

pub(crate) type Term = Terminal<CrosstermBackend<Stdout>>;

/// The full-screen terminal; dropping it restores the normal screen.
pub(crate) struct TerminalGuard {
    pub(crate) terminal: Term,
}

impl TerminalGuard {
    pub(crate) fn enter(mouse: bool) -> io::Result<TerminalGuard> {
        let _ = UI_THREAD.set(thread::current().id());
        install_panic_hook();
        MOUSE.store(mouse, Ordering::SeqCst);
        enable()?;
        let terminal = Terminal::new(CrosstermBackend::new(io::stdout()));
        match terminal {
            Ok(terminal) => Ok(TerminalGuard { terminal }),
            Err(error) => {
                restore();
                Err(error)
            }
        }
    }

    /// Leave full-screen mode for a while (the editor), then come back with [`resume`].
    pub(crate) fn suspend(&mut self) {
        restore();
    }

    pub(crate) fn resume(&mut self) -> io::Result<()> {
        enable()?;
        self.terminal.clear()
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

fn enable() -> io::Result<()> {
    ACTIVE.store(true, Ordering::SeqCst);
    let result = (|| {
        terminal::enable_raw_mode()?;
        let mut out = io::stdout();
        execute!(
            out,
            EnterAlternateScreen,
            EnableBracketedPaste,
            cursor::Hide
        )?;
        if MOUSE.load(Ordering::SeqCst) {
            execute!(out, EnableMouseCapture)?;
        }
        Ok(())
    })();
    if result.is_err() {
        restore();
    }
    result
}

/// Put the terminal back as it was. Safe to call at any time, any number of times.
pub(crate) fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut out = io::stdout();
    // Each step is tried even if an earlier one fails: restore as much as possible.
    if MOUSE.load(Ordering::SeqCst) {
        let _ = execute!(out, DisableMouseCapture);
    }
    let _ = execute!(
        out,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = terminal::disable_raw_mode();
    let _ = out.flush();
}

/// Panics of background threads while the screen was in use.
static BACKGROUND_PANICS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Messages of background threads that panicked while the UI ran, to print
/// once the normal screen is back.
pub(crate) fn background_panics() -> Vec<String> {
    BACKGROUND_PANICS
        .lock()
        .map(|mut panics| std::mem::take(&mut *panics))
        .unwrap_or_default()
}

/// Restore the terminal before the panic message prints, so it is readable.
/// A panic on another thread is kept for later rather than printed over the
/// screen (the loader also turns it into a failed capture).
fn install_panic_hook() {
    PANIC_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let on_ui = UI_THREAD.get() == Some(&thread::current().id());
            if on_ui || !ACTIVE.load(Ordering::SeqCst) {
                restore();
                previous(info);
            } else if let Ok(mut panics) = BACKGROUND_PANICS.lock() {
                // Printed after the screen is restored (see `background_panics`).
                panics.push(info.to_string());
            }
        }));
    });
}
