//! `T`: the arrival view of the selected saved stream — opening it, and its keys (← → a
//! chunk, a count typed first steps that many, Home / End the first and last chunk, the
//! value scrolled with the usual keys).

use std::sync::Arc;

use crate::tui::action::Command;
use crate::tui::layout::{help_area, inner};
use crate::tui::timeline::Timeline;

use super::navigate::moved;
use super::overlay::{request_width, Overlay};
use super::App;

/// The most a count typed before a step can say.
const MAX_COUNT: usize = 1_000_000;

/// Open the arrival view of the selected capture, when it is a saved stream.
pub(super) fn open(app: &mut App) {
    let Some(entry) = app.selected_entry() else {
        return;
    };
    let arrival = entry
        .request
        .as_ref()
        .and_then(|request| request.arrival.as_ref());
    match Timeline::of(&entry.capture, arrival) {
        Some(timeline) if !timeline.is_empty() => {
            app.overlay = Overlay::Timeline {
                timeline: Arc::new(timeline),
                at: 0,
                count: 0,
                scroll: 0,
            };
        }
        Some(_) => app.warn("this stream's answer is empty: nothing arrived to show"),
        None => app.warn(
            "not a saved stream: the arrival view shows how a stream (.sse) arrived, chunk by chunk",
        ),
    }
}

/// A key in the arrival view.
pub(super) fn command(
    app: &mut App,
    (timeline, at, count, scroll): (Arc<Timeline>, usize, usize, usize),
    command: Command,
) {
    let last = timeline.len().saturating_sub(1);
    let steps = count.max(1);
    let (at, scroll) = match command {
        Command::Back => {
            app.overlay = Overlay::None;
            return;
        }
        Command::StepForward => ((at + steps).min(last), 0),
        Command::StepBack => (at.saturating_sub(steps), 0),
        Command::Top => (0, 0),
        Command::Bottom => (last, 0),
        movement => {
            let (height, lines) = extent(app, &timeline, at);
            (
                at,
                moved(movement, scroll, lines.saturating_sub(height), height),
            )
        }
    };
    app.overlay = Overlay::Timeline {
        timeline,
        at,
        count: 0,
        scroll,
    };
}

/// A digit typed in the arrival view: the count of the next step.
pub(super) fn digit(app: &mut App, digit: char) {
    if let Overlay::Timeline { count, .. } = &mut app.overlay {
        let value = digit.to_digit(10).unwrap_or(0) as usize;
        *count = (*count * 10 + value).min(MAX_COUNT);
    }
}

/// The view's height and how many lines it has at chunk `at`.
fn extent(app: &App, timeline: &Timeline, at: usize) -> (usize, usize) {
    let inner = inner(help_area(app.area));
    let lines = timeline.lines(at, request_width(inner.width)).len();
    (usize::from(inner.height), lines)
}
