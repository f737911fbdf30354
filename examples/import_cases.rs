//! Import the conformance cases (the project's copy of the shared spec/cases, in
//! crates/jxray-engine/tests/data/spec/cases, or the folder given, such as a round's
//! staged cases) as fixtures.
//!
//! Each case is loaded through the capture loader (envelopes included),
//! extracted, verified against its `.expect.json` (the listed repairs and
//! warnings must be present; more may be reported), and saved into fixtures/
//! with the engine's exact outcome as `expect`. A case whose outcome
//! disagrees with the contract is refused, with the reason. Cases already
//! imported (a fixture of the same name exists) are left alone.
//!
//! Run: `cargo run --example import_cases [-- ../shared/spec/cases-roundN]`

#[path = "../tests/support/cases.rs"]
mod cases;

use std::path::Path;
use std::process::ExitCode;

use jxray::capture::{self, LoadOptions};
use jxray::engine::Options;
use jxray::fixture;

fn main() -> ExitCode {
    let dir = std::env::args_os()
        .nth(1)
        .map_or_else(cases::cases_dir, std::path::PathBuf::from);
    let folder = dir
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let Some(cases) = cases::read_cases(&dir) else {
        eprintln!(
            "{}: no such folder; copy the shared spec/cases there first",
            dir.display()
        );
        return ExitCode::from(2);
    };
    let (mut saved, mut kept, mut refused) = (0, 0, 0);
    for case in cases {
        let case = match case {
            Ok(case) => case,
            Err(error) => {
                eprintln!("refused: {error}");
                refused += 1;
                continue;
            }
        };
        if fixtures.join(format!("{}.json", case.name)).exists() {
            kept += 1;
            continue;
        }
        let captures = match capture::load(&case.path, &LoadOptions::default()) {
            Ok(captures) => captures,
            Err(error) => {
                eprintln!("refused: {}: {error}", case.name);
                refused += 1;
                continue;
            }
        };
        let outcome = match cases::verify(&case, &captures) {
            Ok(outcome) => outcome,
            Err(why) => {
                eprintln!("refused: {}: {why}", case.name);
                refused += 1;
                continue;
            }
        };
        let file_name = case.path.file_name().unwrap_or_default().to_string_lossy();
        let made = fixture::from_capture(
            &case.name,
            &captures[0],
            &outcome,
            &Options::default(),
            None,
        )
        .map(|mut made| {
            made.source = format!("shared/spec/{folder}/{file_name}");
            made
        });
        match made
            .map_err(|e| e.to_string())
            .and_then(|made| fixture::save(&fixtures, &made).map_err(|e| e.to_string()))
        {
            Ok(path) => {
                println!("saved {}", path.display());
                saved += 1;
            }
            Err(error) => {
                eprintln!("refused: {}: {error}", case.name);
                refused += 1;
            }
        }
    }
    println!("{saved} saved, {kept} already imported, {refused} refused");
    if refused == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
