//! One help layout for every subcommand, `check`'s default PATH, and the config keys users
//! set every time (`accept_lenient`, `pick`, `color`, `format`, `max_bytes`), each with the
//! flag winning over it; a config `fixtures =` that names a missing folder says so.

use crate::support;

use std::path::Path;

use support::cli::{jxray_env, jxray_in, write_files, Run};

/// Run `jxray ARGS` in `dir` with `config` as the user's config file.
fn with_config(dir: &Path, config: &str, args: &[&str]) -> Run {
    let home = dir.join(".config-home");
    std::fs::create_dir_all(home.join("jxray")).unwrap();
    std::fs::write(home.join("jxray/config.toml"), config).unwrap();
    let home = home.to_str().unwrap().to_string();
    jxray_env(dir, args, b"", &[("XDG_CONFIG_HOME", home.as_str())])
}

fn jsonl(run: &Run) -> serde_json::Value {
    serde_json::from_str(run.stdout.lines().next().unwrap()).expect("a JSON line")
}

#[test]
fn every_subcommand_has_the_short_help_layout() {
    let dir = tempfile::tempdir().unwrap();
    for command in [
        "check",
        "extract",
        "test",
        "compare",
        "record",
        "completions",
    ] {
        let long = jxray_in(dir.path(), &[command, "--help"], b"");
        let short = jxray_in(dir.path(), &[command, "-h"], b"");
        assert_eq!(long.code, 0, "{long:?}");
        assert_eq!(long.stdout, short.stdout, "{command}: --help and -h differ");
        assert!(!long.stdout.contains("Possible values:"), "{}", long.stdout);
    }
}

#[test]
fn check_defaults_to_the_working_folder() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("a.txt", "{\"a\": 1}")]);
    let run = jxray_in(dir.path(), &["check", "--color", "never"], b"");
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.starts_with("ok   direct     a.txt"),
        "{}",
        run.stdout
    );
}

#[test]
fn accept_lenient_in_the_config_takes_lenient_readings() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("a.txt", "{'a': 1}")]);
    let args = ["check", "a.txt", "--format", "jsonl"];
    assert_eq!(with_config(dir.path(), "", &args).code, 1);
    let run = with_config(dir.path(), "accept_lenient = true\n", &args);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(jsonl(&run)["layer"], "lenient");
    // The --no- flag turns the key off for one run; the last of the two flags wins.
    let off = [&args[..], &["--no-accept-lenient"]].concat();
    let run = with_config(dir.path(), "accept_lenient = true\n", &off);
    assert_eq!(
        (run.code, jsonl(&run)["layer"].clone()),
        (1, serde_json::Value::Null)
    );
    let on_again = [&off[..], &["--accept-lenient"]].concat();
    let run = with_config(dir.path(), "accept_lenient = true\n", &on_again);
    assert_eq!(jsonl(&run)["layer"], "lenient");
}

#[test]
fn decode_stringified_in_the_config_and_its_no_flag() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("a.txt", "{\"args\": \"{\\\"x\\\": 1}\"}")]);
    let args = ["check", "a.txt", "--format", "jsonl"];
    let run = with_config(dir.path(), "decode_stringified = true\n", &args);
    assert_eq!(jsonl(&run)["value"]["args"]["x"], 1, "{run:?}");
    let off = [&args[..], &["--no-decode-stringified"]].concat();
    let run = with_config(dir.path(), "decode_stringified = true\n", &off);
    assert_eq!(jsonl(&run)["value"]["args"], "{\"x\": 1}", "{run:?}");
}

#[test]
fn pick_in_the_config_chooses_the_candidate_and_the_flag_wins() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("a.txt", "First {\"a\": 1} then {\"b\": 2}")]);
    let args = ["check", "a.txt", "--format", "jsonl"];
    let run = with_config(dir.path(), "pick = \"last\"\n", &args);
    assert_eq!(jsonl(&run)["value"], serde_json::json!({"b": 2}), "{run:?}");
    let flag = [&args[..], &["--pick", "first"]].concat();
    let run = with_config(dir.path(), "pick = \"last\"\n", &flag);
    assert_eq!(jsonl(&run)["value"], serde_json::json!({"a": 1}), "{run:?}");
}

#[test]
fn color_in_the_config_paints_the_report_and_the_flag_wins() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("a.txt", "{}")]);
    let run = with_config(dir.path(), "color = \"always\"\n", &["check", "a.txt"]);
    assert!(run.stdout.contains("\u{1b}["), "{run:?}");
    let run = with_config(
        dir.path(),
        "color = \"always\"\n",
        &["check", "a.txt", "--color", "never"],
    );
    assert!(!run.stdout.contains("\u{1b}["), "{run:?}");
}

#[test]
fn format_in_the_config_is_checks_format_and_the_flag_wins() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("a.txt", "{}")]);
    let run = with_config(dir.path(), "format = \"jsonl\"\n", &["check", "a.txt"]);
    assert_eq!(jsonl(&run)["source"], "a.txt", "{run:?}");
    let args = ["check", "a.txt", "--format", "text", "--color", "never"];
    let run = with_config(dir.path(), "format = \"jsonl\"\n", &args);
    assert!(run.stdout.starts_with("ok   direct"), "{run:?}");
}

#[test]
fn jxray_config_names_the_config_file_over_the_platform_folder() {
    // XDG_CONFIG_HOME moves the platform folder on Linux only (Windows asks the Known
    // Folder API); JXRAY_CONFIG names the file on every platform, and wins.
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            ("a.txt", "{}"),
            ("mine.toml", "format = \"jsonl\"\n"),
            (".config-home/jxray/config.toml", "format = \"json\"\n"),
        ],
    );
    let home = dir.path().join(".config-home");
    let home = home.to_str().unwrap();
    let named = dir.path().join("mine.toml");
    let named = named.to_str().unwrap();
    let both = [("XDG_CONFIG_HOME", home), ("JXRAY_CONFIG", named)];
    let run = jxray_env(dir.path(), &["check", "a.txt"], b"", &both);
    assert_eq!(jsonl(&run)["source"], "a.txt", "{run:?}");
    let help = jxray_env(dir.path(), &["--help"], b"", &both);
    assert!(
        help.stdout.contains(&format!("Config file: {named} ")),
        "{}",
        help.stdout
    );
    // Set but empty: the platform folder's file, as if unset.
    let empty = [("XDG_CONFIG_HOME", home), ("JXRAY_CONFIG", "")];
    let run = jxray_env(dir.path(), &["check", "a.txt"], b"", &empty);
    assert!(run.stdout.starts_with("{\n  \"captures\""), "{run:?}");
    // A mistake in the named file names it.
    let broken = dir.path().join("broken.toml");
    std::fs::write(&broken, "colour = 1\n").unwrap();
    let broken = broken.to_str().unwrap();
    let run = jxray_env(
        dir.path(),
        &["check", "a.txt"],
        b"",
        &[("JXRAY_CONFIG", broken)],
    );
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains(&format!("{broken}:1: unknown key `colour`")),
        "{run:?}"
    );
}

#[test]
fn max_bytes_in_the_config_bounds_a_capture_and_the_flag_wins() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("a.txt", "[1, 2, 3, 4, 5, 6]")]);
    let args = ["check", "a.txt", "--format", "jsonl"];
    let run = with_config(dir.path(), "max_bytes = 8\n", &args);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(jsonl(&run)["failure"]["kind"], "unreadable");
    let flag = [&args[..], &["--max-bytes", "1000"]].concat();
    assert_eq!(with_config(dir.path(), "max_bytes = 8\n", &flag).code, 0);
}

#[test]
fn an_unknown_key_lists_the_new_ones() {
    let dir = tempfile::tempdir().unwrap();
    let run = with_config(dir.path(), "colour = \"never\"\n", &["check", "."]);
    assert_eq!(run.code, 2, "{run:?}");
    for key in ["accept_lenient", "pick", "color", "format", "max_bytes"] {
        assert!(run.stderr.contains(key), "{key} in {}", run.stderr);
    }
}

#[test]
fn a_missing_fixtures_folder_set_by_the_config_says_the_config_set_it() {
    let dir = tempfile::tempdir().unwrap();
    let run = with_config(dir.path(), "fixtures = \"cases/gone\"\n", &["test"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("cases/gone: no such fixtures folder; the config file"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("jxray/config.toml"), "{}", run.stderr);
    assert!(run.stderr.contains("sets `fixtures =`"), "{}", run.stderr);
}

#[test]
fn check_passes_over_the_configured_fixtures_folder_and_stray_fixtures() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    std::fs::create_dir_all(runs.join("golden")).unwrap();
    std::fs::write(runs.join("a.txt"), "{\"a\": 1}").unwrap();
    std::fs::write(runs.join("golden/saved.txt"), "not a capture to check").unwrap();
    let fixture =
        "{\"jxray_fixture\": 1, \"name\": \"s\", \"input\": \"{}\", \"expect\": {\"ok\": true}}";
    std::fs::write(runs.join("stray.json"), fixture).unwrap();
    let run = with_config(
        dir.path(),
        "fixtures = \"runs/golden\"\n",
        &["check", "runs", "--format", "jsonl"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let sources: Vec<String> = run
        .stdout
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["source"].to_string())
        .collect();
    assert_eq!(sources, ["\"runs/a.txt\""]);
    assert!(
        run.stderr
            .contains("skipped the fixtures folder runs/golden")
            && run
                .stderr
                .contains("skipped 1 jxray fixture file (runs/stray.json)"),
        "{}",
        run.stderr
    );
}
