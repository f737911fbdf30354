//! Inspect AI eval logs: `.eval` (a zip of JSON entries, zstd- or deflate-compressed, one
//! `samples/ID_epoch_N.json` per sample, the model in `header.json`) and `.json` (one
//! document with `eval` and `samples`).
//!
//! Per sample: the text is `output.completion` (else the text parts of
//! `output.choices[0].message.content`), tool calls are `output.choices[0].message
//! .tool_calls[].arguments`, the stop reason is `output.choices[0].stop_reason`. Inspect
//! moves long strings out of a sample into its `attachments` and leaves
//! `attachment://HASH` in their place; those are put back. A sample is named `FILE#ID`
//! (`FILE#ID-epoch-N` for epochs after the first). `.eval` files are read one sample at a
//! time, so a large log never sits whole in memory.

mod archive;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::envelope::{compact, str_field, text_or_tool, Contents, LogRecord, ToolCall};
use super::reader::{has_extension, Reader, Records};
use super::{Capture, LoadOptions, Provider, Unreadable};
use archive::{Archive, Refused};

const ZIP_MAGIC: &[u8] = b"PK\x03\x04";
const ATTACHMENT: &str = "attachment://";

pub(super) struct InspectEval;

impl Reader for InspectEval {
    /// A zip named `.eval`.
    fn detect(&self, path: &Path, head: &[u8]) -> bool {
        head.starts_with(ZIP_MAGIC) && has_extension(path, "eval")
    }

    fn records(&self, path: &Path, name: &str, options: &LoadOptions) -> Records {
        match EvalSamples::open(path, name, options.max_bytes) {
            Ok(samples) if samples.entries.as_slice().is_empty() => {
                let why = "an Inspect log with no samples: the eval ran none, or is still \
                           running; check it again when it has finished";
                one(name, path, why.to_string())
            }
            Ok(samples) => Box::new(samples),
            Err(why) => one(name, path, why),
        }
    }
}

fn one(name: &str, path: &Path, why: String) -> Records {
    let capture = Capture::unreadable(name.to_string(), path, Unreadable::new(why));
    Box::new(std::iter::once(capture))
}

/// The samples of a `.eval` file, read one entry at a time.
struct EvalSamples {
    archive: Archive,
    /// Sample entry names with the record id each is named by, in sample order.
    entries: std::vec::IntoIter<(String, String)>,
    model: Option<String>,
    name: String,
    path: PathBuf,
    /// Captures of the last sample read, not yet handed out.
    pending: VecDeque<Capture>,
}

impl EvalSamples {
    fn open(path: &Path, name: &str, max_bytes: u64) -> Result<EvalSamples, String> {
        let mut archive = Archive::open(path, max_bytes)?;
        let mut entries: Vec<(SampleKey, String)> = archive
            .names()
            .into_iter()
            .filter_map(|entry| Some((SampleKey::of(&entry)?, entry)))
            .collect();
        entries.sort();
        let entries: Vec<(String, String)> = entries
            .into_iter()
            .map(|(key, entry)| (entry, key.id()))
            .collect();
        let model = ["header.json", "_journal/start.json"]
            .into_iter()
            .find_map(|entry| archive.json(entry).ok())
            .and_then(|header| eval_model(&header));
        Ok(EvalSamples {
            archive,
            entries: entries.into_iter(),
            model,
            name: name.to_string(),
            path: path.to_path_buf(),
            pending: VecDeque::new(),
        })
    }
}

impl Iterator for EvalSamples {
    type Item = Capture;

    fn next(&mut self) -> Option<Capture> {
        if let Some(capture) = self.pending.pop_front() {
            return Some(capture);
        }
        let (entry, id) = self.entries.next()?;
        let name = format!("{}#{id}", self.name);
        let why = match self.archive.json(&entry) {
            Ok(sample) => {
                let decoded = decode(&sample, self.model.as_deref());
                // A sample with several tool calls is several captures.
                self.pending = Capture::decoded(&name, &self.path, None, decoded).into();
                return self.pending.pop_front();
            }
            Err(Refused::Entry(why)) => why,
            Err(Refused::Spent(why)) => {
                // The rest of the archive is not read: this sample says so for all of them.
                self.entries = Vec::new().into_iter();
                why
            }
        };
        Some(Capture::unreadable(name, &self.path, Unreadable::new(why)))
    }
}

/// Sample entries sort by id (numbers as numbers) and epoch.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct SampleKey {
    number: Option<u64>,
    id: String,
    epoch: u64,
}

impl SampleKey {
    /// `samples/ID_epoch_N.json`.
    fn of(entry: &str) -> Option<SampleKey> {
        let stem = entry.strip_prefix("samples/")?.strip_suffix(".json")?;
        let (id, epoch) = stem.rsplit_once("_epoch_")?;
        Some(SampleKey {
            number: id.parse().ok(),
            id: id.to_string(),
            epoch: epoch.parse().ok()?,
        })
    }

    fn id(&self) -> String {
        sample_name(&self.id, self.epoch)
    }
}

fn sample_name(id: &str, epoch: u64) -> String {
    match epoch {
        0 | 1 => id.to_string(),
        _ => format!("{id}-epoch-{epoch}"),
    }
}

/// `eval.model` of a log header (`openai/gpt-4o`).
fn eval_model(header: &Value) -> Option<String> {
    str_field(header.get("eval")?, "model").map(str::to_string)
}

/// The samples of a `.json` log: `{"eval": {…}, "samples": […]}`.
pub(super) fn json_log(value: &Value) -> Option<Vec<LogRecord>> {
    let eval = value
        .get("eval")
        .filter(|eval| eval.get("task").is_some())?;
    let samples = value.get("samples")?.as_array()?;
    let model = str_field(eval, "model");
    let records = samples
        .iter()
        .map(|sample| {
            let id = sample.get("id").map(id_text);
            let epoch = sample.get("epoch").and_then(Value::as_u64).unwrap_or(1);
            LogRecord {
                id: id.map(|id| sample_name(&id, epoch)),
                result: decode(sample, model),
            }
        })
        .collect();
    Some(records)
}

fn id_text(id: &Value) -> String {
    match id {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// One sample's output.
fn decode(sample: &Value, log_model: Option<&str>) -> Result<Contents, String> {
    let sample = resolve_attachments(sample);
    let output = sample.get("output").filter(|output| output.is_object());
    let choice = output.and_then(|output| output.pointer("/choices/0"));
    let message = choice.and_then(|choice| choice.get("message"));
    let mut text = output
        .and_then(|output| str_field(output, "completion"))
        .unwrap_or_default()
        .to_string();
    if text.is_empty() {
        text = message.map(message_text).unwrap_or_default();
    }
    let tools: Vec<ToolCall> = message
        .and_then(|message| message.get("tool_calls"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|call| call.get("arguments"))
        .map(ToolCall::from_object)
        .collect();
    if text.is_empty() && tools.is_empty() {
        let error = sample
            .get("error")
            .or_else(|| output.and_then(|output| output.get("error")))
            .and_then(|error| str_field(error, "message").or_else(|| error.as_str()));
        if let Some(error) = error {
            return Err(format!(
                "Inspect sample without output: it failed ({}); fix the error and re-run it",
                error.lines().next().unwrap_or_default()
            ));
        }
    }
    let stop_reason = choice
        .and_then(|choice| str_field(choice, "stop_reason"))
        .map(str::to_string);
    let stopped_for_tool = stop_reason.as_deref() == Some("tool_calls");
    let model = output
        .and_then(|output| str_field(output, "model"))
        .or(log_model)
        .map(str::to_string);
    Ok(Contents {
        provider: Some(Provider::Inspect),
        outputs: text_or_tool(text, tools, stopped_for_tool),
        stop_reason,
        model,
        ..Contents::default()
    })
}

/// A chat message's text: a string, or its `text` parts (reasoning parts are skipped).
fn message_text(message: &Value) -> String {
    match message.get("content") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter(|part| str_field(part, "type") == Some("text"))
            .filter_map(|part| str_field(part, "text"))
            .collect(),
        Some(other @ Value::Object(_)) => compact(other),
        _ => String::new(),
    }
}

/// The sample with every `attachment://HASH` string replaced by the attachment it names.
fn resolve_attachments(sample: &Value) -> Value {
    let Some(attachments) = sample.get("attachments").and_then(Value::as_object) else {
        return sample.clone();
    };
    let mut resolved = sample.clone();
    // Only the output matters here: the input and events can be large and are not read.
    if let Some(output) = resolved.get_mut("output") {
        let mut pending = vec![output];
        while let Some(value) = pending.pop() {
            match value {
                Value::String(text) => {
                    let found = text
                        .strip_prefix(ATTACHMENT)
                        .and_then(|hash| attachments.get(hash))
                        .and_then(Value::as_str);
                    if let Some(found) = found {
                        *text = found.to_string();
                    }
                }
                Value::Array(items) => pending.extend(items.iter_mut()),
                Value::Object(object) => pending.extend(object.values_mut()),
                _ => {}
            }
        }
    }
    resolved
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sample_entries_sort_by_number_then_epoch() {
        let mut keys: Vec<SampleKey> = [
            "samples/10_epoch_1.json",
            "samples/2_epoch_2.json",
            "samples/2_epoch_1.json",
            "header.json",
        ]
        .into_iter()
        .filter_map(SampleKey::of)
        .collect();
        keys.sort();
        let ids: Vec<String> = keys.iter().map(SampleKey::id).collect();
        assert_eq!(ids, ["2", "2-epoch-2", "10"]);
    }

    #[test]
    fn attachments_are_put_back_and_tool_calls_are_captures() {
        let sample = json!({
            "id": 1, "epoch": 1,
            "output": {"model": "m", "completion": "attachment://abc",
                       "choices": [{"message": {"role": "assistant", "content": "attachment://abc"},
                                    "stop_reason": "max_tokens"}]},
            "attachments": {"abc": "{\"a\": [1, 2"}
        });
        let decoded = decode(&sample, Some("log/model")).unwrap();
        assert_eq!(decoded.outputs.text.as_deref(), Some("{\"a\": [1, 2"));
        assert_eq!(decoded.stop_reason.as_deref(), Some("max_tokens"));
        assert_eq!(decoded.model.as_deref(), Some("m"));

        let calls = json!({"output": {"completion": "", "choices": [{"message": {
            "content": "", "tool_calls": [{"function": "f", "arguments": {"x": 1}},
                                          {"function": "g", "arguments": {"y": 2}}]},
            "stop_reason": "tool_calls"}]}});
        let decoded = decode(&calls, None).unwrap();
        assert_eq!(decoded.outputs.calls, ["{\"x\":1}", "{\"y\":2}"]);
        assert_eq!(decoded.outputs.text, None);
    }

    #[test]
    fn a_failed_sample_says_why() {
        let sample = json!({"output": {"completion": "", "choices": []},
                            "error": {"message": "RuntimeError: boom\ntrace"}});
        let why = decode(&sample, None).unwrap_err();
        assert!(
            why.contains("RuntimeError: boom") && !why.contains("trace"),
            "{why}"
        );
    }
}
