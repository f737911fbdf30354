//! The command line (contract §3): clap definitions only.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use jxray::capture::fields::FieldPath;

#[derive(Debug, Parser)]
#[command(
    name = "jxray",
    version,
    about = "See why a language model's JSON did not parse: raw, normalized and decoded side by side",
    after_help = after_help(),
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// A capture file or a folder of captures for the terminal UI
    #[arg(default_value = ".")]
    pub path: PathBuf,

    /// Re-extract captures as files appear and change
    #[arg(long)]
    pub watch: bool,

    #[command(flatten)]
    pub ui: UiArgs,

    #[command(flatten)]
    pub extraction: ExtractionArgs,
}

/// Help's closing words, with the config file's path (it differs per platform).
fn after_help() -> String {
    format!(
        "Run `jxray check PATH` for a report without the terminal UI.\nConfig file: {}",
        jxray::config::path_for_help()
    )
}

#[derive(Debug, Args, Clone)]
pub struct UiArgs {
    /// Where `s` saves fixtures [default: config file, else ./fixtures]
    #[arg(long, value_name = "DIR")]
    pub fixtures: Option<PathBuf>,

    /// When to use colour
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Colours for a dark or a light terminal [default: config file, else dark]
    #[arg(long, value_enum)]
    pub theme: Option<ThemeChoice>,

    /// Capture the mouse (blocks the terminal's own text selection)
    #[arg(long)]
    pub mouse: bool,
}

#[derive(Debug, Args, Clone)]
pub struct ExtractionArgs {
    /// Accept candidates after meaning-changing fixes, as layer `lenient`
    #[arg(long)]
    pub accept_lenient: bool,

    /// Which candidate wins when several distinct values parse
    #[arg(long, value_enum, default_value_t = PickChoice::First)]
    pub pick: PickChoice,

    /// Largest capture file read, in bytes; larger ones are `unreadable`
    #[arg(long, value_name = "BYTES", default_value_t = 64 * 1024 * 1024)]
    pub max_bytes: u64,

    #[command(flatten)]
    pub log: LogArgs,
}

/// Where the fields of other tools' JSON / JSONL logs are (README: "Logs").
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Log records")]
pub struct LogArgs {
    /// Dotted path to a record's text, e.g. response.choices[0].message.content
    #[arg(long, value_name = "PATH")]
    pub text_path: Option<FieldPath>,

    /// Dotted path to a record's stop reason
    #[arg(long, value_name = "PATH")]
    pub stop_path: Option<FieldPath>,

    /// Dotted path to a record's id (sources read FILE#ID)
    #[arg(long, value_name = "PATH")]
    pub id_path: Option<FieldPath>,

    /// Dotted path to a record's model
    #[arg(long, value_name = "PATH")]
    pub model_path: Option<FieldPath>,

    /// The usual paths of a logging tool's export
    #[arg(long, value_enum, value_name = "TOOL")]
    pub preset: Option<PresetChoice>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PresetChoice {
    Litellm,
    Langfuse,
    Helicone,
    Otel,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Extract every capture under PATH and report each outcome
    Check(CheckArgs),
    /// Print the decoded value of one capture to stdout, the outcome to stderr
    Extract(ExtractArgs),
    /// Replay fixtures; exit 1 on any regression
    Test(TestArgs),
    /// Print a shell completion script
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// A capture file, a folder (searched recursively), or - for standard input
    pub path: PathBuf,

    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// A JSON Schema file every decoded value must satisfy
    #[arg(long, value_name = "FILE")]
    pub schema: Option<PathBuf>,

    /// When to use colour
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    #[command(flatten)]
    pub extraction: ExtractionArgs,
}

#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// A capture file, or - (the default) for standard input
    #[arg(default_value = "-")]
    pub file: PathBuf,

    /// Pretty-print the value
    #[arg(long)]
    pub pretty: bool,

    /// A JSON Schema file the decoded value must satisfy
    #[arg(long, value_name = "FILE")]
    pub schema: Option<PathBuf>,

    #[command(flatten)]
    pub extraction: ExtractionArgs,
}

#[derive(Debug, Args)]
pub struct TestArgs {
    /// The fixtures folder
    #[arg(default_value = "fixtures")]
    pub fixtures: PathBuf,

    /// Rewrite each fixture's expectation to the current outcome and list what changed
    #[arg(long)]
    pub update: bool,

    /// When to use colour
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Jsonl,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ThemeChoice {
    Dark,
    Light,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PickChoice {
    First,
    Last,
}
