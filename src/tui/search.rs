//! Finding a query in sources and raw texts.
//!
//! Smart case, as in vim and ripgrep: a query without capitals ignores the
//! case of ASCII letters; one with a capital matches exactly. Matching is
//! byte-wise so offsets stay valid in the original text.

/// A search query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    text: String,
    exact: bool,
}

impl Query {
    /// `None` for an empty query.
    pub fn new(text: &str) -> Option<Query> {
        if text.is_empty() {
            return None;
        }
        Some(Query {
            exact: text.chars().any(char::is_uppercase),
            text: text.to_string(),
        })
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }

    /// The byte offset of the first match at or after `from`.
    pub(crate) fn find_from(&self, haystack: &str, from: usize) -> Option<usize> {
        let needle = self.text.as_bytes();
        let bytes = haystack.as_bytes();
        if from > bytes.len() || needle.len() > bytes.len() - from {
            return None;
        }
        if self.exact {
            return haystack
                .get(from..)
                .and_then(|rest| rest.find(&self.text))
                .map(|at| at + from);
        }
        let first = needle[0].to_ascii_lowercase();
        let last_start = bytes.len() - needle.len();
        (from..=last_start).find(|&at| {
            bytes[at].to_ascii_lowercase() == first
                && bytes[at..at + needle.len()].eq_ignore_ascii_case(needle)
                && haystack.is_char_boundary(at)
        })
    }

    pub(crate) fn is_in(&self, haystack: &str) -> bool {
        self.find_from(haystack, 0).is_some()
    }

    /// Up to `limit` non-overlapping matches as byte ranges.
    pub(crate) fn find_all(&self, haystack: &str, limit: usize) -> Vec<(usize, usize)> {
        let mut found = Vec::new();
        let mut from = 0;
        while found.len() < limit {
            let Some(at) = self.find_from(haystack, from) else {
                break;
            };
            let end = at + self.text.len();
            found.push((at, end));
            from = end;
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_case_queries_ignore_case() {
        let query = Query::new("paris").unwrap();
        assert!(query.is_in("{\"city\": \"Paris\"}"));
        assert_eq!(query.find_all("PARIS paris", 10), [(0, 5), (6, 11)]);
    }

    #[test]
    fn a_capital_makes_the_query_exact() {
        let query = Query::new("Paris").unwrap();
        assert!(!query.is_in("paris"));
        assert!(query.is_in("in Paris"));
    }

    #[test]
    fn non_ascii_text_and_limits_are_safe() {
        let query = Query::new("é").unwrap();
        assert_eq!(query.find_all("café é", 10), [(3, 5), (6, 8)]);
        assert_eq!(query.find_all("ééé", 2).len(), 2);
        assert!(Query::new("").is_none());
        assert!(!Query::new("long needle").unwrap().is_in("short"));
        assert_eq!(query.find_from("é", 9), None);
    }
}
