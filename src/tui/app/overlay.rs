//! What is drawn over the main screen and takes the keys (the keys themselves:
//! `overlay_keys.rs`).

use crate::tui::search::Query;

use super::filter::Filter;
use super::{App, SaveDialog};
use crate::group::GroupBy;

/// What is drawn over the main screen and takes the keys.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Overlay {
    #[default]
    None,
    Help {
        scroll: usize,
    },
    /// The request beside a recorded capture (`r`).
    Request {
        scroll: usize,
    },
    Filter {
        cursor: usize,
    },
    /// The search prompt; matches are marked as the user types, and Esc
    /// brings back the search that was there before.
    Search {
        text: String,
        previous: Option<Query>,
    },
    Save(SaveDialog),
    /// What `y` can copy.
    Copy {
        cursor: usize,
    },
    /// Where to point an app at the proxy (`a`); `auto` when opened at start, to close
    /// with the first call.
    Recording {
        cursor: usize,
        auto: bool,
    },
    /// The proxy's log (`L`).
    ProxyLog {
        scroll: usize,
    },
    /// How the selected saved stream arrived (`T`): at chunk `at`, a count typed, the
    /// value scrolled.
    Timeline {
        timeline: std::sync::Arc<crate::tui::timeline::Timeline>,
        at: usize,
        count: usize,
        scroll: usize,
    },
    /// The captures grouped `by` a key, each group with its mix (`b`).
    Groups {
        by: GroupBy,
        cursor: usize,
    },
}

/// Show only what `filter` admits, close the overlay and say how many that is.
pub(super) fn apply_filter(app: &mut App, filter: Filter) {
    let label = filter.label().to_string();
    app.entries.set_filter(filter);
    app.overlay = Overlay::None;
    app.settle();
    app.say(format!(
        "filter: {label} ({} of {})",
        app.entries.view.len(),
        app.entries.len()
    ));
}

/// The text width of the request overlay inside its border.
pub fn request_width(inner_width: u16) -> usize {
    usize::from(inner_width).saturating_sub(3)
}

impl super::TuiSettings {
    /// What the help overlay says of this session.
    pub(crate) fn help_context(&self) -> crate::tui::help::HelpContext<'_> {
        crate::tui::help::HelpContext {
            mouse: self.mouse,
            root: &self.root,
            fixtures: &self.fixtures,
            config_path: &self.config_path,
        }
    }
}
