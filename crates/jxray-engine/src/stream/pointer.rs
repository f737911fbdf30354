//! The path of a streamed value: a JSON Pointer every change and final path names. A
//! stream makes one per value, so the extractor takes back those no caller kept and writes
//! the next ones into their room ([`super::tree::Tree::pointer`]): no allocation per value.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use serde::Serialize;

/// A JSON Pointer (`""` for the whole value, `/items/0/name` for a member of an item),
/// read as a `&str`; a clone shares the text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pointer(Arc<String>);

impl Pointer {
    /// The pointer as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `self` and `other` are one pointer, not two with the same text.
    pub(super) fn same(&self, other: &Pointer) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The text's room, when no one else holds this pointer.
    pub(super) fn room(&mut self) -> Option<&mut String> {
        Arc::get_mut(&mut self.0)
    }

    /// Whether no one else holds this pointer now (a hint: [`Pointer::room`] decides).
    pub(super) fn unshared(&self) -> bool {
        Arc::strong_count(&self.0) == 1 && Arc::weak_count(&self.0) == 0
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
        Pointer(Arc::new(text.to_owned()))
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
