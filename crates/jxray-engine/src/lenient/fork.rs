//! The vocabulary of fixes with alternatives: the way a fix was made (a [`Choice`]) and a
//! way not taken (a [`Fork`]). The rewriter notes forks; [`super::alternatives`] reads them.

/// The way a fix was (or could have been) made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Choice {
    /// A colon inside a key is text.
    Text,
    /// The missing closing quote goes before the comma at this offset.
    QuoteBefore(usize),
    /// A colon inside a key ends the key: its closing quote is missing.
    KeyEnds,
    /// A closer that matches a frame further out closes the frames inside it too.
    ClosesDeeper,
    /// A closer that matches no open frame is the innermost one's, written wrong.
    WrittenWrong,
}

/// A choice not taken, at a place in the raw text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fork {
    pub(super) at: usize,
    pub(super) choice: Choice,
    /// The other way may stand in for a reading that fails.
    pub(super) rescues: bool,
}
