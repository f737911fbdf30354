//! Where everything goes on the screen, as a pure function of its size.
//!
//! `update` uses it to know page sizes and wrap widths, and `render` uses it
//! to draw, so the two always agree. Nothing here may fail at any size: at
//! 20×5 the list and a one-line footer remain.

use ratatui::layout::Rect;

/// The three detail panes, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PaneId {
    #[default]
    Raw,
    Normalized,
    Decoded,
}

impl PaneId {
    pub const ALL: [PaneId; 3] = [PaneId::Raw, PaneId::Normalized, PaneId::Decoded];

    pub(crate) fn index(self) -> usize {
        match self {
            PaneId::Raw => 0,
            PaneId::Normalized => 1,
            PaneId::Decoded => 2,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            PaneId::Raw => "Raw",
            PaneId::Normalized => "Normalized",
            PaneId::Decoded => "Decoded",
        }
    }
}

/// Below this width the panes become tabs.
pub(crate) const SIDE_BY_SIDE_WIDTH: u16 = 120;
/// Below this width the list goes above the panes instead of beside them.
const LIST_BESIDE_WIDTH: u16 = 60;
/// The list's width (borders included) that shows a file name of 24 characters whole beside
/// the pointer, the widest badge (`unreadable`) and a mark.
const WHOLE_NAME_LIST: u32 = 2 + 1 + 10 + 1 + 1 + 1 + 24;
/// Rows of the header.
pub(crate) const HEADER_HEIGHT: u16 = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Screen {
    pub list: Option<Rect>,
    pub(crate) header: Option<Rect>,
    /// The tab bar, when panes are tabs.
    pub tabs: Option<Rect>,
    /// Each pane's outer rectangle (borders included), when it is visible.
    pub panes: [Option<Rect>; 3],
    pub(crate) footer: Rect,
}

/// How much of the width the capture list takes: `<` narrows it (down to hidden, the
/// panes then take the whole width), `>` widens it, as file managers do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ListWidth {
    Hidden,
    Narrow,
    #[default]
    Normal,
    Wide,
}

impl ListWidth {
    pub(crate) fn narrower(self) -> ListWidth {
        match self {
            ListWidth::Wide => ListWidth::Normal,
            ListWidth::Normal => ListWidth::Narrow,
            ListWidth::Narrow | ListWidth::Hidden => ListWidth::Hidden,
        }
    }

    pub(crate) fn wider(self) -> ListWidth {
        match self {
            ListWidth::Hidden => ListWidth::Narrow,
            ListWidth::Narrow => ListWidth::Normal,
            ListWidth::Normal | ListWidth::Wide => ListWidth::Wide,
        }
    }

    /// The list's share of the width, in percent, from the usual one.
    fn share(self, usual: u32) -> u32 {
        match self {
            ListWidth::Hidden => 0,
            ListWidth::Narrow => usual * 2 / 3,
            ListWidth::Normal => usual,
            ListWidth::Wide => usual * 3 / 2,
        }
    }
}

/// What the panes' wrap widths depend on: the screen, zoom, the pane in front and the
/// list's width.
pub(crate) type View = (Rect, bool, PaneId, ListWidth);

/// Lay out a screen of `area` with `current` the pane shown as a tab or zoomed, and the
/// list as wide as the user made it.
pub fn layout(area: Rect, zoom: bool, current: PaneId, list_width: ListWidth) -> Screen {
    let footer_height = match area.height {
        0 => 0,
        1..=9 => 1,
        _ => 2,
    };
    let (body, footer) = split_bottom(area, footer_height);
    let mut screen = Screen {
        footer,
        ..Screen::default()
    };
    if zoom {
        screen.panes[current.index()] = Some(body);
        return screen;
    }
    let (list, right) = if list_width == ListWidth::Hidden && body.height >= 8 {
        (Rect::default(), body)
    } else if area.width >= LIST_BESIDE_WIDTH {
        // With the panes as tabs only one pane shows, so the list can take more
        // room and keep file names readable.
        let share = if area.width >= SIDE_BY_SIDE_WIDTH {
            25
        } else {
            48
        };
        let share = list_width.share(share);
        let (least, most): (u32, u32) = match list_width {
            ListWidth::Wide => (24, u32::from(area.width / 2 + 12).min(72)),
            ListWidth::Narrow => (16, 44),
            // With the panes as tabs there is room for a whole file name.
            ListWidth::Normal if area.width < SIDE_BY_SIDE_WIDTH => (WHOLE_NAME_LIST, 44),
            _ => (24, 44),
        };
        let width = (u32::from(area.width) * share / 100).clamp(least, most) as u16;
        split_left(body, width)
    } else if body.height >= 8 {
        let (top, rest) = split_top(body, (body.height / 3).max(3));
        (top, rest)
    } else {
        // Too small for panes: the list alone; Enter zooms a pane.
        screen.list = Some(body);
        return screen;
    };
    screen.list = (list.width > 0).then_some(list);
    let right = if right.height >= 10 {
        let (header, rest) = split_top(right, HEADER_HEIGHT);
        screen.header = Some(header);
        rest
    } else {
        right
    };
    if area.width >= SIDE_BY_SIDE_WIDTH {
        let third = right.width / 3;
        let widths = [third, third, right.width - 2 * third];
        let mut x = right.x;
        for (slot, width) in screen.panes.iter_mut().zip(widths) {
            *slot = Some(Rect::new(x, right.y, width, right.height));
            x += width;
        }
    } else {
        let (tabs, pane) = split_top(right, 1);
        screen.tabs = Some(tabs);
        screen.panes[current.index()] = Some(pane);
    }
    screen
}

/// A box of at most `width`×`height` in the middle of `area`.
pub(crate) fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}

/// Where the help overlay goes.
pub(crate) fn help_area(area: Rect) -> Rect {
    centered(area, 88, area.height.saturating_sub(2).max(3))
}

/// The text area inside a pane's border.
pub(crate) fn inner(outer: Rect) -> Rect {
    Rect::new(
        outer.x.saturating_add(1),
        outer.y.saturating_add(1),
        outer.width.saturating_sub(2),
        outer.height.saturating_sub(2),
    )
}

fn split_bottom(area: Rect, height: u16) -> (Rect, Rect) {
    let height = height.min(area.height);
    let top = Rect::new(area.x, area.y, area.width, area.height - height);
    let bottom = Rect::new(area.x, area.y + top.height, area.width, height);
    (top, bottom)
}

fn split_top(area: Rect, height: u16) -> (Rect, Rect) {
    let height = height.min(area.height);
    let top = Rect::new(area.x, area.y, area.width, height);
    let rest = Rect::new(area.x, area.y + height, area.width, area.height - height);
    (top, rest)
}

fn split_left(area: Rect, width: u16) -> (Rect, Rect) {
    let width = width.min(area.width);
    let left = Rect::new(area.x, area.y, width, area.height);
    let right = Rect::new(area.x + width, area.y, area.width - width, area.height);
    (left, right)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen(area: Rect, zoom: bool, current: PaneId) -> Screen {
        layout(area, zoom, current, ListWidth::Normal)
    }

    #[test]
    fn wide_screens_show_three_panes_side_by_side() {
        let screen = screen(Rect::new(0, 0, 160, 40), false, PaneId::Raw);
        assert!(screen.panes.iter().all(Option::is_some));
        assert!(screen.tabs.is_none());
        let total: u16 = screen.panes.iter().flatten().map(|r| r.width).sum();
        assert_eq!(total + screen.list.unwrap().width, 160);
    }

    #[test]
    fn narrow_screens_use_tabs() {
        let screen = screen(Rect::new(0, 0, 80, 24), false, PaneId::Decoded);
        assert!(screen.tabs.is_some());
        assert_eq!(screen.panes.iter().flatten().count(), 1);
        assert!(screen.panes[2].is_some());
    }

    #[test]
    fn every_size_down_to_one_cell_stays_inside_the_area() {
        for width in 0..130 {
            for height in 0..30 {
                let area = Rect::new(0, 0, width, height);
                for zoom in [false, true] {
                    let s = screen(area, zoom, PaneId::Normalized);
                    let rects = [s.list, s.header, s.tabs, Some(s.footer)]
                        .into_iter()
                        .chain(s.panes)
                        .flatten();
                    for rect in rects {
                        assert!(
                            area.contains(rect.as_position()) || rect.area() == 0,
                            "{rect:?} in {area:?}"
                        );
                        assert!(rect.right() <= area.right() && rect.bottom() <= area.bottom());
                    }
                }
            }
        }
    }

    #[test]
    fn zoom_gives_the_pane_everything_but_the_footer() {
        let s = screen(Rect::new(0, 0, 100, 30), true, PaneId::Raw);
        assert_eq!(s.panes[0], Some(Rect::new(0, 0, 100, 28)));
        assert!(s.list.is_none());
    }
}
