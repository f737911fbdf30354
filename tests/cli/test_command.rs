//! `jxray test`: green on good fixtures, red with a diff on a broken copy,
//! known gaps, malformed files and `--update`.

use crate::support;

use std::fs;
use std::path::Path;

use jxray::engine::{FailureKind, Layer, Options};
use jxray::fixture::{self, Expectation, Fixture};
use serde_json::json;
use support::cli::{assert_one_line_error, jxray_in};

/// A fixture expecting what the engine does now.
fn current(name: &str, input: &str) -> Fixture {
    let outcome = jxray::engine::extract(input, &Options::default());
    Fixture::new(name, input, Expectation::of(&outcome))
}

fn good_fixtures(dir: &Path) {
    for (name, input) in [
        (
            "fenced",
            "```json\n{\"city\": \"Paris\"}\n```\nThe capital.",
        ),
        ("direct", "{\"a\": [1, 2]}"),
        ("cut", "[1, 2,"),
    ] {
        fixture::save(dir, &current(name, input)).unwrap();
    }
}

fn closing_line(stdout: &str) -> &str {
    stdout.lines().last().unwrap_or("")
}

#[test]
fn green_on_fixtures_the_engine_meets() {
    let dir = tempfile::tempdir().unwrap();
    good_fixtures(&dir.path().join("fixtures"));
    // The default folder is ./fixtures.
    let run = jxray_in(dir.path(), &["test"], b"");
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "3 passed, 0 failed\n");
}

#[test]
fn red_with_a_numbered_diff_on_a_broken_copy() {
    let dir = tempfile::tempdir().unwrap();
    good_fixtures(dir.path());
    let path = dir.path().join("fenced.json");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replace("\"Paris\"", "\"Lyon\"")).unwrap();

    let run = jxray_in(dir.path(), &["test", "."], b"");
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(closing_line(&run.stdout), "2 passed, 1 failed");
    assert!(
        run.stdout.starts_with("FAIL fenced (fenced.json)\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("--- expected (fixture)"));
    assert!(run.stdout.contains("+++ actual (engine now)"));
    let removed = run
        .stdout
        .lines()
        .find(|l| l.contains("-    \"city\": \"Lyon\""))
        .unwrap();
    let added = run
        .stdout
        .lines()
        .find(|l| l.contains("+    \"city\": \"Paris\""))
        .unwrap();
    assert!(
        removed.trim_start().starts_with("5 "),
        "old line number: {removed}"
    );
    assert!(added.contains("   5 │+"), "new line number: {added}");
    assert!(run
        .stdout
        .contains("  engine: fenced warnings: trailing-prose"));
    assert!(!run.stdout.contains('\x1b'));

    let coloured = jxray_in(dir.path(), &["test", ".", "--color", "always"], b"");
    assert!(coloured.stdout.contains("\x1b[31m"), "{}", coloured.stdout);
}

#[test]
fn malformed_fixtures_fail_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    good_fixtures(dir.path());
    fs::write(
        dir.path().join("broken.json"),
        "{\"jxray_fixture\": 1, \"name\": ",
    )
    .unwrap();
    let run = jxray_in(dir.path(), &["test", "."], b"");
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .contains("ERROR ./broken.json: not a jxray fixture"),
        "{}",
        run.stdout
    );
    assert_eq!(closing_line(&run.stdout), "3 passed, 1 failed");
}

#[test]
fn known_gaps_are_expected_failing_or_fixed_and_pass() {
    let dir = tempfile::tempdir().unwrap();
    good_fixtures(dir.path());
    let wish = Expectation::ok(Layer::Direct, json!([1, 2]));
    fixture::save(
        dir.path(),
        &current("gap", "[1, 2,").into_known_gap(wish, Some("complete it".into())),
    )
    .unwrap();
    let run = jxray_in(dir.path(), &["test", "."], b"");
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run
        .stdout
        .contains("expected failing gap (gap.json): complete it"));
    assert_eq!(
        closing_line(&run.stdout),
        "3 passed, 0 failed, 1 expected-failing"
    );

    let now = current("closed", "{\"a\": 1}");
    let expect = now.expect.clone();
    fixture::save(dir.path(), &now.into_known_gap(expect, None)).unwrap();
    let run = jxray_in(dir.path(), &["test", "."], b"");
    assert_eq!(run.code, 0);
    assert!(
        run.stdout.contains("FIXED closed (closed.json)"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("remove \"known_gap\""));
    assert_eq!(
        closing_line(&run.stdout),
        "3 passed, 0 failed, 1 expected-failing, 1 fixed"
    );
}

#[test]
fn update_rewrites_regressions_but_never_known_gaps() {
    let dir = tempfile::tempdir().unwrap();
    good_fixtures(dir.path());
    let stale = Fixture::new(
        "stale",
        "[1, 2,",
        Expectation::fail(FailureKind::NoJson, None),
    );
    fixture::save(dir.path(), &stale).unwrap();
    let gap = current("gap", "[1, 2,")
        .into_known_gap(Expectation::ok(Layer::Direct, json!([1, 2])), None);
    fixture::save(dir.path(), &gap).unwrap();
    let gap_text = fs::read(dir.path().join("gap.json")).unwrap();

    let run = jxray_in(dir.path(), &["test", ".", "--update"], b"");
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains("updated stale (stale.json)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("-  \"failure\": \"no-json\""),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("+  \"failure\": \"truncated\""),
        "{}",
        run.stdout
    );
    assert_eq!(
        closing_line(&run.stdout),
        "3 passed, 0 failed, 1 expected-failing, 1 updated"
    );
    assert_eq!(fs::read(dir.path().join("gap.json")).unwrap(), gap_text);
    let rewritten = fixture::load_file(&dir.path().join("stale.json")).unwrap();
    assert_eq!(
        rewritten.expect,
        Expectation::fail(FailureKind::Truncated, None)
    );
    assert_eq!(rewritten.input, "[1, 2,");

    let again = jxray_in(dir.path(), &["test", "."], b"");
    assert_eq!(
        closing_line(&again.stdout),
        "4 passed, 0 failed, 1 expected-failing"
    );
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 5, "no temporary files left: {names:?}");
}

#[test]
fn a_missing_folder_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let run = jxray_in(dir.path(), &["test", "nothing-here"], b"");
    assert_eq!(run.code, 2);
    assert_one_line_error(&run, "nothing-here");
}

#[test]
fn the_projects_own_fixtures_pass() {
    let run = support::cli::jxray(&["test", "fixtures"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(closing_line(&run.stdout).contains(" passed, 0 failed"));
}

#[test]
fn red_on_a_broken_copy_of_the_projects_fixtures() {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let copy = tempfile::tempdir().unwrap();
    let mut count = 0;
    for entry in fs::read_dir(&source).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(&path, copy.path().join(path.file_name().unwrap())).unwrap();
        count += 1;
    }
    // Break one expectation: bare-json is `direct`, claim `scanned`.
    let broken = copy.path().join("bare-json.json");
    let text = fs::read_to_string(&broken).unwrap();
    assert!(text.contains("\"layer\": \"direct\""));
    fs::write(
        &broken,
        text.replace("\"layer\": \"direct\"", "\"layer\": \"scanned\""),
    )
    .unwrap();

    let run = jxray_in(copy.path(), &["test", "."], b"");
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        closing_line(&run.stdout),
        format!("{} passed, 1 failed", count - 1)
    );
    assert!(run.stdout.starts_with("FAIL bare-json (bare-json.json)\n"));
    assert!(
        run.stdout.contains("-  \"layer\": \"scanned\","),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("+  \"layer\": \"direct\","),
        "{}",
        run.stdout
    );
}

/// Run `jxray ARGS` in `dir` with the config folder `config` (an empty one when `None`).
fn test_with_config(dir: &Path, args: &[&str], config: Option<&str>) -> support::cli::Run {
    let home = tempfile::tempdir().unwrap();
    if let Some(text) = config {
        fs::create_dir_all(home.path().join("jxray")).unwrap();
        fs::write(home.path().join("jxray/config.toml"), text).unwrap();
    }
    let env = [
        ("XDG_CONFIG_HOME", home.path().to_str().unwrap()),
        ("GITHUB_STEP_SUMMARY", ""),
    ];
    support::cli::jxray_env(dir, args, b"", &env)
}

#[test]
fn the_folder_comes_from_the_argument_the_flag_or_the_config() {
    let dir = tempfile::tempdir().unwrap();
    good_fixtures(&dir.path().join("tests/fx"));
    let from_config = test_with_config(dir.path(), &["test"], Some("fixtures = 'tests/fx'\n"));
    assert_eq!(from_config.code, 0, "{from_config:?}");
    assert_eq!(from_config.stdout, "3 passed, 0 failed\n");
    let flag = test_with_config(dir.path(), &["test", "--fixtures", "tests/fx"], None);
    assert_eq!(flag.stdout, "3 passed, 0 failed\n", "{flag:?}");
    let argument = test_with_config(dir.path(), &["test", "tests/fx"], None);
    assert_eq!(argument.stdout, "3 passed, 0 failed\n");
    let both = test_with_config(dir.path(), &["test", "a", "--fixtures", "b"], None);
    assert_eq!(both.code, 2, "one folder, not two: {both:?}");
}

#[test]
fn one_fixture_file_and_a_filter_replay_only_those() {
    let dir = tempfile::tempdir().unwrap();
    good_fixtures(dir.path());
    let one = test_with_config(dir.path(), &["test", "fenced.json"], None);
    assert_eq!(one.code, 0, "{one:?}");
    assert_eq!(one.stdout, "1 passed, 0 failed\n");

    let path = dir.path().join("direct.json");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(
        &path,
        text.replace("\"layer\": \"direct\"", "\"layer\": \"fenced\""),
    )
    .unwrap();
    let filtered = test_with_config(dir.path(), &["test", ".", "--filter", "fen"], None);
    assert_eq!(
        filtered.code, 0,
        "the broken fixture is not replayed: {filtered:?}"
    );
    assert_eq!(filtered.stdout, "1 passed, 0 failed\n");
    let broken = test_with_config(dir.path(), &["test", ".", "--filter", "direct"], None);
    assert_eq!(broken.code, 1);
    assert!(broken.stdout.starts_with("FAIL direct (direct.json)\n"));
}

#[test]
fn no_fixture_to_replay_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("fixtures")).unwrap();
    let empty = test_with_config(dir.path(), &["test"], None);
    assert_eq!(empty.code, 2, "{empty:?}");
    assert_one_line_error(&empty, "fixtures: no fixtures (*.json) in it");
    good_fixtures(&dir.path().join("fixtures"));
    let unmatched = test_with_config(dir.path(), &["test", "--filter", "zzz"], None);
    assert_eq!(unmatched.code, 2, "{unmatched:?}");
    assert_one_line_error(&unmatched, "no fixture matches --filter \"zzz\"");
}

#[test]
fn strict_fails_when_a_known_gap_is_fixed() {
    let dir = tempfile::tempdir().unwrap();
    let now = current("closed", "{\"a\": 1}");
    let expect = now.expect.clone();
    fixture::save(dir.path(), &now.into_known_gap(expect, None)).unwrap();
    let lenient = test_with_config(dir.path(), &["test", "."], None);
    assert_eq!(lenient.code, 0);
    let strict = test_with_config(
        dir.path(),
        &["test", ".", "--strict", "--color", "never"],
        None,
    );
    assert_eq!(strict.code, 1, "{strict:?}");
    assert!(strict
        .stdout
        .starts_with("FIXED closed (closed.json): the engine now does what this known gap"));
    assert!(strict.stdout.contains("(--strict fails until then)"));
    assert_eq!(closing_line(&strict.stdout), "0 passed, 1 failed");
}

#[test]
fn a_broken_config_names_its_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let run = test_with_config(
        dir.path(),
        &["test"],
        Some("theme = 'dark'\nfixtures = [1\n"),
    );
    assert_eq!(run.code, 2, "{run:?}");
    assert_one_line_error(&run, "config.toml:2: key `fixtures`");
    let run = test_with_config(dir.path(), &["test"], Some("fixtures = 7\n"));
    assert_one_line_error(&run, "config.toml:1: key `fixtures`: invalid type");
}

/// Fixtures for the CI formats: two passing, one regressed, one known gap, one malformed.
fn ci_fixtures(dir: &Path) {
    good_fixtures(dir);
    let path = dir.join("fenced.json");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replace("\"Paris\"", "\"Lyon\"")).unwrap();
    let wish = Expectation::ok(Layer::Direct, json!([1, 2]));
    fixture::save(
        dir,
        &current("gap", "[1, 2,").into_known_gap(wish, Some("complete it".into())),
    )
    .unwrap();
    fs::write(dir.join("broken.json"), "{\"jxray_fixture\": 1, \"name\": ").unwrap();
}

#[test]
fn junit_has_one_testcase_per_fixture() {
    let dir = tempfile::tempdir().unwrap();
    ci_fixtures(&dir.path().join("fx"));
    let run = test_with_config(dir.path(), &["test", "fx", "--format", "junit"], None);
    assert_eq!(run.code, 1, "{run:?}");
    roxmltree::Document::parse(&run.stdout).expect("well-formed XML");
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn github_annotates_each_regression_and_appends_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    ci_fixtures(&dir.path().join("fx"));
    let summary = dir.path().join("summary.md");
    let home = tempfile::tempdir().unwrap();
    let env = [
        ("XDG_CONFIG_HOME", home.path().to_str().unwrap()),
        ("GITHUB_STEP_SUMMARY", summary.to_str().unwrap()),
    ];
    let run = support::cli::jxray_env(dir.path(), &["test", "fx", "--format", "github"], b"", &env);
    assert_eq!(run.code, 1, "{run:?}");
    insta::assert_snapshot!("test_github_stdout", run.stdout);
    insta::assert_snapshot!(
        "test_github_step_summary",
        fs::read_to_string(&summary).unwrap()
    );
}
