//! Credentials out of everything that goes to disk.
//!
//! Headers: only a short list of harmless ones is ever kept (content type, SDK and API
//! versions), so a gateway's own key header (`x-portkey-api-key`, `helicone-auth`, …) never
//! reaches disk either. Query parameters and JSON members (at any depth) are removed when
//! their name *says* credential ([`is_credential_name`]): a list of names cannot keep up
//! with every provider's (`aws_session_token`, `subscription-key`, `X-Amz-Signature`), a
//! rule over the words of a name can. A member holding headers (`extra_headers`) is
//! removed whole. And the credentials the request carried are known: any occurrence of
//! them left in what is written (an upstream's 401 that echoes the key) is replaced
//! ([`Secrets`]).

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

/// A word of a name that makes it a credential wherever it appears in the word
/// (`aws_secret_access_key`, `clientsecret`, `db_password`, `x-amz-credential`).
const CREDENTIAL_STEMS: [&str; 9] = [
    "secret",
    "passw",
    "passphrase",
    "credential",
    "signature",
    "cookie",
    "authoriz",
    "bearer",
    "privatekey",
];

/// Whole words that make a name a credential (`max_tokens` is not one: `tokens` is
/// another word), and endings of one-word names (`apikey`, `authtoken`).
const CREDENTIAL_WORDS: [&str; 8] = ["key", "token", "auth", "sig", "pwd", "jwt", "sas", "otp"];
const CREDENTIAL_ENDINGS: [&str; 4] = ["apikey", "accesskey", "token", "sessionid"];

/// What replaces a credential's value found in what is written.
pub const REDACTED: &str = "[REDACTED]";

/// Credentials shorter than this are not searched for in what is written: a short value
/// would match ordinary text, and no provider issues keys that short.
const MIN_SECRET_LEN: usize = 8;

pub fn is_credential_header(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    CREDENTIAL_HEADERS.contains(&lower.as_str()) || is_credential_name(name)
}

/// Whether a query parameter or JSON member name says it holds a credential: a word of it
/// is `key`, `token`, `auth`, … or contains `secret`, `password`, `credential`,
/// `signature`, `cookie`, `authorization`. Words are split at `_`, `-`, `.`, spaces and
/// lower-to-upper case changes (`awsSecretAccessKey`).
pub fn is_credential_name(name: &str) -> bool {
    words(name).iter().any(|word| {
        CREDENTIAL_STEMS.iter().any(|stem| word.contains(stem))
            || CREDENTIAL_WORDS.contains(&word.as_str())
            || CREDENTIAL_ENDINGS.iter().any(|end| word.ends_with(end))
    })
}

/// A member that holds a map of HTTP headers (`headers`, `extra_headers`,
/// `defaultHeaders`): removed whole, whatever the headers are called.
fn is_header_map(name: &str) -> bool {
    words(name)
        .iter()
        .any(|word| word == "headers" || word == "header")
}

/// The lower-case words of a name.
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower {
            words.push(std::mem::take(&mut word));
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        word.extend(c.to_lowercase());
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
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

/// Remove credential members and header maps at any depth, without recursion (a deep
/// body cannot overflow the stack).
///
/// One exception keeps tools and response formats readable: the members of a JSON
/// Schema's `properties` are names of the fields the model is asked for, not values, so
/// a property named `password` whose schema is an object stays (its own members are
/// scrubbed like any others). A non-object value there is removed like anywhere else.
pub fn scrub_json(value: &mut Value) {
    let mut pending: Vec<(&mut Value, bool)> = vec![(value, false)];
    while let Some((value, schema_properties)) = pending.pop() {
        match value {
            Value::Object(members) => {
                members.retain(|name, value| {
                    if schema_properties && value.is_object() {
                        return true;
                    }
                    !is_credential_name(name) && !is_header_map(name)
                });
                for (name, value) in members.iter_mut() {
                    pending.push((value, !schema_properties && name == "properties"));
                }
            }
            Value::Array(items) => pending.extend(items.iter_mut().map(|item| (item, false))),
            _ => {}
        }
    }
}

/// The credentials one request carried, to be searched for in what is written.
#[derive(Debug, Default)]
pub struct Secrets {
    values: Vec<String>,
}

impl Secrets {
    /// The credentials in `headers` (every header but the harmless ones kept), in
    /// credential query parameters, and in credential members of the JSON `body`.
    pub fn of_request(headers: &HeaderMap, query: Option<&str>, body: Option<&Value>) -> Secrets {
        let mut secrets = Secrets::default();
        for (name, value) in headers {
            if KEPT_HEADERS.contains(&name.as_str()) || !is_credential_header(name.as_str()) {
                continue;
            }
            if let Ok(value) = value.to_str() {
                secrets.add_header_value(value);
            }
        }
        for pair in query.unwrap_or("").split('&') {
            if let Some((name, value)) = pair.split_once('=') {
                if is_credential_name(&percent_decoded(name)) {
                    secrets.add(value);
                    secrets.add(&percent_decoded(value));
                }
            }
        }
        if let Some(body) = body {
            secrets.add_json(body);
        }
        secrets
            .values
            .sort_by_key(|value| std::cmp::Reverse(value.len()));
        secrets.values.dedup();
        secrets
    }

    /// `Bearer sk-…`, `session=…; other=…`: the whole value and each of its parts.
    fn add_header_value(&mut self, value: &str) {
        self.add(value);
        for part in value.split(|c: char| c.is_whitespace() || c == ';' || c == ',') {
            self.add(part.split_once('=').map_or(part, |(_, value)| value));
        }
    }

    /// String values under credential members, at any depth.
    fn add_json(&mut self, body: &Value) {
        let mut pending: Vec<(&Value, bool)> = vec![(body, false)];
        while let Some((value, secret)) = pending.pop() {
            match value {
                Value::String(text) if secret => self.add(text),
                Value::Object(members) => pending.extend(members.iter().map(|(name, value)| {
                    (
                        value,
                        secret || is_credential_name(name) || is_header_map(name),
                    )
                })),
                Value::Array(items) => pending.extend(items.iter().map(|item| (item, secret))),
                _ => {}
            }
        }
    }

    fn add(&mut self, value: &str) {
        let value = value.trim();
        if value.len() >= MIN_SECRET_LEN && !self.values.iter().any(|known| known == value) {
            self.values.push(value.to_string());
        }
    }

    /// `bytes` with every occurrence of a known credential replaced; the count replaced.
    pub fn redact(&self, bytes: &mut Vec<u8>) -> usize {
        let mut count = 0;
        // The longest first, so that a value holding another is replaced whole.
        for secret in &self.values {
            count += replace_all(bytes, secret.as_bytes(), REDACTED.as_bytes());
        }
        count
    }
}

/// Replace every occurrence of `needle` in `haystack`; how many there were.
fn replace_all(haystack: &mut Vec<u8>, needle: &[u8], with: &[u8]) -> usize {
    let mut found = memchr::memmem::find_iter(haystack, needle).peekable();
    if found.peek().is_none() {
        return 0;
    }
    let mut out = Vec::with_capacity(haystack.len());
    let mut from = 0;
    let mut count = 0;
    for start in found {
        if start < from {
            continue;
        }
        out.extend_from_slice(&haystack[from..start]);
        out.extend_from_slice(with);
        from = start + needle.len();
        count += 1;
    }
    out.extend_from_slice(&haystack[from..]);
    *haystack = out;
    count
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
    fn every_credential_shaped_parameter_leaves_the_query() {
        let query = "api-version=2024-10-21&subscription-key=S&X-Amz-Signature=S\
                     &X-Amz-Security-Token=S&X-Amz-Credential=S&auth_token=S&password=S\
                     &sig=S&access_token=S&alt=sse&X-Amz-Date=20261201";
        assert_eq!(
            scrub_query(query).as_deref(),
            Some("api-version=2024-10-21&alt=sse&X-Amz-Date=20261201")
        );
    }

    #[test]
    fn names_are_judged_by_their_words() {
        for name in [
            "aws_secret_access_key",
            "aws_session_token",
            "azure_ad_token",
            "private_key",
            "privateKey",
            "client_secret",
            "password",
            "db_passwd",
            "x-goog-api-key",
            "Cookie",
            "apiKey",
            "apikey",
            "awsAccessKeyId",
            "refresh_token",
            "id_token",
            "Authorization",
            "proxy-authorization",
            "helicone-auth",
            "vertex_credentials",
            "sessionid",
            "subscription-key",
            "X-Amz-Signature",
            "bearer",
        ] {
            assert!(is_credential_name(name), "{name} kept");
        }
        for name in [
            "max_tokens",
            "maxOutputTokens",
            "max_completion_tokens",
            "budget_tokens",
            "top_k",
            "keys",
            "model",
            "messages",
            "temperature",
            "author",
            "response_format",
            "stream_options",
            "content",
        ] {
            assert!(!is_credential_name(name), "{name} removed");
        }
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
    fn provider_credentials_and_header_maps_leave_the_body() {
        let mut body: Value = serde_json::from_str(
            r#"{"model":"m","max_tokens":5,"temperature":0.2,
                "aws_secret_access_key":"S","aws_session_token":"S","aws_access_key_id":"S",
                "azure_ad_token":"S","private_key":"S","client_secret":"S","password":"S",
                "vertex_credentials":{"type":"service_account","private_key_id":"S"},
                "extra_headers":{"x-goog-api-key":"S","Cookie":"S","x-trace":"S"},
                "litellm_params":{"headers":{"X-Custom":"S"},"clientSecret":"S"},
                "messages":[{"role":"user","content":"hi"}]}"#,
        )
        .unwrap();
        scrub_json(&mut body);
        assert_eq!(
            body.to_string(),
            r#"{"model":"m","max_tokens":5,"temperature":0.2,"litellm_params":{},"messages":[{"role":"user","content":"hi"}]}"#
        );
    }

    #[test]
    fn a_schema_may_ask_for_a_field_named_like_a_credential() {
        let mut body: Value = serde_json::from_str(
            r#"{"tools":[{"type":"function","function":{"name":"login","parameters":
                {"type":"object","properties":{"password":{"type":"string"},"token":"S"},
                 "required":["password"]}}}]}"#,
        )
        .unwrap();
        scrub_json(&mut body);
        assert_eq!(
            body["tools"][0]["function"]["parameters"].to_string(),
            r#"{"type":"object","properties":{"password":{"type":"string"}},"required":["password"]}"#
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

    #[test]
    fn the_requests_own_credentials_are_replaced_wherever_they_are_echoed() {
        let mut headers = HeaderMap::new();
        headers.insert(
            "authorization",
            "Bearer sk-live-0123456789".parse().unwrap(),
        );
        headers.insert("cookie", "a=1; session=cookie-value-42".parse().unwrap());
        headers.insert("user-agent", "OpenAI/Python 1.0.0".parse().unwrap());
        let body: Value =
            serde_json::from_str(r#"{"extra":{"client_secret":"body-secret-value"}}"#).unwrap();
        let secrets =
            Secrets::of_request(&headers, Some("alt=sse&key=query-secret-1"), Some(&body));
        let mut text = br#"{"error":"Incorrect API key provided: sk-live-0123456789 (Bearer sk-live-0123456789); cookie-value-42 query-secret-1 body-secret-value; OpenAI/Python 1.0.0"}"#.to_vec();
        assert_eq!(secrets.redact(&mut text), 5);
        assert_eq!(
            String::from_utf8(text).unwrap(),
            r#"{"error":"Incorrect API key provided: [REDACTED] ([REDACTED]); [REDACTED] [REDACTED] [REDACTED]; OpenAI/Python 1.0.0"}"#
        );
    }
}
