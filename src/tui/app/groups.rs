//! The group view (`b`): the captures grouped by model, prompt, provider, folder or day,
//! each group with its mix, the worst first; `b` again groups by the next key, Enter
//! shows the chosen group's captures in the list.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::filter::Filter;
use super::navigate::moved;
use super::{App, Overlay};
use crate::group::GroupBy;
use crate::mix::{Mix, MixKey};
use crate::tui::action::Command;

/// The keys `b` steps through, in order.
pub(crate) const KEYS: [GroupBy; 5] = [
    GroupBy::Model,
    GroupBy::Prompt,
    GroupBy::Provider,
    GroupBy::Folder,
    GroupBy::Day,
];

/// The key after `by`, round again after the last.
pub(crate) fn next_key(by: GroupBy) -> GroupBy {
    let at = KEYS.iter().position(|key| *key == by).unwrap_or(0);
    KEYS[(at + 1) % KEYS.len()]
}

/// Every group of the captures there now (gone ones left out), with its mix, the
/// highest share failed first, then the most captures, then by name.
pub(crate) fn groups(app: &App, by: GroupBy) -> Vec<(String, Mix)> {
    let mut mixes: BTreeMap<String, Mix> = BTreeMap::new();
    for entry in app.entries.iter().filter(|entry| !entry.gone) {
        mixes
            .entry(entry.group(by))
            .or_default()
            .add(MixKey::of(&entry.outcome));
    }
    let mut groups: Vec<(String, Mix)> = mixes.into_iter().collect();
    let share = |mix: &Mix| mix.failed() as f64 / mix.total().max(1) as f64;
    groups.sort_by(|(a_name, a), (b_name, b)| {
        share(b)
            .total_cmp(&share(a))
            .then(b.total().cmp(&a.total()))
            .then(a_name.cmp(b_name))
    });
    groups
}

/// `b` on the main screen: the view, grouped by model.
pub(crate) fn open(app: &mut App) {
    app.overlay = Overlay::Groups {
        by: GroupBy::Model,
        cursor: 0,
    };
}

/// A key in the group view.
pub(crate) fn command(app: &mut App, by: GroupBy, cursor: usize, command: Command) {
    match command {
        Command::Back => app.overlay = Overlay::None,
        Command::Groups => {
            app.overlay = Overlay::Groups {
                by: next_key(by),
                cursor: 0,
            }
        }
        Command::Confirm => match groups(app, by).into_iter().nth(cursor) {
            Some((name, _)) => {
                super::overlay::apply_filter(app, Filter::Group(by, Arc::from(name)))
            }
            None => app.overlay = Overlay::None,
        },
        movement => {
            let count = groups(app, by).len().max(1);
            let cursor = moved(movement, cursor, count - 1, count);
            app.overlay = Overlay::Groups { by, cursor };
        }
    }
}
