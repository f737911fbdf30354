//! A fixed amount of streaming work for counting instructions, which repeat exactly where
//! times do not: the stream bench's answer fed in chunks of the size given, then `end`, or
//! one `extract` of it (`extract`), or nothing but the making of the answer (`none`), whose
//! count the others' include. `SHAPE=string` feeds one long string value in a fence
//! instead (`SHAPE=words`: one of words that never repeat, so no runaway fires), and
//! `SHAPE=prose` words without a value: what a chunk costs where nothing but
//! text arrives; `SHAPE=trues`, `numbers`, `strings`, `members` or `objects` 10,001 values
//! of one kind: what a value costs (fed 512 bytes at a time, the chunks' share is small).
//!
//! ```text
//! cargo build --profile profiling -p jxray-engine --example stream_count
//! valgrind --tool=callgrind target/profiling/examples/stream_count 8
//! ```

use std::hint::black_box;

use jxray_engine::{extract, Extractor, Options, Snapshot};

#[path = "../benches/support/answer.rs"]
mod support;

fn main() {
    let text = match std::env::var("SHAPE").as_deref() {
        Ok("string") => format!("```json\n{{\"a\": \"{}\"}}\n```", "x".repeat(73_000)),
        Ok("words") => format!(
            "```json\n{{\"a\": \"{}\"}}\n```",
            (0..12_000).map(|n| format!("w{n} ")).collect::<String>()
        ),
        Ok("prose") => "word ".repeat(14_700),
        Ok("trues") => format!("[{}true]", "true, ".repeat(10_000)),
        Ok("numbers") => format!("[{}1]", "12, ".repeat(10_000)),
        Ok("strings") => format!("[{}\"a\"]", "\"a\", ".repeat(10_000)),
        Ok("members") => format!(
            "{{{}\"z\": 1}}",
            (0..10_000)
                .map(|n| format!("\"k{n}\": true, "))
                .collect::<String>()
        ),
        Ok("objects") => format!("[{}{{}}]", "{}, ".repeat(10_000)),
        _ => support::answer(),
    };
    let mode = std::env::args().nth(1).unwrap_or_else(|| "8".into());
    // `REPEAT=n` does it all n times, for a sampling profiler or a timer.
    let repeat: usize = std::env::var("REPEAT").map_or(1, |n| n.parse().unwrap_or(1));
    match mode.as_str() {
        "none" => return,
        "extract" => {
            for _ in 0..repeat {
                black_box(extract(black_box(&text), &Options::default()));
            }
            return;
        }
        _ => {}
    }
    let size: usize = mode.parse().expect("a chunk size or `extract`");
    let end = std::env::args().nth(2).as_deref() != Some("no-end");
    for _ in 0..repeat {
        feed(&text, size, end);
    }
}

/// The text fed in chunks of `size`, then `end` when `end`.
fn feed(text: &str, size: usize, end: bool) {
    let mut extractor = Extractor::new(Options::default());
    let mut snapshot = Snapshot::default();
    for chunk in text.as_bytes().chunks(size.max(1)) {
        extractor.feed_into(chunk, &mut snapshot);
        black_box(&snapshot);
    }
    if end {
        black_box(extractor.end(Some("stop")));
    }
}
