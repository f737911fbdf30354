//! The report formats as sinks: each takes one checked capture at a time, in order, writes
//! what it can at once and keeps only running counts, so a report of any size streams.
//!
//! Adding a format is one file: a type implementing [`Sink`], built in `jxray check`.

use std::io;

use super::{ChainTally, Checked, Groups, Summary};
use crate::group::{GroupBy, Grouper};

/// One report format being written.
pub trait Sink {
    /// One capture's outcome, in report order. Called once per capture.
    fn record(&mut self, item: &Checked) -> io::Result<()>;

    /// One capture's outcome and the group it is in (`--by`). Formats that show the group
    /// beside each capture write it; the others write the capture as [`Sink::record`] does.
    fn record_in(&mut self, item: &Checked, _group: &str) -> io::Result<()> {
        self.record(item)
    }

    /// The end of the report, with the counts of every capture recorded.
    fn finish(&mut self, summary: &Summary) -> io::Result<()>;

    /// Push what was written so far to the reader (a pipe waits for it).
    fn flush(&mut self) -> io::Result<()>;
}

/// Write a whole report of `checked` to `sink` (tests, and callers that hold every outcome).
pub fn write_all<'a>(
    sink: &mut dyn Sink,
    checked: impl IntoIterator<Item = &'a Checked>,
) -> io::Result<Summary> {
    let mut summary = Summary::default();
    for item in checked {
        summary.count(item);
        sink.record(item)?;
    }
    sink.finish(&summary)?;
    sink.flush()?;
    Ok(summary)
}

/// `--only-failures`: passes failing captures on to `inner` and drops the rest; the
/// summary `inner` finishes with still counts every capture.
pub struct OnlyFailures<S> {
    inner: S,
}

impl<S: Sink> OnlyFailures<S> {
    pub(crate) fn new(inner: S) -> OnlyFailures<S> {
        OnlyFailures { inner }
    }
}

impl<S: Sink> Sink for OnlyFailures<S> {
    fn record(&mut self, item: &Checked) -> io::Result<()> {
        if item.outcome.ok() {
            return Ok(());
        }
        self.inner.record(item)
    }

    fn record_in(&mut self, item: &Checked, group: &str) -> io::Result<()> {
        if item.outcome.ok() {
            return Ok(());
        }
        self.inner.record_in(item, group)
    }

    fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        self.inner.finish(summary)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<S: Sink + ?Sized> Sink for Box<S> {
    fn record(&mut self, item: &Checked) -> io::Result<()> {
        (**self).record(item)
    }

    fn record_in(&mut self, item: &Checked, group: &str) -> io::Result<()> {
        (**self).record_in(item, group)
    }

    fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        (**self).finish(summary)
    }

    fn flush(&mut self) -> io::Result<()> {
        (**self).flush()
    }
}

/// `--by`: names each capture's group, passes it on with the capture, counts the mix of
/// every group, and finishes `inner` with those mixes beside the summary.
pub struct ByGroup<S> {
    inner: S,
    grouper: Grouper,
    groups: Groups,
}

impl<S: Sink> ByGroup<S> {
    pub(crate) fn new(inner: S, by: GroupBy) -> ByGroup<S> {
        ByGroup {
            inner,
            grouper: Grouper::new(by),
            groups: Groups::new(by),
        }
    }
}

impl<S: Sink> Sink for ByGroup<S> {
    fn record(&mut self, item: &Checked) -> io::Result<()> {
        let group = self.grouper.label(&item.capture);
        self.groups.count(&group, item);
        self.inner.record_in(item, &group)
    }

    fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        let groups = std::mem::replace(&mut self.groups, Groups::new(self.grouper.by()));
        self.inner.finish(&summary.clone().with_groups(groups))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Counts repair chains (`crate::chain`) as captures pass on to `inner`, and finishes
/// `inner` with those counts beside the summary.
pub struct WithChains<S> {
    inner: S,
    tally: ChainTally,
}

impl<S: Sink> WithChains<S> {
    pub(crate) fn new(inner: S) -> WithChains<S> {
        WithChains {
            inner,
            tally: ChainTally::default(),
        }
    }
}

impl<S: Sink> Sink for WithChains<S> {
    fn record(&mut self, item: &Checked) -> io::Result<()> {
        self.tally.add(item);
        self.inner.record(item)
    }

    fn record_in(&mut self, item: &Checked, group: &str) -> io::Result<()> {
        self.tally.add(item);
        self.inner.record_in(item, group)
    }

    fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        match self.tally.finish() {
            Some(chains) => self.inner.finish(&summary.clone().with_chains(chains)),
            None => self.inner.finish(summary),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
