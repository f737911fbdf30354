//! A short structural diff of two JSON values: which paths changed, were added
//! or were removed. Numbers compare by value (`1.0` is `1.00`), exactly, and key
//! order does not matter; the walk keeps its own stack, so depth costs no recursion.

use serde::Serialize;
use serde_json::Value;

use crate::engine::member_path;

/// The paths (`$.vendor`, `$.items[2]`, `$["a b"]`) where two values differ, in
/// document order. A path is listed once, at the shallowest point that differs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct ValueDiff {
    /// Present on both sides with different values (or different types).
    pub(crate) changed: Vec<String>,
    /// Only in the new value.
    pub(crate) added: Vec<String>,
    /// Only in the old value.
    pub(crate) removed: Vec<String>,
}

/// A step of the walk: a pair still to compare, or a path found on one side only.
enum Step<'a> {
    Compare(&'a Value, &'a Value, String),
    Added(String),
    Removed(String),
}

impl ValueDiff {
    pub(crate) fn between(old: &Value, new: &Value) -> ValueDiff {
        let mut diff = ValueDiff::default();
        let mut stack = vec![Step::Compare(old, new, String::from("$"))];
        while let Some(step) = stack.pop() {
            let (old, new, path) = match step {
                Step::Added(path) => {
                    diff.added.push(path);
                    continue;
                }
                Step::Removed(path) => {
                    diff.removed.push(path);
                    continue;
                }
                Step::Compare(old, new, path) => (old, new, path),
            };
            let mut steps = Vec::new();
            match (old, new) {
                (Value::Object(before), Value::Object(after)) => {
                    for (key, old_item) in before {
                        steps.push(match after.get(key) {
                            Some(new_item) => {
                                Step::Compare(old_item, new_item, member_path(&path, key))
                            }
                            None => Step::Removed(member_path(&path, key)),
                        });
                    }
                    let fresh = after.keys().filter(|key| !before.contains_key(*key));
                    steps.extend(fresh.map(|key| Step::Added(member_path(&path, key))));
                }
                (Value::Array(before), Value::Array(after)) => {
                    let index = |i: usize| format!("{path}[{i}]");
                    let pairs = before.iter().zip(after).enumerate();
                    steps.extend(pairs.map(|(i, (p, q))| Step::Compare(p, q, index(i))));
                    let common = before.len().min(after.len());
                    steps.extend((common..before.len()).map(|i| Step::Removed(index(i))));
                    steps.extend((common..after.len()).map(|i| Step::Added(index(i))));
                }
                (Value::Number(x), Value::Number(y)) => {
                    if !same_number(&x.to_string(), &y.to_string()) {
                        diff.changed.push(path);
                    }
                }
                _ if old == new => {}
                _ => diff.changed.push(path),
            }
            // Reversed so the stack pops them in document order.
            stack.extend(steps.into_iter().rev());
        }
        diff
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.added.is_empty() && self.removed.is_empty()
    }

    /// `$.vendor changed, $.note added` with at most `limit` paths, then `and N more`.
    pub(crate) fn summary(&self, limit: usize) -> String {
        self.listed(limit, |path, word| format!("{path} {word}"), ", ")
    }

    /// The short form a narrow screen has room for: `~$.vendor +$.note -$.po`
    /// (`~` changed, `+` added, `-` removed), at most `limit` paths, then `+N more`.
    pub(crate) fn marked(&self, limit: usize) -> String {
        let mark = |path: &str, word: &str| match word {
            "changed" => format!("~{path}"),
            "added" => format!("+{path}"),
            _ => format!("-{path}"),
        };
        self.listed(limit, mark, " ")
    }

    fn listed(&self, limit: usize, show: impl Fn(&str, &str) -> String, gap: &str) -> String {
        let all = [
            (&self.changed, "changed"),
            (&self.added, "added"),
            (&self.removed, "removed"),
        ];
        let listed: Vec<String> = all
            .iter()
            .flat_map(|(paths, word)| paths.iter().map(|path| show(path, word)))
            .take(limit)
            .collect();
        let total = self.changed.len() + self.added.len() + self.removed.len();
        let mut text = listed.join(gap);
        if total > listed.len() {
            let more = total - listed.len();
            text.push_str(&if gap == " " {
                format!(" +{more} more")
            } else {
                format!(" and {more} more")
            });
        }
        text
    }
}

/// Whether two number tokens are the same number: `1.0`, `1.00`, `10e-1` and
/// `1` are; `-0` is `0`. Exact for any length (no conversion to a float).
fn same_number(a: &str, b: &str) -> bool {
    match (canonical_number(a), canonical_number(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// A number as (negative, significant digits, exponent of the last digit);
/// `None` when its exponent does not fit in an `i64`.
fn canonical_number(token: &str) -> Option<(bool, String, i64)> {
    let (negative, unsigned) = match token.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, token),
    };
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, exponent.parse::<i64>().ok()?),
        None => (unsigned, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    let digits = digits.trim_start_matches('0');
    let significant = digits.trim_end_matches('0');
    if significant.is_empty() {
        return Some((false, String::new(), 0));
    }
    let dropped = i64::try_from(digits.len() - significant.len()).ok()?;
    let shift = i64::try_from(fraction.len()).ok()?;
    let exponent = exponent.checked_sub(shift)?.checked_add(dropped)?;
    Some((negative, significant.to_string(), exponent))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(text: &str) -> Value {
        crate::engine::decode_exact(text).unwrap()
    }

    #[test]
    fn lists_changed_added_and_removed_paths_in_document_order() {
        let old = json!({"vendor": "Acme", "items": [1, 2, 3], "gone": true, "a b": {"x": 1}});
        let new = json!({"a b": {"x": 2}, "items": [1, 5], "vendor": "Evil Corp", "new": null});
        let diff = ValueDiff::between(&old, &new);
        assert_eq!(diff.changed, ["$.vendor", "$.items[1]", "$[\"a b\"].x"]);
        assert_eq!(diff.added, ["$.new"]);
        assert_eq!(diff.removed, ["$.items[2]", "$.gone"]);
        assert_eq!(
            diff.summary(2),
            "$.vendor changed, $.items[1] changed and 4 more"
        );
        assert_eq!(
            diff.marked(5),
            "~$.vendor ~$.items[1] ~$[\"a b\"].x +$.new -$.items[2] +1 more"
        );
    }

    #[test]
    fn numbers_compare_by_value_and_key_order_is_irrelevant() {
        let old = parse(r#"{"a": 1.0e2, "b": [true, {"c": 1}]}"#);
        let new = parse(r#"{"b": [true, {"c": 1}], "a": 100.00}"#);
        assert!(ValueDiff::between(&old, &new).is_empty());
        for (a, b) in [("1", "1.0"), ("10e-1", "1"), ("-0", "0"), ("0.0e5", "0")] {
            assert!(same_number(a, b), "{a} = {b}");
        }
        let big = "123456789012345678901234567890";
        assert!(same_number(big, &format!("{big}.0")));
        assert!(!same_number(big, "123456789012345678901234567891"));
        assert!(!same_number("1", "-1"));
        assert!(!same_number("1e400", "1e401"));
        let diff = ValueDiff::between(&parse("1"), &parse("[1]"));
        assert_eq!(diff.changed, ["$"]);
    }

    #[test]
    fn deep_nesting_is_walked_without_recursion() {
        let deep = |leaf: i32| {
            let mut value = json!(leaf);
            for _ in 0..2000 {
                value = Value::Array(vec![value]);
            }
            value
        };
        let diff = ValueDiff::between(&deep(1), &deep(2));
        assert_eq!(diff.changed.len(), 1);
        assert!(diff.changed[0].ends_with("[0][0]"));
    }
}
