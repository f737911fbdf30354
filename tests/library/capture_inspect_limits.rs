//! An Inspect `.eval` log is a zip, and a zip says falsely where its entries are and how
//! large they inflate: entries that share bytes are refused before anything is inflated,
//! and one archive inflates to at most 4 × `--max-bytes` in all.

use std::io::{Cursor, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

/// Long enough for a debug build on a loaded machine; today's overlapping-entries bomb
/// takes minutes past it.
const DEADLINE: Duration = Duration::from_secs(60);

/// `jxray check FILE --format jsonl ARGS` within [`DEADLINE`]: each record.
fn check(file: &Path, args: &[&str]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jxray"))
        .args(["check", "--format", "jsonl"])
        .arg(file)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).unwrap();
        text
    });
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "jxray check {} did not finish within {DEADLINE:?}",
                file.display()
            );
        }
        thread::sleep(Duration::from_millis(20));
    }
    let text = reader.join().unwrap();
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn message(record: &Value) -> String {
    record["failure"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// A zip of one deflated entry of `size` bytes of white space, whose central directory
/// then lists it `copies` times under sample names: every entry points at the same bytes.
fn overlapping_bomb(size: usize, copies: usize) -> Vec<u8> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let deflated = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    zip.start_file("samples/000000_epoch_1.json", deflated)
        .unwrap();
    let block = vec![b' '; 1 << 20];
    for _ in 0..size / block.len() {
        zip.write_all(&block).unwrap();
    }
    let bytes = zip.finish().unwrap().into_inner();
    // The end record's last fields: the central directory's size and offset.
    let end = bytes.len() - 22;
    let field = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let (directory_size, directory_at) = (field(end + 12), field(end + 16));
    let entry = &bytes[directory_at..directory_at + directory_size];
    let name_at = 46;
    let mut out = bytes[..directory_at].to_vec();
    for copy in 0..copies {
        let mut listed = entry.to_vec();
        let name = format!("samples/{copy:06}_epoch_1.json");
        listed[name_at..name_at + name.len()].copy_from_slice(name.as_bytes());
        out.extend_from_slice(&listed);
    }
    let mut record = bytes[end..].to_vec();
    let count = (copies as u16).to_le_bytes();
    record[8..10].copy_from_slice(&count);
    record[10..12].copy_from_slice(&count);
    record[12..16].copy_from_slice(&((directory_size * copies) as u32).to_le_bytes());
    out.extend_from_slice(&record);
    out
}

#[test]
fn entries_that_share_bytes_are_refused_before_anything_is_inflated() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bomb.eval");
    std::fs::write(&path, overlapping_bomb(65 << 20, 2000)).unwrap();
    let records = check(&path, &[]);
    assert_eq!(records.len(), 1, "one line for the whole archive");
    let why = message(&records[0]);
    assert!(why.contains("zip entries overlap"), "{why}");
    assert!(why.contains("samples/000000_epoch_1.json"), "{why}");
    assert!(!why.contains('\n'));
}

/// A real-looking `.eval`: `samples` entries of about `size` bytes each, deflated.
fn samples(count: usize, size: usize) -> Vec<u8> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let deflated = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    for id in 1..=count {
        let text = format!("{{\"note\": \"{}\"}}", "x".repeat(size));
        let sample = serde_json::json!({"id": id, "epoch": 1, "output": {"completion": text}});
        zip.start_file(format!("samples/{id}_epoch_1.json"), deflated)
            .unwrap();
        zip.write_all(sample.to_string().as_bytes()).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

#[test]
fn an_archive_inflates_to_four_times_max_bytes_at_most() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("log.eval");
    std::fs::write(&path, samples(10, 600_000)).unwrap();
    let records = check(&path, &["--max-bytes", "1000000"]);
    let read = records.iter().filter(|r| r["ok"] == true).count();
    assert_eq!(read, 6, "the samples within 4 MB are read: {records:?}");
    assert_eq!(records.len(), 7, "and one line says what was not read");
    let why = message(&records[6]);
    assert!(why.contains("inflates to more than 4000000 bytes"), "{why}");
    assert!(why.contains("raise --max-bytes"), "{why}");
    let all = check(&path, &["--max-bytes", "2000000"]);
    assert_eq!(all.iter().filter(|r| r["ok"] == true).count(), 10);
}

#[test]
fn a_sample_over_max_bytes_is_its_own_failure() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("log.eval");
    std::fs::write(&path, samples(3, 300_000)).unwrap();
    let records = check(&path, &["--max-bytes", "200000"]);
    assert_eq!(records.len(), 3);
    for record in &records {
        let why = message(record);
        assert!(
            why.contains("too large: 3000") && why.contains("--max-bytes"),
            "{why}"
        );
    }
}
