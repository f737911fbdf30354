//! `--format jsonl`: one JSON object per capture, one a line (contract §3); C1 and bidi
//! controls in strings are written as `\uXXXX`.

use std::io::{self, Write};

use serde::Serialize;

use super::{Checked, Sink, Summary};
use crate::chain::ChainState;
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
        add_beside(&mut self.line, item, false)?;
        self.line.push(b'\n');
        self.out.write_all(&self.line)
    }

    fn record_in(&mut self, item: &Checked, group: &str) -> io::Result<()> {
        self.line.clear();
        serde_json::to_writer(&mut self.line, &item.record())?;
        add_beside(&mut self.line, item, false)?;
        add_group(&mut self.line, group, false)?;
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

/// Add `"group": NAME` as the last member of the JSON object serialized in `object`
/// (compact, or pretty at the top level as serde_json writes it).
pub(super) fn add_group(object: &mut Vec<u8>, group: &str, pretty: bool) -> io::Result<()> {
    add_member(object, "group", &group, pretty)
}

/// Add what the request file beside the capture said: `"schema_from": "request"` when its
/// schema judged it, and its repair-chain link, when it has one: `"chain"`, `"attempt"` and
/// `"re_ask_of"` (see `crate::chain`); and for a saved stream, the first signal worth
/// stopping for (`"early_signal"`).
pub(super) fn add_beside(object: &mut Vec<u8>, item: &Checked, pretty: bool) -> io::Result<()> {
    if let Some(early) = &item.early {
        add_member(object, "early_signal", early, pretty)?;
    }
    // Where the schema came from, when the request file beside the capture gave it
    // (contract §2); a flag's or a log's is the user's own.
    if item.capture.schema_from_request {
        add_member(object, "schema_from", &"request", pretty)?;
    }
    let Some(link) = item.chain.as_deref().and_then(ChainState::link) else {
        return Ok(());
    };
    add_member(object, "chain", &link.id, pretty)?;
    add_member(object, "attempt", &link.attempt, pretty)?;
    match &link.re_ask_of {
        Some(previous) => add_member(object, "re_ask_of", previous, pretty),
        None => Ok(()),
    }
}

/// Add `"key": value` as the last member of the JSON object serialized in `object`.
fn add_member(
    object: &mut Vec<u8>,
    key: &str,
    value: &impl Serialize,
    pretty: bool,
) -> io::Result<()> {
    let closing = if pretty { 2 } else { 1 };
    let at = object.len().saturating_sub(closing);
    let mut member = if pretty {
        b",\n  ".to_vec()
    } else {
        b",".to_vec()
    };
    serde_json::to_writer(&mut member, key)?;
    member.extend_from_slice(if pretty { b": " } else { b":" });
    serde_json::to_writer(&mut member, value)?;
    object.splice(at..at, member);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_group_is_the_last_member_compact_or_pretty() {
        let mut compact = br#"{"a":1}"#.to_vec();
        add_group(&mut compact, "gpt-\"4o\"", false).unwrap();
        assert_eq!(compact, br#"{"a":1,"group":"gpt-\"4o\""}"#);
        let mut pretty = serde_json::to_vec_pretty(&serde_json::json!({"a": 1})).unwrap();
        add_group(&mut pretty, "m", true).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&pretty).unwrap();
        assert_eq!(value, serde_json::json!({"a": 1, "group": "m"}));
    }
}
