//! Properties of the lenient reading: it never completes a cut-off value,
//! it leaves valid JSON alone, and one defect put into a valid document
//! reads back as exactly that document.

mod support;

use jxray_engine::{extract, Defect, FailureKind, Layer, Options, RepairKind};
use proptest::prelude::*;
use serde_json::{Map, Number, Value};
use support::values::serialize;

fn lenient() -> Options {
    Options::default().with_accept_lenient(true)
}

fn value_with(
    strings: impl Strategy<Value = String> + Clone + 'static,
) -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| Value::Number(n.into())),
        any::<f64>()
            .prop_filter_map("finite", Number::from_f64)
            .prop_map(Value::Number),
        strings.clone().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(strings.clone(), inner, 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn container(
    strings: impl Strategy<Value = String> + Clone + 'static,
) -> impl Strategy<Value = Value> {
    value_with(strings).prop_filter("object or array", |v| v.is_object() || v.is_array())
}

/// Strings of any characters but brackets: quotes, colons and escapes included (a key
/// holding a colon and then quotes, `":'\""`, reads as itself, not as a key whose closing
/// quote is missing).
fn no_brackets() -> &'static str {
    "[^\\[\\]{}]{0,12}"
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn valid_json_is_left_alone(value in value_with(any::<String>()), pretty in any::<bool>()) {
        let outcome = extract(&serialize(&value, pretty), &lenient());
        prop_assert_eq!(outcome.layer, Some(Layer::Direct));
        prop_assert_eq!(outcome.value, Some(value));
        prop_assert!(outcome.repairs.is_empty());
        prop_assert!(outcome.lenient.is_none());
    }

    /// Strings without brackets: a prefix cut inside one cannot close the structure.
    #[test]
    fn no_strict_prefix_is_completed(value in container("[a-z ,:'.]{0,8}"), pretty in any::<bool>()) {
        let text = serialize(&value, pretty);
        for cut in (1..text.len()).filter(|&cut| text.is_char_boundary(cut)) {
            let outcome = extract(&text[..cut], &lenient());
            prop_assert!(!outcome.ok(), "prefix {:?} was accepted", &text[..cut]);
            prop_assert_eq!(outcome.failure.map(|f| f.kind), Some(FailureKind::Truncated), "prefix {:?}", &text[..cut]);
        }
    }

    /// A trailing comma before the last closer, in any valid document (with
    /// quotes, escapes, Unicode and control characters in its strings),
    /// reads back as the document and nothing else is changed. Brackets in
    /// strings are left out: a `{` inside a string of a broken value is the
    /// fragment rule's business (the scanned layer), not the reading's.
    #[test]
    fn one_defect_reads_back_as_the_document(value in container(no_brackets()), pretty in any::<bool>()) {
        let text = serialize(&value, pretty);
        let last = text.len() - 1;
        let empty = matches!(value, Value::Array(ref a) if a.is_empty())
            || matches!(value, Value::Object(ref o) if o.is_empty());
        prop_assume!(!empty);
        let broken = format!("{},{}", &text[..last], &text[last..]);
        let outcome = extract(&broken, &lenient());
        prop_assert_eq!(outcome.layer, Some(Layer::Lenient), "{:?}", outcome.lenient);
        prop_assert_eq!(outcome.value, Some(value));
        let kinds: Vec<RepairKind> = outcome.repairs.iter().map(|r| r.kind).collect();
        prop_assert!(kinds.iter().all(|&k| k == RepairKind::Lenient(Defect::TrailingComma) || k.is_lossless()), "{:?}", kinds);
    }

    /// Single quotes for every key: the same document comes back.
    #[test]
    fn single_quoted_keys_read_back(value in container("[a-zA-Z0-9 _]{0,8}"), pretty in any::<bool>()) {
        let text = serialize(&value, pretty);
        let broken = single_quote_keys(&text);
        prop_assume!(broken != text);
        let outcome = extract(&broken, &lenient());
        prop_assert_eq!(outcome.value, Some(value), "{}", broken);
    }
}

/// `"key":` → `'key':` (keys here hold no quotes or escapes).
fn single_quote_keys(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('"') {
        let close = open + 1 + rest[open + 1..].find('"').unwrap();
        let is_key = rest[close + 1..].starts_with(':');
        out.push_str(&rest[..open]);
        let quote = if is_key { "'" } else { "\"" };
        out.push_str(quote);
        out.push_str(&rest[open + 1..close]);
        out.push_str(quote);
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// How one member of a flat object is spelled wrong.
#[derive(Debug, Clone, Copy)]
enum Corruption {
    /// `'value'`
    SingleQuoted,
    /// `value`
    Bare,
    /// `"key: …` (the key's closing quote left out)
    KeyQuote,
    /// `key": …` (the key's opening quote left out)
    KeyOpening,
}

fn corruption() -> impl Strategy<Value = Corruption> {
    prop_oneof![
        Just(Corruption::SingleQuoted),
        Just(Corruption::Bare),
        Just(Corruption::KeyQuote),
        Just(Corruption::KeyOpening),
    ]
}

/// A word that is no literal, number or keyword in any spelling the reading knows.
fn plain_word() -> impl Strategy<Value = String> {
    "[a-z]{2,8}( [a-z]{2,8})?".prop_filter("no literal", |w| {
        !matches!(
            w.as_str(),
            "true" | "false" | "null" | "none" | "nan" | "inf" | "infinity" | "undefined"
        )
    })
}

/// `{"k0": v0, …}` with member `broken` spelled as `how` says; returns the text and the
/// byte span of the broken member.
fn flat_object(
    members: &[(String, String)],
    broken: usize,
    how: Corruption,
    space: &str,
) -> (String, (usize, usize)) {
    let mut text = format!("{{{space}");
    let mut span = (0, 0);
    for (i, (key, value)) in members.iter().enumerate() {
        if i > 0 {
            text.push_str(&format!(",{space}"));
        }
        let start = text.len();
        let member = match (i == broken, how) {
            (false, _) => format!("\"{key}\": \"{value}\""),
            (true, Corruption::SingleQuoted) => format!("\"{key}\": '{value}'"),
            (true, Corruption::Bare) => format!("\"{key}\": {value}"),
            (true, Corruption::KeyQuote) => format!("\"{key}: \"{value}\""),
            (true, Corruption::KeyOpening) => format!("{key}\": \"{value}\""),
        };
        text.push_str(&member);
        if i == broken {
            span = (start, text.len());
        }
    }
    text.push_str(&format!("{space}}}"));
    (text, span)
}

/// Ambiguous texts, with `~` where any white space may go and `+` where some must.
const GUESSES: [&str; 12] = [
    "[~\"hello, world~]",
    "[~\"https://example.com/,~2~]",
    "{~\"text\"~:~\"say \\\"hi\\\"~}",
    "{~\"text\"~:~\"say \\\"hi\\\",~\"n\"~:~1~}",
    "{~\"a\"~:~\"x\" coworker\"~:~\"y\"~}",
    "{~\"code\"~:~007~}",
    "[~\"abc,+\"def\"~]",
    "{~\"key\"~:~\"value\"\"~}",
    "{~\"b\"~:~\"xxxxx\"+true~}",
    "Use {name:~value}~for each field.",
    "x~=~[1,~2]",
    "Use `row['6']`~to read it.",
];

fn spaced(template: &str, spaces: &[String]) -> String {
    let mut out = String::new();
    let mut slot = 0;
    for c in template.chars() {
        match c {
            '~' | '+' => {
                let space = &spaces[slot % spaces.len()];
                slot += 1;
                out.push_str(if c == '+' && space.is_empty() {
                    " "
                } else {
                    space
                });
            }
            _ => out.push(c),
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// A reading never changes a string's content outside the span of its fixes: with one
    /// member spelled wrong, the reading (when there is one) is the document itself, and
    /// every fix lies inside that member.
    #[test]
    fn fixes_stay_inside_the_member_they_fix(
        members in prop::collection::vec(("[a-z]{1,6}", plain_word()), 1..6),
        broken in any::<prop::sample::Index>(),
        how in corruption(),
        space in prop_oneof![Just(""), Just(" "), Just("\n  ")],
    ) {
        let mut members = members;
        members.sort();
        members.dedup_by(|a, b| a.0 == b.0);
        let broken = broken.index(members.len());
        let (text, (start, end)) = flat_object(&members, broken, how, space);
        let outcome = extract(&text, &lenient());
        if outcome.ok() {
            let want: Map<String, Value> = members
                .iter()
                .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                .collect();
            prop_assert_eq!(outcome.value, Some(Value::Object(want)), "{}", text);
            for repair in outcome.repairs.iter().filter(|r| !r.kind.is_lossless()) {
                prop_assert!(
                    (start..=end).contains(&repair.offset),
                    "{:?} at {} is outside {}..{} in {:?}", repair.kind, repair.offset, start, end, text
                );
            }
        } else {
            // Only the bare word may be refused (`a b` could be two words); the rest must read.
            prop_assert!(matches!(how, Corruption::Bare), "{:?} was refused: {:?}", text, outcome.lenient);
        }
    }

    /// A refused guess stays refused whatever the white space between the tokens.
    #[test]
    fn a_refused_guess_stays_refused_under_white_space(
        which in 0..GUESSES.len(),
        spaces in prop::collection::vec(prop_oneof![Just(""), Just(" "), Just("\n"), Just("\t "), Just(" \n  ")].prop_map(String::from), 1..8),
    ) {
        let text = spaced(GUESSES[which], &spaces);
        for options in [lenient(), Options::default()] {
            let outcome = extract(&text, &options);
            prop_assert!(!outcome.ok(), "{:?} gave {:?}", text, outcome.value);
        }
    }
}
