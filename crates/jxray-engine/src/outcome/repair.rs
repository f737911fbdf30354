//! Repairs: the edits made to a candidate before it parsed, each at its offset.

use serde::{Deserialize, Serialize};

use super::Defect;

/// An edit made to a candidate before it was parsed.
///
/// Serialized as its name: `raw-control-char`, `escaped-backtick`, `decoded-string`,
/// or, for a lenient fix, the name of the defect it fixes (`trailing-comma`, …).
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RepairKind {
    /// Lossless: a raw newline, carriage return or tab inside a string, escaped.
    RawControlChar,
    /// Lossless: `\``, an invalid JSON escape, turned into a backtick.
    EscapedBacktick,
    /// `--decode-stringified`: a string holding JSON replaced by the decoded value.
    DecodedString,
    /// Lenient: a meaning-changing fix of the named defect (contract §4).
    Lenient(Defect),
}

impl RepairKind {
    /// The name of the repair, as the contract spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            RepairKind::RawControlChar => "raw-control-char",
            RepairKind::EscapedBacktick => "escaped-backtick",
            RepairKind::DecodedString => "decoded-string",
            // Every lenient fix is named after the defect it fixes.
            RepairKind::Lenient(defect) => defect.as_str(),
        }
    }

    /// The repair a name stands for (the inverse of [`RepairKind::as_str`]).
    pub fn from_name(name: &str) -> Option<RepairKind> {
        match name {
            "raw-control-char" => Some(RepairKind::RawControlChar),
            "escaped-backtick" => Some(RepairKind::EscapedBacktick),
            "decoded-string" => Some(RepairKind::DecodedString),
            other => Defect::from_name(other).map(RepairKind::Lenient),
        }
    }

    /// The defect a lenient fix stands for (`None` for the others).
    pub fn defect(self) -> Option<Defect> {
        match self {
            RepairKind::Lenient(defect) => Some(defect),
            _ => None,
        }
    }

    /// Lossless repairs never change what the model meant and are applied by default.
    pub fn is_lossless(self) -> bool {
        matches!(
            self,
            RepairKind::RawControlChar | RepairKind::EscapedBacktick
        )
    }
}

impl Serialize for RepairKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for RepairKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = std::borrow::Cow::<str>::deserialize(deserializer)?;
        RepairKind::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown repair kind `{name}`")))
    }
}

/// One repair, at a byte offset into the raw text.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Repair {
    /// What was repaired.
    pub kind: RepairKind,
    /// Byte offset into the raw text.
    pub offset: usize,
}

impl Repair {
    /// A repair of `kind` at `offset`.
    pub fn new(kind: RepairKind, offset: usize) -> Repair {
        Repair { kind, offset }
    }
}
