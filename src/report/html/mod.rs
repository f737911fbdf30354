//! `--format html`: one self-contained page to hand on (no network, no external file): the
//! mix per group as bars, and a table of the captures that failed or drifted from plain
//! JSON, each expandable to its raw text with the failure marked and its value, with
//! filters by group, layer and failure kind.
//!
//! Memory stays bounded: a row is built as its capture passes and only a sample of the
//! rows is kept ([`ROW_CAP`]; the page says so), each a bounded window of its text.

mod escape;
mod page;
mod row;
mod sample;

use std::io::{self, Write};

use super::{Checked, Sink, Summary};
use sample::Sample;

/// The most rows the page lists; past it an even sample of them.
pub(super) const ROW_CAP: usize = 1000;

/// The group of every capture when the report is not split `--by` anything.
pub(super) const ALL: &str = "all captures";

pub(crate) struct HtmlSink<W> {
    out: W,
    title: String,
    rows: Sample<String>,
}

impl<W: Write> HtmlSink<W> {
    /// A report headed `title` (`jxray check runs`).
    pub(crate) fn new(out: W, title: &str) -> HtmlSink<W> {
        HtmlSink {
            out,
            title: title.to_string(),
            rows: Sample::new(ROW_CAP),
        }
    }
}

impl<W: Write> Sink for HtmlSink<W> {
    fn record(&mut self, item: &Checked) -> io::Result<()> {
        self.record_in(item, ALL)
    }

    fn record_in(&mut self, item: &Checked, group: &str) -> io::Result<()> {
        if row::listed(&item.outcome) {
            if let Some(slot) = self.rows.wants_next() {
                self.rows.keep(slot, row::row(item, group));
            }
        }
        Ok(())
    }

    fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        let rows = std::mem::replace(&mut self.rows, Sample::new(ROW_CAP));
        let listed = rows.seen();
        let page = page::Page {
            title: &self.title,
            summary,
            rows: rows.into_items(),
            listed,
        };
        page.write(&mut self.out)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}
