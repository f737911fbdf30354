//! Brackets in code: `row['6']` indexes, `x = [1, 2]` assigns, `f() {` opens a body. A
//! value written inside code is the code's, never the answer, in either mode. (A call's
//! argument is not told from JSONP, `callback({…})`, whose argument is the answer.)

/// Whether the `{` or `[` at `start` belongs to code on its line: a `[` right after a
/// name or `)` (an index), a `{` right after `)` (a function body), either after an `=`
/// (an assignment, `=>`). (A `{` right after a word is not code: `json{…}` is a fence
/// tag left glued to the value.)
pub(crate) fn is_code_opener(bytes: &[u8], start: usize) -> bool {
    let before = &bytes[..start.min(bytes.len())];
    let Some(&prev) = before.last() else {
        return false;
    };
    let name_char = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    if prev == b')' || (bytes[start] == b'[' && name_char(prev)) {
        // `row['6']`, `f(x)[0]`, `fn main(){`: written on a name, not after a space.
        return true;
    }
    // An assignment may put its value on the next line (`x =\n[1, 2]`).
    let last = before.iter().rposition(|b| !b.is_ascii_whitespace());
    match last.map(|at| (at, before[at])) {
        Some((_, b'=')) => true,
        Some((at, b'>')) => at > 0 && before[at - 1] == b'=',
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_code_opener;

    fn opener(text: &str) -> bool {
        let at = text.find(['{', '[']).unwrap();
        is_code_opener(text.as_bytes(), at)
    }

    #[test]
    fn brackets_in_code_are_code() {
        for text in [
            "row['6']",
            "x = [1, 2]",
            "x =\n[1, 2]",
            "data={\"a\": 1}",
            "const f = (x) => {",
            "fn main(){",
        ] {
            assert!(opener(text), "{text}");
        }
    }

    #[test]
    fn brackets_in_prose_and_json_are_not() {
        for text in [
            "[1, 2]",
            "Here it is: {\"a\": 1}",
            "The list [1, 2] holds",
            "Result:\n[1, 2]",
            "(see [1])",
            "`{\"a\": 1}`",
            "json{\"a\": 1}",
            "callback({\"a\": 1});",
            "\"{\\\"a\\\": 1}\"",
        ] {
            assert!(!opener(text), "{text}");
        }
    }
}
