//! The `llm` CLI's `logs.db`: one capture per logged response, named `FILE#ID`.
//!
//! The database is read as any reader of it sees it, rows its writer still holds in the
//! write-ahead log included, and never written ([`open`] says how). Two generations of
//! tables are read:
//! - older versions keep each response in `responses` (`response` is the text);
//! - current versions keep `turns`, whose assistant `messages` hold `parts`: the `text`
//!   parts, by `position`, are the text (`reasoning` parts are skipped, like a `<think>`
//!   block), and each `tool_call` part's `payload.arguments` is a capture of its own.
//!
//! The model is the row's `model`; the stop reason is the provider's `finish_reason` /
//! `stop_reason` / `finishReason` / `done_reason` where `response_json` keeps one; the
//! schema the user asked for (`schema_id` -> `schemas.content`) is checked as if given
//! with `--schema`. Rows are read a page at a time, so a large log is never held whole,
//! and every column's size is asked of SQLite before the column is read: a response over
//! `--max-bytes` is that record's failure, read no further than its length.

mod body;
mod open;
mod rows;

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rusqlite::{Connection, OptionalExtension};
use serde_json::Value;

use super::disk::MAX_SCHEMA_BYTES;
use super::envelope::Contents;
use super::reader::{Reader, Records};
use super::{Capture, LoadOptions, Unreadable};
use rows::{Budget, LogRow};

const SQLITE_MAGIC: &[u8] = b"SQLite format 3\0";

pub(super) struct LlmLogs;

impl Reader for LlmLogs {
    /// Any SQLite database: one without llm's tables is reported, not skipped.
    fn detect(&self, _path: &Path, head: &[u8]) -> bool {
        head.starts_with(SQLITE_MAGIC)
    }

    fn records(&self, path: &Path, name: &str, options: &LoadOptions) -> Records {
        match LlmRecords::open(path, name, options.max_bytes) {
            Ok(records) => Box::new(records),
            Err(why) => {
                let capture = Capture::unreadable(name.to_string(), path, Unreadable::new(why));
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
    opened: open::Opened,
    table: Table,
    has_turns: bool,
    /// Whether `responses` has a `schema_id` column (versions before schemas lack it).
    responses_schema: bool,
    /// The last rowid read from the current table.
    after: i64,
    pending: VecDeque<Capture>,
    schemas: HashMap<String, Result<Option<Arc<Value>>, String>>,
    name: String,
    path: PathBuf,
    max_bytes: u64,
}

impl LlmRecords {
    fn open(path: &Path, name: &str, max_bytes: u64) -> Result<LlmRecords, String> {
        let opened = open::open(path)?;
        let connection = &opened.connection;
        let tables = table_names(connection).map_err(|error| not_readable(&error))?;
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
            && column_names(connection, "responses")
                .map_err(|error| not_readable(&error))?
                .iter()
                .any(|column| column == "schema_id");
        Ok(LlmRecords {
            opened,
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

    fn connection(&self) -> &Connection {
        &self.opened.connection
    }

    /// Read the next page of the current table into `pending`; move on when it is empty.
    fn fill(&mut self) -> Result<(), rusqlite::Error> {
        while self.pending.is_empty() && self.table != Table::Done {
            let budget = Budget::new(self.max_bytes);
            let rows = match self.table {
                Table::Responses => {
                    rows::responses(self.connection(), self.after, budget, self.responses_schema)?
                }
                Table::Turns => rows::turns(self.connection(), self.after, budget)?,
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
                let name = format!("{}#{}", self.name, row.id);
                let decoded = self.with_schema(row)?;
                self.pending
                    .extend(Capture::decoded(&name, &self.path, None, decoded));
            }
        }
        Ok(())
    }

    /// The row's output with the schema it was asked for.
    fn with_schema(&mut self, row: LogRow) -> Result<Result<Contents, String>, rusqlite::Error> {
        let LogRow {
            decoded, schema_id, ..
        } = row;
        let Ok(decoded) = decoded else {
            return Ok(decoded);
        };
        let schema = match schema_id {
            Some(id) => self.schema(&id)?,
            None => Ok(None),
        };
        Ok(schema.map(|schema| Contents { schema, ..decoded }))
    }

    /// The schema `id` names, read once however many rows ask for it.
    fn schema(&mut self, id: &str) -> Result<Result<Option<Arc<Value>>, String>, rusqlite::Error> {
        if let Some(known) = self.schemas.get(id) {
            return Ok(known.clone());
        }
        let content: Option<(Option<i64>, Option<String>)> = self
            .connection()
            .query_row(
                "SELECT octet_length(content), \
                 CASE WHEN octet_length(content) <= ?2 THEN content END \
                 FROM schemas WHERE id = ?1",
                rusqlite::params![id, MAX_SCHEMA_BYTES as i64],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .optional()?;
        let schema = match content {
            Some((Some(size), None)) => Err(format!(
                "the schema the log recorded is {size} bytes, over the {MAX_SCHEMA_BYTES} \
                 bytes a schema may be; pass --schema to check against another"
            )),
            Some((_, content)) => Ok(content
                .and_then(|content| serde_json::from_str(&content).ok())
                .map(Arc::new)),
            None => Ok(None),
        };
        self.schemas.insert(id.to_string(), schema.clone());
        Ok(schema)
    }
}

impl Iterator for LlmRecords {
    type Item = Capture;

    fn next(&mut self) -> Option<Capture> {
        if let Err(error) = self.fill() {
            // Report once and stop: a database that fails mid-read is not read further.
            self.table = Table::Done;
            self.pending.clear();
            let why = not_readable(&error);
            return Some(Capture::unreadable(
                self.name.clone(),
                &self.path,
                Unreadable::new(why),
            ));
        }
        self.pending.pop_front()
    }
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
