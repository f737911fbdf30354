//! `--format jsonl`: one JSON object per capture, one a line (contract §3); C1 and bidi
//! controls in strings are written as `\uXXXX`.

use std::io::{self, Write};

use super::{Checked, Sink, Summary};
use crate::text::JsonSafe;

pub struct JsonlSink<W: Write> {
    out: JsonSafe<W>,
    /// One record's line, serialized whole before it is escaped and written.
    line: Vec<u8>,
}

impl<W: Write> JsonlSink<W> {
    pub fn new(out: W) -> JsonlSink<W> {
        JsonlSink {
            out: JsonSafe::new(out),
            line: Vec::new(),
        }
    }
}

impl<W: Write> Sink for JsonlSink<W> {
    fn record(&mut self, item: &Checked) -> io::Result<()> {
        self.line.clear();
        serde_json::to_writer(&mut self.line, &item.record())?;
        self.line.push(b'\n');
        self.out.write_all(&self.line)
    }

    fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}
