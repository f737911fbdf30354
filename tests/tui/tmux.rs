//! End to end in a real terminal: the built binary runs in tmux on the demo
//! captures; keys go in with `send-keys`, the screen comes out with
//! `capture-pane`. Each test has its own tmux server (`-L`), so tests run in
//! parallel, and every wait polls with a deadline instead of sleeping.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

pub(crate) const WAIT: Duration = Duration::from_secs(20);

/// One tmux server with one window running jxray.
pub(crate) struct Tmux {
    socket: String,
    _config_home: tempfile::TempDir,
}

impl Tmux {
    /// Start `jxray ARGS` in a `width`×`height` window.
    pub(crate) fn start(
        name: &str,
        width: u16,
        height: u16,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> Tmux {
        let socket = format!("jxray-test-{name}-{}", std::process::id());
        let config_home = tempfile::tempdir().expect("temp config folder");
        let tmux = Tmux {
            socket,
            _config_home: config_home,
        };
        tmux.run(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            "main",
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
        ]);
        // Keep the pane after jxray exits, to read its exit status and what it printed.
        tmux.run(&["set-option", "-t", "main", "remain-on-exit", "on"]);
        let mut command = vec![
            "exec".to_string(),
            "env".to_string(),
            format!("XDG_CONFIG_HOME={}", tmux._config_home.path().display()),
            "TERM=xterm-256color".to_string(),
        ];
        command.extend(env.iter().map(|(k, v)| format!("{k}={v}")));
        // A shell waits for jxray and prints its exit status, which stays on the
        // dead pane (tmux itself may miss the status of a process that ends at once).
        command.push("sh".to_string());
        command.push("-c".to_string());
        command.push(quote("\"$0\" \"$@\"; echo \"[jxray exited $?]\""));
        command.push(quote(env!("CARGO_BIN_EXE_jxray")));
        command.extend(args.iter().map(|a| quote(a)));
        tmux.run(&["respawn-pane", "-k", "-t", "main", &command.join(" ")]);
        tmux
    }

    fn run(&self, args: &[&str]) -> Output {
        let output = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("tmux is needed for the end-to-end tests (apt install tmux)");
        assert!(
            output.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        output
    }

    pub(crate) fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "main"]).stdout)
            .into_owned()
    }

    /// The screen with what scrolled off it: the normal screen after exit.
    pub(crate) fn history(&self) -> String {
        let output = self.run(&["capture-pane", "-p", "-J", "-S", "-100", "-t", "main"]);
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Send keys by tmux name ("j", "Enter", "Escape", "C-c"), one at a time,
    /// so an Escape is never read as Alt plus the next key.
    pub(crate) fn keys(&self, keys: &[&str]) {
        for key in keys {
            self.run(&["send-keys", "-t", "main", key]);
            thread::sleep(Duration::from_millis(60));
        }
    }

    fn text(&self, text: &str) {
        self.run(&["send-keys", "-t", "main", "-l", text]);
    }

    /// Wait until the screen satisfies `ready`; fail with the screen if it never does.
    pub(crate) fn wait_for(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        self.wait_longer(what, WAIT, ready)
    }

    /// [`Tmux::wait_for`], for work that takes long in a debug build.
    pub(crate) fn wait_longer(
        &self,
        what: &str,
        wait: Duration,
        ready: impl Fn(&str) -> bool,
    ) -> String {
        let deadline = Instant::now() + wait;
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            if Instant::now() > deadline {
                panic!("timed out waiting for {what}; the screen:\n{screen}");
            }
            thread::sleep(Duration::from_millis(50));
        }
    }

    fn resize(&self, width: u16, height: u16) {
        self.run(&[
            "resize-window",
            "-t",
            "main",
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
        ]);
    }

    /// The exit status once jxray has ended.
    pub(crate) fn exit_status(&self) -> i32 {
        let screen = self.wait_in_history("jxray to exit", "[jxray exited ");
        let rest = &screen[screen.find("[jxray exited ").unwrap() + "[jxray exited ".len()..];
        rest[..rest.find(']').unwrap()]
            .parse()
            .expect("exit status")
    }

    pub(crate) fn wait_in_history(&self, what: &str, needle: &str) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let history = self.history();
            if history.contains(needle) {
                return history;
            }
            if Instant::now() > deadline {
                panic!("timed out waiting for {what}; the screen:\n{history}");
            }
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// Whether the pane shows the alternate screen (full-screen mode).
    fn alternate_screen(&self) -> bool {
        let output = self.run(&["display-message", "-p", "-t", "main", "#{alternate_on}"]);
        String::from_utf8_lossy(&output.stdout).trim() == "1"
    }

    /// The pid of jxray (the child of the shell that waits for it).
    fn jxray_pid(&self) -> String {
        let output = self.run(&["display-message", "-p", "-t", "main", "#{pane_pid}"]);
        let shell = String::from_utf8_lossy(&output.stdout).trim().to_string();
        let children = Command::new("pgrep")
            .args(["-P", &shell])
            .output()
            .expect("pgrep");
        let pids = String::from_utf8_lossy(&children.stdout);
        pids.lines()
            .next()
            .expect("jxray is running")
            .trim()
            .to_string()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

fn quote(arg: &str) -> String {
    format!("'{}'", arg.replace('\'', "'\\''"))
}

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo")
}

/// The header's first line: the selected capture's source.
fn header_source(screen: &str) -> String {
    let first = screen.lines().next().unwrap_or_default();
    let right = first.rsplit('┐').next().unwrap_or_default();
    right
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}

pub(crate) fn loaded(screen: &str) -> bool {
    let footer = screen
        .lines()
        .rfind(|line| !line.trim().is_empty())
        .unwrap_or_default();
    // `39 captures: …`, or its short form when the footer is short of room (`39: …`).
    let rest = footer.trim_start_matches(|c: char| c.is_ascii_digit());
    let counted = rest.len() < footer.len()
        && [": ", " captures: ", " capture: "]
            .iter()
            .any(|after| rest.starts_with(after));
    counted && !footer.contains("loading") && !footer.contains("finding")
}

#[test]
fn navigate_filter_search_help_resize_and_quit() {
    let demo = demo();
    let tmux = Tmux::start(
        "tour",
        140,
        40,
        &[demo.to_str().unwrap()],
        &[("EDITOR", "true")],
    );
    let screen = tmux.wait_for("the demo to load", loaded);
    assert!(
        screen.contains("Raw ·") && screen.contains("Normalized") && screen.contains("Decoded")
    );
    let first = header_source(&screen);

    tmux.keys(&["j"]);
    let screen = tmux.wait_for("the selection to move", |s| header_source(s) != first);
    let second = header_source(&screen);
    tmux.keys(&["k"]);
    tmux.wait_for("the selection to come back", |s| header_source(s) == first);

    tmux.keys(&["]"]);
    tmux.wait_for("a failing capture", |s| {
        s.lines().nth(1).is_some_and(|l| l.contains("✗"))
    });

    // Filter: the seventh choice is `truncated`.
    tmux.keys(&["f"]);
    tmux.wait_for("the filter menu", |s| s.contains("┌ Filter "));
    tmux.keys(&["j", "j", "j", "j", "j", "j", "Enter"]);
    let screen = tmux.wait_for("the truncated filter", |s| s.contains("· truncated"));
    let rows: Vec<&str> = screen
        .lines()
        .skip(1)
        .filter_map(|line| line.strip_prefix('│'))
        .map(|line| line.trim_start_matches('▶'))
        .map(|line| line.split_whitespace().next().unwrap_or_default())
        .filter(|badge| !badge.is_empty() && !badge.starts_with('│'))
        .collect();
    assert!(
        // A narrow list cuts badges (`trunca…`) to leave room for sources.
        !rows.is_empty()
            && rows
                .iter()
                .all(|b| "truncated".starts_with(b.trim_end_matches('…'))),
        "{rows:?}\n{screen}"
    );

    tmux.keys(&["/"]);
    tmux.text("triage");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("the search result", |s| s.contains("\"triage\""));
    assert!(header_source(&screen).contains("triage"), "{screen}");

    tmux.keys(&["?"]);
    tmux.wait_for("the help", |s| s.contains("Help: jxray keys"));
    tmux.keys(&["G"]);
    tmux.wait_for("the end of the help", |s| s.contains("config:"));
    tmux.keys(&["Escape"]);
    tmux.wait_for("the help to close", |s| !s.contains("Help: jxray keys"));

    // `o` with EDITOR=true: the editor returns at once and the file is re-read.
    tmux.keys(&["o"]);
    tmux.wait_for("the screen after the editor", |s| {
        s.contains("Raw ·") && loaded(s)
    });

    tmux.resize(80, 24);
    tmux.wait_for("tabs on a narrow screen", |s| {
        s.contains("1 Raw │ 2 Normalized │ 3 Decoded")
    });
    tmux.keys(&["3"]);
    tmux.wait_for("the Decoded tab", |s| s.contains("┌ Decoded"));
    tmux.resize(20, 5);
    tmux.wait_for("a tiny screen", |s| s.contains("Captures"));
    tmux.resize(140, 40);
    tmux.wait_for("columns again", |s| {
        s.contains("┌ Raw") && s.contains("┌ Normalized")
    });

    // Back to the list (the Decoded pane has the keys), then the whole list.
    tmux.keys(&["Escape"]);
    tmux.wait_for("focus on the list", |s| s.starts_with("┌ Captures"));
    tmux.keys(&["f", "g", "Enter", "g", "j"]);
    tmux.wait_for("the full list again", |s| header_source(s) == second);

    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_status(), 0);
    let screen = tmux.history();
    assert!(
        screen.contains("jxray: "),
        "the summary is printed on the normal screen:\n{screen}"
    );
    assert!(screen.contains(" captures in "), "{screen}");
    assert!(!tmux.alternate_screen(), "the alternate screen is left");
}

#[test]
fn sigterm_restores_the_terminal() {
    let demo = demo();
    let tmux = Tmux::start("sigterm", 100, 30, &[demo.to_str().unwrap()], &[]);
    tmux.wait_for("the demo to load", loaded);
    let status = Command::new("kill")
        .args(["-TERM", &tmux.jxray_pid()])
        .status()
        .expect("kill");
    assert!(status.success());
    assert_eq!(tmux.exit_status(), 143, "128 + SIGTERM");
    let screen = tmux.history();
    assert!(screen.contains("jxray: "), "{screen}");
    assert!(!tmux.alternate_screen(), "the alternate screen is left");
}

/// Send `signal` to jxray once the demo is loaded (with the mouse on, so there is
/// more to restore); the exit status and the terminal afterwards.
fn signalled(name: &str, signal: &str) -> (i32, Tmux) {
    let demo = demo();
    let tmux = Tmux::start(name, 100, 30, &["--mouse", demo.to_str().unwrap()], &[]);
    tmux.wait_for("the demo to load", loaded);
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &tmux.jxray_pid()])
        .status()
        .expect("kill");
    assert!(status.success());
    (tmux.exit_status(), tmux)
}

fn mouse_reporting(tmux: &Tmux) -> bool {
    let output = tmux.run(&["display-message", "-p", "-t", "main", "#{mouse_any_flag}"]);
    String::from_utf8_lossy(&output.stdout).trim() == "1"
}

#[test]
fn sigint_exits_130_with_the_terminal_restored() {
    let (status, tmux) = signalled("sigint", "INT");
    assert_eq!(status, 130, "128 + SIGINT");
    assert!(!tmux.alternate_screen(), "the alternate screen is left");
    assert!(!mouse_reporting(&tmux), "mouse reporting is off");
}

#[test]
fn sigusr1_sighup_and_sigquit_restore_the_terminal() {
    for (name, signal, code) in [
        ("usr1", "USR1", 138),
        ("hup", "HUP", 129),
        ("quit", "QUIT", 131),
    ] {
        let (status, tmux) = signalled(name, signal);
        assert_eq!(status, code, "SIG{signal}");
        assert!(
            !tmux.alternate_screen(),
            "SIG{signal}: the alternate screen is left"
        );
        assert!(
            !mouse_reporting(&tmux),
            "SIG{signal}: mouse reporting is off"
        );
    }
}

/// The process state letter from `ps` (`T` when stopped).
fn process_state(pid: &str) -> String {
    let output = Command::new("ps")
        .args(["-o", "stat=", "-p", pid])
        .output()
        .expect("ps");
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

#[test]
fn ctrl_z_suspends_with_the_terminal_restored_and_continuing_redraws() {
    let demo = demo();
    let tmux = Tmux::start(
        "suspend",
        100,
        30,
        &["--mouse", demo.to_str().unwrap()],
        &[],
    );
    tmux.wait_for("the demo to load", loaded);
    let pid = tmux.jxray_pid();
    tmux.keys(&["C-z"]);
    let deadline = Instant::now() + WAIT;
    while !process_state(&pid).starts_with('T') {
        assert!(Instant::now() < deadline, "jxray did not stop on Ctrl-Z");
        thread::sleep(Duration::from_millis(50));
    }
    assert!(!tmux.alternate_screen(), "suspended on the normal screen");
    assert!(
        !mouse_reporting(&tmux),
        "mouse reporting is off while suspended"
    );

    // What `fg` does to the job: continue it.
    let status = Command::new("kill")
        .args(["-CONT", &pid])
        .status()
        .expect("kill");
    assert!(status.success());
    let screen = tmux.wait_for("the screen to come back", |s| {
        loaded(s) && s.contains("Raw ·")
    });
    assert!(tmux.alternate_screen(), "full screen again: {screen}");
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_status(), 0);
}

#[test]
fn ctrl_c_quits_from_a_prompt() {
    let demo = demo();
    let tmux = Tmux::start("ctrlc", 100, 30, &[demo.to_str().unwrap()], &[]);
    tmux.wait_for("the demo to load", loaded);
    tmux.keys(&["/", "C-c"]);
    assert_eq!(tmux.exit_status(), 0);
}

#[test]
fn a_missing_path_is_one_line_and_status_2() {
    let tmux = Tmux::start("missing", 100, 10, &["no/such/folder"], &[]);
    assert_eq!(tmux.exit_status(), 2);
    let screen = tmux.history();
    assert!(
        screen.contains("jxray: no/such/folder: no such file or folder; check the path"),
        "{screen}"
    );
}

/// Run `jxray PATH` with no terminal attached; its exit status and its stderr,
/// which must be exactly one line.
fn run_without_terminal(path: &std::path::Path) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_jxray"))
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("run jxray");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    (output.status.code(), stderr)
}

#[test]
fn without_a_terminal_it_points_at_check() {
    let (status, stderr) = run_without_terminal(&demo());
    assert_eq!(status, Some(2));
    assert!(
        stderr.contains("needs a terminal") && stderr.contains("jxray check"),
        "{stderr}"
    );
}

#[test]
fn a_missing_path_is_named_before_anything_else() {
    let (status, stderr) = run_without_terminal(std::path::Path::new("no/such/captures"));
    assert_eq!(status, Some(2));
    assert!(
        stderr.contains("no/such/captures: no such file or folder"),
        "{stderr}"
    );
}

#[test]
fn s_and_enter_save_a_fixture_that_jxray_test_passes() {
    let temp = tempfile::tempdir().expect("temp folder");
    let captures = temp.path().join("captures");
    std::fs::create_dir(&captures).unwrap();
    for name in [
        "invoices/invoice-trailing-comma.txt",
        "support/triage-fenced.md",
    ] {
        let from = demo().join(name);
        let to = captures.join(Path::new(name).file_name().unwrap());
        std::fs::copy(from, to).unwrap();
    }
    let fixtures = temp.path().join("fx");
    let tmux = Tmux::start(
        "save",
        120,
        30,
        &[
            captures.to_str().unwrap(),
            "--fixtures",
            fixtures.to_str().unwrap(),
        ],
        &[],
    );
    tmux.wait_for("the captures to load", loaded);
    tmux.keys(&["s"]);
    tmux.wait_for("the save dialog", |s| {
        s.contains("Save as a fixture") && s.contains("invoice-trailing-comma")
    });
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("the saved notice", |s| s.contains("saved "));
    assert!(screen.contains("invoice-trailing-comma.json"), "{screen}");
    let saved = fixtures.join("invoice-trailing-comma.json");
    assert!(saved.is_file(), "{screen}");
    // The row carries the saved mark.
    let marks = screen
        .lines()
        .nth(1)
        .and_then(|row| row.split_whitespace().nth(1))
        .unwrap_or_default();
    assert!(marks.contains('S'), "{marks:?}\n{screen}");
    tmux.keys(&["s"]);
    tmux.wait_for("the dialog again", |s| s.contains("already a fixture"));
    tmux.keys(&["Escape", "q"]);
    assert_eq!(tmux.exit_status(), 0);
    assert!(
        tmux.history().contains("saved 1 fixture"),
        "{}",
        tmux.history()
    );

    let output = Command::new(env!("CARGO_BIN_EXE_jxray"))
        .arg("test")
        .arg(&fixtures)
        .output()
        .expect("jxray test");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
}

#[test]
fn watch_shows_new_rewritten_and_deleted_captures() {
    let temp = tempfile::tempdir().expect("temp folder");
    let folder = temp.path().join("captures");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("a.txt"), "{\"a\": 1}").unwrap();
    let tmux = Tmux::start(
        "watch",
        120,
        30,
        &["--watch", folder.to_str().unwrap()],
        &[],
    );
    tmux.wait_for("watching", |s| loaded(s) && s.contains("watching"));

    std::fs::write(folder.join("b.txt"), "```json\n{\"b\": 2}\n```").unwrap();
    let screen = tmux.wait_for("the new capture", |s| s.contains("b.txt"));
    let row = screen.lines().find(|l| l.contains("b.txt")).unwrap();
    assert!(row.contains("fenced") && row.contains('*'), "{row}");

    // Rewritten by rename, as editors and many tools save.
    std::fs::write(folder.join(".a.txt.tmp"), "{\"a\": [1, 2,").unwrap();
    std::fs::rename(folder.join(".a.txt.tmp"), folder.join("a.txt")).unwrap();
    let screen = tmux.wait_for("the re-extracted capture", |s| {
        s.lines()
            .any(|l| l.contains("a.txt") && l.contains("truncated"))
    });
    assert!(screen.contains("since start: direct 1→0"), "{screen}");
    assert!(screen.contains("truncated 0→1"), "{screen}");

    std::fs::remove_file(folder.join("b.txt")).unwrap();
    tmux.wait_for("the deleted capture", |s| {
        s.lines().any(|l| l.contains("b.txt") && l.contains("gone"))
    });

    // A burst of a thousand new files arrives as a whole (b.txt leaves with it).
    for i in 0..1000 {
        std::fs::write(
            folder.join(format!("burst-{i:04}.txt")),
            format!("{{\"n\": {i}}}"),
        )
        .unwrap();
    }
    tmux.wait_for("the burst", |s| {
        s.contains("1001 captures: direct 1000 · truncated 1")
    });

    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_status(), 0);
}

#[test]
fn follow_selects_each_new_capture_until_a_move() {
    let temp = tempfile::tempdir().expect("temp folder");
    let folder = temp.path().join("captures");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("a.txt"), "{\"a\": 1}").unwrap();
    let tmux = Tmux::start(
        "follow",
        120,
        30,
        &["--watch", folder.to_str().unwrap()],
        &[],
    );
    tmux.wait_for("watching", |s| loaded(s) && s.contains("watching"));
    tmux.keys(&["F"]);
    tmux.wait_for("following", |s| s.contains("following"));
    let selected =
        |name: &'static str| move |s: &str| s.lines().any(|l| l.contains(name) && l.contains('▶'));
    std::fs::write(folder.join("m-new.txt"), "{\"m\": 2}").unwrap();
    tmux.wait_for("the first new capture selected", selected("m-new.txt"));
    // Newest, not last in the list: it sorts before the others.
    std::fs::write(folder.join("0-newer.txt"), "{\"n\": 3}").unwrap();
    tmux.wait_for("the newer capture selected", selected("0-newer.txt"));
    // A move by hand stops following; the next capture leaves the selection alone.
    tmux.keys(&["j"]);
    tmux.wait_for("following stopped", |s| s.contains("stopped following"));
    std::fs::write(folder.join("z-last.txt"), "{\"z\": 4}").unwrap();
    let screen = tmux.wait_for("the last capture listed", |s| s.contains("z-last.txt"));
    assert!(!selected("z-last.txt")(&screen), "{screen}");
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_status(), 0);
}

#[test]
fn a_schema_in_the_config_file_is_used_like_schema() {
    let demo = demo();
    let config_home = tempfile::tempdir().unwrap();
    let folder = config_home.path().join("jxray");
    std::fs::create_dir(&folder).unwrap();
    let schema = demo.join("schema.json");
    std::fs::write(
        folder.join("config.toml"),
        format!("schema = '{}'\n", schema.display()),
    )
    .unwrap();
    let tmux = Tmux::start(
        "configschema",
        160,
        45,
        &[demo.to_str().unwrap()],
        &[("XDG_CONFIG_HOME", config_home.path().to_str().unwrap())],
    );
    let screen = tmux.wait_for("the demo to load", loaded);
    assert!(screen.contains("schema 3"), "{screen}");
    assert!(
        !screen.contains("run with --schema"),
        "nothing to offer:\n{screen}"
    );
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_status(), 0);
}

#[test]
fn help_names_the_config_file() {
    let config_home = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_jxray"))
        .arg("--help")
        .env("XDG_CONFIG_HOME", config_home.path())
        .output()
        .expect("run jxray");
    assert!(output.status.success());
    let help = String::from_utf8_lossy(&output.stdout);
    let expected = config_home.path().join("jxray/config.toml");
    assert!(
        help.contains(&format!("Config file: {}", expected.display())),
        "{help}"
    );
}

#[test]
fn a_bad_config_file_is_one_line_naming_it() {
    let config_home = tempfile::tempdir().unwrap();
    let folder = config_home.path().join("jxray");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("config.toml"), "theme = \"blue\"\n").unwrap();
    let config = folder.join("config.toml");
    let tmux = Tmux::start(
        "badconfig",
        100,
        10,
        &[demo().to_str().unwrap()],
        &[("XDG_CONFIG_HOME", config_home.path().to_str().unwrap())],
    );
    assert_eq!(tmux.exit_status(), 2);
    let screen = tmux.history();
    assert!(
        screen.contains(&format!(
            "{}:1: key `theme`: unknown variant",
            config.display()
        )),
        "{screen}"
    );
}

#[test]
fn schema_failures_list_their_violations_in_the_decoded_pane() {
    let demo = demo();
    let schema = demo.join("schema.json");
    let tmux = Tmux::start(
        "schema",
        160,
        45,
        &["--schema", schema.to_str().unwrap(), demo.to_str().unwrap()],
        &[],
    );
    let screen = tmux.wait_for("the demo to load", loaded);
    assert!(
        screen.contains("schema 3"),
        "the footer counts schema failures:\n{screen}"
    );
    tmux.keys(&["/"]);
    tmux.text("anthropic-fenced");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("the violation in the Decoded pane", |s| {
        s.contains("breaks the schema: 1 violation")
    });
    assert!(screen.contains("/priority ="), "{screen}");
    assert!(screen.contains("rule: enum"), "{screen}");
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_status(), 0);
}

#[test]
fn a_schema_beside_the_captures_is_offered_not_used() {
    let demo = demo();
    let tmux = Tmux::start("offer", 160, 45, &[demo.to_str().unwrap()], &[]);
    let screen = tmux.wait_for("the offer", |s| s.contains("--schema"));
    assert!(!screen.contains("schema 3"), "not used unasked:\n{screen}");
}

#[test]
fn at_80x24_the_first_frame_keeps_whole_badges_and_help_and_quit_beside_the_offer() {
    let demo = demo();
    let tmux = Tmux::start("narrow", 80, 24, &[demo.to_str().unwrap()], &[]);
    let screen = tmux.wait_for("the demo and the schema offer", |s| {
        loaded(s) && s.contains("schema.json is beside")
    });
    let keys = screen.lines().nth(22).unwrap_or_default();
    assert!(keys.contains("schema.json"), "the offer: {keys}\n{screen}");
    assert!(
        keys.contains("? help") && keys.contains("q quit"),
        "{keys}\n{screen}"
    );
    assert!(
        !screen.contains("trunca…") && !screen.contains("unread…"),
        "{screen}"
    );
    assert!(screen.contains(" truncated "), "{screen}");
    // `<` narrows the list, then hides it: the panes take the width.
    tmux.keys(&["<", "<"]);
    tmux.wait_for("the list to hide", |s| !s.contains("Captures 39/39"));
    tmux.keys(&[">"]);
    tmux.wait_for("the list to come back", |s| s.contains("Captures 39/39"));
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_status(), 0);
}

#[test]
fn baseline_marks_changes_and_the_footer_compares_the_mixes() {
    let demo = demo();
    let old = tempfile::tempdir().unwrap();
    let support = old.path().join("support");
    std::fs::create_dir_all(&support).unwrap();
    // Direct today, fenced then: changed. Truncated today, whole then: broke.
    std::fs::write(
        support.join("triage-direct.txt"),
        "```json\n{\"a\": 1}\n```",
    )
    .unwrap();
    std::fs::write(support.join("triage-cut-off.txt"), "{\"a\": 1}").unwrap();
    let tmux = Tmux::start(
        "baseline",
        160,
        45,
        &[
            "--baseline",
            old.path().to_str().unwrap(),
            demo.to_str().unwrap(),
        ],
        &[],
    );
    // The baseline loads beside the captures: wait for both, not for whichever is first.
    tmux.wait_for(
        "the demo to load and the footer to name the baseline",
        |s| loaded(s) && s.contains(" (2): "),
    );
    tmux.keys(&["/"]);
    tmux.text("triage-cut-off");
    tmux.keys(&["Enter"]);
    // Wait for the whole frame (header and selected row), not a screen caught mid-draw.
    let selected_row = |s: &str| -> String {
        s.lines()
            .find(|line| line.contains("▶"))
            .unwrap_or_default()
            .to_owned()
    };
    let screen = tmux.wait_for("the search", |s| {
        header_source(s).contains("triage-cut-off") && selected_row(s).contains("cut-off")
    });
    let row = selected_row(&screen);
    assert!(row.contains('↓'), "broke is marked: {row}\n{screen}");
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_status(), 0);
}

/// About 20 MB: a fenced, pretty-printed array of records with one raw newline to repair.
fn twenty_mb() -> String {
    let body = "the quick brown fox jumps over the lazy dog ".repeat(3);
    let mut text = String::from("```json\n[\n");
    let mut i = 0;
    while text.len() < 20 * 1024 * 1024 {
        text.push_str(&format!(
            "  {{\"id\": {i}, \"name\": \"record {i}\", \"body\": \"{body}\"}},\n"
        ));
        i += 1;
    }
    text.push_str("  {\"id\": -1, \"body\": \"raw\nnewline\"}\n]\n```\n");
    text
}

#[test]
fn keys_are_answered_on_and_past_a_20_mb_capture_until_its_panes_appear() {
    let temp = tempfile::tempdir().expect("temp folder");
    let folder = temp.path();
    for name in ["a", "z"] {
        for i in 0..2 {
            let text = format!("```json\n{{\"{name}\": {i}}}\n```");
            std::fs::write(folder.join(format!("{name}-{i}.txt")), text).unwrap();
        }
    }
    std::fs::write(folder.join("big.txt"), twenty_mb()).unwrap();
    let tmux = Tmux::start("big", 160, 40, &[folder.to_str().unwrap()], &[]);
    // Extracting 20 MB takes seconds in a debug build.
    let slow = Duration::from_secs(180);
    tmux.wait_longer("the captures to load", slow, loaded);
    tmux.keys(&["j", "j"]);
    tmux.wait_for("the big capture's preview", |s| {
        header_source(s) == "big.txt" && s.contains("building the panes of this 20.0 MB")
    });
    // Past it: the next captures answer at once, their panes built.
    tmux.keys(&["j"]);
    tmux.wait_for("the capture after it", |s| {
        header_source(s) == "z-0.txt" && s.contains(r#"{"z": 0}"#)
    });
    tmux.keys(&["j"]);
    tmux.wait_for("the one after", |s| header_source(s) == "z-1.txt");
    tmux.keys(&["k", "k"]);
    let screen = tmux.wait_longer("its panes", slow, |s| {
        header_source(s) == "big.txt" && s.contains("Decoded · array, ")
    });
    assert!(screen.contains("Normalized · 1 repair"), "{screen}");
    // Kept: away and back shows them again without building.
    tmux.keys(&["j"]);
    tmux.wait_for("the capture after it", |s| header_source(s) == "z-0.txt");
    tmux.keys(&["k"]);
    let screen = tmux.wait_for("the kept panes", |s| header_source(s) == "big.txt");
    assert!(!screen.contains("building"), "{screen}");
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_status(), 0);
}

/// Read a chat request from `stream` until its body's messages have come; false when the
/// caller went away first.
pub(crate) fn read_chat_request(stream: &mut std::net::TcpStream) -> bool {
    use std::io::Read;
    let mut request = Vec::new();
    let mut buffer = [0u8; 4096];
    while !String::from_utf8_lossy(&request).contains("\"messages\"") {
        let n = stream.read(&mut buffer).unwrap();
        if n == 0 {
            return false;
        }
        request.extend_from_slice(&buffer[..n]);
    }
    true
}

/// A one-shot upstream on loopback: answers one chat completion, then ends.
pub(crate) fn one_answer_upstream() -> u16 {
    use std::io::Write;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        if !read_chat_request(&mut stream) {
            return;
        }
        let body = r#"{"object":"chat.completion","model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":"```json\n{\"city\": \"Paris\"}\n```"},"finish_reason":"stop"}]}"#;
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body.as_bytes()).unwrap();
    });
    port
}

/// One chat call to the proxy on `port`; the response as text.
fn call_proxy(port: u16) -> String {
    use std::io::{Read, Write};
    let body = r#"{"model":"gpt-4o-mini","messages":[{"role":"system","content":"Answer in JSON."},{"role":"user","content":"Where is the Louvre?"}]}"#;
    let deadline = Instant::now() + WAIT;
    let mut stream = loop {
        match std::net::TcpStream::connect(("127.0.0.1", port)) {
            Ok(stream) => break stream,
            Err(_) if Instant::now() < deadline => thread::sleep(Duration::from_millis(50)),
            Err(error) => panic!("the proxy never listened: {error}"),
        }
    };
    let request = format!(
        "POST /up/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer sk-never-on-disk\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

#[test]
fn record_tui_shows_a_call_arriving_and_its_request() {
    let upstream = one_answer_upstream();
    let proxy = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join("captures");
    let tmux = Tmux::start(
        "record",
        140,
        36,
        &[
            "record",
            "--tui",
            "--port",
            &proxy.to_string(),
            "--to",
            to.to_str().unwrap(),
            "--upstream",
            &format!("up=http://127.0.0.1:{upstream}/v1"),
        ],
        &[],
    );
    tmux.wait_for("the workbench", |screen| screen.contains("watching"));
    let response = call_proxy(proxy);
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("Paris"), "{response}");
    let screen = tmux.wait_for("the recorded call", |screen| {
        screen.contains("model gpt-4o-mini  request r")
    });
    assert!(screen.contains("fenced"), "{screen}");
    tmux.keys(&["r"]);
    tmux.wait_for("the request", |screen| {
        screen.contains("Where is the Louvre?") && screen.contains("Answer in JSON.")
    });
    tmux.keys(&["Escape", "q"]);
    assert_eq!(tmux.exit_status(), 0);
    // A summary, held while the workbench had the screen, comes after it.
    tmux.wait_in_history(
        "the proxy's summary",
        "jxray record: 1 call through the proxy, 1 recorded, 0 not kept",
    );
    let mut on_disk = String::new();
    for entry in std::fs::read_dir(to.read_dir().unwrap().next().unwrap().unwrap().path()).unwrap()
    {
        on_disk.push_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    assert!(!on_disk.contains("sk-never-on-disk"), "{on_disk}");
}

#[test]
fn a_schema_recorded_in_an_llm_log_is_the_one_the_decoded_pane_shows() {
    let log = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/logs/llm-logs.db");
    let tmux = Tmux::start("llmschema", 160, 45, &[log.to_str().unwrap()], &[]);
    tmux.wait_for("the log to load", loaded);
    tmux.keys(&["/"]);
    tmux.text("1.46 million");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("the violation in the Decoded pane", |s| {
        s.contains("breaks the schema: 1 violation")
    });
    assert!(
        screen.contains("breaks the schema (1 violation)"),
        "{screen}"
    );
    assert!(screen.contains("/population ="), "{screen}");
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_status(), 0);
}

/// The count of the footer's `N captures:`.
fn captures_counted(screen: &str) -> Option<usize> {
    let at = screen.find(" captures:")?;
    let digits: String = screen[..at]
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.chars().rev().collect::<String>().parse().ok()
}

#[test]
fn watch_reads_new_folders_and_links_by_the_first_loads_rules() {
    let temp = tempfile::tempdir().expect("temp folder");
    // Captures beside the watched folder: a link up the tree must not bring them in.
    for n in 0..200 {
        std::fs::write(temp.path().join(format!("beside-{n}.txt")), "{}").unwrap();
    }
    let folder = temp.path().join("captures");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("a.txt"), "{\"a\": 1}").unwrap();
    std::fs::write(folder.join("b.txt"), "{\"b\": 2}").unwrap();
    let tmux = Tmux::start(
        "watchrules",
        120,
        30,
        &["--watch", folder.to_str().unwrap()],
        &[],
    );
    tmux.wait_for("watching", |s| loaded(s) && s.contains("watching"));

    // A file replaced by a folder is gone, like a file deleted.
    std::fs::remove_file(folder.join("a.txt")).unwrap();
    std::fs::create_dir(folder.join("a.txt")).unwrap();
    tmux.wait_for("the replaced file gone", |s| {
        s.lines().any(|l| l.contains("a.txt") && l.contains("gone"))
    });

    // A folder that appears is read, a link back up the tree is reported as at the start.
    let made = folder.join("made");
    std::fs::create_dir(&made).unwrap();
    std::fs::write(made.join("c.txt"), "[1, 2").unwrap();
    std::os::unix::fs::symlink("..", folder.join("up")).unwrap();
    let screen = tmux.wait_for("the new folder and the link", |s| {
        s.contains("made/c.txt")
            && s.lines()
                .any(|l| l.contains("up") && l.contains("unreadable"))
    });
    assert!(
        !screen.contains("beside-"),
        "the link was followed:\n{screen}"
    );
    // Let any late batch land, then count: b.txt, made/c.txt and the link.
    std::thread::sleep(Duration::from_secs(1));
    let screen = tmux.screen();
    assert_eq!(captures_counted(&screen), Some(3), "{screen}");
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_status(), 0);

    // The first load of the same tree says the same of the link.
    let checked = Command::new(env!("CARGO_BIN_EXE_jxray"))
        .args(["check", "--format", "jsonl"])
        .arg(&folder)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&checked.stdout);
    assert_eq!(stdout.lines().count(), 3, "{stdout}");
    assert!(stdout.contains("symlink loop"), "{stdout}");
}
