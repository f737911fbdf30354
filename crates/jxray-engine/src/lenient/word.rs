//! Bare words: keys to quote, and literals in another language's spelling.

use super::rewriter::{Rewriter, Want};
use crate::outcome::{Defect, RepairKind};

/// How a bare word in value position reads as JSON. Only a literal exactly as some
/// language spells it is one (`None`, `True`, SQL's `NULL`, `NaN`); any other word
/// (`NONE`, `Null`, `yes`) is a word, even when it resembles a literal.
fn respell(word: &str) -> Option<(&'static str, Option<RepairKind>)> {
    let python = Some(RepairKind::Lenient(Defect::PythonLiteral));
    // SQL, C and R write them in capitals.
    let capitals = Some(RepairKind::Lenient(Defect::LiteralCase));
    Some(match word {
        "true" => ("true", None),
        "false" => ("false", None),
        "null" => ("null", None),
        "True" => ("true", python),
        "False" => ("false", python),
        "None" => ("null", python),
        "TRUE" => ("true", capitals),
        "FALSE" => ("false", capitals),
        "NULL" => ("null", capitals),
        "NaN" | "nan" | "NAN" | "Infinity" | "inf" | "Inf" | "INF" | "INFINITY" => {
            ("null", Some(RepairKind::Lenient(Defect::NonFiniteNumber)))
        }
        "undefined" => ("null", Some(RepairKind::Lenient(Defect::Undefined))),
        _ => return None,
    })
}

/// Whether a word is a literal in the capitals of SQL, C or R (`TRUE`, `NULL`).
pub(crate) fn is_capital_literal(word: &str) -> bool {
    matches!(
        respell(word),
        Some((_, Some(RepairKind::Lenient(Defect::LiteralCase))))
    )
}

/// Whether a bare word reads as a JSON literal (in any of the spellings fixed here).
pub(super) fn is_literal(word: &str) -> bool {
    respell(word).is_some()
}

impl Rewriter<'_> {
    fn word_end(&self, start: usize, also: &[u8]) -> usize {
        self.bytes[start..self.limit]
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || also.contains(&b)))
            .map_or(self.limit, |at| start + at)
    }

    /// A bare object key (`city`, `2`): quoted. `name":` is a key whose opening quote is
    /// missing.
    pub(super) fn key_word(&mut self, start: usize) -> usize {
        self.begin_item(start);
        // `2.17`, `a.b`: a dot inside a bare key is part of it.
        let end = self.word_end(start, b"_$-.");
        let (kind, next) = match self.closing_quote_of_bare_key(end) {
            Some(after) => (Defect::KeyQuote, after),
            None => (Defect::UnquotedKey, end),
        };
        self.key_quoted = kind == Defect::KeyQuote;
        self.fix(RepairKind::Lenient(kind), start);
        self.out.push(b'"');
        self.out.extend_from_slice(&self.bytes[start..end]);
        self.out.push(b'"');
        self.end_item(next);
        next
    }

    /// A bare word where a value belongs; `sign` is the offset of a `-` or
    /// `+` before it (`-Infinity`).
    pub(super) fn value_word(&mut self, start: usize) -> usize {
        self.signed_word(start, start)
    }

    pub(super) fn signed_word(&mut self, token: usize, start: usize) -> usize {
        let end = self.word_end(start, b"_$");
        let word = &self.text[start..end];
        let signed = token < start;
        let literal = respell(word).filter(|_| self.word_stands_alone(end));
        let Some((json, kind)) = literal else {
            if signed {
                self.refuse(token, "a sign before a word that is not a number");
                return start;
            }
            // `active`, `read-only`, `New York`: a string written without its quotes.
            return self.bare_value(start);
        };
        if signed && kind != Some(RepairKind::Lenient(Defect::NonFiniteNumber)) {
            self.refuse(token, "a sign before a word that is not a number");
            return start;
        }
        if self.begin_item(token) != Want::Value {
            self.refuse(token, "a value where a key belongs");
            return start;
        }
        if let Some(kind) = kind {
            self.fix(kind, token);
        }
        self.evidence = true;
        self.out.extend_from_slice(json.as_bytes());
        self.end_item(end);
        end
    }
}

impl Rewriter<'_> {
    /// Whether a word ending at `end` is the whole value: what follows on its line is a
    /// separator, a closer, a comment or nothing (`true`, not `true story`).
    fn word_stands_alone(&self, end: usize) -> bool {
        let rest = &self.bytes[end..self.limit];
        let next = rest.iter().position(|&b| !matches!(b, b' ' | b'\t'));
        match next.map(|at| (rest[at], rest.get(at + 1))) {
            None => true,
            Some((
                b',' | b'}' | b']' | b'\n' | b'\r' | b'#' | b'"' | b'\'' | b'{' | b'[' | b':',
                _,
            )) => true,
            Some((b'/', Some(b'/' | b'*'))) => true,
            Some(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_in_other_spellings() {
        use crate::outcome::Defect;
        use RepairKind::*;
        assert_eq!(respell("true"), Some(("true", None)));
        assert_eq!(
            respell("True"),
            Some(("true", Some(Lenient(Defect::PythonLiteral))))
        );
        assert_eq!(
            respell("None"),
            Some(("null", Some(Lenient(Defect::PythonLiteral))))
        );
        assert_eq!(
            respell("TRUE"),
            Some(("true", Some(Lenient(Defect::LiteralCase))))
        );
        assert_eq!(
            respell("NULL"),
            Some(("null", Some(Lenient(Defect::LiteralCase))))
        );
        // Words that only resemble a literal are words.
        for word in [
            "Null",
            "NONE",
            "nONE",
            "tRUE",
            "Undefined",
            "yes",
            "nil",
            "NA",
        ] {
            assert_eq!(respell(word), None, "{word}");
        }
        assert_eq!(
            respell("NaN"),
            Some(("null", Some(Lenient(Defect::NonFiniteNumber))))
        );
        assert_eq!(
            respell("Infinity"),
            Some(("null", Some(Lenient(Defect::NonFiniteNumber))))
        );
        assert_eq!(
            respell("undefined"),
            Some(("null", Some(Lenient(Defect::Undefined))))
        );
    }
}
