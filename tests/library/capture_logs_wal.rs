//! A logs.db in WAL mode whose rows are still in its write-ahead log (`logs.db-wal`), as
//! the real `llm` leaves it while its writer is connected, or after the writer was killed:
//! `jxray check` reads every committed row, and leaves the database, its log and the
//! folder as they were.
//!
//! The rows are written by llm's own code (`scripts/llm-wal-writer.py`) in the virtual
//! environment `scripts/install-test-tools.sh` makes; the script is run here when that
//! environment is missing (CI runs it first).

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;

use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The outputs each writer logs, and what jxray must say of each, in order.
const OUTPUTS: [(&str, &str); 4] = [
    (r#"{"city": "Paris", "population": 2102650}"#, "direct"),
    (
        "Here you go:\n```json\n{\"city\": \"Oslo\"}\n```\nAnything else?",
        "fenced",
    ),
    (
        r#"{"city": "Lima", "districts": ["Miraflores","#,
        "truncated",
    ),
    ("{'city': 'Rome'}", "invalid"),
];

/// The python of the environment that has llm installed, installing it the first time.
fn llm_python() -> PathBuf {
    static INSTALL: Mutex<()> = Mutex::new(());
    let _one_at_a_time = INSTALL.lock().unwrap_or_else(|poison| poison.into_inner());
    let tools = std::env::var_os("JXRAY_TEST_TOOLS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(ROOT).join("target/test-tools"));
    if !tools.join("llm/installed").exists() {
        let status = Command::new("bash")
            .arg(Path::new(ROOT).join("scripts/install-test-tools.sh"))
            .arg(&tools)
            .status()
            .expect("bash runs");
        assert!(
            status.success(),
            "scripts/install-test-tools.sh failed: it installs llm from PyPI for this test"
        );
    }
    tools.join("llm/bin/python")
}

/// A writer that logged [`OUTPUTS`] into `dir/logs.db` and holds them in the log.
struct Writer {
    child: Child,
    dir: tempfile::TempDir,
}

impl Writer {
    /// `mode` is `hold` (stays connected) or `crash` (ends without closing).
    fn start(mode: &str, tables_in_file: bool) -> Writer {
        let dir = tempfile::tempdir().unwrap();
        let mut command = Command::new(llm_python());
        command
            .arg(Path::new(ROOT).join("scripts/llm-wal-writer.py"))
            .arg(dir.path().join("logs.db"))
            .arg(mode)
            .env("LLM_USER_PATH", dir.path().join("llm-home"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        if tables_in_file {
            command.arg("--tables-in-file");
        }
        command.args(OUTPUTS.map(|(text, _)| text));
        let mut child = command.spawn().expect("the llm environment's python runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line.trim(), "ready", "the writer did not log its rows");
        Writer { child, dir }
    }

    fn db(&self) -> PathBuf {
        self.dir.path().join("logs.db")
    }

    /// Every file beside the database (not llm's own settings folder) and its bytes.
    fn files(&self) -> BTreeMap<String, Vec<u8>> {
        fs::read_dir(self.dir.path())
            .unwrap()
            .map(Result::unwrap)
            .filter(|entry| entry.file_type().unwrap().is_file())
            .map(|entry| {
                let name = entry.file_name().to_string_lossy().into_owned();
                (name, fs::read(entry.path()).unwrap())
            })
            .collect()
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        // Closing standard input lets a holding writer finish; a crashed one is gone.
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

/// `jxray check DB --format jsonl`, run through `wrapper` (a command and its arguments
/// that run the rest): each record's layer or failure kind.
fn verdicts(db: &Path, wrapper: &[&str]) -> Vec<String> {
    verdicts_of(Path::new(env!("CARGO_BIN_EXE_jxray")), db, wrapper)
}

/// [`verdicts`] with the binary at `jxray`.
fn verdicts_of(jxray: &Path, db: &Path, wrapper: &[&str]) -> Vec<String> {
    let mut command = match wrapper.split_first() {
        Some((program, args)) => {
            let mut command = Command::new(program);
            command.args(args).arg(jxray);
            command
        }
        None => Command::new(jxray),
    };
    let output = command
        .args(["check", "--format", "jsonl"])
        .arg(db)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    stdout
        .lines()
        .map(|line| {
            let record: Value = serde_json::from_str(line).unwrap();
            let verdict = match record["ok"].as_bool() {
                Some(true) => &record["layer"],
                _ => &record["failure"]["kind"],
            };
            let message = &record["failure"]["message"];
            match verdict.as_str() {
                Some("unreadable") => format!("unreadable: {message}"),
                Some(word) => word.to_string(),
                None => format!("? {line}"),
            }
        })
        .collect()
}

fn expected() -> Vec<String> {
    OUTPUTS.map(|(_, verdict)| verdict.to_string()).to_vec()
}

/// The database and its log are byte for byte as they were, and no file was added or
/// removed. (SQLite's readers may note themselves in the `-shm` index.)
fn assert_untouched(before: &BTreeMap<String, Vec<u8>>, after: &BTreeMap<String, Vec<u8>>) {
    let names = |files: &BTreeMap<String, Vec<u8>>| files.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(before), names(after), "files beside the database");
    for name in ["logs.db", "logs.db-wal"] {
        assert!(before[name] == after[name], "{name} was written");
    }
}

#[test]
fn rows_a_connected_writer_holds_in_the_wal_are_all_read_tables_included() {
    let writer = Writer::start("hold", false);
    let before = writer.files();
    assert!(before.contains_key("logs.db-wal") && before.contains_key("logs.db-shm"));
    assert_eq!(verdicts(&writer.db(), &[]), expected());
    assert_untouched(&before, &writer.files());
}

#[test]
fn rows_a_crashed_writer_left_in_the_wal_are_all_read() {
    let writer = Writer::start("crash", true);
    let before = writer.files();
    assert_eq!(verdicts(&writer.db(), &[]), expected());
    assert_untouched(&before, &writer.files());
}

#[test]
fn a_wal_without_its_index_is_read_from_a_private_copy_and_no_index_is_left() {
    let writer = Writer::start("crash", false);
    fs::remove_file(writer.dir.path().join("logs.db-shm")).unwrap();
    let before = writer.files();
    assert_eq!(verdicts(&writer.db(), &[]), expected());
    assert_untouched(&before, &writer.files());
    assert!(!writer.dir.path().join("logs.db-shm").exists());
}

#[test]
fn a_folder_the_reader_cannot_write_is_read_through_the_index_or_a_copy() {
    for remove_index in [false, true] {
        let writer = Writer::start("crash", true);
        if remove_index {
            fs::remove_file(writer.dir.path().join("logs.db-shm")).unwrap();
        }
        let before = writer.files();
        let verdicts = ReadOnly::new(writer.dir.path()).verdicts(&writer.db());
        assert_eq!(verdicts, expected(), "without the index: {remove_index}");
        assert_untouched(&before, &writer.files());
    }
}

/// A folder its reader cannot write: run as `nobody` when the tests run as root (the
/// kernel lets root write anywhere), else with the folder and its files made read-only.
struct ReadOnly {
    dir: PathBuf,
    as_nobody: bool,
}

impl ReadOnly {
    fn new(dir: &Path) -> ReadOnly {
        use std::os::unix::fs::PermissionsExt;
        let uid = Command::new("id").arg("-u").output().unwrap().stdout;
        let as_nobody = String::from_utf8_lossy(&uid).trim() == "0";
        let (dir_mode, file_mode) = if as_nobody {
            (0o755, 0o644)
        } else {
            (0o555, 0o444)
        };
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                fs::set_permissions(&path, fs::Permissions::from_mode(file_mode)).unwrap();
            }
        }
        fs::set_permissions(dir, fs::Permissions::from_mode(dir_mode)).unwrap();
        ReadOnly {
            dir: dir.to_path_buf(),
            as_nobody,
        }
    }

    fn verdicts(&self, db: &Path) -> Vec<String> {
        use std::os::unix::fs::PermissionsExt;
        if !self.as_nobody {
            return verdicts(db, &[]);
        }
        // A copy nobody can run, wherever the build is (a home folder may be closed to it).
        let bin = tempfile::tempdir().unwrap();
        fs::set_permissions(bin.path(), fs::Permissions::from_mode(0o755)).unwrap();
        let jxray = bin.path().join("jxray");
        fs::copy(env!("CARGO_BIN_EXE_jxray"), &jxray).unwrap();
        let config = "XDG_CONFIG_HOME=/nonexistent";
        let nobody = [
            "setpriv",
            "--reuid=nobody",
            "--regid=nogroup",
            "--clear-groups",
            "env",
            config,
        ];
        verdicts_of(&jxray, db, &nobody)
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt;
        let _ = fs::set_permissions(&self.dir, fs::Permissions::from_mode(0o755));
    }
}
