//! Benchmark inputs: a clean document and the adversarial shapes that make
//! peer extractors go quadratic. Deterministic, so figures are comparable.

use serde_json::{json, Value};

pub const MB: usize = 1 << 20;

/// A realistic JSON document of about `size` bytes: invoices with line items.
pub fn clean_document(size: usize) -> String {
    let mut items = Vec::new();
    let mut total = 2;
    let mut n: u64 = 0;
    while total < size {
        n += 1;
        let country = ["FR", "DE", "US", "JP"][(n % 4) as usize];
        let item = json!({
            "invoice": format!("INV-{n:07}"),
            "customer": {"name": format!("Customer {}", n % 977), "country": country},
            "lines": [
                {"sku": format!("SKU-{}", n % 313), "qty": n % 7 + 1, "price": (n % 1000) as f64 / 10.0},
                {"sku": format!("SKU-{}", n % 211), "qty": n % 3 + 1, "price": (n % 500) as f64 / 4.0}
            ],
            "note": "Delivered on time; customer asked for a \"paper\" copy.\nThanks!",
            "paid": n.is_multiple_of(3)
        });
        total += serde_json::to_string_pretty(&item).unwrap().len() + 2;
        items.push(item);
    }
    serde_json::to_string_pretty(&Value::Array(items)).unwrap()
}

/// The clean document as a model would send it: prose, a fence, prose.
pub fn fenced(document: &str) -> String {
    format!("Here is the extracted data:\n\n```json\n{document}\n```\n\nLet me know if you need anything else.")
}

fn repeat_to(unit: &str, size: usize) -> String {
    unit.repeat(size / unit.len())
}

/// The adversarial inputs of about 1 MB each, with their names.
pub fn adversarial() -> Vec<(&'static str, String)> {
    let object_tail = "{\"a\": 1}";
    vec![
        ("open-braces", "{".repeat(MB)),
        ("open-keys", repeat_to("{\"a\":", MB)),
        ("unterminated-fences", repeat_to("```json\n{\n", MB)),
        (
            "stray-braces-and-quotes",
            repeat_to("so {\" and \" or { ", MB) + object_tail,
        ),
        ("deep-nesting", "[".repeat(MB / 2) + &"]".repeat(MB / 2)),
        (
            "backslash-run",
            format!("{{\"a\": \"{}\"}}", "\\".repeat(MB)),
        ),
        (
            "repeated-unclosed-members",
            repeat_to("{\"a\": {\"b\": 1}, ", MB),
        ),
        // The lenient reading's families and their alternatives (issue 23).
        (
            "lenient-bare-words",
            format!("{{{}\"z\": 1}}", repeat_to("\"k\": some words, ", MB)),
        ),
        ("lenient-mismatched-closers", repeat_to("[{\"a\": 1], ", MB)),
        (
            "lenient-open-string-commas",
            format!("[\"{}]", repeat_to("a, ", MB)),
        ),
        ("lenient-placeholders", repeat_to("{name: value} ", MB)),
        ("lenient-key-colons", repeat_to("{\"k: \"v\", ", MB)),
        // Tool calls written as text (issue 30): bodies, and calls without one amid stray markers.
        (
            "tool-call-bodies",
            repeat_to(
                "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": [1, 2]}}\n</tool_call>\n",
                MB,
            ),
        ),
        (
            "tool-call-markup",
            repeat_to(
                "<function=f>\n<parameter=a>\n{\"b\": 1}\n</parameter>\n</function>\n<|tool_call_begin|>[TOOL_CALLS]f to=functions.f <|message|>[f(a=",
                MB,
            ),
        ),
    ]
}
