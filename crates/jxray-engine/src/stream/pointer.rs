//! The path of a value in an owned [`super::Delta`]: a JSON Pointer, read as a `&str`. A
//! snapshot's own changes and final paths borrow theirs from one text
//! ([`super::Deltas`], [`super::Paths`]); a `Pointer` is a copy to keep.

use std::fmt;
use std::ops::Deref;

use serde::Serialize;

/// A JSON Pointer (`""` for the whole value, `/items/0/name` for a member of an item),
/// read as a `&str`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pointer(String);

impl Pointer {
    /// The pointer as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for Pointer {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Pointer {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Pointer {
    fn from(text: &str) -> Pointer {
        Pointer(text.to_owned())
    }
}

impl PartialEq<str> for Pointer {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Pointer {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Display for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

impl Serialize for Pointer {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self)
    }
}
