//! The user's config file: defaults for the terminal UI.
//!
//! It lives in the platform config folder (`~/.config/jxray/config.toml` on
//! Linux) and is optional. The format is a small subset of TOML — one
//! `key = "value"` a line, `#` comments — so that no TOML parser is needed and
//! every file it accepts is also valid TOML.

use std::path::{Path, PathBuf};

/// Colours for a dark or a light terminal background.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ThemeName {
    #[default]
    Dark,
    Light,
}

impl ThemeName {
    pub fn as_str(self) -> &'static str {
        match self {
            ThemeName::Dark => "dark",
            ThemeName::Light => "light",
        }
    }
}

/// What the config file may set. Every field is optional; flags win over it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Config {
    /// Where `s` saves fixtures (relative paths are relative to the working folder).
    pub fixtures: Option<PathBuf>,
    pub theme: Option<ThemeName>,
}

/// Why the config file could not be used; the message names the file and the fix.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Not a regular file, too large, or not text.
    #[error("config file {}: {message}", path.display())]
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

/// The config file's path, when the platform has a config folder.
pub fn path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "jxray")
        .map(|dirs| dirs.config_dir().join("config.toml"))
}

/// The config path for help texts: the path, or why there is none.
pub fn path_for_help() -> String {
    match path() {
        Some(path) => path.display().to_string(),
        None => "(no config folder on this platform)".to_string(),
    }
}

impl Config {
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
    pub fn parse(path: &Path, text: &str) -> Result<Config, ConfigError> {
        let mut config = Config::default();
        for (index, line) in text.lines().enumerate() {
            let syntax = |message: String| ConfigError::Syntax {
                path: path.to_path_buf(),
                line: index + 1,
                message,
            };
            let line = strip_comment(line).trim();
            if line.is_empty() {
                continue;
            }
            let Some((key, value)) = line.split_once('=') else {
                return Err(syntax(format!(
                    "expected `key = \"value\"`, found `{line}`"
                )));
            };
            let value = unquote(value.trim()).map_err(syntax)?;
            match key.trim() {
                "fixtures" => config.fixtures = Some(PathBuf::from(value)),
                "theme" => {
                    config.theme = Some(match value.as_str() {
                        "dark" => ThemeName::Dark,
                        "light" => ThemeName::Light,
                        other => {
                            return Err(syntax(format!(
                                "theme must be \"dark\" or \"light\", not \"{other}\""
                            )))
                        }
                    })
                }
                other => {
                    return Err(syntax(format!(
                        "unknown key `{other}`; known keys are `fixtures` and `theme`"
                    )))
                }
            }
        }
        Ok(config)
    }
}

/// Drop a `#` comment that is not inside a quoted value.
fn strip_comment(line: &str) -> &str {
    let mut in_quotes = false;
    for (index, ch) in line.char_indices() {
        match ch {
            '"' => in_quotes = !in_quotes,
            '#' if !in_quotes => return &line[..index],
            _ => {}
        }
    }
    line
}

/// A value is a double-quoted string (no escapes needed for paths and names) or a bare word.
fn unquote(value: &str) -> Result<String, String> {
    if let Some(inner) = value.strip_prefix('"') {
        let Some(inner) = inner.strip_suffix('"') else {
            return Err(format!("unterminated string `{value}`"));
        };
        if inner.contains('"') || inner.contains('\\') {
            return Err(format!(
                "`{value}`: quotes and backslashes are not supported in values; use '/' in paths"
            ));
        }
        return Ok(inner.to_string());
    }
    if value.is_empty() || value.contains(char::is_whitespace) {
        return Err(format!("expected a quoted value, found `{value}`"));
    }
    Ok(value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::parse(Path::new("config.toml"), text)
    }

    #[test]
    fn reads_keys_comments_and_blank_lines() {
        let config =
            parse("# defaults\n\nfixtures = \"tests/fx\" # where\ntheme = light\n").unwrap();
        assert_eq!(config.fixtures, Some(PathBuf::from("tests/fx")));
        assert_eq!(config.theme, Some(ThemeName::Light));
    }

    #[test]
    fn a_hash_inside_quotes_is_kept() {
        let config = parse("fixtures = \"a#b\"").unwrap();
        assert_eq!(config.fixtures, Some(PathBuf::from("a#b")));
    }

    #[test]
    fn errors_name_file_line_and_fix() {
        let err = parse("theme = \"light\"\ncolour = \"red\"\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "config.toml:2: unknown key `colour`; known keys are `fixtures` and `theme`"
        );
        let err = parse("theme = \"blue\"").unwrap_err();
        assert!(err.to_string().contains("\"dark\" or \"light\""));
        assert!(parse("fixtures").is_err());
        assert!(parse("fixtures = \"open").is_err());
        assert!(parse("fixtures = two words").is_err());
    }

    #[test]
    fn a_missing_file_is_the_empty_config() {
        let dir = tempfile::tempdir().unwrap();
        let config = Config::load_from(&dir.path().join("none.toml")).unwrap();
        assert_eq!(config, Config::default());
    }
}
