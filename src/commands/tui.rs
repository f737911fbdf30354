//! `jxray [PATH]`: from the command line to the terminal UI and back.

use crate::text::shown_path;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use crate::compare::Run;
use crate::config::{self, Config, ThemeName};
use crate::report::want_color;
use crate::schema::Schema;
use crate::text::escape_line;
use crate::tui::recording::Recording;
use crate::tui::theme::Theme;
use crate::tui::{Checks, SessionSummary, TuiSettings};
use anyhow::Context;
use std::sync::Arc;

use super::common::{engine_options, error_line, load_options};
use super::USAGE_ERROR;
use crate::cli::{Cli, ColorChoice, ThemeChoice};

/// Run the TUI; errors become one line on stderr and exit status 2.
pub(super) fn run(cli: &Cli) -> u8 {
    run_beside(cli, None)
}

/// Run the TUI beside the recording proxy `recording` (`jxray record --tui`), if any.
pub(super) fn run_beside(cli: &Cli, recording: Option<Recording>) -> u8 {
    match run_tui(cli, recording) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("jxray: {}", error_line(&error));
            USAGE_ERROR
        }
    }
}

fn run_tui(cli: &Cli, recording: Option<Recording>) -> anyhow::Result<u8> {
    if !cli.path.exists() {
        anyhow::bail!(
            "{}: no such file or folder; check the path",
            shown_path(&cli.path)
        );
    }
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        eprintln!(
            "jxray: the terminal UI needs a terminal; for a report run `jxray check {}`",
            escape_line(&cli.path.to_string_lossy())
        );
        return Ok(USAGE_ERROR);
    }
    let config = Config::load()?;
    let theme = match cli.ui.theme {
        Some(ThemeChoice::Dark) => ThemeName::Dark,
        Some(ThemeChoice::Light) => ThemeName::Light,
        None => config.theme.unwrap_or_default(),
    };
    let color = use_color(
        cli.ui.color.or(config.color).unwrap_or(ColorChoice::Auto),
        std::env::var("NO_COLOR").ok().as_deref(),
    );
    // crossterm honours NO_COLOR on its own; make it agree with --color.
    crossterm::style::force_color_output(color);
    let settings = TuiSettings {
        root: cli.path.clone(),
        fixtures: cli
            .ui
            .fixtures
            .clone()
            .unwrap_or_else(|| config.fixtures_folder()),
        config_path: config::path_for_help(),
        mouse: cli.ui.mouse,
        watch: cli.watch,
        checks: checks(cli, &config)?,
        editor: crate::tui::editor::from_env(),
        root_is_file: cli.path.is_file(),
        recording,
    };
    let summary = crate::tui::run(
        settings,
        Theme::new(theme, color),
        engine_options(&cli.extraction, &config),
        load_options(&cli.extraction, &config)?,
    )
    .context("the terminal failed");
    for panic in crate::tui::terminal::background_panics() {
        eprintln!("jxray bug: a background thread panicked: {panic}");
    }
    let summary = summary?;
    // After SIGHUP the terminal may be gone: a failed write must not turn into a panic.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{}", summary_line(&cli.path, &summary));
    if !summary.saved.is_empty() {
        let _ = writeln!(out, "saved {} fixture(s):", summary.saved.len());
        for path in &summary.saved {
            let _ = writeln!(out, "  {}", escape_line(&path.to_string_lossy()));
        }
    }
    // Ended by a signal: the conventional 128 + its number (130 for SIGINT, 143 for SIGTERM).
    Ok(match summary.signal {
        Some(signal) => 128u8.saturating_add(signal as u8),
        None => 0,
    })
}

/// The schema and the baseline, read before the terminal is taken so that a
/// bad file is one line on the normal screen.
fn checks(cli: &Cli, config: &Config) -> anyhow::Result<Checks> {
    let schema_file = cli.ui.schema.clone().or_else(|| config.schema.clone());
    let schema = schema_file
        .as_deref()
        .map(Schema::from_file)
        .transpose()?
        .map(std::sync::Arc::new);
    let baseline = match &cli.ui.baseline {
        None => None,
        Some(path) => {
            let run = Run::load(
                path,
                &load_options(&cli.extraction, config)?,
                &engine_options(&cli.extraction, config),
                schema.as_ref(),
            )?;
            if run.is_empty() {
                anyhow::bail!(
                    "{}: no capture found for --baseline; pass an earlier run's folder or log",
                    shown_path(&path)
                );
            }
            Some(Arc::new((path.clone(), run)))
        }
    };
    Ok(Checks {
        schema,
        baseline,
        offered_schema: offered_schema(&cli.path, schema_file.is_some()),
    })
}

/// A `schema.json` beside the captures, when no schema was given: offered, never used unasked.
fn offered_schema(root: &Path, given: bool) -> Option<PathBuf> {
    let candidate = root.join("schema.json");
    (!given && root.is_dir() && candidate.is_file()).then_some(candidate)
}

/// `--color` against `NO_COLOR` (set and non-empty means no colour); the UI
/// only runs on a terminal.
fn use_color(choice: ColorChoice, no_color: Option<&str>) -> bool {
    let explicit = match choice {
        ColorChoice::Always => Some(true),
        ColorChoice::Never => Some(false),
        ColorChoice::Auto => None,
    };
    want_color(explicit, true, no_color)
}

/// "jxray: 42 captures in assets/demo: fenced 12 · truncated 3 · …"
fn summary_line(path: &Path, summary: &SessionSummary) -> String {
    let parts: Vec<String> = summary
        .mix
        .parts()
        .iter()
        .map(|(badge, count)| format!("{badge} {count}"))
        .collect();
    let noun = if summary.mix.total() == 1 {
        "capture"
    } else {
        "captures"
    };
    let mut line = format!(
        "jxray: {} {noun} in {}",
        summary.mix.total(),
        escape_line(&path.to_string_lossy())
    );
    if !parts.is_empty() {
        line.push_str(": ");
        line.push_str(&parts.join(" · "));
    }
    if summary.lenient {
        line.push_str(" (lenient acceptance on)");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_follows_flag_then_no_color() {
        assert!(use_color(ColorChoice::Auto, None));
        assert!(use_color(ColorChoice::Auto, Some("")));
        assert!(!use_color(ColorChoice::Auto, Some("1")));
        assert!(use_color(ColorChoice::Always, Some("1")));
        assert!(!use_color(ColorChoice::Never, None));
    }
}
