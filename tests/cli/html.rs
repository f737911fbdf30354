//! `check --format html`: the report loaded in a real headless Chromium. It renders with no
//! console error and no request leaving the file, its counts are `check --format json`'s,
//! a filter click hides the other rows, and model text holding markup, script and bidi
//! controls shows as text with nothing run.

use crate::support;

use serde_json::{json, Value};
use support::chromium::Browser;
use support::cli::{jxray_in, Run};
use support::triage::write_recorded;

fn check(dir: &std::path::Path, format: &str) -> Run {
    let run = jxray_in(
        dir,
        &["check", ".", "--by", "model", "--format", format],
        b"",
    );
    assert_eq!(run.code, 1, "the folder has failures: {}", run.stderr);
    run
}

/// The page's counts: the whole run's by key, and each group's failures.
const COUNTS: &str = r#"(() => {
  const whole = {};
  document.querySelectorAll("p.total [data-count], table.mix [data-count]")
    .forEach(cell => { whole[cell.dataset.count] = Number(cell.textContent); });
  const groups = {};
  document.querySelectorAll(".group-line").forEach(line => {
    const mix = {};
    line.querySelectorAll(".seg").forEach(seg => { mix[seg.dataset.count] = Number(seg.dataset.value); });
    groups[line.dataset.group] = {failed: Number(line.querySelector("[data-count=failed]").textContent), mix};
  });
  return {whole, groups, order: Array.from(document.querySelectorAll(".group-line")).map(l => l.dataset.group)};
})()"#;

/// Click the group filter `gpt-4o-mini`; the groups of the rows shown and how many hide.
const CLICK_GROUP: &str = r#"(() => {
  document.querySelector('.filters button[data-filter=group][data-value="gpt-4o-mini"]').click();
  const rows = Array.from(document.querySelectorAll("tbody.row"));
  return {
    shown: rows.filter(row => !row.hidden && row.offsetParent !== null).map(row => row.dataset.group),
    hidden: rows.filter(row => row.hidden && row.offsetParent === null).length,
    said: document.getElementById("shown").textContent,
  };
})()"#;

/// The hostile capture's row opened: its raw text as the page shows it, and what ran.
const HOSTILE_ROW: &str = r#"(() => {
  const row = Array.from(document.querySelectorAll("tbody.row"))
    .find(row => row.querySelector(".src").textContent === "2026-11-30/09-00-06.600-claude-3-5-haiku.json");
  row.querySelector("details").open = true;
  const raw = row.querySelector("pre.raw");
  return {
    text: raw.innerText,
    marked: raw.querySelector("mark.at").textContent,
    visible: raw.offsetParent !== null,
    images: document.images.length,
    scripts: document.scripts.length,
    elements_in_raw: raw.querySelectorAll("*").length,
    alerted: window.__alerted || [],
    resources: performance.getEntriesByType("resource").map(entry => entry.name),
  };
})()"#;

#[test]
fn the_report_renders_in_chromium_with_the_counts_of_json_filters_and_text_kept_text() {
    let dir = tempfile::tempdir().unwrap();
    write_recorded(dir.path());
    let html = check(dir.path(), "html");
    assert!(html.stderr.is_empty(), "{}", html.stderr);
    let report = dir.path().join("report.html");
    std::fs::write(&report, &html.stdout).unwrap();
    let json: Value = serde_json::from_str(&check(dir.path(), "json").stdout).unwrap();

    let mut browser = Browser::launch();
    // Anything the page runs that calls alert is recorded, not shown.
    browser.call(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({"source": "window.__alerted = []; window.alert = (x) => window.__alerted.push(String(x));"}),
    );
    let url = format!("file://{}", report.display());
    browser.open(&url);

    let counts = browser.eval(COUNTS);
    let summary = &json["summary"];
    for key in ["total", "ok", "failed"] {
        assert_eq!(counts["whole"][key], summary[key], "{key}: {counts}");
    }
    for (part, keys) in [
        ("layers", &summary["layers"]),
        ("failures", &summary["failures"]),
    ] {
        for (key, count) in keys.as_object().unwrap() {
            assert_eq!(&counts["whole"][key], count, "{part} {key}: {counts}");
        }
    }
    let groups = json["groups"].as_array().unwrap();
    let order: Vec<&Value> = groups.iter().map(|group| &group["group"]).collect();
    assert_eq!(
        counts["order"]
            .as_array()
            .unwrap()
            .iter()
            .collect::<Vec<_>>(),
        order
    );
    for group in groups {
        let shown = &counts["groups"][group["group"].as_str().unwrap()];
        assert_eq!(shown["failed"], group["summary"]["failed"], "{counts}");
        let mix = group["summary"]["layers"].as_object().unwrap().iter();
        for (key, count) in mix.chain(group["summary"]["failures"].as_object().unwrap()) {
            let on_page = shown["mix"].get(key).cloned().unwrap_or(json!(0));
            assert_eq!(&on_page, count, "{key} in {group}");
        }
    }

    let clicked = browser.eval(CLICK_GROUP);
    let shown = clicked["shown"].as_array().unwrap();
    assert!(!shown.is_empty(), "{clicked}");
    assert!(
        shown.iter().all(|group| group == "gpt-4o-mini"),
        "{clicked}"
    );
    assert!(clicked["hidden"].as_u64().unwrap() > 0, "{clicked}");
    assert!(clicked["said"]
        .as_str()
        .unwrap()
        .starts_with(&format!("{} of ", shown.len())));

    // The filter hid that row; the group filter back at all shows it again.
    browser.eval(
        r#"document.querySelector('.filters button[data-filter=group][data-value=""]').click()"#,
    );
    let hostile = browser.eval(HOSTILE_ROW);
    let text = hostile["text"].as_str().unwrap();
    for shown_as_text in [
        "<script>alert(1)</script>",
        "</script><img src=x onerror=alert(2)>",
        "\\u{202e}gpj.exe\\u{202c}",
    ] {
        assert!(
            text.contains(shown_as_text),
            "{shown_as_text:?} in {text:?}"
        );
    }
    assert!(
        !text.contains('\u{202e}'),
        "the bidi control itself never reaches the page"
    );
    // The failure's place: the closer the trailing comma stands before.
    assert_eq!(hostile["marked"], "}", "{hostile}");
    // Inside the raw text only the report's own markup: the mark and two escapes.
    assert_eq!(hostile["elements_in_raw"], 3, "{hostile}");
    assert_eq!(hostile["visible"], true);
    assert_eq!(hostile["images"], 0, "{hostile}");
    assert_eq!(
        hostile["scripts"], 1,
        "only the report's own script: {hostile}"
    );
    assert_eq!(hostile["alerted"], json!([]), "nothing ran: {hostile}");
    assert_eq!(hostile["resources"], json!([]), "nothing loaded: {hostile}");

    let errors = console_errors(&browser);
    assert!(errors.is_empty(), "console errors: {errors:?}");
    let requests = requests_beside(&browser, &url);
    assert!(requests.is_empty(), "requests left the file: {requests:?}");
    assert!(
        !browser.events_of("Page.loadEventFired").is_empty(),
        "the page loaded"
    );
}

#[test]
fn past_the_row_cap_the_page_lists_a_sample_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let lines: String = (0..1500)
        .map(|n| format!("{{\"output\": \"{{\\\"n\\\": {n},}}\"}}\n"))
        .collect();
    std::fs::write(dir.path().join("log.jsonl"), lines).unwrap();
    let run = jxray_in(dir.path(), &["check", "log.jsonl", "--format", "html"], b"");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stdout.matches("<tbody class=\"row\"").count(), 1000);
    assert!(
        run.stdout.contains(
            "Showing 1000 of the 1500 captures that failed or drifted from plain JSON: an even sample"
        ),
        "{}",
        &run.stdout[..2000]
    );
    assert!(run
        .stdout
        .contains("<span data-count=\"total\">1500</span>"));
}

/// The console errors, uncaught exceptions and browser log errors (a blocked script, a
/// failed load) the page caused.
fn console_errors(browser: &Browser) -> Vec<&Value> {
    browser
        .events
        .iter()
        .filter(|event| match event["method"].as_str().unwrap_or_default() {
            "Runtime.exceptionThrown" => true,
            "Runtime.consoleAPICalled" => event["params"]["type"] == "error",
            "Log.entryAdded" => event["params"]["entry"]["level"] == "error",
            _ => false,
        })
        .collect()
}

/// Every request the page made other than for `url` itself.
fn requests_beside<'a>(browser: &'a Browser, url: &str) -> Vec<&'a str> {
    browser
        .events_of("Network.requestWillBeSent")
        .into_iter()
        .map(|event| {
            event["params"]["request"]["url"]
                .as_str()
                .unwrap_or_default()
        })
        .filter(|requested| *requested != url)
        .collect()
}

#[test]
fn the_checks_see_a_script_the_policy_blocks_a_console_error_and_a_request() {
    // A page that does each thing the report must not: the checks above would fail on it.
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("bad.html");
    std::fs::write(
        &page,
        "<!DOCTYPE html><html><head><meta http-equiv=\"Content-Security-Policy\" \
         content=\"script-src 'none'\"></head><body><script>window.ran = 1;</script>\
         <iframe srcdoc=\"<script>console.error('boom')</script>\"></iframe>\
         <img src=\"http://127.0.0.1:9/pixel.png\"></body></html>",
    )
    .unwrap();
    let mut browser = Browser::launch();
    let url = format!("file://{}", page.display());
    browser.open(&url);
    assert!(!console_errors(&browser).is_empty(), "{:?}", browser.events);
    assert_eq!(
        requests_beside(&browser, &url),
        ["http://127.0.0.1:9/pixel.png"]
    );
    assert_eq!(browser.eval("window.ran === undefined"), true);
}

/// The text of the page's chain line, and the finding and advice cells of each row.
const CHAINS_AND_ROWS: &str = r#"(() => ({
  chains: document.querySelector("p.chains")?.textContent ?? null,
  rows: Array.from(document.querySelectorAll("tbody.row")).map(row => {
    const cells = row.querySelectorAll("tr:first-child td");
    return {finding: cells[6].textContent, advice: cells[7].textContent};
  }),
}))()"#;

#[test]
fn the_report_has_the_repair_chain_line_and_a_schema_rows_violations_in_its_finding() {
    let mut browser = Browser::launch();
    let chained = crate::support::chains::folder();
    let run = jxray_in(chained.path(), &["check", ".", "--format", "html"], b"");
    let report = chained.path().join("report.html");
    std::fs::write(&report, &run.stdout).unwrap();
    browser.open(&format!("file://{}", report.display()));
    let page = browser.eval(CHAINS_AND_ROWS);
    assert_eq!(
        page["chains"],
        "repair chains: 2 re-asked, 2 repaired (100%) · by first failure: invalid 1 of 1, no-json 1 of 1",
        "{page}"
    );

    let dir = tempfile::tempdir().unwrap();
    let captures = dir.path().join("captures");
    std::fs::create_dir(&captures).unwrap();
    std::fs::write(captures.join("a.txt"), r#"{"city": 7, "rank": "first"}"#).unwrap();
    std::fs::write(
        dir.path().join("schema.json"),
        r#"{"type": "object", "properties": {"city": {"type": "string"}, "rank": {"type": "integer"}}}"#,
    )
    .unwrap();
    let run = jxray_in(
        dir.path(),
        &[
            "check",
            "captures",
            "--schema",
            "schema.json",
            "--format",
            "html",
        ],
        b"",
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = dir.path().join("report.html");
    std::fs::write(&report, &run.stdout).unwrap();
    browser.open(&format!("file://{}", report.display()));
    let page = browser.eval(CHAINS_AND_ROWS);
    assert_eq!(
        page["chains"],
        Value::Null,
        "no request was re-asked: {page}"
    );
    let row = &page["rows"][0];
    let finding = row["finding"].as_str().unwrap();
    assert!(
        finding.contains("/city") && finding.contains("/rank"),
        "both violations in the finding: {row}"
    );
    assert_eq!(row["advice"], "", "{row}");
}
