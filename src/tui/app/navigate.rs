//! Moving through the list and scrolling panes.

use crate::tui::action::{Command, Mouse};
use crate::tui::layout::{inner, PaneId};

use super::{App, Focus, Notice};

/// Where a movement command takes `position` in `0..=last`, with pages of `page`.
pub(super) fn moved(command: Command, position: usize, last: usize, page: usize) -> usize {
    let page = page.max(1);
    let half = (page / 2).max(1);
    let next = match command {
        Command::Down => position.saturating_add(1),
        Command::Up => position.saturating_sub(1),
        Command::Top => 0,
        Command::Bottom => last,
        Command::PageDown => position.saturating_add(page),
        Command::PageUp => position.saturating_sub(page),
        Command::HalfDown => position.saturating_add(half),
        Command::HalfUp => position.saturating_sub(half),
        _ => position,
    };
    next.min(last)
}

impl App {
    /// A movement key on the main screen: the list or the focused pane.
    pub(super) fn move_focus(&mut self, command: Command) {
        match self.focus {
            Focus::List => {
                let last = self.entries.view.len().saturating_sub(1);
                let position = moved(command, self.cursor, last, self.list_height());
                self.select_position(position);
            }
            Focus::Pane => {
                if let Some(detail) = &mut self.detail {
                    let pane = detail.pane_mut(self.pane);
                    let scroll = moved(command, pane.scroll, pane.max_scroll(), pane.height);
                    pane.scroll_to(scroll);
                }
            }
        }
    }

    pub(super) fn select_position(&mut self, position: usize) {
        if let Some(entry) = self.entries.at(position) {
            self.cursor = position;
            self.selected = Some(entry.id);
        }
    }

    /// Select the next (or previous) entry after the cursor that satisfies `wanted`,
    /// wrapping around. Returns whether one was found and whether it wrapped.
    pub(super) fn select_next(
        &mut self,
        forward: bool,
        wanted: impl Fn(&super::Entry) -> bool,
    ) -> Option<bool> {
        let len = self.entries.view.len();
        for step in 1..=len {
            let position = if forward {
                (self.cursor + step) % len
            } else {
                (self.cursor + len * 2 - step) % len
            };
            if self.entries.at(position).is_some_and(&wanted) {
                let wrapped = if forward {
                    position <= self.cursor
                } else {
                    position >= self.cursor
                };
                self.select_position(position);
                return Some(wrapped);
            }
        }
        None
    }

    /// `]` / `[`.
    pub(super) fn next_failure(&mut self, forward: bool) {
        match self.select_next(forward, |entry| !entry.outcome.ok()) {
            None => self.say("no failing capture in the list"),
            Some(true) if forward => self.say("wrapped around to the first failure"),
            Some(true) => self.say("wrapped around to the last failure"),
            Some(false) => {}
        }
    }

    /// `n` / `N`.
    pub(super) fn next_match(&mut self, forward: bool) {
        let Some(query) = self.query.clone() else {
            self.say("no search yet: press / to search");
            return;
        };
        match self.select_next(forward, |entry| entry.matched) {
            None => self.warn(format!(
                "no capture in the list matches \"{}\"",
                query.as_str()
            )),
            Some(true) if forward => self.say("search wrapped around to the first match"),
            Some(true) => self.say("search wrapped around to the last match"),
            Some(false) => {}
        }
    }

    /// The mouse, when `--mouse` is on: the wheel scrolls what it is over, a click selects.
    pub(super) fn mouse(&mut self, mouse: Mouse) {
        let screen = self.screen();
        let (column, row) = match mouse {
            Mouse::ScrollDown { column, row }
            | Mouse::ScrollUp { column, row }
            | Mouse::Click { column, row } => (column, row),
        };
        let at = ratatui::layout::Position::new(column, row);
        let over_list = screen.list.is_some_and(|rect| rect.contains(at));
        let over_pane = PaneId::ALL
            .into_iter()
            .find(|pane| screen.panes[pane.index()].is_some_and(|rect| rect.contains(at)));
        let delta: isize = match mouse {
            Mouse::ScrollDown { .. } => 3,
            Mouse::ScrollUp { .. } => -3,
            Mouse::Click { .. } => 0,
        };
        match (mouse, over_list, over_pane) {
            (Mouse::Click { .. }, true, _) => {
                let top = screen.list.map_or(0, |rect| inner(rect).y);
                if row >= top {
                    self.select_position(self.list_offset + usize::from(row - top));
                }
                self.focus = Focus::List;
            }
            (Mouse::Click { .. }, _, Some(pane)) => {
                self.pane = pane;
                self.focus = Focus::Pane;
            }
            (_, true, _) => {
                let position = self.cursor.saturating_add_signed(delta);
                let last = self.entries.view.len().saturating_sub(1);
                self.select_position(position.min(last));
            }
            (_, _, Some(pane)) => {
                if let Some(detail) = &mut self.detail {
                    detail.pane_mut(pane).scroll_by(delta);
                }
            }
            _ => {}
        }
    }

    pub(super) fn say(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice {
            text: text.into(),
            error: false,
        });
    }

    pub(super) fn warn(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice {
            text: text.into(),
            error: true,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movements_stay_in_bounds() {
        assert_eq!(moved(Command::Down, 9, 9, 5), 9);
        assert_eq!(moved(Command::Up, 0, 9, 5), 0);
        assert_eq!(moved(Command::PageDown, 2, 9, 5), 7);
        assert_eq!(moved(Command::HalfUp, 7, 9, 5), 5);
        assert_eq!(moved(Command::Bottom, 0, 9, 5), 9);
        assert_eq!(moved(Command::Top, 4, 9, 5), 0);
        assert_eq!(moved(Command::HalfDown, 0, 9, 1), 1);
    }
}
