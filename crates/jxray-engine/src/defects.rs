//! Every defect of a failed candidate, in text order (`failure.defects`).
//!
//! The strict validator stops at the first problem; the lenient reading goes
//! on through the whole candidate and records each meaning-changing fix at
//! its offset. Each fix names a defect, so the list is the headline defect
//! plus one entry per lenient fix. Teaching the lenient reading a new fix
//! teaches this list a new defect.

use super::outcome::{Defect, DefectAt, Repair, RepairKind};
use super::position::LineCursor;

/// The defect a lenient fix repairs, if the fix is one.
pub(crate) fn defect_of_fix(kind: RepairKind) -> Option<Defect> {
    Some(match kind {
        RepairKind::TrailingComma => Defect::TrailingComma,
        RepairKind::SingleQuotes => Defect::SingleQuotes,
        RepairKind::UnquotedKey => Defect::UnquotedKey,
        RepairKind::PythonLiteral => Defect::PythonLiteral,
        RepairKind::Comment => Defect::Comment,
        RepairKind::SmartQuotes => Defect::SmartQuotes,
        RepairKind::MissingComma => Defect::MissingComma,
        RepairKind::LeadingZero => Defect::LeadingZero,
        RepairKind::NonFiniteNumber => Defect::NonFiniteNumber,
        RepairKind::InvalidEscape => Defect::InvalidEscape,
        RepairKind::MismatchedBracket => Defect::MismatchedBracket,
        RepairKind::DoubledQuotes => Defect::DoubledQuotes,
        RepairKind::UnescapedQuote => Defect::UnescapedQuote,
        RepairKind::UnterminatedString => Defect::UnterminatedString,
        RepairKind::MissingStart => Defect::MissingStart,
        RepairKind::MissingColon => Defect::MissingColon,
        RepairKind::LeadingComma => Defect::LeadingComma,
        RepairKind::UnicodeSpace => Defect::UnicodeSpace,
        RepairKind::NumberFormat => Defect::NumberFormat,
        RepairKind::Undefined => Defect::Undefined,
        RepairKind::LiteralCase => Defect::LiteralCase,
        RepairKind::RawControlChar | RepairKind::EscapedBacktick | RepairKind::DecodedString => {
            return None
        }
    })
}

/// A short message for a defect found by the lenient reading.
pub(crate) fn defect_message(kind: Defect) -> &'static str {
    match kind {
        Defect::TrailingComma => {
            "trailing comma; tell the model not to put a comma after the last item"
        }
        Defect::SingleQuotes => "single-quoted string; JSON needs double quotes",
        Defect::UnquotedKey => "unquoted key; keys must be double-quoted strings",
        Defect::PythonLiteral => "Python literal; JSON spells them true, false and null",
        Defect::Comment => "comment; JSON has no comments: tell the model to leave them out",
        Defect::SmartQuotes => "typographic quote; JSON needs straight double quotes",
        Defect::Ellipsis => "ellipsis: the model left content out; ask for the complete value",
        Defect::MissingComma => "missing comma between items",
        Defect::NestingTooDeep => "nesting too deep; ask for a flatter structure",
        Defect::LeadingZero => "number with a leading zero, which JSON does not allow",
        Defect::NonFiniteNumber => "NaN or Infinity is not a JSON number; ask for null instead",
        Defect::InvalidEscape => "an escape JSON does not have (`\\'`, markdown `\\_`)",
        Defect::MismatchedBracket => "a closer that does not match its opener",
        Defect::DoubledQuotes => "a string wrapped in doubled quotes",
        Defect::UnescapedQuote => "a quote inside a string that ends it early; escape it as \\\"",
        Defect::UnterminatedString => "a string whose closing quote is missing",
        Defect::MissingStart => "the text begins inside a value: its first tokens were lost",
        Defect::MissingColon => "no colon between a key and its value",
        Defect::LeadingComma => "a comma before the first item",
        Defect::UnicodeSpace => {
            "a Unicode space used as white space; JSON allows only ASCII spaces"
        }
        Defect::NumberFormat => "a number spelling JSON does not allow (`.5`, `+1`, `0x1F`)",
        Defect::Undefined => "JavaScript `undefined` is not JSON; ask for null",
        Defect::LiteralCase => {
            "a literal in the wrong case; JSON spells true, false, null in lower case"
        }
        Defect::Syntax => "not JSON here",
    }
}

/// Every defect: the headline one (already located and worded) and one per
/// lenient fix, in text order, one per place.
pub(crate) fn all_defects(
    text: &str,
    headline: Option<DefectAt>,
    fixes: &[Repair],
) -> Vec<DefectAt> {
    let mut cursor = LineCursor::default();
    let mut defects: Vec<DefectAt> = fixes
        .iter()
        .filter_map(|fix| {
            let kind = defect_of_fix(fix.kind)?;
            let (line, column) = cursor.locate(text, fix.offset);
            Some(DefectAt {
                kind,
                offset: fix.offset,
                line,
                column,
                message: defect_message(kind).to_owned(),
            })
        })
        .collect();
    if let Some(headline) = headline {
        // The headline's own words are better than the generic ones; the validator
        // and the lenient reading may place one defect a few bytes apart
        // (a trailing comma at its comma or at the closer after it).
        defects
            .retain(|d| !(d.kind == headline.kind && same_place(text, d.offset, headline.offset)));
        defects.push(headline);
    }
    defects.sort_by_key(|d| d.offset);
    defects.dedup_by(|later, earlier| later.offset == earlier.offset && later.kind == earlier.kind);
    defects
}

/// Two offsets with only white space and commas between them.
fn same_place(text: &str, a: usize, b: usize) -> bool {
    let (low, high) = (a.min(b), a.max(b));
    text.as_bytes().get(low..high).is_some_and(|between| {
        between
            .iter()
            .all(|&c| c == b',' || c.is_ascii_whitespace())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lenient_fix_kind_but_the_lossless_ones_names_a_defect() {
        assert_eq!(
            defect_of_fix(RepairKind::PythonLiteral),
            Some(Defect::PythonLiteral)
        );
        assert_eq!(defect_of_fix(RepairKind::RawControlChar), None);
        for defect in Defect::ALL {
            assert!(!defect_message(defect).is_empty());
        }
    }

    #[test]
    fn defects_come_in_text_order_without_repeats() {
        let text = "{'a': True, 'b': 1,}";
        let fixes = [
            Repair {
                kind: RepairKind::SingleQuotes,
                offset: 1,
            },
            Repair {
                kind: RepairKind::PythonLiteral,
                offset: 6,
            },
            Repair {
                kind: RepairKind::SingleQuotes,
                offset: 12,
            },
            Repair {
                kind: RepairKind::TrailingComma,
                offset: 18,
            },
        ];
        let headline = DefectAt {
            kind: Defect::SingleQuotes,
            offset: 1,
            line: 1,
            column: 2,
            message: "headline words".into(),
        };
        let defects = all_defects(text, Some(headline), &fixes);
        let kinds: Vec<_> = defects.iter().map(|d| (d.kind, d.offset)).collect();
        assert_eq!(
            kinds,
            vec![
                (Defect::SingleQuotes, 1),
                (Defect::PythonLiteral, 6),
                (Defect::SingleQuotes, 12),
                (Defect::TrailingComma, 18)
            ]
        );
        assert_eq!(defects[0].message, "headline words");
        assert_eq!(defects[3].column, 19);
    }
}
