//! Any bytes as a body `jxray record` keeps, sent with any `Content-Encoding` chain: never
//! a panic, never more decoded bytes than the limit, and every byte held for it given back
//! to the budget shared by all calls. Then the same bytes as a query string and, when they
//! parse, a JSON request body to scrub: no credential-named parameter or member is left.
#![no_main]

use jxray_record::{decode, is_credential_name, scrub_json, scrub_query, Budget, DecodedBody};
use libfuzzer_sys::fuzz_target;

const ENCODINGS: [&str; 8] = [
    "gzip",
    "x-gzip",
    "deflate",
    "br",
    "zstd",
    "identity",
    "compress",
    "gzip, br",
];

/// Small, so that bombs are met at once.
const LIMIT: usize = 64 * 1024;
const BUDGET: usize = 96 * 1024;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let encoding = ENCODINGS[usize::from(pick) % ENCODINGS.len()];
    let budget = Budget::new(BUDGET);
    match decode(body, Some(encoding), LIMIT, &budget) {
        DecodedBody::Plain(held) => {
            assert!(held.len() <= LIMIT);
            assert!(budget.used() <= BUDGET);
        }
        DecodedBody::Identity
        | DecodedBody::Unsupported(_)
        | DecodedBody::Failed(_)
        | DecodedBody::Refused(_) => {}
    }
    assert_eq!(budget.used(), 0, "every byte held is given back");

    let text = String::from_utf8_lossy(body);
    if let Some(kept) = scrub_query(&text) {
        for pair in kept.split('&') {
            let name = pair.split_once('=').map_or(pair, |(name, _)| name);
            assert!(!is_credential_name(name), "{name} kept");
        }
    }
    if let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(body) {
        scrub_json(&mut value);
        if let serde_json::Value::Object(members) = &value {
            for name in members.keys() {
                assert!(!is_credential_name(name), "{name} kept");
            }
        }
    }
});
