//! `jxray record` on the command line: the lines it prints at start, and its own failures
//! as one line and exit status 2.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

fn jxray(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_jxray"))
        .args(args)
        .output()
        .expect("jxray runs")
}

fn one_line_error(output: &std::process::Output) -> String {
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn record_is_listed_in_help() {
    let help = String::from_utf8_lossy(&jxray(&["--help"]).stdout).into_owned();
    assert!(help.contains("record "), "{help}");
}

#[test]
fn a_bad_upstream_is_one_line_naming_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().to_str().unwrap();
    for spec in ["vllm", "vllm=ftp://x", "a/b=http://x"] {
        let stderr = one_line_error(&jxray(&["record", "--to", to, "--upstream", spec]));
        assert!(stderr.contains("bad --upstream"), "{stderr}");
    }
}

#[test]
fn a_port_in_use_is_one_line() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let dir = tempfile::tempdir().unwrap();
    let output = jxray(&[
        "record",
        "--port",
        &port,
        "--to",
        dir.path().to_str().unwrap(),
    ]);
    let stderr = one_line_error(&output);
    assert!(
        stderr.contains("the port is in use; pick another with --port"),
        "{stderr}"
    );
}

#[test]
fn a_folder_that_cannot_hold_captures_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let output = jxray(&["record", "--port", "0", "--to", file.to_str().unwrap()]);
    let stderr = one_line_error(&output);
    assert!(
        stderr.contains("pass a writable folder with --to"),
        "{stderr}"
    );
}

#[test]
fn the_lines_to_paste_name_the_port() {
    let dir = tempfile::tempdir().unwrap();
    let port = {
        let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        free.local_addr().unwrap().port()
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_jxray"))
        .args(["record", "--port", &port.to_string(), "--to"])
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut lines = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.unwrap();
        let done = line.starts_with("Watch them arrive");
        lines.push(line);
        if done {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let text = lines.join("\n");
    for expected in [
        format!("listening on http://127.0.0.1:{port}"),
        format!("export OPENAI_BASE_URL=http://127.0.0.1:{port}/openai"),
        format!("export ANTHROPIC_BASE_URL=http://127.0.0.1:{port}/anthropic"),
        format!("base_url=\"http://127.0.0.1:{port}/gemini\""),
        format!("export OLLAMA_HOST=http://127.0.0.1:{port}/ollama"),
        format!("api_base=\"http://127.0.0.1:{port}/openai\""),
    ] {
        assert!(text.contains(&expected), "{expected} not in\n{text}");
    }
}

#[test]
fn out_of_range_limits_and_timeouts_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().to_str().unwrap();
    for (flag, value) in [
        ("--idle-timeout", "18446744073709551615"),
        ("--connect-timeout", "0"),
        ("--max-response-bytes", "18446744073709551615"),
        ("--max-request-bytes", "0"),
        ("--max-memory-bytes", "18446744073709551615"),
    ] {
        let output = jxray(&["record", "--to", to, flag, value]);
        assert_eq!(output.status.code(), Some(2), "{flag} {value}: {output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let first = stderr.lines().next().unwrap_or_default();
        assert!(
            first.contains(flag) && first.contains("is not in 1..="),
            "{flag} {value}: {stderr}"
        );
    }
}

#[test]
fn a_capture_folder_that_is_a_device_is_named_as_such() {
    let output = jxray(&["record", "--port", "0", "--to", "/dev/null"]);
    let stderr = one_line_error(&output);
    assert!(
        stderr.contains("/dev/null: cannot use it as the capture folder: it is a character device, not a folder"),
        "{stderr}"
    );
}

/// A `jxray record` on a free port whose route `up` leads to `upstream`; its port, once
/// its banner is printed.
fn start_recording(
    to: &std::path::Path,
    upstream: std::net::SocketAddr,
    extra: &[&str],
) -> (std::process::Child, u16) {
    let port = {
        let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        free.local_addr().unwrap().port()
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_jxray"))
        .args(["record", "--port", &port.to_string(), "--upstream"])
        .arg(format!("up=http://{upstream}/v1"))
        .args(extra)
        .arg("--to")
        .arg(to)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    for line in BufReader::new(stdout).lines() {
        if line.unwrap().starts_with("Watch them arrive") {
            break;
        }
    }
    (child, port)
}

/// Read one HTTP request (its head, and a body of `Content-Length`) from `stream`.
fn read_request(stream: &mut std::net::TcpStream) {
    use std::io::Read;
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let n = stream.read(&mut buffer).unwrap();
        assert!(n > 0);
        bytes.extend_from_slice(&buffer[..n]);
        let text = String::from_utf8_lossy(&bytes).to_ascii_lowercase();
        if let Some(end) = text.find("\r\n\r\n") {
            let length: usize = text
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map_or(0, |v| v.trim().parse().unwrap());
            if bytes.len() >= end + 4 + length {
                return;
            }
        }
    }
}

/// Send a POST of `body` to the proxy on `port` and read until `until` has arrived.
fn call(port: u16, body: &str, until: &str) -> std::net::TcpStream {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        stream,
        "POST /up/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains(until) {
        let n = stream.read(&mut buffer).unwrap();
        assert!(n > 0, "{}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buffer[..n]);
    }
    stream
}

fn terminate(child: &mut std::process::Child) -> Option<i32> {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    child.wait().unwrap().code()
}

fn files_named(dir: &std::path::Path, suffix: &str) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for day in std::fs::read_dir(dir).unwrap() {
        for file in std::fs::read_dir(day.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            if path.to_string_lossy().ends_with(suffix) {
                found.push(path);
            }
        }
    }
    found
}

#[cfg(unix)]
#[test]
fn sigterm_right_after_a_call_returned_keeps_its_capture() {
    use std::io::Write;
    const REPLY: &str =
        r#"{"choices":[{"message":{"content":"{\"a\": 1}"},"finish_reason":"stop"}]}"#;
    let upstream = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = upstream.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in upstream.incoming() {
            let mut stream = stream.unwrap();
            read_request(&mut stream);
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{REPLY}",
                REPLY.len()
            );
        }
    });
    for run in 0..5 {
        let dir = tempfile::tempdir().unwrap();
        let (mut child, port) = start_recording(dir.path(), addr, &[]);
        call(port, r#"{"model":"m"}"#, REPLY);
        assert_eq!(terminate(&mut child), Some(143), "run {run}");
        let captures = files_named(dir.path(), "-m.json");
        assert_eq!(captures.len(), 1, "run {run}: the capture is on disk");
        assert_eq!(std::fs::read_to_string(&captures[0]).unwrap(), REPLY);
        assert_eq!(files_named(dir.path(), "-m.request.json").len(), 1);
    }
}

#[cfg(unix)]
#[test]
fn sigterm_during_a_stream_keeps_what_arrived() {
    use std::io::Write;
    const FIRST: &str = "data: {\"choices\":[{\"delta\":{\"content\":\"{\\\"a\\\"\"}}]}\n\n";
    let upstream = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = upstream.local_addr().unwrap();
    let server = std::thread::spawn(move || {
        let (mut stream, _) = upstream.accept().unwrap();
        read_request(&mut stream);
        write!(
            stream,
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n{:x}\r\n{FIRST}\r\n",
            FIRST.len()
        )
        .unwrap();
        // Held open: the stream never ends on its own.
        stream
    });
    let dir = tempfile::tempdir().unwrap();
    let (mut child, port) = start_recording(dir.path(), addr, &[]);
    let _client = call(port, r#"{"model":"m","stream":true}"#, "[{\"delta\"");
    let started = std::time::Instant::now();
    assert_eq!(terminate(&mut child), Some(143));
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    let _upstream = server.join().unwrap();
    let captures = files_named(dir.path(), "-m.sse");
    assert_eq!(captures.len(), 1);
    assert_eq!(std::fs::read_to_string(&captures[0]).unwrap(), FIRST);
    let request = std::fs::read_to_string(&files_named(dir.path(), "-m.request.json")[0]).unwrap();
    assert!(
        request.contains("the proxy was stopped before the response ended"),
        "{request}"
    );
}

#[test]
fn loopback_in_any_spelling_is_not_warned_about_and_everywhere_prints_its_own_family() {
    let upstream = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = upstream.local_addr().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (mut child, _) = start_recording(dir.path(), addr, &["--listen", "::ffff:127.0.0.1"]);
    child.kill().unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("warning"), "{stderr}");

    let port = {
        let free = std::net::TcpListener::bind("[::1]:0");
        match free {
            Ok(free) => free.local_addr().unwrap().port(),
            // No IPv6 here: nothing to check.
            Err(_) => return,
        }
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_jxray"))
        .args([
            "record",
            "--listen",
            "::",
            "--port",
            &port.to_string(),
            "--to",
        ])
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let first = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .next()
        .unwrap()
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        first.contains(&format!("listening on http://[::1]:{port}")),
        "{first}"
    );
}

/// A script may stop the proxy the moment it reads "listening on": the stop is the clean
/// one (exit 143), never the default death by the signal.
#[cfg(unix)]
#[test]
fn sigterm_as_soon_as_it_listens_is_a_clean_stop() {
    for run in 0..20 {
        let dir = tempfile::tempdir().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_jxray"))
            .args(["record", "--port", "0", "--to"])
            .arg(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Byte by byte: the signal leaves the moment the words have arrived.
        let mut stdout = child.stdout.take().unwrap();
        let mut seen = Vec::new();
        let mut byte = [0u8; 1];
        while !seen.ends_with(b"listening on") {
            assert_eq!(std::io::Read::read(&mut stdout, &mut byte).unwrap(), 1);
            seen.push(byte[0]);
        }
        let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
        nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(143), "run {run}: {status:?}");
    }
}
