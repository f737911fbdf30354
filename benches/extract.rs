//! Extraction speed and memory: `cargo bench --bench extract`.
//!
//! Prints peak memory per input first (measured with a counting allocator),
//! then runs the criterion groups: the clean 8 MB fenced document against
//! serde_json alone (as a tree, the library's default, and as compact text, what
//! `check` asks for), and each 1 MB adversarial input.

mod inputs;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use jxray::engine::{extract, Options, ValueForm};
use peak_alloc::PeakAlloc;

#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

/// What `check --format text|jsonl` asks of the engine.
fn as_text() -> Options {
    Options::default().with_value_form(ValueForm::Text)
}

fn peak_of(text: &str, options: &Options) -> usize {
    ALLOCATOR.reset_peak_usage();
    let before = ALLOCATOR.current_usage();
    let outcome = extract(text, options);
    let peak = ALLOCATOR.peak_usage().saturating_sub(before);
    drop(black_box(outcome));
    peak
}

fn report_memory(document: &str, clean: &str, adversarial: &[(&str, String)]) {
    println!("peak memory during extraction (bytes allocated beyond the input):");
    ALLOCATOR.reset_peak_usage();
    let before = ALLOCATOR.current_usage();
    let value = serde_json::from_str::<serde_json::Value>(document).unwrap();
    let peak = ALLOCATOR.peak_usage().saturating_sub(before);
    drop(black_box(value));
    println!(
        "  {:<28} input {:>9}  peak {:>10}  ratio {:.2}",
        "serde_json-bare (baseline)",
        document.len(),
        peak,
        peak as f64 / document.len() as f64
    );
    let mut rows = vec![
        ("clean-8mb-fenced", clean, Options::default()),
        ("clean-8mb-fenced-as-text", clean, as_text()),
    ];
    rows.extend(
        adversarial
            .iter()
            .map(|(name, text)| (*name, text.as_str(), Options::default())),
    );
    for (name, text, options) in rows {
        let peak = peak_of(text, &options);
        println!(
            "  {name:<28} input {:>9}  peak {:>10}  ratio {:.2}",
            text.len(),
            peak,
            peak as f64 / text.len() as f64
        );
    }
}

fn main() {
    let document = inputs::clean_document(8 * inputs::MB);
    let clean = inputs::fenced(&document);
    let adversarial = inputs::adversarial();
    report_memory(&document, &clean, &adversarial);

    let mut criterion = Criterion::default()
        .configure_from_args()
        .sample_size(10)
        .measurement_time(Duration::from_secs(8))
        .warm_up_time(Duration::from_secs(1));

    let mut group = criterion.benchmark_group("clean-8mb");
    group.throughput(Throughput::Bytes(document.len() as u64));
    group.bench_function("serde_json-bare", |b| {
        b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(&document)).unwrap())
    });
    group.bench_function("jxray-fenced", |b| {
        b.iter(|| extract(black_box(&clean), &Options::default()))
    });
    let text_options = as_text();
    group.bench_function("jxray-fenced-as-text", |b| {
        b.iter(|| extract(black_box(&clean), &text_options))
    });
    group.finish();

    let mut group = criterion.benchmark_group("adversarial-1mb");
    for (name, text) in &adversarial {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(*name, |b| {
            b.iter(|| extract(black_box(text), &Options::default()))
        });
    }
    group.finish();
    criterion.final_summary();
}
