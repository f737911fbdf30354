//! The values a flag and a config key share (`--color` and `color =`, …): one spelling,
//! read by clap from the command line and by serde from the config file.

use clap::ValueEnum;
use serde::Deserialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum PickChoice {
    First,
    Last,
}

/// `check`'s report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Format {
    Text,
    Json,
    Jsonl,
    Junit,
    Github,
    Html,
}
