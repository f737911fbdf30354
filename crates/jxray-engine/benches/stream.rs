//! The streaming extractor's cost, side by side in one run: a 100 KB fenced answer given to
//! `extract` once, fed to an `Extractor` 8 bytes and 1 byte at a time (then `end`), and the
//! way apps stream today, `extract` on every 8-byte prefix (accumulate and re-parse).
//! `cargo bench -p jxray-engine --bench stream`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use jxray_engine::{extract, Extractor, Options, Snapshot};

#[path = "support/answer.rs"]
mod support;
use support::answer;

/// Fed as the bindings feed it: one snapshot for the whole stream, filled anew per chunk.
fn fed(text: &str, size: usize) -> bool {
    let mut extractor = Extractor::new(Options::default());
    let mut snapshot = Snapshot::default();
    for chunk in text.as_bytes().chunks(size) {
        extractor.feed_into(chunk, &mut snapshot);
        black_box(&snapshot);
    }
    extractor.end(Some("stop")).ok()
}

fn main() {
    let text = answer();
    assert!(fed(&text, 8) && extract(&text, &Options::default()).ok());
    let mut criterion = Criterion::default()
        .configure_from_args()
        .measurement_time(Duration::from_secs(3));
    let mut group = criterion.benchmark_group("stream-100kb");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("extract-once", |b| {
        b.iter(|| extract(black_box(&text), &Options::default()))
    });
    group.bench_function("extractor-8-byte-chunks", |b| {
        b.iter(|| fed(black_box(&text), 8))
    });
    group.bench_function("extractor-1-byte-chunks", |b| {
        b.iter(|| fed(black_box(&text), 1))
    });
    group.sample_size(10);
    group.bench_function("extract-every-8-byte-prefix", |b| {
        b.iter(|| {
            (8..=text.len())
                .step_by(8)
                .filter(|&end| text.is_char_boundary(end))
                .filter(|&end| extract(black_box(&text[..end]), &Options::default()).ok())
                .count()
        })
    });
    group.finish();
    criterion.final_summary();
}
