//! JSON paths as jxray writes them in its messages: `$`, `$.args`, `$.calls[0]`,
//! `$["a key"]`.

use serde_json::Value;

/// The path of member `key` of the object at `path`: `.key` for a plain name (a letter or
/// `_`, then letters, digits and `_`), else the key quoted as JSON in brackets.
pub fn member_path(path: &str, key: &str) -> String {
    let mut path = path.to_owned();
    push_member(&mut path, key);
    path
}

/// [`member_path`], written onto the end of `path`.
pub(crate) fn push_member(path: &mut String, key: &str) {
    let mut chars = key.chars();
    let plain = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        path.push('.');
        path.push_str(key);
    } else {
        path.push('[');
        path.push_str(&Value::String(key.to_owned()).to_string());
        path.push(']');
    }
}
