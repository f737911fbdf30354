//! `--format jsonl`: one JSON object per capture, one a line (contract §3); C1 and bidi
//! controls in strings are written as `\uXXXX`.

use std::io::{self, Write};

use super::{Checked, Record, Sink, Summary};
use crate::text::JsonSafe;

pub struct JsonlSink<W: Write> {
    out: JsonSafe<W>,
}

impl<W: Write> JsonlSink<W> {
    pub fn new(out: W) -> JsonlSink<W> {
        JsonlSink {
            out: JsonSafe::new(out),
        }
    }
}

impl<W: Write> Sink for JsonlSink<W> {
    fn record(&mut self, item: &Checked) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, &Record::new(item))?;
        self.out.write_all(b"\n")
    }

    fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}
