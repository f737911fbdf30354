//! The rows of an `llm` log, a page at a time, each column's size asked of SQLite before
//! the column is read: `CASE WHEN octet_length(c) <= LIMIT THEN c END` reads only the
//! length of a value over the limit (SQLite keeps large values on overflow pages and does
//! not load them for `octet_length`), so a huge response costs nothing but its refusal.

use rusqlite::types::FromSql;
use rusqlite::{params, Connection, OptionalExtension};

use super::super::disk::{max_bytes_fix, too_large};
use super::super::envelope::{text_or_tool, Contents, Outputs, ToolCall};
use super::super::Provider;
use super::body;

/// Rows read per query.
const PAGE: i64 = 256;

/// The longest id, model, schema id or message hash read; a longer one is left out (an
/// id falls back to the row number): no real log has one, and a damaged one must not make
/// jxray hold it.
const MAX_NAME_BYTES: i64 = 4096;

/// Messages walked in one turn at most: a guard against a cycle in a damaged database.
const MAX_TURN_MESSAGES: usize = 10_000;

/// One logged response: what it holds (or why it cannot be read) and the schema it asked for.
pub(super) struct LogRow {
    pub(crate) rowid: i64,
    pub(crate) id: String,
    pub(crate) schema_id: Option<String>,
    pub(crate) decoded: Result<Contents, String>,
}

/// How many bytes of output one record may still read (`--max-bytes`).
#[derive(Debug, Clone, Copy)]
pub(super) struct Budget {
    max_bytes: u64,
    used: u64,
}

impl Budget {
    pub(super) fn new(max_bytes: u64) -> Budget {
        Budget { max_bytes, used: 0 }
    }

    /// The limit as SQL sees it.
    fn limit(&self) -> i64 {
        i64::try_from(self.max_bytes).unwrap_or(i64::MAX)
    }

    /// Count a column of `size` bytes (`None`: NULL) named `what`; over the limit is this
    /// record's failure.
    fn spend(&mut self, what: &str, size: Option<i64>) -> Result<(), String> {
        let size = size.and_then(|size| u64::try_from(size).ok()).unwrap_or(0);
        self.used = self.used.saturating_add(size);
        if self.used > self.max_bytes {
            let why = too_large(Some(self.used), self.max_bytes, &max_bytes_fix);
            return Err(format!("{what}: {}", why.message));
        }
        Ok(())
    }
}

/// `column` when it holds at most `limit` (an SQL parameter) bytes, else NULL.
fn bounded(column: &str, limit: &str) -> String {
    format!("CASE WHEN octet_length({column}) <= {limit} THEN {column} END")
}

/// Column `index` of `row`, named `what` when it cannot be read (a value of another type
/// in a damaged log is that record's failure, not the file's).
fn column<T: FromSql>(row: &rusqlite::Row, index: usize, what: &str) -> Result<T, String> {
    row.get(index)
        .map_err(|error| format!("{what} cannot be read ({error}); check the log"))
}

/// `column` when it is a short name (an id, a model, a hash), else NULL.
fn short(column: &str) -> String {
    format!("CASE WHEN octet_length({column}) <= {MAX_NAME_BYTES} THEN {column} END")
}

/// A page of the `responses` table (llm before 0.32) after `after`.
pub(super) fn responses(
    connection: &Connection,
    after: i64,
    budget: Budget,
    has_schema: bool,
) -> rusqlite::Result<Vec<LogRow>> {
    let schema = if has_schema {
        short("schema_id")
    } else {
        "NULL".to_string()
    };
    let sql = format!(
        "SELECT rowid, {}, {}, octet_length(response), {}, octet_length(response_json), {}, \
         {schema} FROM responses WHERE rowid > ?1 ORDER BY rowid LIMIT ?2",
        short("id"),
        short("model"),
        bounded("response", "?3"),
        bounded("response_json", "?3"),
    );
    let mut statement = connection.prepare_cached(&sql)?;
    let rows = statement.query_map(params![after, PAGE, budget.limit()], |row| {
        let rowid: i64 = row.get(0)?;
        let decoded = (|| {
            let mut response_budget = budget;
            response_budget.spend("the response", column(row, 3, "the response")?)?;
            let text: Option<String> = column(row, 4, "the response")?;
            let body = (
                column(row, 5, "the response_json")?,
                column(row, 6, "the response_json")?,
            );
            Ok(Contents {
                provider: Some(Provider::Llm),
                outputs: Outputs::text(text.unwrap_or_default()),
                stop_reason: stop_reason(budget, body)?,
                model: column(row, 2, "the model")?,
                ..Contents::default()
            })
        })();
        Ok(LogRow {
            rowid,
            id: id_or_rowid(row.get(1).ok().flatten(), rowid),
            schema_id: row.get(7).ok().flatten(),
            decoded,
        })
    })?;
    rows.collect()
}

/// The stop reason in a `response_json` of `(size, text)`, the body bounded like any input.
fn stop_reason(
    mut budget: Budget,
    (size, text): (Option<i64>, Option<String>),
) -> Result<Option<String>, String> {
    budget.spend("the response_json", size)?;
    Ok(text.as_deref().and_then(body::stop_reason))
}

fn id_or_rowid(id: Option<String>, rowid: i64) -> String {
    id.unwrap_or_else(|| rowid.to_string())
}

/// A turn as its row says: where its messages are.
struct Turn {
    rowid: i64,
    id: String,
    model: Option<String>,
    schema_id: Option<String>,
    body: (Option<i64>, Option<String>),
    tip: Option<String>,
    parent: Option<String>,
}

/// A page of the `turns` table (llm 0.32 and later) after `after`, each turn's output read.
pub(super) fn turns(
    connection: &Connection,
    after: i64,
    budget: Budget,
) -> rusqlite::Result<Vec<LogRow>> {
    let sql = format!(
        "SELECT rowid, {}, {}, {}, octet_length(response_json), {}, {}, {} FROM turns \
         WHERE rowid > ?1 ORDER BY rowid LIMIT ?2",
        short("id"),
        short("model"),
        short("schema_id"),
        bounded("response_json", "?3"),
        short("tip_message_hash"),
        short("parent_message_hash"),
    );
    let mut statement = connection.prepare_cached(&sql)?;
    let turns: Vec<Turn> = statement
        .query_map(params![after, PAGE, budget.limit()], |row| {
            let rowid = row.get(0)?;
            Ok(Turn {
                rowid,
                id: id_or_rowid(row.get(1).ok().flatten(), rowid),
                model: row.get(2).ok().flatten(),
                schema_id: row.get(3).ok().flatten(),
                body: (row.get(4).ok().flatten(), row.get(5).ok().flatten()),
                tip: row.get(6).ok().flatten(),
                parent: row.get(7).ok().flatten(),
            })
        })?
        .collect::<Result<_, _>>()?;
    turns
        .into_iter()
        .map(|turn| read_turn(connection, turn, budget))
        .collect()
}

/// A turn's output: the text parts of its last assistant message, and the tool calls
/// of all its assistant messages, walking back from the tip to where the turn began.
fn read_turn(connection: &Connection, turn: Turn, budget: Budget) -> rusqlite::Result<LogRow> {
    let decoded = match turn_outputs(connection, &turn, budget)? {
        Ok((text, tools)) => stop_reason(budget, turn.body).map(|stop_reason| {
            let stopped_for_tool = matches!(
                stop_reason.as_deref(),
                Some("tool_calls" | "tool_use" | "function_call")
            );
            Contents {
                provider: Some(Provider::Llm),
                outputs: text_or_tool(text.unwrap_or_default(), tools, stopped_for_tool),
                stop_reason,
                model: turn.model,
                ..Contents::default()
            }
        }),
        Err(why) => Err(why),
    };
    Ok(LogRow {
        rowid: turn.rowid,
        id: turn.id,
        schema_id: turn.schema_id,
        decoded,
    })
}

type TurnOutputs = Result<(Option<String>, Vec<ToolCall>), String>;

fn turn_outputs(
    connection: &Connection,
    turn: &Turn,
    mut budget: Budget,
) -> rusqlite::Result<TurnOutputs> {
    let mut text: Option<String> = None;
    let mut tools: Vec<ToolCall> = Vec::new();
    let mut hash = turn.tip.clone();
    let mut steps = 0;
    while let Some(current) = hash {
        if Some(&current) == turn.parent.as_ref() || steps > MAX_TURN_MESSAGES {
            break;
        }
        steps += 1;
        let sql = format!(
            "SELECT {}, CASE WHEN octet_length(role) = 9 THEN role = 'assistant' ELSE 0 END \
             FROM messages WHERE hash = ?1",
            short("parent_hash")
        );
        let message: Option<(Option<String>, Option<bool>)> = connection
            .prepare_cached(&sql)?
            .query_row([&current], |row| {
                Ok((row.get(0).ok().flatten(), row.get(1).ok().flatten()))
            })
            .optional()?;
        let Some((parent, assistant)) = message else {
            break;
        };
        if assistant == Some(true) {
            let (message_text, mut calls) = match parts(connection, &current, &mut budget)? {
                Ok(parts) => parts,
                Err(why) => return Ok(Err(why)),
            };
            if text.is_none() && !message_text.is_empty() {
                text = Some(message_text);
            }
            // Walking backwards: earlier calls go in front.
            calls.append(&mut tools);
            tools = calls;
        }
        hash = parent;
    }
    Ok(Ok((text, tools)))
}

/// A message's text parts joined in order, and its tool calls' arguments, counted
/// against the record's budget.
fn parts(
    connection: &Connection,
    message: &str,
    budget: &mut Budget,
) -> rusqlite::Result<Result<(String, Vec<ToolCall>), String>> {
    let sql = format!(
        "SELECT {}, octet_length(text), {}, octet_length(payload), {} FROM parts \
         WHERE message_hash = ?1 ORDER BY position",
        short("type"),
        bounded("text", "?2"),
        bounded("payload", "?2"),
    );
    let mut statement = connection.prepare_cached(&sql)?;
    let mut text = String::new();
    let mut tools = Vec::new();
    let mut rows = statement.query(params![message, budget.limit()])?;
    while let Some(row) = rows.next()? {
        if let Err(why) = part(row, budget, &mut text, &mut tools) {
            return Ok(Err(why));
        }
    }
    Ok(Ok((text, tools)))
}

/// One part: a text part's text appended to `text`, a tool call's arguments to `tools`.
fn part(
    row: &rusqlite::Row,
    budget: &mut Budget,
    text: &mut String,
    tools: &mut Vec<ToolCall>,
) -> Result<(), String> {
    let kind: Option<String> = row.get(0).ok().flatten();
    match kind.as_deref() {
        Some("text") => {
            budget.spend("the response text", column(row, 1, "a text part")?)?;
            let part: Option<String> = column(row, 2, "a text part")?;
            text.push_str(part.as_deref().unwrap_or_default());
        }
        Some("tool_call") => {
            // The payload holds more than the arguments; only they count as output.
            Budget::new(budget.max_bytes)
                .spend("a tool call's payload", column(row, 3, "a tool call")?)?;
            let payload: Option<String> = column(row, 4, "a tool call")?;
            if let Some(call) = payload.as_deref().and_then(body::tool_call) {
                budget.spend("the tool calls", i64::try_from(call.arguments.len()).ok())?;
                tools.push(call);
            }
        }
        // Reasoning is not the answer; tool results and attachments are inputs.
        _ => {}
    }
    Ok(())
}
