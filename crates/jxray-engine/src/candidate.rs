//! Judging one candidate: a span of the raw text that may hold a JSON value.

mod explain;

use super::decode::DECODER_DEPTH_LIMIT;
use super::form::{decode_as, repaired_checked, scanned_checked, try_decode_as, Decoded, Fast};
use super::fragment::missing_quote;
use super::options::ValueForm;
use super::outcome::{Defect, FailureKind, Repair, RepairKind};
use super::scan::{scan_value_with, OffsetSet, Open, Problem, Scan, ScanEnd};
use super::space::trim_span;

/// A candidate that parsed (after lossless repair).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Parsed {
    pub value: Decoded,
    pub span: (usize, usize),
    pub repairs: Vec<Repair>,
    /// The candidate after repairs, when any were made.
    pub repaired: Option<String>,
    pub duplicate_keys: bool,
}

/// A candidate that did not parse, with everything needed to report it.
///
/// The words are built only when someone reads them ([`Rejection::explain`]):
/// adversarial input can reject a million candidates, and only a few are shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rejection {
    pub kind: FailureKind,
    /// Byte offset of the problem.
    pub offset: usize,
    /// Where the candidate starts, and how far a lenient reading may look.
    pub start: usize,
    pub limit: usize,
    cause: Cause,
}

/// What says an output is finished, though its brackets are still open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Finished {
    /// The fence around the value closed after it.
    FenceClosed,
    /// The stop reason says the model completed (as the provider spelled it).
    StopReason(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Cause {
    Diagnosed {
        problem: Problem,
        after_comma: bool,
    },
    Unfinished {
        inside: Open,
        opened_at: usize,
        /// Only closers are missing (see [`Scan::closable`]).
        closable: bool,
    },
    /// Brackets still open although the output is finished: only closers are missing.
    Unclosed {
        inside: Open,
        opened_at: usize,
        evidence: Finished,
    },
    /// More text after a whole value, where only one value may stand.
    Continues,
    /// serde_json's own words (the grammar held, the decoder did not).
    Decoder(String),
    /// A named defect found by its shape, with the place something opened.
    Shaped {
        defect: Defect,
        opened_at: usize,
    },
    /// A whole value, then a closer that closes nothing (there is no opener before the value).
    ExtraCloser {
        opened_at: usize,
    },
}

impl Rejection {
    /// A candidate that fails with a defect found by its shape, at `offset`.
    pub(crate) fn shaped(
        defect: Defect,
        start: usize,
        limit: usize,
        offset: usize,
        opened_at: usize,
    ) -> Rejection {
        Rejection {
            kind: FailureKind::Invalid,
            offset,
            start,
            limit,
            cause: Cause::Shaped { defect, opened_at },
        }
    }

    /// A whole value opened at `start`, then a closer at `closer` with nothing to close.
    pub(crate) fn extra_closer(start: usize, limit: usize, closer: usize) -> Rejection {
        Rejection {
            kind: FailureKind::Invalid,
            offset: closer,
            start,
            limit,
            cause: Cause::ExtraCloser { opened_at: start },
        }
    }

    /// Whether the candidate ran out where only closers were missing (`{"a": [1, 2`).
    pub(crate) fn closable(&self) -> bool {
        matches!(self.cause, Cause::Unfinished { closable: true, .. })
    }

    /// A candidate that ran out where only closers were missing, in an output known to be
    /// finished: its brackets were left open (`missing-closer`), it was not cut off.
    pub(crate) fn finished(self, evidence: Finished) -> Rejection {
        let Cause::Unfinished {
            inside, opened_at, ..
        } = self.cause
        else {
            return self;
        };
        Rejection {
            kind: FailureKind::Invalid,
            offset: self.limit,
            cause: Cause::Unclosed {
                inside,
                opened_at,
                evidence,
            },
            ..self
        }
    }

    /// Whether this is a `missing-closer` failure (its lenient reading may add closers).
    pub(crate) fn is_unclosed(&self) -> bool {
        matches!(self.cause, Cause::Unclosed { .. })
    }

    /// A candidate holding a whole value followed by more text.
    pub(crate) fn continues(start: usize, limit: usize, value_end: usize) -> Rejection {
        Rejection {
            kind: FailureKind::Invalid,
            offset: value_end,
            start,
            limit,
            cause: Cause::Continues,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Judged {
    Parsed(Parsed),
    Rejected(Rejection),
    /// A whole value followed by more text: not this layer's business.
    Continues {
        value_end: usize,
    },
    /// Nothing that looks like JSON.
    Empty,
}

/// Judge a span that must be exactly one value (the direct and fenced layers).
///
/// `ends_text` says whether the span reaches the end of the raw text: only
/// then can running out of input mean the output was cut off.
pub(crate) fn judge_exact(
    text: &str,
    start: usize,
    end: usize,
    ends_text: bool,
    max_depth: usize,
    form: ValueForm,
) -> Judged {
    let (s, e) = trim_span(text.as_bytes(), start, end);
    if s == e {
        return Judged::Empty;
    }
    // Fast path: most candidates are clean, and serde_json alone is the cost.
    // (It enforces only the decoder's own depth limit, so a lower one is validated first.)
    let fast = max_depth >= DECODER_DEPTH_LIMIT && may_decode(text.as_bytes(), s, e);
    let mut stack = Vec::new();
    let read = match fast.then(|| try_decode_as(text, (s, e), form, &mut stack)) {
        Some(Fast::Decoded(value, duplicate_keys)) => {
            return Judged::Parsed(Parsed {
                value,
                span: (s, e),
                repairs: Vec::new(),
                repaired: None,
                duplicate_keys,
            })
        }
        Some(Fast::Mended(json, mended)) => {
            let repairs: Vec<Repair> = mended
                .iter()
                .map(|&(kind, offset)| Repair {
                    kind,
                    offset: s + offset,
                })
                .collect();
            let repaired = apply_lossless(text, s, e, &repairs);
            return Judged::Parsed(Parsed {
                value: Decoded::Text(json),
                span: (s, e),
                repairs,
                repaired: Some(repaired),
                duplicate_keys: false,
            });
        }
        // The grammar's reading at the decoder's depth, which `max_depth` is here.
        Some(Fast::Scanned(scan)) => Some(scan),
        Some(Fast::Unread) | None => None,
    };
    let scan =
        read.unwrap_or_else(|| scan_value_with(text.as_bytes(), s, e, max_depth, None, &mut stack));
    match scan.end {
        ScanEnd::Complete { end: value_end } if value_end < e => Judged::Continues { value_end },
        _ => judge_scan(text, s, e, scan, ends_text, &stack, form),
    }
}

/// Whether the trimmed span `bytes[s..e]` may decode, as far as its ends tell: a container
/// that does not end with its closer (cut off, most often), or whose closer follows a
/// comma or a colon (a trailing comma), cannot, and goes straight to the validator.
fn may_decode(bytes: &[u8], s: usize, e: usize) -> bool {
    let closer = match bytes[s] {
        b'{' => b'}',
        b'[' => b']',
        _ => return true,
    };
    let before_closer = trim_span(bytes, s, e - 1).1;
    bytes[e - 1] == closer && !matches!(bytes[before_closer - 1], b',' | b':')
}

/// Judge the value that starts at an opener in prose (the scanned layer).
pub(crate) fn judge_at(
    text: &str,
    start: usize,
    max_depth: usize,
    form: ValueForm,
    structural: &mut OffsetSet,
    stack: &mut Vec<(u8, usize)>,
) -> (Judged, usize) {
    let scan = scan_value_with(
        text.as_bytes(),
        start,
        text.len(),
        max_depth,
        Some(structural),
        stack,
    );
    let reached = match scan.end {
        ScanEnd::Complete { end } => end,
        ScanEnd::Truncated { .. } => text.len(),
        ScanEnd::Invalid { at, .. } => at,
    };
    (
        judge_scan(text, start, text.len(), scan, true, stack, form),
        reached,
    )
}

fn judge_scan(
    text: &str,
    start: usize,
    limit: usize,
    scan: Scan,
    ends_text: bool,
    open: &[(u8, usize)],
    form: ValueForm,
) -> Judged {
    let reject = |kind, offset, cause| {
        Judged::Rejected(Rejection {
            kind,
            offset,
            start,
            limit,
            cause,
        })
    };
    match scan.end {
        ScanEnd::Complete { end } => decode_whole(text, (start, end), limit, &scan, form),
        ScanEnd::Truncated { inside, opened_at } => {
            // The string runs to the end of the text, or of a fence that closed after it.
            let quote = (inside == Open::String)
                .then(|| missing_quote(&text.as_bytes()[..limit], opened_at + 1, open))
                .flatten();
            if let Some(quote) = quote {
                return Judged::Rejected(Rejection::shaped(
                    Defect::UnterminatedString,
                    start,
                    limit,
                    quote,
                    opened_at,
                ));
            }
            let closable = scan.closable;
            let cause = Cause::Unfinished {
                inside,
                opened_at,
                closable,
            };
            if ends_text {
                return reject(FailureKind::Truncated, text.len(), cause);
            }
            let unfinished = Rejection {
                kind: FailureKind::Invalid,
                offset: limit,
                start,
                limit,
                cause,
            };
            // The candidate's container (a fence) closed after it: finished, not cut off.
            let finished = if closable {
                unfinished.finished(Finished::FenceClosed)
            } else {
                unfinished
            };
            Judged::Rejected(finished)
        }
        ScanEnd::Invalid {
            at,
            problem,
            after_comma,
        } => reject(
            FailureKind::Invalid,
            at,
            Cause::Diagnosed {
                problem,
                after_comma,
            },
        ),
    }
}

/// A value the validator found whole: decoded after its lossless repairs.
fn decode_whole(
    text: &str,
    (start, end): (usize, usize),
    limit: usize,
    scan: &Scan,
    form: ValueForm,
) -> Judged {
    let repairs: Vec<Repair> = scan
        .repairs
        .iter()
        .map(|&(kind, offset)| Repair { kind, offset })
        .collect();
    let repaired = (!repairs.is_empty()).then(|| apply_lossless(text, start, end, &repairs));
    let candidate = repaired.as_deref().unwrap_or(&text[start..end]);
    let checked = match &repaired {
        None => scanned_checked(candidate, form),
        Some(repaired) => repaired_checked(repaired, form, scan.deepest),
    };
    let decoded = match checked {
        Some(json) => Ok((Decoded::Text(json), false)),
        None => decode_as(candidate, form),
    };
    match decoded {
        Ok((value, duplicate_keys)) => Judged::Parsed(Parsed {
            value,
            span: (start, end),
            repairs,
            repaired,
            duplicate_keys,
        }),
        // The grammar holds but serde_json refuses (a lone surrogate, a number out of
        // range): report its words at its place.
        Err(error) => {
            let at = serde_offset(candidate, &error).min(end - start);
            let message = crate::surrogate::describe(candidate, at)
                .filter(|_| error.to_string().contains("hex escape"))
                .unwrap_or_else(|| error.to_string());
            Judged::Rejected(Rejection {
                kind: FailureKind::Invalid,
                offset: at + start,
                start,
                limit,
                cause: Cause::Decoder(message),
            })
        }
    }
}

/// The candidate with its lossless repairs made.
pub(crate) fn apply_lossless(text: &str, start: usize, end: usize, repairs: &[Repair]) -> String {
    let mut out = String::with_capacity(end - start + repairs.len() * 2);
    let mut copied = start;
    for repair in repairs {
        out.push_str(&text[copied..repair.offset]);
        match repair.kind {
            RepairKind::RawControlChar => {
                out.push_str(match text.as_bytes()[repair.offset] {
                    b'\n' => "\\n",
                    b'\r' => "\\r",
                    _ => "\\t",
                });
                copied = repair.offset + 1;
            }
            RepairKind::EscapedBacktick => {
                out.push('`');
                copied = repair.offset + 2;
            }
            // Only lossless repairs come from the validator.
            _ => copied = repair.offset,
        }
    }
    out.push_str(&text[copied..end]);
    out
}

/// serde_json reports line and column; turn them back into a byte offset.
fn serde_offset(text: &str, error: &serde_json::Error) -> usize {
    let mut line_start = 0;
    for _ in 1..error.line() {
        match text[line_start..].find('\n') {
            Some(at) => line_start += at + 1,
            None => break,
        }
    }
    (line_start + error.column().saturating_sub(1)).min(text.len())
}
