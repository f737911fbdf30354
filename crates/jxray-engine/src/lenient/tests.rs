//! One test per family: the fix, its kind and place, and the guesses refused.

use super::*;
use crate::outcome::Defect::{self, *};
use crate::outcome::RepairKind;
use serde_json::{json, Value};

/// The value and fix kinds of the lenient reading, or why there is none.
fn read_all(text: &str) -> Result<(Value, Vec<RepairKind>), String> {
    let result = read(text, 0, text.len());
    if let Some(refusal) = result.refused {
        return Err(refusal.reason.to_string());
    }
    let (value, _) =
        crate::decode::decode(&result.text).map_err(|e| format!("{e}: {}", result.text))?;
    Ok((value, result.repairs.iter().map(|r| r.kind).collect()))
}

/// `defects` are the defects the reading fixes, in text order.
fn reads(text: &str, value: Value, defects: &[Defect]) {
    let kinds = defects.iter().map(|&d| RepairKind::Lenient(d)).collect();
    assert_eq!(read_all(text), Ok((value, kinds)), "{text}");
}

fn refused(text: &str) {
    let got = read_all(text);
    assert!(got.is_err(), "{text} read as {got:?}");
}

#[test]
fn the_first_five_families() {
    reads("{\"a\": 1,}", json!({"a": 1}), &[TrailingComma]);
    reads(
        "{'a': 'it\\'s \"x\"'}",
        json!({"a": "it's \"x\""}),
        &[SingleQuotes, SingleQuotes],
    );
    reads(
        "{city: \"Paris\"}",
        json!({"city": "Paris"}),
        &[UnquotedKey],
    );
    reads(
        "[True, False, None, true]",
        json!([true, false, null, true]),
        &[PythonLiteral; 3],
    );
    reads(
        "{\"a\": 1 // c\n, /* d */ \"b\": 2 # e\n}",
        json!({"a": 1, "b": 2}),
        &[Comment; 3],
    );
    reads(
        "[1, 2, // last\n]",
        json!([1, 2]),
        &[TrailingComma, Comment],
    );
}

#[test]
fn numbers_and_words() {
    // `007`: the number 7, or a code that keeps its zeros.
    refused("{\"code\": 007}");
    reads(
        "[NaN, Infinity, -Infinity]",
        json!([null, null, null]),
        &[NonFiniteNumber; 3],
    );
    reads(
        "[.5, 5., +1, 0x1F]",
        json!([0.5, 5.0, 1, 31]),
        &[NumberFormat; 4],
    );
    reads("{\"a\": undefined}", json!({"a": null}), &[Undefined]);
    reads(
        "[TRUE, NULL, FALSE]",
        json!([true, null, false]),
        &[LiteralCase; 3],
    );
    // A word that only resembles a literal is a word, quoted like any other.
    reads(
        "{\"action\": NONE, \"ok\": True}",
        json!({"action": "NONE", "ok": true}),
        &[UnquotedValue, PythonLiteral],
    );
    reads(
        "{\"note\": Null, \"ok\": TRUE}",
        json!({"note": "Null", "ok": true}),
        &[UnquotedValue, LiteralCase],
    );
    reads("{2: \"b\"}", json!({"2": "b"}), &[UnquotedKey]);
    reads("{2.17: \"e\"}", json!({"2.17": "e"}), &[UnquotedKey]);
    reads("{\"a\": hello}", json!({"a": "hello"}), &[UnquotedValue]);
    reads("{\"a\": 12px}", json!({"a": "12px"}), &[UnquotedValue]);
}

#[test]
fn separators() {
    reads("{\"a\" 1}", json!({"a": 1}), &[MissingColon]);
    reads("[, 1, 2]", json!([1, 2]), &[LeadingComma]);
    reads("{, \"a\": 1}", json!({"a": 1}), &[LeadingComma]);
    reads("[1 2]", json!([1, 2]), &[MissingComma]);
    reads(
        "{\"a\": 1\n \"b\": 2}",
        json!({"a": 1, "b": 2}),
        &[MissingComma],
    );
    reads("{\"a\":\u{a0}1}", json!({"a": 1}), &[UnicodeSpace]);
    refused("[1,,2]");
    refused("{\"a\": }");
}

#[test]
fn brackets() {
    reads("[1, 2}", json!([1, 2]), &[MismatchedBracket]);
    reads("{\"a\": 1]", json!({"a": 1}), &[MismatchedBracket]);
    reads(
        "{\"a\": [1, 2}, \"b\": 3}",
        json!({"a": [1, 2], "b": 3}),
        &[MismatchedBracket],
    );
    reads("[{\"a\": 1]", json!([{"a": 1}]), &[MismatchedBracket]);
}

#[test]
fn quotes() {
    reads(
        "{\u{201c}a\u{201d}: \u{201c}b\u{201d}}",
        json!({"a": "b"}),
        &[SmartQuotes, SmartQuotes],
    );
    reads(
        "{\"a\": \u{2018}x\u{2019}}",
        json!({"a": "x"}),
        &[SmartQuotes],
    );
    reads("{\"a\": \"\"x\"\"}", json!({"a": "x"}), &[DoubledQuotes]);
    reads("{\"a\": \"\"}", json!({"a": ""}), &[]);
    reads(
        "{\"quote\": \"she said \"}\" twice\", \"n\": 2}",
        json!({"quote": "she said \"}\" twice", "n": 2}),
        &[UnescapedQuote, UnescapedQuote],
    );
    reads(
        "{\"q\": \"a \"big\" deal\"}",
        json!({"q": "a \"big\" deal"}),
        &[UnescapedQuote, UnescapedQuote],
    );
    reads(
        "{'a': 'it's here'}",
        json!({"a": "it's here"}),
        &[SingleQuotes, SingleQuotes],
    );
}

#[test]
fn escapes() {
    reads(
        "{\"a\": \"it\\'s\"}",
        json!({"a": "it's"}),
        &[InvalidEscape],
    );
    reads(
        "{\"a\": \"snake\\_case\"}",
        json!({"a": "snake_case"}),
        &[InvalidEscape],
    );
    refused("{\"path\": \"C:\\Users\\me\"}");
    reads(
        "{\"a\": \"x \\\u{201e} y\"}",
        json!({"a": "x \u{201e} y"}),
        &[InvalidEscape],
    );
    refused("{\"re\": \"\\d+\"}");
}

#[test]
fn unterminated_strings() {
    reads(
        "[{\"note\": \"check the valve}]",
        json!([{"note": "check the valve"}]),
        &[UnterminatedString],
    );
    reads(
        "{\"a\": \"x, \"b\": \"y\"}",
        json!({"a": "x", "b": "y"}),
        &[UnterminatedString],
    );
    refused("{\"a\": \"x','b':'y'}");
    // Text that simply stops is truncated: no quote, no closer is added.
    assert!(read_all("{\"a\": \"x").is_err());
    assert!(read_all("[1, 2,").is_err());
}

#[test]
fn missing_start() {
    reads("key\": \"v\"}", json!({"key": "v"}), &[MissingStart]);
    reads("\"a\":1,\"b\":2}", json!({"a": 1, "b": 2}), &[MissingStart]);
    reads(
        "\"a\": 1}, {\"a\": 2}]",
        json!([{"a": 1}, {"a": 2}]),
        &[MissingStart],
    );
    refused("lo world\", \"b\": 2}");
    // Never a piece of the value whose start was lost.
    refused("lo world\", \"b\": {\"c\": 1}}");
    // Leftover words before the value are stepped over.
    assert_eq!(read_all("json\n{a: 1}").unwrap().0, json!({"a": 1}));
}

#[test]
fn never_a_fragment_or_a_completion() {
    refused("{\"a\": 1}}");
    refused("[{\"i\":1{\"i\":2}]");
    let text = "{a: 1} trailing {b: 2}";
    let result = read(text, 0, text.len());
    assert_eq!((result.end, result.text.as_str()), (6, "{\"a\": 1}"));
}

#[test]
fn a_placeholder_in_prose_does_not_hide_the_object_after_it() {
    let text = "Fill in {placeholder} as below: {'name': 'Ada'}";
    let result = read(text, 8, text.len());
    assert_eq!(result.start, 32);
    assert_eq!(read_all(&text[32..]).unwrap().0, json!({"name": "Ada"}));
    assert!(result.refused.is_none(), "{result:?}");
}

#[test]
fn offsets_are_absolute() {
    let text = "xx {'a': 1}";
    let result = rewrite(text, 3, text.len());
    assert_eq!(
        result.repairs[0],
        Repair {
            kind: RepairKind::Lenient(SingleQuotes),
            offset: 4
        }
    );
}

#[test]
fn a_colon_at_the_end_of_a_whole_key_is_its_text() {
    // The quote after the colon closes the key (a colon follows it): no other way to read.
    reads(
        r#"{"x:": 1, "y": 2,}"#,
        json!({"x:": 1, "y": 2}),
        &[TrailingComma],
    );
    reads(
        r#"{"A:": null, "a": null,}"#,
        json!({"A:": null, "a": null}),
        &[TrailingComma],
    );
    // Without the colon after its quote the colon may still end a key: both ways are read.
    reads(r#"{"key:"value"}"#, json!({"key": "value"}), &[KeyQuote]);
}

#[test]
fn an_escaped_quote_after_a_colon_in_a_key_is_not_where_the_key_closes() {
    // The key `:'"` holds a colon, a quote and an escaped quote; the quote that closes it
    // is the one a colon follows, so the colon is text, and the trailing comma elsewhere is
    // the only fix.
    reads(
        r#"[{":'\"": null},]"#,
        json!([{":'\"": null}]),
        &[TrailingComma],
    );
    reads(
        "{\"a:\u{feff}'\\\"b\": 1, \"c\": 2,}",
        json!({"a:\u{feff}'\"b": 1, "c": 2}),
        &[TrailingComma],
    );
    // A colon first in a key is its text: no empty key lost its quote there.
    reads(
        "{\":\u{feff}\":null,\"a\":null,}",
        json!({":\u{feff}": null, "a": null}),
        &[TrailingComma],
    );
}

#[test]
fn a_quoted_phrase_before_the_lost_closing_quote_is_text() {
    reads(
        "{\"steps\": [{\"text\": \"first\"}, {\"text\": \"then: 'press start'}]}",
        json!({"steps": [{"text": "first"}, {"text": "then: 'press start'"}]}),
        &[UnterminatedString],
    );
    // Quotes that do not pair up may be where the string ended: still refused.
    refused("[\"one, 'two}]");
    // Two complete readings that differ: still refused.
    refused("[\"one, 'two', 'three']");
}

#[test]
fn a_brace_among_an_arrays_items_is_extra() {
    reads(
        "[{\"a\": 1}, {\"b\": 2} } ]",
        json!([{"a": 1}, {"b": 2}]),
        &[MismatchedBracket],
    );
    reads(
        "{\"items\": [{\"a\": 1} }], \"n\": 1}",
        json!({"items": [{"a": 1}], "n": 1}),
        &[MismatchedBracket],
    );
    // A bracket in an object could pair with a lost `[`: two readings, refused.
    refused("{\"a\": [1, 2]]}");
    // Not right before the array's own closer: the closer written wrong, as before.
    reads("[1, 2}", json!([1, 2]), &[MismatchedBracket]);
    // In an array of arrays the brace is the inner `]` written wrong: that reading is complete.
    reads("[[1, 2} ]", json!([[1, 2]]), &[MismatchedBracket]);
}

#[test]
fn an_item_whose_closing_quote_came_out_escaped_keeps_the_next_item() {
    reads(
        "{\"notes\": [\n  \"some text.\\\",\n  \"the next item.\"\n]}",
        json!({"notes": ["some text.", "the next item."]}),
        &[UnterminatedString],
    );
    reads(
        "[\"one.\\\",\n \"two.\\\",\n \"three.\"]",
        json!(["one.", "two.", "three."]),
        &[UnterminatedString, UnterminatedString],
    );
    // An escaped quote that may end a quoted phrase: which was meant is a guess.
    refused("[\"He said \\\"stop\\\",\n \"then left.\"]");
    // On one line the next item is no clearer than the text: as before.
    refused("{\"notes\": [\"first.\\\", \"second.\"]}");
}
