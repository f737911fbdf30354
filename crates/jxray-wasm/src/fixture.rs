//! Replaying one fixture file for a JavaScript test runner: the same verdict `jxray test`
//! and the pytest plugin reach ([`jxray_formats::fixture::judge`]), with the expectation
//! and the engine's outcome in fixture terms, to show side by side on a regression.

use jxray_engine::{extract, Outcome};
use jxray_formats::describe::describe;
use jxray_formats::escape::escape_line;
use jxray_formats::fixture::diff::write_mismatch;
use jxray_formats::fixture::{judge, Fixture};
use jxray_formats::style::Painter;
use serde::Serialize;

/// A fixture's verdict.
#[derive(Serialize)]
pub struct Verdict {
    pub name: String,
    /// The line `jxray test` heads a regression with, `FAIL name (path)`, the name and
    /// the path escaped (nothing in them acts on a terminal).
    pub heading: String,
    /// `passed`, `failed`, `expected-failing` or `fixed`.
    pub status: &'static str,
    /// What the fixture expects, as pretty JSON (as in the file).
    pub expected: String,
    /// What the engine does now, in the same terms.
    pub actual: String,
    /// The engine's outcome in one line, as `jxray test` prints it under a regression.
    pub described: String,
    /// What `jxray test` prints under `FAIL name` for a regression: the numbered diff of
    /// the expectation against the engine's outcome, then the engine's account (plain).
    pub mismatch: String,
}

/// Why the fixture file at `origin` could not be read (the host says: a FIFO, a folder),
/// in one line with the path escaped.
pub fn unreadable(origin: &str, message: &str) -> String {
    format!("{}: {}", escape_line(origin), escape_line(message))
}

/// The verdict on the fixture file `text` (`origin` names it in errors).
pub fn replay(text: &str, origin: &str) -> Result<Vec<u8>, String> {
    let shown = escape_line(origin);
    let fixture: Fixture = serde_json::from_str(text)
        .map_err(|error| format!("{shown}: not a jxray fixture ({error}); fix the file or save it again from the workbench"))?;
    if fixture.schema.is_some() {
        return Err(format!(
            "{shown}: the fixture carries a JSON Schema, which the npm package does not validate; replay it with `jxray test`"
        ));
    }
    let outcome = match fixture.replayed_text() {
        Ok(input) => extract(&input, &fixture.engine_options()),
        Err(unreadable) => Outcome::unreadable(unreadable.message),
    };
    let replay = judge(&fixture, outcome);
    let mut mismatch = Vec::new();
    write_mismatch(&mut mismatch, &fixture, &replay, Painter::plain())
        .expect("writing into memory cannot fail");
    let verdict = Verdict {
        heading: format!("FAIL {} ({shown})", escape_line(&fixture.name)),
        name: fixture.name.clone(),
        status: replay.status.as_str(),
        expected: fixture.expect.to_pretty_json(),
        actual: replay.actual.to_pretty_json(),
        described: describe(&replay.outcome),
        mismatch: String::from_utf8_lossy(&mismatch).into_owned(),
    };
    Ok(serde_json::to_vec(&verdict).expect("a verdict serializes to JSON"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(text: &str) -> serde_json::Value {
        serde_json::from_slice(&replay(text, "f.json").unwrap()).unwrap()
    }

    #[test]
    fn a_fixture_that_holds_passes_and_one_that_does_not_fails() {
        let holds = r#"{"jxray_fixture":1,"name":"fenced","input":"```json\n{\"a\":1}\n```","stop_reason":null,"expect":{"ok":true,"layer":"fenced","value":{"a":1}}}"#;
        assert_eq!(verdict(holds)["status"], "passed");
        let broken = holds.replace("\"layer\":\"fenced\"", "\"layer\":\"direct\"");
        let failed = verdict(&broken);
        assert_eq!(failed["status"], "failed");
        assert!(failed["expected"].as_str().unwrap().contains("direct"));
        assert!(failed["actual"].as_str().unwrap().contains("fenced"));
        let mismatch = failed["mismatch"].as_str().unwrap();
        assert!(
            mismatch.starts_with("  --- expected (fixture)\n  +++ actual (engine now)\n"),
            "{mismatch}"
        );
        assert!(
            mismatch.contains("│-  \"layer\": \"direct\","),
            "{mismatch}"
        );
        assert!(
            mismatch.contains("│+  \"layer\": \"fenced\","),
            "{mismatch}"
        );
        assert!(mismatch.ends_with("  engine: fenced\n"), "{mismatch}");
    }

    #[test]
    fn a_hostile_name_and_path_are_escaped_in_the_heading() {
        let holds = r#"{"jxray_fixture":1,"name":"evil\u001b]0;x\u0007","input":"[1]","stop_reason":null,"expect":{"ok":true,"layer":"direct","value":[1]}}"#;
        let verdict: serde_json::Value =
            serde_json::from_slice(&replay(holds, "dir/\u{202e}x.json").unwrap()).unwrap();
        assert_eq!(
            verdict["heading"],
            r"FAIL evil\u{1b}]0;x\u{7} (dir/\u{202e}x.json)"
        );
        assert_eq!(
            unreadable("a\nb.json", "is a FIFO (named pipe)"),
            r"a\nb.json: is a FIFO (named pipe)"
        );
    }

    #[test]
    fn a_file_that_is_no_fixture_names_itself_and_the_fix() {
        let error = replay("{}", "dir/x.json").unwrap_err();
        assert!(
            error.starts_with("dir/x.json: not a jxray fixture"),
            "{error}"
        );
    }
}
