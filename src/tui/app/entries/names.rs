//! What the list calls a recorded capture. `jxray record` names every file by its time and
//! model (`10-00-00.000-gpt-4o-mini.json`), which tells nothing apart when the calls ask
//! different questions: then a recorded capture is listed by its time and the question it
//! answers (`10-00-00 Where is the Louvre?`; the header names its file and model, `f` picks
//! by model). Where every recorded capture asks the same question, the file name (time and
//! model) is the better name, and stays; so does a re-ask's, whose last message is a
//! repair request, not a question.

use super::Entry;

/// Whether the recorded captures ask different questions, kept as they arrive.
#[derive(Debug, Default, Clone)]
pub(crate) struct Questions {
    first: Option<Box<str>>,
    differ: bool,
}

impl Questions {
    /// A recorded capture's question (a re-ask's is its first attempt's).
    pub(super) fn add(&mut self, question: Option<&str>) {
        let Some(question) = question.filter(|_| !self.differ) else {
            return;
        };
        match &self.first {
            None => self.first = Some(question.into()),
            Some(first) => self.differ = **first != *question,
        }
    }

    /// Whether two recorded captures ask different questions.
    pub(crate) fn differ(&self) -> bool {
        self.differ
    }
}

impl Entry {
    /// The list's name for it when it is recorded and the questions differ: the file's time
    /// and the question on one line; `None` keeps the source.
    pub(crate) fn list_name(&self, questions: &Questions) -> Option<String> {
        if !questions.differ() {
            return None;
        }
        let question = self.question()?;
        let file = self.capture.source.rsplit('/').next()?;
        let time = file.get(..8).filter(|time| is_time(time))?;
        let question = question.split_whitespace().collect::<Vec<_>>().join(" ");
        Some(format!("{time} {question}"))
    }
}

/// `HH-MM-SS`, as `jxray record` starts a file's name.
fn is_time(text: &str) -> bool {
    text.bytes().enumerate().all(|(i, byte)| {
        if i % 3 == 2 {
            byte == b'-'
        } else {
            byte.is_ascii_digit()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_differ_once_a_second_one_is_not_the_first() {
        let mut questions = Questions::default();
        questions.add(Some("Where is the Louvre?"));
        questions.add(None);
        questions.add(Some("Where is the Louvre?"));
        assert!(!questions.differ());
        questions.add(Some("Where is the Prado?"));
        assert!(questions.differ());
        assert!(is_time("10-00-00") && !is_time("2026-12-") && !is_time("a0-00-00"));
    }
}
