//! A background build of a big capture's panes: everything it needs, taken when it was
//! asked for, so the builder thread never looks at the app.

use std::sync::Arc;

use crate::schema::Schema;
use crate::tui::layout::View;
use crate::tui::search::Query;

use super::{Detail, Subject};

/// Everything a background build needs; [`DetailJob::run`] does it.
#[derive(Debug, Clone)]
pub struct DetailJob {
    subject: Subject,
    query: Option<Query>,
    schema: Option<Arc<Schema>>,
    view: View,
}

impl DetailJob {
    /// A build of `subject`'s panes, searched for `query`, checked against `schema`, to
    /// be wrapped for a screen of `area` (zoomed or not, `pane` in front).
    pub(crate) fn new(
        subject: Subject,
        query: Option<Query>,
        schema: Option<Arc<Schema>>,
        view: View,
    ) -> DetailJob {
        DetailJob {
            subject,
            query,
            schema,
            view,
        }
    }

    /// Build the panes and wrap them for the screen the request was made on.
    pub fn run(self) -> Detail {
        let mut detail = Detail::build(&self.subject, self.query.as_ref(), self.schema.as_deref());
        detail.fit(self.view);
        detail
    }
}
