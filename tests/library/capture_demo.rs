//! The bundled demo captures load as the demo README says: every format, provider and
//! stop reason, and the unreadable ones with their causes.

use std::fmt::Write;
use std::path::Path;

use jxray::capture::{load, LoadOptions};

#[test]
fn demo_captures_load_as_documented() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    let captures = load(&root, &LoadOptions::default()).unwrap();
    let mut table = String::new();
    for capture in &captures {
        let provider = capture.provider.map_or("-", |provider| provider.as_str());
        let stop = capture.stop_reason.as_deref().unwrap_or("-");
        let warnings: Vec<_> = capture.warnings.iter().map(|w| w.kind.as_str()).collect();
        let text = match &capture.text {
            Ok(text) => format!("{:?}", text.chars().take(48).collect::<String>()),
            Err(unreadable) => format!("UNREADABLE {}", unreadable.message),
        };
        writeln!(
            table,
            "{} | {provider} | {stop} | {warnings:?} | {text}",
            capture.source
        )
        .unwrap();
    }
    insta::assert_snapshot!(table);
}
