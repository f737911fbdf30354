//! Numbers in spellings JSON does not allow: `007`, `.5`, `5.`, `+1`, `0x1F`, `1_000`.

use super::rewriter::{Rewriter, Want};
use crate::outcome::{Defect, RepairKind};

/// A number token rewritten as JSON, with the fixes it needed.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Respelled {
    pub json: String,
    pub fixes: Vec<RepairKind>,
}

/// Rewrite a number token; `None` when it is no number (`12px`, `1e`, `1.2.3`).
pub(super) fn respell(token: &str) -> Option<Respelled> {
    let mut fixes = Vec::new();
    let (negative, body) = match token.as_bytes().first()? {
        b'-' => (true, &token[1..]),
        b'+' => {
            fixes.push(RepairKind::Lenient(Defect::NumberFormat));
            (false, &token[1..])
        }
        _ => (false, token),
    };
    let sign = if negative { "-" } else { "" };
    if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        let value = u128::from_str_radix(hex, 16).ok()?;
        fixes.push(RepairKind::Lenient(Defect::NumberFormat));
        return Some(Respelled {
            json: format!("{sign}{value}"),
            fixes,
        });
    }
    let body = ungrouped(body, &mut fixes)?;
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at..])),
        None => (body.as_str(), None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((int, frac)) => (int, Some(frac)),
        None => (mantissa, None),
    };
    if !all_digits(int)
        || !frac.is_none_or(all_digits)
        || (int.is_empty() && frac.is_none_or(str::is_empty))
    {
        return None;
    }
    let exponent = exponent.map_or(Some(""), valid_exponent)?;
    let int = integer_part(int, &mut fixes);
    let frac = match frac {
        None => String::new(),
        Some("") => {
            fixes.push(RepairKind::Lenient(Defect::NumberFormat));
            ".0".to_owned()
        }
        Some(frac) => format!(".{frac}"),
    };
    Some(Respelled {
        json: format!("{sign}{int}{frac}{exponent}"),
        fixes,
    })
}

fn all_digits(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit())
}

/// `1_000`, `1_234.5_6`: digit grouping, as Python and Rust write it, removed.
fn ungrouped(body: &str, fixes: &mut Vec<RepairKind>) -> Option<String> {
    if !body.contains('_') {
        return Some(body.to_owned());
    }
    let bytes = body.as_bytes();
    let between_digits = bytes.iter().enumerate().all(|(at, &b)| {
        b != b'_'
            || (at > 0
                && bytes[at - 1].is_ascii_digit()
                && bytes.get(at + 1).is_some_and(u8::is_ascii_digit))
    });
    if !between_digits {
        return None;
    }
    fixes.push(RepairKind::Lenient(Defect::NumberFormat));
    Some(body.replace('_', ""))
}

/// `e5`, `E+5`, `e-5`: kept as written; `None` for an exponent with no digits.
fn valid_exponent(exponent: &str) -> Option<&str> {
    let unsigned = exponent[1..]
        .strip_prefix(['+', '-'])
        .unwrap_or(&exponent[1..]);
    (!unsigned.is_empty() && all_digits(unsigned)).then_some(exponent)
}

/// The integer part in JSON's spelling: `0` for none (`.5`), no leading zeros (`007`).
fn integer_part<'t>(int: &'t str, fixes: &mut Vec<RepairKind>) -> &'t str {
    if int.is_empty() {
        fixes.push(RepairKind::Lenient(Defect::NumberFormat));
        return "0";
    }
    if int.len() > 1 && int.starts_with('0') {
        fixes.push(RepairKind::Lenient(Defect::LeadingZero));
        let trimmed = int.trim_start_matches('0');
        return if trimmed.is_empty() { "0" } else { trimmed };
    }
    int
}

impl Rewriter<'_> {
    /// A token starting with a digit, sign or point where a value belongs.
    pub(super) fn number(&mut self, start: usize) -> usize {
        let signed = matches!(self.bytes[start], b'-' | b'+');
        let first = start + usize::from(signed);
        if self
            .bytes
            .get(first)
            .is_some_and(|b| b.is_ascii_alphabetic())
            && first < self.limit
        {
            return self.signed_word(start, first);
        }
        let mut end = first;
        while end < self.limit {
            let byte = self.bytes[end];
            let exponent_sign = matches!(byte, b'+' | b'-')
                && end > first
                && matches!(self.bytes[end - 1], b'e' | b'E')
                && !self.text[first..end].starts_with("0x");
            if byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_') || exponent_sign {
                end += 1;
            } else {
                break;
            }
        }
        let token = &self.text[start..end];
        let respelled = respell(token).filter(|_| self.ends_number(end));
        let Some(respelled) = respelled else {
            return self.not_a_number(start, end);
        };
        if respelled
            .fixes
            .contains(&RepairKind::Lenient(Defect::LeadingZero))
        {
            // `007`: the number 7, or a code that keeps its zeros? Two readings.
            self.guess(
                start,
                format!(
                    "a number with a leading zero: the number `{}` or the text `\"{token}\"` (a code or an id keeps its zeros)",
                    respelled.json
                ),
            );
            return start;
        }
        if self.begin_item(start) != Want::Value {
            self.refuse(start, "a number where a key belongs");
            return start;
        }
        for kind in respelled.fixes {
            self.fix(kind, start);
        }
        self.evidence = true;
        self.out.extend_from_slice(respelled.json.as_bytes());
        self.end_item(end);
        end
    }

    /// Whether a number token ending at `end` is the whole value (`1`, not `1/3` or `10-20`).
    fn ends_number(&self, end: usize) -> bool {
        match self.bytes.get(end).filter(|_| end < self.limit) {
            None => true,
            Some(b',' | b'}' | b']' | b':' | b' ' | b'\t' | b'\n' | b'\r' | b'#') => true,
            Some(b'/') => matches!(self.bytes.get(end + 1), Some(b'/' | b'*')),
            Some(&b) => {
                b >= 0x80
                    && self
                        .char_at(end)
                        .is_some_and(super::rewriter::unicode_space)
            }
        }
    }

    /// A token from `start` that starts like a number but is none: `3f2a9c1e-…`, `12px`,
    /// `1/3` are strings written without quotes; `1e` and `-` are numbers cut short or typos.
    fn not_a_number(&mut self, start: usize, end: usize) -> usize {
        let token = &self.text[start..end];
        let unsigned_digit = self.bytes[start].is_ascii_digit();
        let exponent_cut = token.ends_with(['e', 'E', '+', '-'])
            && token
                .trim_end_matches(['e', 'E', '+', '-'])
                .bytes()
                .all(|b| b.is_ascii_digit() || b == b'.');
        if !unsigned_digit || exponent_cut {
            self.refuse(start, "a token that starts like a number but is none");
            return start;
        }
        self.bare_value(start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Defect;
    use RepairKind::*;

    fn json(token: &str) -> Option<(String, Vec<RepairKind>)> {
        respell(token).map(|r| (r.json, r.fixes))
    }

    #[test]
    fn valid_numbers_are_unchanged() {
        for token in [
            "0",
            "-0",
            "12",
            "1.5",
            "-3.25e-7",
            "1E400",
            "98765432109876543210",
        ] {
            assert_eq!(json(token), Some((token.to_owned(), vec![])), "{token}");
        }
    }

    #[test]
    fn each_spelling_is_respelled() {
        assert_eq!(
            json("007"),
            Some(("7".into(), vec![Lenient(Defect::LeadingZero)]))
        );
        assert_eq!(
            json("-00.5"),
            Some(("-0.5".into(), vec![Lenient(Defect::LeadingZero)]))
        );
        assert_eq!(
            json("000"),
            Some(("0".into(), vec![Lenient(Defect::LeadingZero)]))
        );
        assert_eq!(
            json(".5"),
            Some(("0.5".into(), vec![Lenient(Defect::NumberFormat)]))
        );
        assert_eq!(
            json("-.5"),
            Some(("-0.5".into(), vec![Lenient(Defect::NumberFormat)]))
        );
        assert_eq!(
            json("5."),
            Some(("5.0".into(), vec![Lenient(Defect::NumberFormat)]))
        );
        assert_eq!(
            json("+1"),
            Some(("1".into(), vec![Lenient(Defect::NumberFormat)]))
        );
        assert_eq!(
            json("0x1F"),
            Some(("31".into(), vec![Lenient(Defect::NumberFormat)]))
        );
        assert_eq!(
            json("-0x10"),
            Some(("-16".into(), vec![Lenient(Defect::NumberFormat)]))
        );
        assert_eq!(
            json("1_000"),
            Some(("1000".into(), vec![Lenient(Defect::NumberFormat)]))
        );
        assert_eq!(
            json("1_234.5_6"),
            Some(("1234.56".into(), vec![Lenient(Defect::NumberFormat)]))
        );
    }

    #[test]
    fn what_is_no_number_is_refused() {
        for token in [
            "12px", "1e", "1.2.3", ".", "-", "0x", "0xZZ", "1__0", "_1", "1e+", "1_.5", "1._5",
        ] {
            assert_eq!(json(token), None, "{token}");
        }
    }
}
