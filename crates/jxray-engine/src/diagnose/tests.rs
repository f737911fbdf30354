//! The diagnosis names each defect and says what to change.

use super::*;
use crate::scan::scan_value;
use crate::scan::ScanEnd;

fn diagnosis_of(text: &str) -> Diagnosis {
    match scan_value(text.as_bytes(), 0, text.len(), 128, None).end {
        ScanEnd::Invalid {
            at,
            problem,
            after_comma,
        } => diagnose(text, at, problem, after_comma, 128),
        other => panic!("{text} did not fail: {other:?}"),
    }
}

fn defect_of(text: &str) -> Defect {
    diagnosis_of(text).defect
}

fn message_of(text: &str) -> String {
    diagnosis_of(text).message
}

#[test]
fn each_named_defect() {
    assert_eq!(defect_of("{\"total\": 1240,}"), Defect::TrailingComma);
    assert_eq!(defect_of("[1, 2, ]"), Defect::TrailingComma);
    assert_eq!(defect_of("{'total': 1240}"), Defect::SingleQuotes);
    assert_eq!(defect_of("{city: \"Paris\"}"), Defect::UnquotedKey);
    assert_eq!(defect_of("{\"ok\": True}"), Defect::PythonLiteral);
    assert_eq!(defect_of("{\"a\": None}"), Defect::PythonLiteral);
    assert_eq!(
        defect_of("{\n \"total\": 1240 // euros\n}"),
        Defect::Comment
    );
    assert_eq!(defect_of("{/* c */ \"a\": 1}"), Defect::Comment);
    assert_eq!(defect_of("{\u{201c}a\u{201d}: 1}"), Defect::SmartQuotes);
    assert_eq!(defect_of("[1, 2, ...]"), Defect::Ellipsis);
    assert_eq!(defect_of("{\"a\": 1 \"b\": 2}"), Defect::MissingComma);
    assert_eq!(defect_of("{\"a\" 1}"), Defect::MissingColon);
    assert_eq!(defect_of(&"[".repeat(300)), Defect::NestingTooDeep);
    assert_eq!(defect_of("{\"status\": active}"), Defect::UnquotedValue);
    assert_eq!(defect_of("{\"id\": 3f2a-9c}"), Defect::UnquotedValue);
    assert_eq!(defect_of("{\"name: \"x\"}"), Defect::KeyQuote);
    assert_eq!(defect_of("{name\": \"x\"}"), Defect::KeyQuote);
}

#[test]
fn messages_name_the_likely_cause() {
    assert!(message_of("{&quot;a&quot;: 1}").contains("HTML-escaped"));
    assert!(message_of(r#"{"path": "C:\Users\ada"}"#).contains("Windows path"));
    assert!(message_of(r#"{"re": "\d+"}"#).contains("doubled"));
    assert!(message_of(r#"{"a": "it\'s"}"#).contains("not to escape `'`"));
    let short_unicode = message_of(r#"{"a": "\u12"}"#);
    assert!(short_unicode.contains("`\\u12`"), "{short_unicode}");
    assert!(short_unicode.contains("four hex digits"), "{short_unicode}");
    assert!(message_of(r#"{"p": "C:\users\ada"}"#).contains("Windows path"));
    assert!(message_of(r#"{"a": , "b": 1}"#).contains("no value"));
    assert!(message_of(r#"{\"a\": 1}"#).contains("escaped as if"));
    assert!(message_of("{\\n  \\\"a\\\": 1}").contains("escaped as if"));
}
