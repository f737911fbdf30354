//! A fixed amount of per-reply work for counting instructions: `extract_accepted` over the
//! replies the Python and npm speed benches read (the first 5,000 `.txt` and `.md` files of
//! DATA/small, in path order), with the value as compact text (`text`, what Python and
//! `jxray check` ask for), as the text written (`span`, what the npm package asks for) or as
//! a tree (`tree`). `none` only reads the replies, whose count the others' include; a last
//! argument `time` prints the best of ten passes' time per reply instead, and `dump` every
//! reply's outcome from `extract` and `extract_accepted` as JSON lines (to compare builds).
//!
//! ```text
//! cargo build --profile profiling -p jxray-engine --example corpus_count
//! valgrind --tool=callgrind target/profiling/examples/corpus_count /tmp/jxb text
//! ```

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use jxray_engine::{extract, extract_accepted, Options, ValueForm};

fn replies(data: &Path) -> Vec<String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data.join("small"))
        .expect("DATA/small, as ../shared/bench/gen_corpus.py writes it")
        .map(|entry| entry.expect("a readable folder").path())
        .filter(|path| {
            path.extension()
                .is_some_and(|ext| ext == "txt" || ext == "md")
        })
        .collect();
    files.sort();
    files.truncate(5000);
    files
        .iter()
        .map(|path| std::fs::read_to_string(path).expect("a UTF-8 reply"))
        .collect()
}

fn pass(texts: &[String], options: &Options) -> usize {
    texts
        .iter()
        .filter(|text| black_box(extract_accepted(black_box(text), options)).is_some())
        .count()
}

fn dump(texts: &[String], options: &Options) {
    for text in texts {
        let whole = serde_json::to_string(&extract(text, options)).expect("an outcome");
        let accepted = extract_accepted(text, options)
            .map(|outcome| serde_json::to_string(&outcome).expect("an outcome"));
        println!("{whole}\n{accepted:?}");
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let data = PathBuf::from(args.next().unwrap_or_else(|| "/tmp/jxb".into()));
    let form = match args.next().as_deref().unwrap_or("text") {
        "none" => return drop(black_box(replies(&data))),
        "span" => ValueForm::Span,
        "tree" => ValueForm::Tree,
        _ => ValueForm::Text,
    };
    let texts = replies(&data);
    let options = Options::default().with_value_form(form);
    match args.next().as_deref() {
        Some("time") => {}
        Some("dump") => return dump(&texts, &options),
        _ => return println!("{} of {} accepted", pass(&texts, &options), texts.len()),
    }
    let best = (0..10)
        .map(|_| {
            let start = Instant::now();
            pass(&texts, &options);
            start.elapsed()
        })
        .min()
        .unwrap_or(Duration::ZERO);
    println!(
        "{:.2} µs per reply",
        best.as_secs_f64() * 1e6 / texts.len() as f64
    );
}
