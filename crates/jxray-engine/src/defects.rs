//! Every defect of a failed candidate, in text order (`failure.defects`).
//!
//! The strict validator stops at the first problem; the lenient reading goes
//! on through the whole candidate and records each meaning-changing fix at
//! its offset. Each fix names a defect, so the list is the headline defect
//! plus one entry per lenient fix. Teaching the lenient reading a new fix
//! teaches this list a new defect.

use super::lenient::advice as defect_message;
use super::outcome::{DefectAt, Repair};
use super::position::LineCursor;

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
            let kind = fix.kind.defect()?;
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
    use crate::outcome::{Defect, RepairKind};

    #[test]
    fn every_lenient_fix_kind_but_the_lossless_ones_names_a_defect() {
        assert_eq!(
            RepairKind::Lenient(Defect::PythonLiteral).defect(),
            Some(Defect::PythonLiteral)
        );
        assert_eq!(RepairKind::RawControlChar.defect(), None);
    }

    #[test]
    fn defects_come_in_text_order_without_repeats() {
        let text = "{'a': True, 'b': 1,}";
        let fixes = [
            Repair {
                kind: RepairKind::Lenient(Defect::SingleQuotes),
                offset: 1,
            },
            Repair {
                kind: RepairKind::Lenient(Defect::PythonLiteral),
                offset: 6,
            },
            Repair {
                kind: RepairKind::Lenient(Defect::SingleQuotes),
                offset: 12,
            },
            Repair {
                kind: RepairKind::Lenient(Defect::TrailingComma),
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
