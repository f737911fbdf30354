//! Integers a JavaScript number cannot hold exactly. The host parses the value with
//! `JSON.parse` (fast, and what TypeScript code expects) and, when asked for exact
//! integers, puts a `bigint` at each place listed here.

use serde::Serialize;
use serde_json::Value;

/// The largest integer a double holds exactly, and every one below it (2^53 − 1).
const SAFE: u64 = (1 << 53) - 1;

/// One integer beyond ±(2^53 − 1): where it is, and its digits.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct BigInt {
    /// Keys and indices from the root to the integer.
    pub path: Vec<Step>,
    /// The integer as written (a sign and digits).
    pub digits: String,
}

/// A key of an object or an index of an array.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// Every integer in `value` a double cannot hold exactly, in document order. The walk
/// keeps its own stack: nesting is bounded by the decoder, but no recursion is needed.
pub fn unsafe_integers(value: &Value) -> Vec<BigInt> {
    let mut found = Vec::new();
    let mut stack: Vec<(Vec<Step>, &Value)> = vec![(Vec::new(), value)];
    while let Some((path, value)) = stack.pop() {
        match value {
            Value::Number(number) => {
                if let Some(digits) = beyond_safe(&number.to_string()) {
                    found.push(BigInt { path, digits });
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate().rev() {
                    stack.push((extended(&path, Step::Index(index)), item));
                }
            }
            Value::Object(members) => {
                for (key, item) in members.iter().rev() {
                    stack.push((extended(&path, Step::Key(key.clone())), item));
                }
            }
            _ => {}
        }
    }
    found
}

fn extended(path: &[Step], step: Step) -> Vec<Step> {
    let mut longer = path.to_vec();
    longer.push(step);
    longer
}

/// The digits of a number written as an integer (no fraction, no exponent) whose
/// magnitude is beyond 2^53 − 1.
fn beyond_safe(text: &str) -> Option<String> {
    let magnitude = text.strip_prefix('-').unwrap_or(text);
    if magnitude.is_empty() || !magnitude.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    let beyond = magnitude.len() > 16 || magnitude.parse::<u64>().map_or(true, |n| n > SAFE);
    beyond.then(|| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn integers_past_two_to_the_53_are_listed_with_their_place() {
        let found = unsafe_integers(&value(
            r#"{"id": 12345678901234567890, "ok": 9007199254740991, "list": [1, -9007199254740993], "f": 1e30}"#,
        ));
        assert_eq!(
            found,
            vec![
                BigInt {
                    path: vec![Step::Key("id".into())],
                    digits: "12345678901234567890".into()
                },
                BigInt {
                    path: vec![Step::Key("list".into()), Step::Index(1)],
                    digits: "-9007199254740993".into()
                },
            ]
        );
    }

    #[test]
    fn a_root_integer_has_an_empty_path_and_safe_values_none() {
        assert_eq!(unsafe_integers(&value("9007199254740992"))[0].path, vec![]);
        assert!(unsafe_integers(&value(r#"[1.5, "12345678901234567890", 3]"#)).is_empty());
    }
}
