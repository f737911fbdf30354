//! The identity a capture keeps in the workbench across re-reads, shared by the
//! vocabulary, the state and the pane builders.

/// A stable identity for a capture in the list, kept across re-reads.
pub type EntryId = u64;
