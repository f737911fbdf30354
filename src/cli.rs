//! The command line (contract §3): clap definitions only.

use std::path::PathBuf;

use crate::capture::fields::FieldPath;
pub(crate) use crate::choices::{ColorChoice, Format, PickChoice};
use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "jxray",
    version,
    about = "See why a language model's JSON did not parse: raw, normalized and decoded side by side",
    after_help = after_help(),
    args_conflicts_with_subcommands = true,
    // Unstyled, so the text holds nothing but what it says: values from the command line
    // and the environment are then escaped when it is printed (commands::usage).
    styles = clap::builder::Styles::plain()
)]
pub struct Cli {
    #[command(subcommand)]
    pub(crate) command: Option<CliCommand>,

    /// A capture file or a folder of captures for the terminal UI
    #[arg(default_value = ".")]
    pub(crate) path: PathBuf,

    /// Re-extract captures as files appear and change
    #[arg(long)]
    pub(crate) watch: bool,

    #[command(flatten)]
    pub(crate) ui: UiArgs,

    #[command(flatten)]
    pub(crate) extraction: ExtractionArgs,
}

/// Help's closing words, with the config file's path (it differs per platform).
fn after_help() -> String {
    format!(
        "Run `jxray check PATH` for a report without the terminal UI.\nConfig file: {} \
         ({} names another)",
        crate::config::path_for_help(),
        crate::config::CONFIG_VARIABLE
    )
}

#[derive(Debug, Args, Clone)]
pub struct UiArgs {
    /// Where `s` saves fixtures [default: config file, else ./fixtures]
    #[arg(long, value_name = "DIR")]
    pub(crate) fixtures: Option<PathBuf>,

    /// When to use colour [default: config file, else auto]
    #[arg(long, value_enum)]
    pub(crate) color: Option<ColorChoice>,

    /// Colours for a dark or a light terminal [default: config file, else dark]
    #[arg(long, value_enum)]
    pub(crate) theme: Option<ThemeChoice>,

    /// Capture the mouse (blocks the terminal's own text selection)
    #[arg(long)]
    pub(crate) mouse: bool,

    /// A JSON Schema file every decoded value must satisfy
    #[arg(long, value_name = "FILE")]
    pub(crate) schema: Option<PathBuf>,

    /// An earlier run (folder or log) to mark each capture's change against
    #[arg(long, value_name = "PATH")]
    pub(crate) baseline: Option<PathBuf>,
}

#[derive(Debug, Args, Clone)]
pub struct ExtractionArgs {
    /// Accept candidates after meaning-changing fixes, as layer `lenient`
    #[arg(long, overrides_with = "no_accept_lenient")]
    pub(crate) accept_lenient: bool,

    /// Do not, whatever the config file's `accept_lenient` says
    #[arg(long, overrides_with = "accept_lenient")]
    pub(crate) no_accept_lenient: bool,

    /// Which candidate wins when several distinct values parse [default: config file, else first]
    #[arg(long, value_enum)]
    pub(crate) pick: Option<PickChoice>,

    /// Replace strings that hold JSON (`stringified-json`) by the value they hold
    #[arg(long, overrides_with = "no_decode_stringified")]
    pub(crate) decode_stringified: bool,

    /// Do not, whatever the config file's `decode_stringified` says
    #[arg(long, overrides_with = "decode_stringified")]
    pub(crate) no_decode_stringified: bool,

    /// Largest capture file read, in bytes; larger ones are `unreadable` [default: config
    /// file, else 67108864]
    #[arg(long, value_name = "BYTES")]
    pub(crate) max_bytes: Option<u64>,

    #[command(flatten)]
    pub(crate) log: LogArgs,
}

/// Where the fields of other tools' JSON / JSONL logs are (README: "Logs").
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Log records")]
pub struct LogArgs {
    /// Dotted path to a record's text, e.g. response.choices[0].message.content
    #[arg(long, value_name = "PATH")]
    pub(crate) text_path: Option<FieldPath>,

    /// Dotted path to a record's stop reason
    #[arg(long, value_name = "PATH")]
    pub(crate) stop_path: Option<FieldPath>,

    /// Dotted path to a record's id (sources read FILE#ID)
    #[arg(long, value_name = "PATH")]
    pub(crate) id_path: Option<FieldPath>,

    /// Dotted path to a record's model
    #[arg(long, value_name = "PATH")]
    pub(crate) model_path: Option<FieldPath>,

    /// The usual paths of a logging tool's export
    #[arg(long, value_enum, value_name = "TOOL")]
    pub(crate) preset: Option<PresetChoice>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PresetChoice {
    Litellm,
    Langfuse,
    Helicone,
    Otel,
}

#[derive(Debug, Subcommand)]
pub enum CliCommand {
    /// Extract every capture under PATH and report each outcome
    Check(CheckArgs),
    /// Print the decoded value of one capture to stdout, the outcome to stderr
    #[command(
        after_help = "A file of several captures (a .jsonl log, a response with several tool \
                      calls) prints one value per capture, in order, a failed one as null, so \
                      line N of stdout is capture N (without --pretty); each outcome is on stderr."
    )]
    Extract(ExtractArgs),
    /// Replay fixtures; exit 1 on any regression
    Test(TestArgs),
    /// Compare two runs (folders or logs) by outcome and by value; exit 1 on any broke
    Compare(CompareArgs),
    /// Record your app's model calls: a proxy on loopback that saves each exchange as a capture
    Record(RecordArgs),
    /// Print a shell completion script
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// A capture file, a folder (searched recursively), or - for standard input
    #[arg(default_value = ".")]
    pub(crate) path: PathBuf,

    /// Output format (junit: one testcase a capture; github: annotations and a step summary)
    /// [default: config file, else text]
    #[arg(long, value_enum)]
    pub(crate) format: Option<Format>,

    /// A JSON Schema file every decoded value must satisfy
    #[arg(long, value_name = "FILE")]
    pub(crate) schema: Option<PathBuf>,

    /// When to use colour [default: config file, else auto]
    #[arg(long, value_enum)]
    pub(crate) color: Option<ColorChoice>,

    /// What standard input holds (with PATH -): jsonl, one capture a line; text, one raw output
    #[arg(long, value_enum, value_name = "KIND")]
    pub(crate) input: Option<InputChoice>,

    /// Name standard input's records as this file's would be (`NAME:LINE`), not `-:LINE`
    #[arg(long, value_name = "NAME")]
    pub(crate) stdin_name: Option<String>,

    /// Exit 1 when a layer or failure share is over its bound, e.g. `fenced=10%,truncated=0`
    #[arg(long, value_name = "NAME=SHARE,...")]
    pub(crate) max_share: Option<crate::report::DriftGate>,

    /// Print failing captures only (the summary still counts every capture)
    #[arg(long, short = 'q')]
    pub(crate) only_failures: bool,

    /// Also give the layer and failure mix of each group, the worst first
    #[arg(long, value_enum, value_name = "KEY")]
    pub(crate) by: Option<crate::group::GroupBy>,

    #[command(flatten)]
    pub(crate) extraction: ExtractionArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InputChoice {
    Jsonl,
    Text,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The earlier run: a capture folder or a log file
    pub(crate) old: PathBuf,

    /// The later run, matched to OLD by relative path, line or record id
    pub(crate) new: PathBuf,

    /// Output format (jsonl: one line per capture of either run, `same` ones too)
    #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
    pub(crate) format: CompareFormat,

    /// Also exit 1 when an accepted value changed (not only when a capture broke)
    #[arg(long)]
    pub(crate) fail_on_change: bool,

    /// Also exit 1 when a value stayed the same but came from another layer (`fenced → direct`)
    #[arg(long)]
    pub(crate) fail_on_layer_change: bool,

    /// Also give the mix of each group in both runs and the change, the worst group first
    #[arg(long, value_enum, value_name = "KEY")]
    pub(crate) by: Option<crate::group::GroupBy>,

    /// A JSON Schema file every decoded value must satisfy, in both runs
    #[arg(long, value_name = "FILE")]
    pub(crate) schema: Option<PathBuf>,

    /// When to use colour [default: config file, else auto]
    #[arg(long, value_enum)]
    pub(crate) color: Option<ColorChoice>,

    #[command(flatten)]
    pub(crate) extraction: ExtractionArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompareFormat {
    Text,
    Json,
    Jsonl,
}

/// A byte count for `jxray record`: 1 byte to 1 TiB (more would overflow the counts).
fn byte_count() -> clap::builder::RangedU64ValueParser {
    clap::value_parser!(u64).range(1..=jxray_record::Limits::MAX as u64)
}

/// A timeout for `jxray record`: 1 s to a week (more would overflow a deadline).
fn seconds() -> clap::builder::RangedU64ValueParser {
    clap::value_parser!(u64).range(1..=jxray_record::Timeouts::MAX.as_secs())
}

/// `jxray record` (README: "Recording from your app").
#[derive(Debug, Args)]
pub struct RecordArgs {
    /// The port to listen on
    #[arg(long, default_value_t = 8788)]
    pub(crate) port: u16,

    /// Listen on this address instead of 127.0.0.1 (warns: others could call through it)
    #[arg(long, value_name = "ADDR")]
    pub(crate) listen: Option<std::net::IpAddr>,

    /// The capture folder (created when missing)
    #[arg(long, value_name = "DIR", default_value = "captures")]
    pub(crate) to: PathBuf,

    /// Add a route, or replace a default one: /NAME/REST goes to URL/REST
    #[arg(long, value_name = "NAME=URL")]
    pub(crate) upstream: Vec<String>,

    /// Largest request body kept in the request file, in decoded bytes (larger ones still pass)
    #[arg(long, value_name = "BYTES", default_value_t = 16 * 1024 * 1024, value_parser = byte_count())]
    pub(crate) max_request_bytes: u64,

    /// Largest response kept as a capture, in decoded bytes (larger ones still pass, unrecorded)
    #[arg(long, value_name = "BYTES", default_value_t = 64 * 1024 * 1024, value_parser = byte_count())]
    pub(crate) max_response_bytes: u64,

    /// Most bytes held for captures by all calls at once (past it, a call is not recorded)
    #[arg(long, value_name = "BYTES", default_value_t = 256 * 1024 * 1024, value_parser = byte_count())]
    pub(crate) max_memory_bytes: u64,

    /// Seconds to connect to an upstream (TCP and TLS handshake), 1 to 604800
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = seconds())]
    pub(crate) connect_timeout: u64,

    /// Seconds an upstream may stay silent (before answering, or between two chunks), 1 to 604800
    #[arg(long, value_name = "SECS", default_value_t = 600, value_parser = seconds())]
    pub(crate) idle_timeout: u64,

    /// Also open the workbench on the capture folder, watching it
    #[arg(long)]
    pub(crate) tui: bool,

    /// With --tui, print the proxy's whole log when the workbench closes, not only its summary
    #[arg(long, requires = "tui")]
    pub(crate) print_log: bool,

    /// End a streamed response at the first of these signals (runaway, tool-call-text, refusal, invalid): the upstream request is dropped and the app's stream ends as a length stop. Off unless given
    #[arg(long, value_name = "SIGNAL,…")]
    pub(crate) stop_on: Vec<String>,

    #[command(flatten, next_help_heading = "With --tui")]
    pub(crate) ui: UiArgs,

    #[command(flatten, next_help_heading = "With --tui")]
    pub(crate) extraction: ExtractionArgs,
}

#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// A capture file, or - (the default) for standard input
    #[arg(default_value = "-")]
    pub(crate) file: PathBuf,

    /// Pretty-print the value
    #[arg(long)]
    pub(crate) pretty: bool,

    /// A JSON Schema file the decoded value must satisfy
    #[arg(long, value_name = "FILE")]
    pub(crate) schema: Option<PathBuf>,

    /// The provider's stop reason for a raw text (length, max_tokens, stop, …)
    #[arg(long, value_name = "REASON")]
    pub(crate) stop_reason: Option<String>,

    /// Read the input as it arrives: a JSON line per change, then the outcome's line
    #[arg(long)]
    pub(crate) follow: bool,

    /// With --follow, stop at the first of these signals (runaway, tool-call-text, reasoning, refusal, invalid; schema, with a schema: an item or member that breaks it as it closes)
    #[arg(long, value_name = "SIGNAL,…", requires = "follow")]
    pub(crate) stop_on: Vec<String>,

    /// With --follow, what the input is: the output's text, or a provider's stream (SSE or NDJSON, as `curl -N` prints it)
    #[arg(long, value_enum, default_value = "text", requires = "follow")]
    pub(crate) input: FollowInput,

    #[command(flatten)]
    pub(crate) extraction: ExtractionArgs,
}

/// What `extract --follow` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FollowInput {
    // The output's text
    Text,
    // An OpenAI (chat, Responses), Anthropic or Gemini SSE stream, or Ollama's NDJSON
    Sse,
}

#[derive(Debug, Args)]
pub struct TestArgs {
    /// A fixtures folder or one fixture file [default: config file, else ./fixtures]
    #[arg(value_name = "FIXTURES")]
    pub(crate) path: Option<PathBuf>,

    /// The fixtures folder (the same as FIXTURES)
    #[arg(long = "fixtures", value_name = "DIR", conflicts_with = "path")]
    pub(crate) fixtures_dir: Option<PathBuf>,

    /// Replay only fixtures whose name or file name contains NAME
    #[arg(long, value_name = "NAME")]
    pub(crate) filter: Option<String>,

    /// Fail when a known gap is now fixed, so its fixture gets updated
    #[arg(long)]
    pub(crate) strict: bool,

    /// Rewrite each fixture's expectation to the current outcome and list what changed
    #[arg(long)]
    pub(crate) update: bool,

    /// Output format (junit: one testcase a fixture; github: annotations and a step summary)
    #[arg(long, value_enum, default_value_t = TestFormat::Text)]
    pub(crate) format: TestFormat,

    /// When to use colour [default: config file, else auto]
    #[arg(long, value_enum)]
    pub(crate) color: Option<ColorChoice>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TestFormat {
    Text,
    Junit,
    Github,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ThemeChoice {
    Dark,
    Light,
}
