//! The user's config file: defaults for the terminal UI, `check` and `test`.
//!
//! It lives in the platform config folder (`~/.config/jxray/config.toml` on
//! Linux, `%APPDATA%\jxray\config\config.toml` on Windows), or wherever `JXRAY_CONFIG`
//! names, and is optional. It is TOML, read by a TOML parser: any quoting TOML
//! allows works (`fixtures = 'tests/fx'`), and a mistake is one line naming the
//! file, the line and the key.

use crate::text::shown_path;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::choices::{ColorChoice, Format, PickChoice};

/// Colours for a dark or a light terminal background.
/// The fixtures folder when the config file names none.
pub(crate) const DEFAULT_FIXTURES: &str = "fixtures";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ThemeName {
    #[default]
    Dark,
    Light,
}

/// What the config file may set. Every field is optional; flags win over it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Where `s` saves fixtures and `jxray test` reads them (relative to the working folder).
    pub(crate) fixtures: Option<PathBuf>,
    pub(crate) theme: Option<ThemeName>,
    /// A JSON Schema file every decoded value must satisfy, as if given with `--schema`.
    pub(crate) schema: Option<PathBuf>,
    /// Replace strings that hold JSON by their value, as if given `--decode-stringified`.
    pub(crate) decode_stringified: Option<bool>,
    /// Take lenient readings as layer `lenient`, as if given `--accept-lenient`.
    pub(crate) accept_lenient: Option<bool>,
    /// Which candidate wins when several distinct values parse (`--pick`).
    pub(crate) pick: Option<PickChoice>,
    /// When to use colour (`--color`), for every command and the workbench.
    pub(crate) color: Option<ColorChoice>,
    /// `check`'s report format (`--format`).
    pub(crate) format: Option<Format>,
    /// Largest capture read, in bytes (`--max-bytes`).
    pub(crate) max_bytes: Option<u64>,
}

/// The keys a config file may hold, for error messages.
const KNOWN_KEYS: &str = "`accept_lenient`, `color`, `decode_stringified`, `fixtures`, \
                          `format`, `max_bytes`, `pick`, `schema` and `theme`";

/// Why the config file could not be used; the message names the file and the fix.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Not a regular file, too large, or not text.
    #[error("config file {}: {message}", shown_path(&path))]
    Unreadable { path: PathBuf, message: String },
    #[error("{path}:{line}: {message}")]
    Syntax {
        path: PathBuf,
        line: usize,
        message: String,
    },
}

/// Largest config file read.
const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// The variable that names the config file, on every platform (on Windows the platform
/// folder comes from the Known Folder API, which no variable such as XDG_CONFIG_HOME
/// moves).
pub(crate) const CONFIG_VARIABLE: &str = "JXRAY_CONFIG";

/// The config file's path: `JXRAY_CONFIG` when set and not empty, else `config.toml` in
/// the platform config folder, when the platform has one.
pub(crate) fn path() -> Option<PathBuf> {
    if let Some(named) = std::env::var_os(CONFIG_VARIABLE).filter(|value| !value.is_empty()) {
        return Some(PathBuf::from(named));
    }
    directories::ProjectDirs::from("", "", "jxray")
        .map(|dirs| dirs.config_dir().join("config.toml"))
}

/// The config path for help texts: the path, or why there is none.
pub(crate) fn path_for_help() -> String {
    match path() {
        Some(path) => shown_path(&path).to_string(),
        None => "(no config folder on this platform)".to_string(),
    }
}

impl Config {
    /// The fixtures folder: the config file's `fixtures =`, else `fixtures`. `check` passes
    /// over it, `test` replays it, the workbench saves into it.
    pub fn fixtures_folder(&self) -> PathBuf {
        self.fixtures
            .clone()
            .unwrap_or_else(|| PathBuf::from(DEFAULT_FIXTURES))
    }

    /// Load the config file; a missing file is the empty config.
    pub fn load() -> Result<Config, ConfigError> {
        match path() {
            Some(path) => Config::load_from(&path),
            None => Ok(Config::default()),
        }
    }

    /// Load a config file; a missing file is the empty config. Only a regular file is
    /// opened: a FIFO or device in its place is an error, never waited on.
    pub fn load_from(path: &Path) -> Result<Config, ConfigError> {
        match std::fs::metadata(path) {
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
            Err(source) => Err(ConfigError::Read {
                path: path.to_path_buf(),
                source,
            }),
            Ok(_) => {
                let size_fix = |_| "a config file that large is not supported".to_string();
                let text = crate::capture::read_regular_text(path, MAX_CONFIG_BYTES, &size_fix)
                    .map_err(|unreadable| ConfigError::Unreadable {
                        path: path.to_path_buf(),
                        message: unreadable.message,
                    })?;
                Config::parse(path, text.strip_prefix('\u{feff}').unwrap_or(&text))
            }
        }
    }

    /// Parse config text; `path` only names the file in errors.
    pub(crate) fn parse(path: &Path, text: &str) -> Result<Config, ConfigError> {
        toml::from_str(text).map_err(|error| syntax_error(path, text, &error))
    }
}

/// One line: `file:LINE: key `k`: what is wrong`, with the fix where there is one.
fn syntax_error(path: &Path, text: &str, error: &toml::de::Error) -> ConfigError {
    let offset = error.span().map_or(0, |span| span.start.min(text.len()));
    let line = text[..offset].matches('\n').count() + 1;
    let message = error.message().trim().replace('\n', " ");
    let message = if message.starts_with("unknown field") {
        let key = message.split('`').nth(1).unwrap_or_default();
        format!("unknown key `{key}`; known keys are {KNOWN_KEYS}")
    } else {
        match key_on_line(text, line) {
            Some(key) => format!("key `{key}`: {message}"),
            None => message,
        }
    };
    ConfigError::Syntax {
        path: path.to_path_buf(),
        line,
        message,
    }
}

/// The key assigned on a 1-based line (`key = …`), if the line is an assignment.
fn key_on_line(text: &str, line: usize) -> Option<String> {
    let (key, _) = text.lines().nth(line - 1)?.split_once('=')?;
    let key = key.trim().trim_matches(['"', '\'']);
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    plain.then(|| key.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::parse(Path::new("config.toml"), text)
    }

    fn error(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn reads_keys_comments_and_blank_lines() {
        let config = parse(
            "# defaults\n\nfixtures = \"tests/fx\" # where\ntheme = \"light\"\nschema = 'out.schema.json'\n",
        )
        .unwrap();
        assert_eq!(config.fixtures, Some(PathBuf::from("tests/fx")));
        assert_eq!(config.theme, Some(ThemeName::Light));
        assert_eq!(config.schema, Some(PathBuf::from("out.schema.json")));
    }

    #[test]
    fn every_toml_string_form_is_the_path_it_spells() {
        for text in [
            "fixtures = 'tests/fx'",
            "fixtures = \"tests/fx\"",
            "fixtures = '''tests/fx'''",
            "fixtures = \"tests\\u002ffx\"",
        ] {
            assert_eq!(
                parse(text).unwrap().fixtures,
                Some(PathBuf::from("tests/fx")),
                "{text}"
            );
        }
        assert_eq!(
            parse("fixtures = \"a#b\"").unwrap().fixtures,
            Some(PathBuf::from("a#b"))
        );
    }

    #[test]
    fn the_keys_users_set_every_time_parse() {
        let config = parse(
            "accept_lenient = true\npick = \"last\"\ncolor = \"never\"\nformat = \"junit\"\n\
             max_bytes = 4096\n",
        )
        .unwrap();
        assert_eq!(config.accept_lenient, Some(true));
        assert_eq!(config.pick, Some(PickChoice::Last));
        assert_eq!(config.color, Some(ColorChoice::Never));
        assert_eq!(config.format, Some(Format::Junit));
        assert_eq!(config.max_bytes, Some(4096));
        assert!(error("pick = \"middle\"").starts_with("config.toml:1: key `pick`: "));
    }

    #[test]
    fn errors_name_file_line_and_key() {
        assert_eq!(
            error("theme = \"light\"\ncolour = \"red\"\n"),
            "config.toml:2: unknown key `colour`; known keys are `accept_lenient`, `color`, \
             `decode_stringified`, `fixtures`, `format`, `max_bytes`, `pick`, `schema` and `theme`"
        );
        let bad_theme = error("\ntheme = \"blue\"");
        assert!(
            bad_theme.starts_with("config.toml:2: key `theme`: "),
            "{bad_theme}"
        );
        assert!(
            bad_theme.contains("dark") && bad_theme.contains("light"),
            "{bad_theme}"
        );
        let not_a_path = error("# paths\nfixtures = 7\n");
        assert!(
            not_a_path.starts_with("config.toml:2: key `fixtures`: "),
            "{not_a_path}"
        );
        assert!(not_a_path.contains("string"), "{not_a_path}");
    }

    #[test]
    fn broken_toml_is_an_error_on_its_line() {
        for (text, line) in [
            ("fixtures = [1", 1),
            ("theme = \"dark\"\nfixtures = \"open", 2),
            ("fixtures = two words", 1),
            ("fixtures", 1),
            ("theme = \"dark\"\ntheme = \"light\"", 2),
        ] {
            let message = error(text);
            assert!(
                message.starts_with(&format!("config.toml:{line}: ")),
                "{text:?}: {message}"
            );
            assert!(!message.contains('\n'), "one line: {message:?}");
        }
    }

    #[test]
    fn a_missing_file_is_the_empty_config() {
        let dir = tempfile::tempdir().unwrap();
        let config = Config::load_from(&dir.path().join("none.toml")).unwrap();
        assert_eq!(config, Config::default());
    }
}
