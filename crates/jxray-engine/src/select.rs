//! Choosing among the candidates that parsed, the way a careful reader would.

use super::candidate::Parsed;
use super::options::{Acceptor, Options, Pick};
use super::outcome::Warning;
use super::trace::Slot;

/// A parsed candidate and where its trace entry is.
pub(crate) struct Entry {
    pub parsed: Parsed,
    pub slot: Slot,
    /// Where the candidate's container ends (a fence's closing marker line),
    /// so that only what follows it counts as trailing prose.
    pub outer_end: usize,
    /// A warning that goes with this candidate if it wins.
    pub remark: Option<Warning>,
}

/// The chosen candidate, the ones that lost (with why), and whether values differed.
pub(crate) struct Winner {
    pub entry: Entry,
    pub losers: Vec<(Slot, String)>,
    pub several_distinct: bool,
    /// Where a JSON Schema echoed before the answer was passed over.
    pub echo_passed: Option<usize>,
    /// The winner is a JSON Schema that no other candidate followed.
    pub echo_alone: bool,
    /// The winner was found to be no JSON Schema when it was added.
    pub not_a_schema: bool,
}

/// Collects parsed candidates; keeps only what the policy may still pick.
///
/// "Demoted" candidates (a citation like `[1]` inside a sentence, a value
/// inside `{{…}}` template braces, one that fails the caller's test) are picked
/// only when nothing better parsed. A JSON Schema that comes first is the
/// prompt's own schema echoed: it is passed over as soon as another candidate follows.
pub(crate) struct Pool<'o> {
    pick: Pick,
    acceptor: Option<&'o Acceptor>,
    primary: Option<Entry>,
    demoted: Option<Entry>,
    echo: Option<Entry>,
    echo_passed: Option<usize>,
    /// The span of the first candidate, found to be no JSON Schema.
    not_a_schema: Option<(usize, usize)>,
    several_distinct: bool,
    /// Trace slots of candidates that lost, with why.
    losers: Vec<(Slot, String)>,
}

impl<'o> Pool<'o> {
    pub(crate) fn new(options: &'o Options) -> Pool<'o> {
        Pool {
            pick: options.pick,
            acceptor: options.acceptor.as_ref(),
            primary: None,
            demoted: None,
            echo: None,
            echo_passed: None,
            not_a_schema: None,
            several_distinct: false,
            losers: Vec::new(),
        }
    }

    pub(crate) fn add(&mut self, entry: Entry, demoted_because: Option<String>) {
        let first = self.is_empty() && self.echo.is_none();
        if first && self.pick == Pick::First {
            if entry.parsed.value.is_json_schema() {
                self.echo = Some(entry);
                return;
            }
            self.not_a_schema = Some(entry.parsed.span);
        }
        if let Some(echo) = self.echo.take() {
            self.echo_passed = Some(echo.parsed.span.0);
            self.losers.push((
                echo.slot,
                "a JSON Schema (the prompt's own, echoed) before the answer".to_owned(),
            ));
        }
        let demoted_because = demoted_because.or_else(|| {
            let acceptor = self.acceptor?;
            (!entry.parsed.value.passes(acceptor)).then(|| "fails the schema".to_owned())
        });
        // Comparing with what is held is enough to see two distinct values
        // (equality is transitive), and never copies a value.
        let differs = [&self.primary, &self.demoted]
            .into_iter()
            .flatten()
            .any(|held| !held.parsed.value.same_as(&entry.parsed.value));
        self.several_distinct |= differs;
        let held = match demoted_because {
            None => &mut self.primary,
            Some(_) => &mut self.demoted,
        };
        let keep_new = match self.pick {
            Pick::First => held.is_none(),
            Pick::Last => true,
        };
        let lost = if keep_new {
            held.replace(entry).map(|old| old.slot)
        } else {
            Some(entry.slot)
        };
        // Why it lost is written only when one did.
        if let Some(slot) = lost {
            let reason = demoted_because.unwrap_or_else(|| pick_reason(self.pick));
            self.losers.push((slot, reason));
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.primary.is_none() && self.demoted.is_none() && self.echo.is_none()
    }

    /// The winner; a demoted candidate wins only alone.
    pub(crate) fn winner(mut self) -> Option<Winner> {
        let echo_alone = self.primary.is_none() && self.demoted.is_none();
        let winner = match (self.primary.take(), self.demoted.take()) {
            (Some(primary), Some(demoted)) => {
                self.losers.push((
                    demoted.slot,
                    "looked like part of the prose, or fails the schema; a better candidate parsed"
                        .to_owned(),
                ));
                primary
            }
            (Some(only), None) | (None, Some(only)) => only,
            (None, None) => self.echo.take()?,
        };
        Some(Winner {
            not_a_schema: self.not_a_schema == Some(winner.parsed.span),
            entry: winner,
            losers: self.losers,
            several_distinct: self.several_distinct,
            echo_passed: self.echo_passed,
            echo_alone,
        })
    }
}

fn pick_reason(pick: Pick) -> String {
    match pick {
        Pick::First => "an earlier candidate parsed (policy: first)".to_owned(),
        Pick::Last => "a later candidate parsed (policy: last)".to_owned(),
    }
}
