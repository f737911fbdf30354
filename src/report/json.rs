//! `--format json`: one document, `{"captures": [...], "summary": {...}}`, pretty-printed.
//! The `captures` array is written a record at a time, so the document streams. C1 and
//! bidi controls in strings are written as `\uXXXX`.

use std::io::{self, Write};

use super::jsonl::{add_beside, add_group};
use super::{Checked, Sink, Summary};
use crate::text::JsonSafe;

pub(crate) struct JsonSink<W: Write> {
    out: JsonSafe<W>,
    /// Records written so far: the first opens the array, the others follow a comma.
    written: usize,
}

impl<W: Write> JsonSink<W> {
    pub(crate) fn new(out: W) -> JsonSink<W> {
        JsonSink {
            out: JsonSafe::new(out),
            written: 0,
        }
    }
}

impl<W: Write> Sink for JsonSink<W> {
    fn record(&mut self, item: &Checked) -> io::Result<()> {
        self.write_record(item, None)
    }

    fn record_in(&mut self, item: &Checked, group: &str) -> io::Result<()> {
        self.write_record(item, Some(group))
    }

    fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        let closing: &[u8] = if self.written == 0 {
            b"{\n  \"captures\": [],\n"
        } else {
            b"\n  ],\n"
        };
        self.out.write_all(closing)?;
        self.out.write_all(b"  \"summary\": ")?;
        let mut text = serde_json::to_vec_pretty(summary)?;
        text = indent(&text, "  ", false);
        self.out.write_all(&text)?;
        if let Some(groups) = summary.groups() {
            write!(
                self.out,
                ",\n  \"by\": \"{}\",\n  \"groups\": ",
                groups.by().as_str()
            )?;
            let text = serde_json::to_vec_pretty(&groups.records())?;
            self.out.write_all(&indent(&text, "  ", false))?;
        }
        self.out.write_all(b"\n}\n")
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

impl<W: Write> JsonSink<W> {
    /// One element of `captures`, with its group when there is one.
    fn write_record(&mut self, item: &Checked, group: Option<&str>) -> io::Result<()> {
        let opening: &[u8] = if self.written == 0 {
            b"{\n  \"captures\": [\n"
        } else {
            b",\n"
        };
        self.out.write_all(opening)?;
        let mut text = serde_json::to_vec_pretty(&item.record())?;
        add_beside(&mut text, item, true)?;
        if let Some(group) = group {
            add_group(&mut text, group, true)?;
        }
        self.out.write_all(&indent(&text, "    ", true))?;
        self.written += 1;
        Ok(())
    }
}

/// Every line of pretty JSON indented by `by` (the first too when `first`). JSON strings
/// hold no raw newline, so splitting on `\n` splits between tokens only.
fn indent(text: &[u8], by: &str, first: bool) -> Vec<u8> {
    let mut indented = Vec::with_capacity(text.len() + text.len() / 8);
    for (index, line) in text.split(|&byte| byte == b'\n').enumerate() {
        if index > 0 {
            indented.push(b'\n');
        }
        if index > 0 || first {
            indented.extend_from_slice(by.as_bytes());
        }
        indented.extend_from_slice(line);
    }
    indented
}
