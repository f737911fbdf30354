//! The `llm` CLI's `logs.db`: one capture per logged response, named `FILE#ID`.
//!
//! The database is opened read-only and immutable (an SQLite URI), so jxray never writes
//! it, takes no lock and leaves no journal beside it. Two generations of tables are read:
//! - older versions keep each response in `responses` (`response` is the text);
//! - current versions keep `turns`, whose assistant `messages` hold `parts`: the `text`
//!   parts, by `position`, are the text (`reasoning` parts are skipped, like a `<think>`
//!   block), and each `tool_call` part's `payload.arguments` is a capture of its own.
//!
//! The model is the row's `model`; the stop reason is the provider's `finish_reason` /
//! `stop_reason` / `finishReason` / `done_reason` where `response_json` keeps one; the
//! schema the user asked for (`schema_id` -> `schemas.content`) is checked as if given
//! with `--schema`. Rows are read a page at a time, so a large log is never held whole.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rusqlite::{Connection, OpenFlags, OptionalExtension};
use serde_json::Value;

use super::content::{self, unreadable};
use super::envelope::{str_field, text_or_tool, Decoded, Outputs, ToolCall};
use super::source::{Records, Source};
use super::{Capture, LoadOptions, Provider, Unreadable};

const SQLITE_MAGIC: &[u8] = b"SQLite format 3\0";
/// Rows read per query.
const PAGE: i64 = 256;

pub struct LlmLogs;

impl Source for LlmLogs {
    /// Any SQLite database: one without llm's tables is reported, not skipped.
    fn detect(&self, _path: &Path, head: &[u8]) -> bool {
        head.starts_with(SQLITE_MAGIC)
    }

    fn records(&self, path: &Path, name: &str, options: &LoadOptions) -> Records {
        match LlmRecords::open(path, name, options.max_bytes) {
            Ok(records) => Box::new(records),
            Err(why) => {
                let capture = unreadable(name.to_string(), path, Unreadable::new(why));
                Box::new(std::iter::once(capture))
            }
        }
    }
}

/// Which table is being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Table {
    Responses,
    Turns,
    Done,
}

struct LlmRecords {
    connection: Connection,
    table: Table,
    has_turns: bool,
    /// Whether `responses` has a `schema_id` column (versions before schemas lack it).
    responses_schema: bool,
    /// The last rowid read from the current table.
    after: i64,
    pending: VecDeque<Capture>,
    schemas: HashMap<String, Option<Arc<Value>>>,
    name: String,
    path: PathBuf,
    max_bytes: u64,
}

impl LlmRecords {
    fn open(path: &Path, name: &str, max_bytes: u64) -> Result<LlmRecords, String> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let connection =
            Connection::open_with_flags(immutable_uri(path), flags).map_err(|error| {
                format!("cannot open the SQLite database ({error}); check the file")
            })?;
        let tables = table_names(&connection).map_err(|error| not_readable(&error))?;
        let has = |table: &str| tables.iter().any(|name| name == table);
        let has_turns = has("turns") && has("messages") && has("parts");
        if !has("responses") && !has_turns {
            return Err(
                "a SQLite database without the `llm` CLI's tables (`responses`, or \
                        `turns`, `messages` and `parts`); jxray reads llm's logs.db, so \
                        point it at that (`llm logs path` prints where it is)"
                    .to_string(),
            );
        }
        let responses_schema = has("responses")
            && column_names(&connection, "responses")
                .map_err(|error| not_readable(&error))?
                .iter()
                .any(|column| column == "schema_id");
        Ok(LlmRecords {
            connection,
            table: if has("responses") {
                Table::Responses
            } else {
                Table::Turns
            },
            has_turns,
            responses_schema,
            after: i64::MIN,
            pending: VecDeque::new(),
            schemas: HashMap::new(),
            name: name.to_string(),
            path: path.to_path_buf(),
            max_bytes,
        })
    }

    /// Read the next page of the current table into `pending`; move on when it is empty.
    fn fill(&mut self) -> Result<(), rusqlite::Error> {
        while self.pending.is_empty() && self.table != Table::Done {
            let rows = match self.table {
                Table::Responses => self.responses_page()?,
                Table::Turns => self.turns_page()?,
                Table::Done => Vec::new(),
            };
            if rows.is_empty() {
                self.table = match self.table {
                    Table::Responses if self.has_turns => Table::Turns,
                    _ => Table::Done,
                };
                self.after = i64::MIN;
                continue;
            }
            for row in rows {
                self.after = row.rowid;
                let decoded = self.decoded(row.decoded, row.schema_id.as_deref())?;
                let name = format!("{}#{}", self.name, row.id);
                self.pending
                    .extend(content::decoded(&name, &self.path, None, decoded));
            }
        }
        Ok(())
    }

    /// Add the row's schema, and refuse a text over the size limit.
    fn decoded(
        &mut self,
        decoded: Decoded,
        schema_id: Option<&str>,
    ) -> Result<Result<Decoded, String>, rusqlite::Error> {
        let size = decoded.outputs.text.as_ref().map_or(0, String::len)
            + decoded.outputs.calls.iter().map(String::len).sum::<usize>();
        if size as u64 > self.max_bytes {
            return Ok(Err(format!(
                "the response is {size} bytes, over the {} byte limit; raise it with --max-bytes",
                self.max_bytes
            )));
        }
        let schema = match schema_id {
            Some(id) => self.schema(id)?,
            None => None,
        };
        Ok(Ok(Decoded { schema, ..decoded }))
    }

    fn schema(&mut self, id: &str) -> Result<Option<Arc<Value>>, rusqlite::Error> {
        if let Some(known) = self.schemas.get(id) {
            return Ok(known.clone());
        }
        let content: Option<String> = self
            .connection
            .query_row("SELECT content FROM schemas WHERE id = ?1", [id], |row| {
                row.get(0)
            })
            .optional()?;
        let schema = content
            .and_then(|content| serde_json::from_str(&content).ok())
            .map(Arc::new);
        self.schemas.insert(id.to_string(), schema.clone());
        Ok(schema)
    }

    fn responses_page(&self) -> Result<Vec<Row>, rusqlite::Error> {
        let schema = if self.responses_schema {
            "schema_id"
        } else {
            "NULL"
        };
        let sql = format!(
            "SELECT rowid, id, model, response, response_json, {schema} FROM responses \
             WHERE rowid > ?1 ORDER BY rowid LIMIT ?2"
        );
        let mut statement = self.connection.prepare_cached(&sql)?;
        let rows = statement.query_map([self.after, PAGE], |row| {
            let response_json: Option<String> = row.get(4)?;
            let text: Option<String> = row.get(3)?;
            Ok(Row {
                rowid: row.get(0)?,
                id: row.get::<_, Option<String>>(1)?.unwrap_or_default(),
                schema_id: row.get(5)?,
                decoded: Decoded {
                    provider: Some(Provider::Llm),
                    outputs: Outputs::text(text.unwrap_or_default()),
                    stop_reason: response_json.as_deref().and_then(stop_reason),
                    model: row.get(2)?,
                    ..Decoded::default()
                },
            })
        })?;
        rows.collect()
    }

    fn turns_page(&self) -> Result<Vec<Row>, rusqlite::Error> {
        let mut statement = self.connection.prepare_cached(
            "SELECT rowid, id, model, schema_id, response_json, tip_message_hash, \
             parent_message_hash FROM turns WHERE rowid > ?1 ORDER BY rowid LIMIT ?2",
        )?;
        let turns: Vec<Turn> = statement
            .query_map([self.after, PAGE], |row| {
                Ok(Turn {
                    rowid: row.get(0)?,
                    id: row.get::<_, Option<String>>(1)?.unwrap_or_default(),
                    model: row.get(2)?,
                    schema_id: row.get(3)?,
                    response_json: row.get(4)?,
                    tip: row.get(5)?,
                    parent: row.get(6)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        turns.into_iter().map(|turn| self.turn(turn)).collect()
    }

    /// A turn's output: the text parts of its last assistant message, and the tool calls
    /// of all its assistant messages, walking back from the tip to where the turn began.
    fn turn(&self, turn: Turn) -> Result<Row, rusqlite::Error> {
        let mut text: Option<String> = None;
        let mut tools: Vec<ToolCall> = Vec::new();
        let mut hash = turn.tip.clone();
        let mut steps = 0;
        while let Some(current) = hash {
            if Some(&current) == turn.parent.as_ref() || steps > MAX_TURN_MESSAGES {
                break;
            }
            steps += 1;
            let message: Option<(Option<String>, Option<String>)> = self
                .connection
                .prepare_cached("SELECT parent_hash, role FROM messages WHERE hash = ?1")?
                .query_row([&current], |row| Ok((row.get(0)?, row.get(1)?)))
                .optional()?;
            let Some((parent, role)) = message else {
                break;
            };
            if role.as_deref() == Some("assistant") {
                let (message_text, mut calls) = self.parts(&current)?;
                if text.is_none() && !message_text.is_empty() {
                    text = Some(message_text);
                }
                // Walking backwards: earlier calls go in front.
                calls.append(&mut tools);
                tools = calls;
            }
            hash = parent;
        }
        let stop_reason = turn.response_json.as_deref().and_then(stop_reason);
        let stopped_for_tool = matches!(
            stop_reason.as_deref(),
            Some("tool_calls" | "tool_use" | "function_call")
        );
        Ok(Row {
            rowid: turn.rowid,
            id: turn.id,
            schema_id: turn.schema_id,
            decoded: Decoded {
                provider: Some(Provider::Llm),
                outputs: text_or_tool(text.unwrap_or_default(), tools, stopped_for_tool),
                stop_reason,
                model: turn.model,
                ..Decoded::default()
            },
        })
    }

    /// A message's text parts joined in order, and its tool calls' arguments.
    fn parts(&self, message: &str) -> Result<(String, Vec<ToolCall>), rusqlite::Error> {
        let mut statement = self.connection.prepare_cached(
            "SELECT type, text, payload FROM parts WHERE message_hash = ?1 ORDER BY position",
        )?;
        let mut text = String::new();
        let mut tools = Vec::new();
        let rows = statement.query_map([message], |row| {
            Ok((
                row.get::<_, Option<String>>(0)?,
                row.get::<_, Option<String>>(1)?,
                row.get::<_, Option<String>>(2)?,
            ))
        })?;
        for row in rows {
            let (kind, part_text, payload) = row?;
            match kind.as_deref() {
                Some("text") => text.push_str(part_text.as_deref().unwrap_or_default()),
                Some("tool_call") => {
                    let payload: Option<Value> =
                        payload.and_then(|payload| serde_json::from_str(&payload).ok());
                    if let Some(arguments) = payload.as_ref().and_then(|p| p.get("arguments")) {
                        tools.push(match arguments {
                            Value::String(text) => ToolCall {
                                arguments: text.clone(),
                            },
                            other => ToolCall::from_object(other),
                        });
                    }
                }
                // Reasoning is not the answer; tool results and attachments are inputs.
                _ => {}
            }
        }
        Ok((text, tools))
    }
}

/// Messages walked in one turn at most: a guard against a cycle in a damaged database.
const MAX_TURN_MESSAGES: usize = 10_000;

impl Iterator for LlmRecords {
    type Item = Capture;

    fn next(&mut self) -> Option<Capture> {
        if let Err(error) = self.fill() {
            // Report once and stop: a database that fails mid-read is not read further.
            self.table = Table::Done;
            self.pending.clear();
            let why = not_readable(&error);
            return Some(unreadable(
                self.name.clone(),
                &self.path,
                Unreadable::new(why),
            ));
        }
        self.pending.pop_front()
    }
}

struct Row {
    rowid: i64,
    id: String,
    schema_id: Option<String>,
    decoded: Decoded,
}

struct Turn {
    rowid: i64,
    id: String,
    model: Option<String>,
    schema_id: Option<String>,
    response_json: Option<String>,
    tip: Option<String>,
    parent: Option<String>,
}

fn not_readable(error: &rusqlite::Error) -> String {
    format!("cannot read the llm log ({error}); check that it is a complete logs.db")
}

fn table_names(connection: &Connection) -> Result<Vec<String>, rusqlite::Error> {
    let mut statement =
        connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")?;
    let names = statement.query_map([], |row| row.get(0))?;
    names.collect()
}

fn column_names(connection: &Connection, table: &str) -> Result<Vec<String>, rusqlite::Error> {
    let mut statement = connection.prepare(&format!("PRAGMA table_info({table})"))?;
    let names = statement.query_map([], |row| row.get(1))?;
    names.collect()
}

/// The provider's stop reason in a logged response body, wherever its format keeps it.
fn stop_reason(response_json: &str) -> Option<String> {
    let body: Value = serde_json::from_str(response_json).ok()?;
    let candidates = [
        body.get("finish_reason"),
        body.pointer("/choices/0/finish_reason"),
        body.get("stop_reason"),
        body.pointer("/candidates/0/finishReason"),
        body.get("done_reason"),
    ];
    let reason = candidates
        .into_iter()
        .flatten()
        .find_map(|reason| reason.as_str())
        .or_else(|| str_field(&body, "status").filter(|status| *status == "incomplete"))
        .map(str::to_string);
    reason
}

/// An SQLite URI that opens `path` read-only and immutable: no lock, no journal, no write.
fn immutable_uri(path: &Path) -> String {
    let mut uri = String::from("file:");
    for byte in path.to_string_lossy().bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                uri.push(char::from(byte))
            }
            other => uri.push_str(&format!("%{other:02X}")),
        }
    }
    uri.push_str("?mode=ro&immutable=1");
    uri
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_uri_escapes_what_sqlite_would_read_as_syntax() {
        assert_eq!(
            immutable_uri(Path::new("logs/a b?#%.db")),
            "file:logs/a%20b%3F%23%25.db?mode=ro&immutable=1"
        );
    }

    #[test]
    fn stop_reasons_from_each_body_shape() {
        for (body, want) in [
            (r#"{"finish_reason": "length"}"#, Some("length")),
            (r#"{"choices": [{"finish_reason": "stop"}]}"#, Some("stop")),
            (r#"{"stop_reason": "max_tokens"}"#, Some("max_tokens")),
            (
                r#"{"candidates": [{"finishReason": "MAX_TOKENS"}]}"#,
                Some("MAX_TOKENS"),
            ),
            (r#"{"$": "r:abc"}"#, None),
            ("not json", None),
        ] {
            assert_eq!(stop_reason(body).as_deref(), want, "{body}");
        }
    }
}
