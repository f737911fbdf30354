//! What the commands share: flags to options, colour, and the one-line error.

use std::io::{self, IsTerminal};

use crate::engine::{Options, Pick};
use crate::report::{want_color, Painter};
use crate::text::escape_line;

use std::sync::Arc;

use crate::capture::fields::{PathFlags, Preset};
use crate::capture::LoadOptions;
use crate::cli::{ColorChoice, ExtractionArgs, PickChoice, PresetChoice};
use crate::config::Config;

/// The engine's options: the flags, over the config file's defaults.
pub(super) fn engine_options(args: &ExtractionArgs, config: &Config) -> Options {
    Options::default()
        .with_accept_lenient(switch(
            args.accept_lenient,
            args.no_accept_lenient,
            config.accept_lenient,
        ))
        .with_decode_stringified(switch(
            args.decode_stringified,
            args.no_decode_stringified,
            config.decode_stringified,
        ))
        .with_pick(
            match args.pick.or(config.pick).unwrap_or(PickChoice::First) {
                PickChoice::First => Pick::First,
                PickChoice::Last => Pick::Last,
            },
        )
}

/// A switch: its flag, else its `--no-` flag, else the config file's key, else off (the
/// last of the two flags given wins).
fn switch(on: bool, off: bool, config: Option<bool>) -> bool {
    on || (!off && config.unwrap_or(false))
}

pub(super) fn load_options(args: &ExtractionArgs, config: &Config) -> anyhow::Result<LoadOptions> {
    let log = &args.log;
    let flags = PathFlags {
        preset: log.preset.map(|preset| match preset {
            PresetChoice::Litellm => Preset::Litellm,
            PresetChoice::Langfuse => Preset::Langfuse,
            PresetChoice::Helicone => Preset::Helicone,
            PresetChoice::Otel => Preset::Otel,
        }),
        text: log.text_path.clone(),
        stop: log.stop_path.clone(),
        id: log.id_path.clone(),
        model: log.model_path.clone(),
    };
    Ok(LoadOptions {
        max_bytes: args
            .max_bytes
            .or(config.max_bytes)
            .unwrap_or(LoadOptions::default().max_bytes),
        fields: flags.field_map()?.map(Arc::new),
        ..LoadOptions::default()
    })
}

/// A painter for standard output, following `--color` and `NO_COLOR`.
pub(super) fn stdout_painter(flag: Option<ColorChoice>, config: &Config) -> Painter {
    let explicit = match flag.or(config.color).unwrap_or(ColorChoice::Auto) {
        ColorChoice::Always => Some(true),
        ColorChoice::Never => Some(false),
        ColorChoice::Auto => None,
    };
    let no_color = std::env::var("NO_COLOR").ok();
    Painter::new(want_color(
        explicit,
        io::stdout().is_terminal(),
        no_color.as_deref(),
    ))
}

/// An error as the one line `jxray: …` prints: its causes joined, a cause whose words the
/// line already holds left out (an I/O error is named once, not twice), whitespace folded
/// and anything that could act on a terminal escaped.
pub(super) fn error_line(error: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    escape_line(&line).into_owned()
}

/// The signals `--stop-on` names (comma-separated, the flag repeatable), each one of
/// `allowed`.
pub(super) fn stop_signals(
    names: &[String],
    allowed: &[crate::engine::SignalKind],
) -> anyhow::Result<Vec<crate::engine::SignalKind>> {
    use anyhow::Context;
    names
        .iter()
        .flat_map(|names| names.split(','))
        .map(|name| {
            let name = name.trim();
            crate::engine::SignalKind::from_name(name)
                .filter(|kind| allowed.contains(kind))
                .with_context(|| {
                    let known: Vec<&str> = allowed.iter().map(|kind| kind.as_str()).collect();
                    format!(
                        "--stop-on: unknown signal {name:?}; the signals are {}",
                        known.join(", ")
                    )
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::error_line;

    #[derive(Debug, thiserror::Error)]
    #[error("a.json: cannot read it ({source}); check its permissions")]
    struct Wrapped {
        source: std::io::Error,
    }

    #[test]
    fn an_os_error_is_named_once_and_escapes_are_shown() {
        let io = std::io::Error::from_raw_os_error(13);
        let error = anyhow::Error::new(Wrapped { source: io }).context("loading\x1b]0;x\x07");
        let line = error_line(&error);
        assert_eq!(line.matches("os error 13").count(), 1, "{line}");
        assert!(!line.contains('\x1b'), "{line}");
        assert!(
            line.starts_with("loading\\u{1b}]0;x\\u{7}: a.json: cannot read it"),
            "{line}"
        );
    }
}
