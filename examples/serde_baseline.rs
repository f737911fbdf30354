//! Baseline for BENCHMARKS.md: how long serde_json alone takes to parse the
//! JSON inside a folder of captures (found by jxray first, untimed).
//!
//! `cargo run --release --example serde_baseline -- /tmp/jxray-bench/large`

use std::path::PathBuf;
use std::time::Instant;

use jxray::capture::{load, LoadOptions};
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
    let documents: Vec<String> = captures
        .iter()
        .filter_map(|capture| {
            let outcome = capture.extract(&Options::default());
            let text = capture.text.as_ref().ok()?;
            outcome.normalized(text).map(str::to_owned)
        })
        .collect();
    let bytes: usize = documents.iter().map(String::len).sum();
    let mut best = f64::MAX;
    for _ in 0..5 {
        let started = Instant::now();
        for document in &documents {
            let value: serde_json::Value =
                serde_json::from_str(document).expect("jxray accepted it");
            drop(value);
        }
        best = best.min(started.elapsed().as_secs_f64());
    }
    println!(
        "serde_json alone: {} documents, {:.1} MB of JSON, best of 5: {:.3} s",
        documents.len(),
        bytes as f64 / 1e6,
        best
    );
}
