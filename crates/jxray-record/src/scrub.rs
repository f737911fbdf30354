//! Credentials out of everything that goes to disk.
//!
//! Headers: only a short list of harmless ones is ever kept (content type, SDK and API
//! versions), so a gateway's own key header (`x-portkey-api-key`, `helicone-auth`, …) never
//! reaches disk either; [`is_credential_header`] names the known ones for the tests and the
//! docs. Query parameters: `key`, `api_key`, `api-key`, `apikey`, `access_token`, `token`,
//! `sig`/`signature` are removed. JSON bodies: members with those names (some gateways take
//! `api_key` in the body) are removed at any depth.

use http::HeaderMap;
use serde_json::{Map, Value};

/// Header names (lower case) that carry credentials.
const CREDENTIAL_HEADERS: [&str; 8] = [
    "authorization",
    "proxy-authorization",
    "x-api-key",
    "x-goog-api-key",
    "api-key",
    "cookie",
    "set-cookie",
    "x-auth-token",
];

/// Request headers written to the request file: none of them carries a secret.
const KEPT_HEADERS: [&str; 7] = [
    "content-type",
    "accept",
    "user-agent",
    "anthropic-version",
    "anthropic-beta",
    "openai-beta",
    "x-stainless-lang",
];

/// Query parameter and JSON member names (compared in lower case, `-` as `_`) that carry
/// credentials.
const CREDENTIAL_NAMES: [&str; 9] = [
    "key",
    "api_key",
    "apikey",
    "access_token",
    "token",
    "sig",
    "signature",
    "authorization",
    "x_api_key",
];

pub fn is_credential_header(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    CREDENTIAL_HEADERS.contains(&name.as_str())
        || name.contains("api-key")
        || name.contains("auth")
        || name.contains("token")
}

fn is_credential_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase().replace('-', "_");
    CREDENTIAL_NAMES.contains(&name.as_str())
}

/// The headers worth keeping with the request, as `name: value` pairs in order.
pub fn kept_headers(headers: &HeaderMap) -> Map<String, Value> {
    let mut kept = Map::new();
    for name in KEPT_HEADERS {
        if let Some(value) = headers.get(name).and_then(|v| v.to_str().ok()) {
            kept.insert(name.to_string(), Value::String(value.to_string()));
        }
    }
    kept
}

/// A query string without its credential parameters (`None` when nothing is left).
pub fn scrub_query(query: &str) -> Option<String> {
    let kept: Vec<&str> = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .filter(|pair| {
            let name = pair.split_once('=').map_or(*pair, |(name, _)| name);
            !is_credential_name(&percent_decoded(name))
        })
        .collect();
    (!kept.is_empty()).then(|| kept.join("&"))
}

/// A path with its query scrubbed.
pub fn scrub_path_and_query(path: &str, query: Option<&str>) -> String {
    match query.and_then(scrub_query) {
        Some(query) => format!("{path}?{query}"),
        None => path.to_string(),
    }
}

/// Remove credential members at any depth, without recursion (a deep body cannot
/// overflow the stack).
pub fn scrub_json(value: &mut Value) {
    let mut pending: Vec<&mut Value> = vec![value];
    while let Some(value) = pending.pop() {
        match value {
            Value::Object(members) => {
                members.retain(|name, _| !is_credential_name(name));
                pending.extend(members.values_mut());
            }
            Value::Array(items) => pending.extend(items.iter_mut()),
            _ => {}
        }
    }
}

/// `%6Bey` is `key` too: a parameter name is compared decoded.
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let hex = bytes
            .get(index + 1..index + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[index], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                index += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                index += 1;
            }
            (byte, _) => {
                out.push(byte);
                index += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_parameters_leave_the_query() {
        assert_eq!(
            scrub_query("alt=sse&key=SECRET").as_deref(),
            Some("alt=sse")
        );
        assert_eq!(scrub_query("%6Bey=SECRET&x=1").as_deref(), Some("x=1"));
        assert_eq!(scrub_query("API_KEY=S&api-key=S&token=S"), None);
        assert_eq!(scrub_query("keys=1").as_deref(), Some("keys=1"));
    }

    #[test]
    fn credential_members_leave_the_body_at_any_depth() {
        let mut body: Value = serde_json::from_str(
            r#"{"model":"m","api_key":"S","metadata":{"Api-Key":"S","n":[{"token":"S","k":1}]}}"#,
        )
        .unwrap();
        scrub_json(&mut body);
        assert_eq!(
            body.to_string(),
            r#"{"model":"m","metadata":{"n":[{"k":1}]}}"#
        );
    }

    #[test]
    fn only_harmless_headers_are_kept() {
        let mut headers = HeaderMap::new();
        headers.insert("authorization", "Bearer S".parse().unwrap());
        headers.insert("x-portkey-api-key", "S".parse().unwrap());
        headers.insert("content-type", "application/json".parse().unwrap());
        let kept = kept_headers(&headers);
        assert_eq!(kept.len(), 1);
        assert!(is_credential_header("X-Goog-Api-Key"));
        assert!(is_credential_header("x-portkey-api-key"));
        assert!(!is_credential_header("content-type"));
    }
}
