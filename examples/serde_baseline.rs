//! Baseline for BENCHMARKS.md: how long serde_json alone takes to parse the
//! JSON inside a folder of captures (found by jxray first, untimed), and how long
//! reading the capture files and then parsing that JSON takes (the floor for a
//! folder of many small files, where opening them costs more than parsing).
//!
//! `cargo run --release --example serde_baseline -- /tmp/jxray-bench/large`

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Instant;

use jxray::capture::{load, LoadOptions};
use jxray::check::Checker;
use jxray::engine::Options;

fn main() {
    let Some(root) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: serde_baseline FOLDER");
        std::process::exit(2);
    };
    let captures = match load(&root, &LoadOptions::default()) {
        Ok(captures) => captures,
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(2);
        }
    };
    let checker = Checker::new(Options::default(), None);
    let documents: Vec<String> = captures
        .iter()
        .filter_map(|capture| {
            let outcome = checker.outcome(capture);
            let text = capture.text.as_ref().ok()?;
            outcome.normalized(text).map(str::to_owned)
        })
        .collect();
    let files: BTreeSet<&PathBuf> = captures.iter().map(|capture| &capture.path).collect();
    let bytes: usize = documents.iter().map(String::len).sum();
    let parse = || {
        for document in &documents {
            let value: serde_json::Value =
                serde_json::from_str(document).expect("jxray accepted it");
            drop(value);
        }
    };
    let alone = best_of_5(parse);
    let with_reading = best_of_5(|| {
        for file in &files {
            drop(std::fs::read_to_string(file));
        }
        parse();
    });
    println!(
        "serde_json alone: {} documents, {:.1} MB of JSON, best of 5: {alone:.3} s",
        documents.len(),
        bytes as f64 / 1e6,
    );
    println!(
        "reading the {} files, then serde_json: best of 5: {with_reading:.3} s",
        files.len()
    );
}

/// The shortest of five timed runs of `work`, in seconds.
fn best_of_5(work: impl Fn()) -> f64 {
    (0..5)
        .map(|_| {
            let started = Instant::now();
            work();
            started.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}
