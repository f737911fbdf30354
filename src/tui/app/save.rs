//! Saving captures as fixtures (`s`, `S`): the dialog's state and the
//! fixtures it makes. Writing them is an effect; the result comes back as
//! [`Action::SaveDone`](crate::tui::action::Action::SaveDone).

use crate::text::shown_path;
use std::path::PathBuf;

use serde_json::Value;

use crate::capture::RecordedRequest;
use crate::engine::{FailureKind, Layer, Outcome, Verdict};
use crate::fixture::{self, Expectation, Fixture};
use crate::tui::action::{EntryId, Saved};

use super::{App, Entry};

/// Which captures the dialog saves.
#[derive(Debug, Clone, PartialEq)]
pub enum SaveScope {
    One(EntryId),
    /// Every capture under the current filter, each under its suggested name.
    All(Vec<EntryId>),
}

/// What the fixture expects.
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    /// The outcome as it is now: a regression test.
    Current,
    /// A known gap: the engine should accept this value (the lenient reading's).
    OkWith { layer: Layer, value: Value },
    /// A known gap: the engine should fail, with this kind.
    FailAs(FailureKind),
}

impl Expect {
    pub(crate) fn label(&self, outcome: &Outcome) -> String {
        match self {
            Expect::Current => format!("the outcome as it is now: {}", outcome.badge()),
            Expect::OkWith { layer, .. } => format!(
                "known gap: should be ok ({}), with the lenient reading's value",
                layer.as_str()
            ),
            Expect::FailAs(kind) => format!("known gap: should fail as {}", kind.as_str()),
        }
    }
}

/// The save dialog.
#[derive(Debug, Clone, PartialEq)]
pub struct SaveDialog {
    pub scope: SaveScope,
    /// The fixture's name (one capture only; `S` uses suggested names).
    pub name: String,
    pub choices: Vec<Expect>,
    pub choice: usize,
    /// Why the last attempt failed, shown in the dialog.
    pub error: Option<String>,
    /// Where the fixture will be written as the name stands (a taken name
    /// gets a suffix), or why that name cannot be used. One capture only.
    pub(crate) planned: Option<Result<PathBuf, String>>,
}

impl SaveDialog {
    /// The dialog for the selected capture, or why there is none.
    pub(crate) fn one(entry: &Entry) -> Result<SaveDialog, String> {
        if let (Err(unreadable), false) = (&entry.capture.text, has_input(entry)) {
            return Err(format!(
                "{} could not be read, so there is nothing to keep ({})",
                entry.capture.source, unreadable.message
            ));
        }
        let raw = entry.capture.text.as_deref().unwrap_or("");
        Ok(SaveDialog {
            scope: SaveScope::One(entry.id),
            name: suggested_name(entry),
            // Bytes that are not UTF-8 can only be kept as unreadable as they are.
            choices: match entry.capture.text {
                Ok(_) => choices(&entry.outcome, raw),
                Err(_) => vec![Expect::Current],
            },
            choice: 0,
            error: None,
            planned: None,
        })
    }

    /// Work out again where the fixture would go (after the name changed).
    /// Against `taken`, the folder's names as last listed: no look at the disk while
    /// the user types (saving decides for real).
    pub(crate) fn refresh(&mut self, dir: &std::path::Path, taken: &fixture::TakenNames) {
        if matches!(self.scope, SaveScope::One(_)) {
            let name = self.name.trim();
            self.planned = Some(if name.is_empty() {
                Err("type a name for the fixture".to_string())
            } else {
                fixture::planned_path_among(taken, dir, name).map_err(|error| error.to_string())
            });
        }
    }

    /// The dialog for every readable capture in the list.
    pub(crate) fn all(app: &App) -> Result<SaveDialog, String> {
        let ids: Vec<EntryId> = (0..app.entries.view.len())
            .filter_map(|position| app.entries.at(position))
            .filter(|entry| has_input(entry))
            .map(|entry| entry.id)
            .collect();
        if ids.is_empty() {
            return Err("no readable capture in the list to save".to_string());
        }
        Ok(SaveDialog {
            scope: SaveScope::All(ids),
            name: String::new(),
            choices: vec![Expect::Current],
            choice: 0,
            error: None,
            planned: None,
        })
    }

    pub(crate) fn move_choice(&mut self, forward: bool) {
        let len = self.choices.len().max(1);
        self.choice = if forward {
            (self.choice + 1) % len
        } else {
            (self.choice + len - 1) % len
        };
    }

    /// The fixtures to write, one per capture.
    pub(crate) fn fixtures(&self, app: &App) -> Result<Vec<(EntryId, Fixture)>, String> {
        let ids = match &self.scope {
            SaveScope::One(id) => vec![*id],
            SaveScope::All(ids) => ids.clone(),
        };
        let mut fixtures = Vec::with_capacity(ids.len());
        for id in ids {
            let Some(entry) = app.entries.get(id) else {
                continue;
            };
            let name = match &self.scope {
                SaveScope::One(_) => self.name.trim().to_string(),
                SaveScope::All(_) => suggested_name(entry),
            };
            // The schema the value was checked against: `--schema`, else the one its log recorded.
            let schema = app
                .settings
                .checks
                .schema
                .as_deref()
                .map(|schema| schema.document())
                .or(entry.capture.schema.as_deref());
            // The expected outcome is the whole one, also for a slim entry.
            let outcome = app.whole_outcome(entry);
            let mut made =
                fixture::from_capture(&name, &entry.capture, &outcome, &app.options, schema)
                    .map_err(|error| error.to_string())?;
            // A capture `jxray record` saved: the fixture names the request it came from.
            if let Some(Ok(request)) = RecordedRequest::beside(&entry.capture.path) {
                made = made.recorded_with(request.model.clone(), request.digest.clone());
            }
            let expect = self.choices.get(self.choice).unwrap_or(&Expect::Current);
            fixtures.push((id, known_gap(made, expect, &outcome)));
        }
        Ok(fixtures)
    }
}

/// Whether a capture has an input a fixture can keep: its text, or bytes that are not
/// UTF-8 (kept as they are, `input_base64`); anything else unreadable has none.
fn has_input(entry: &Entry) -> bool {
    match &entry.capture.text {
        Ok(_) => true,
        Err(unreadable) => unreadable.bytes.is_some(),
    }
}

/// The expectations a user can pick for this outcome: as it is, and the gaps that make sense.
fn choices(outcome: &Outcome, raw: &str) -> Vec<Expect> {
    let mut choices = vec![Expect::Current];
    if !outcome.ok() {
        if let Some(reading) = &outcome.lenient {
            if let Some(value) = &reading.value {
                choices.push(Expect::OkWith {
                    layer: candidate_layer(outcome, reading.span, raw),
                    value: value.clone(),
                });
            }
        }
    }
    let current = outcome.failure.as_ref().map(|f| f.kind);
    for kind in [
        FailureKind::Truncated,
        FailureKind::Invalid,
        FailureKind::NoJson,
    ] {
        if current != Some(kind) {
            choices.push(Expect::FailAs(kind));
        }
    }
    choices
}

/// The layer the lenient reading's candidate was found in: what the engine
/// would report if it learnt to accept it. Layers are tried cheapest first,
/// so the first rejected candidate (in trace order) that holds the reading
/// wins: a fence holding it beats the scan that found the same braces inside
/// the fence. The direct layer holds it only when the reading is the whole text.
fn candidate_layer(outcome: &Outcome, span: (usize, usize), raw: &str) -> Layer {
    let whole_text = raw
        .get(..span.0)
        .is_some_and(|before| before.trim().is_empty())
        && raw
            .get(span.1..)
            .is_some_and(|after| after.trim().is_empty());
    outcome
        .trace
        .iter()
        .find(|attempt| {
            let holds = attempt.span.0 <= span.0 && span.1 <= attempt.span.1;
            let fits = match attempt.layer {
                Layer::Direct => whole_text,
                Layer::Fenced | Layer::Scanned => holds,
                // A lenient reading (or a layer this build does not know) is no place to save.
                _ => false,
            };
            fits && matches!(attempt.verdict, Verdict::Rejected { .. })
        })
        .map_or(Layer::Scanned, |attempt| attempt.layer)
}

fn known_gap(made: Fixture, expect: &Expect, outcome: &Outcome) -> Fixture {
    let (expectation, wanted) = match expect {
        Expect::Current => return made,
        Expect::OkWith { layer, value } => (
            Expectation::ok(*layer, value.clone()),
            format!("ok ({})", layer.as_str()),
        ),
        Expect::FailAs(kind) => (Expectation::fail(*kind, None), kind.as_str().to_string()),
    };
    let note = format!(
        "saved from jxray's TUI as a known gap: the engine says {}, it should say {wanted}",
        outcome.badge()
    );
    made.into_known_gap(expectation, Some(note))
}

/// The footer's words for a finished save.
pub(super) fn summary(results: &[(EntryId, Saved)]) -> (String, bool) {
    let new: Vec<&PathBuf> = results
        .iter()
        .filter_map(|(_, saved)| match saved {
            Saved::New(path) => Some(path),
            _ => None,
        })
        .collect();
    let existing: Vec<&PathBuf> = results
        .iter()
        .filter_map(|(_, saved)| match saved {
            Saved::Existing(path) => Some(path),
            _ => None,
        })
        .collect();
    let failed: Vec<&String> = results
        .iter()
        .filter_map(|(_, saved)| match saved {
            Saved::Failed(message) => Some(message),
            _ => None,
        })
        .collect();
    if let [only] = results {
        return match &only.1 {
            Saved::New(path) => (format!("saved {}", shown_path(&path)), false),
            Saved::Existing(path) => (
                format!("already a fixture: {} (nothing written)", shown_path(&path)),
                false,
            ),
            Saved::Failed(message) => (message.clone(), true),
        };
    }
    let mut text = format!("saved {} fixture(s)", new.len());
    if let Some(first) = new.first() {
        let folder = first
            .parent()
            .map(|p| shown_path(&p).to_string())
            .unwrap_or_default();
        text.push_str(&format!(" in {folder}"));
    }
    if !existing.is_empty() {
        text.push_str(&format!("; {} already fixtures", existing.len()));
    }
    if let Some(first) = failed.first() {
        text.push_str(&format!("; {} failed: {first}", failed.len()));
    }
    (text, !failed.is_empty())
}

/// The fixture name suggested for `entry`: from its source, led by the question it
/// answers when its request was recorded.
fn suggested_name(entry: &Entry) -> String {
    fixture::suggest_name(&entry.capture.source, entry.question())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layer_of(raw: &str) -> Option<Layer> {
        let outcome = crate::engine::extract(raw, &crate::engine::Options::default());
        choices(&outcome, raw)
            .into_iter()
            .find_map(|choice| match choice {
                Expect::OkWith { layer, .. } => Some(layer),
                _ => None,
            })
    }

    #[test]
    fn a_known_gap_expects_the_layer_the_lenient_candidate_came_from() {
        let fenced = "Invoice:\n```json\n{\"total\": 12, \"items\": [1, 2,],}\n```\nDone.";
        assert_eq!(layer_of(fenced), Some(Layer::Fenced));
        assert_eq!(layer_of("{\"a\": 1,}"), Some(Layer::Direct));
        assert_eq!(layer_of("Here: {\"a\": 1,} ok"), Some(Layer::Scanned));
    }
}
