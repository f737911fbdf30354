//! The streaming bench's answer, shared by the bench and the instruction-count driver
//! (`examples/stream_count.rs`) so both measure the same text.

/// About 100 KB: prose, a fence, an object of records with strings, numbers and literals.
pub fn answer() -> String {
    let records: Vec<String> = (0..620)
        .map(|n| {
            format!(
                "    {{\"id\": {n}, \"name\": \"Item number {n} with a longer name\", \"price\": {}.{:02}, \"tags\": [\"a\", \"b\\n\"], \"active\": {}}}",
                n * 3,
                n % 100,
                n % 2 == 0
            )
        })
        .collect();
    format!(
        "Here is the inventory you asked for:\n\n```json\n{{\n  \"items\": [\n{}\n  ]\n}}\n```\n\nLet me know if you need more.",
        records.join(",\n")
    )
}
