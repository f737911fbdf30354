//! `jxray record --tui` end to end, as a new user meets it: the proxy on a port it picks,
//! the environment line read off the screen, a call made with the official `openai` SDK
//! (pinned, in the environment scripts/sdk-venv.sh keeps) pointed by that line, and the
//! capture, the footer's count and the proxy's log seen arriving in the workbench.

use std::path::Path;
use std::process::Command;

use crate::tmux::{one_answer_upstream, read_chat_request, Tmux};

/// One call the upstream answers, then one to the route `gone`, whose upstream does not
/// listen: the proxy answers 502 and keeps nothing. Retries off, so the count is exact.
const CALLS: &str = r#"
import os
import openai
client = openai.OpenAI(api_key="sk-never-on-disk", max_retries=0)
gone = os.environ["OPENAI_BASE_URL"].rsplit("/", 1)[0] + "/gone"
messages = [
    {"role": "system", "content": "Answer in JSON."},
    {"role": "user", "content": "Where is the Louvre?"},
]
answer = client.chat.completions.create(model="gpt-4o-mini", messages=messages)
print("answer:", answer.choices[0].message.content.replace("\n", " "))
try:
    client.with_options(base_url=gone).chat.completions.create(
        model="gpt-4o-mini", messages=messages
    )
except openai.APIStatusError as error:
    print("second call:", error.status_code)
"#;

/// The pinned SDKs' environment (made the first time, from PyPI).
fn sdk_python() -> String {
    venv_python("sdk-venv.sh")
}

/// The python3 of the pinned environment a script under scripts/ makes (the first time,
/// from PyPI) and names.
fn venv_python(script: &str) -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    let output = Command::new("bash")
        .arg(format!("{root}/scripts/{script}"))
        .current_dir(root)
        .output()
        .unwrap_or_else(|_| panic!("bash runs scripts/{script}"));
    assert!(
        output.status.success(),
        "scripts/{script} failed (it needs python3 with venv, and PyPI the first time): {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let venv = String::from_utf8_lossy(&output.stdout).trim().to_string();
    let venv = Path::new(root).join(venv);
    venv.join("bin/python3").to_string_lossy().into_owned()
}

/// `export OPENAI_BASE_URL=…` as the panel shows it: the variable's value.
fn base_url_on(screen: &str) -> Option<String> {
    let at = screen.find("export OPENAI_BASE_URL=")? + "export OPENAI_BASE_URL=".len();
    let value = screen[at..].split_whitespace().next()?;
    Some(value.trim_end_matches('│').to_string())
}

/// `jxray record --tui` on a port it picks, writing under `to`, with `routes`
/// (`NAME=URL`), in a terminal of `width`×`height` named `session`.
fn record_tui(session: &str, (width, height): (u16, u16), to: &Path, routes: &[&str]) -> Tmux {
    let mut args = vec![
        "record",
        "--tui",
        "--port",
        "0",
        "--to",
        to.to_str().unwrap(),
    ];
    for route in routes {
        args.extend(["--upstream", route]);
    }
    Tmux::start(session, width, height, &args, &[])
}

#[test]
fn record_tui_says_where_to_point_the_sdk_and_counts_its_calls() {
    let python = sdk_python();
    let upstream = one_answer_upstream();
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join("captures");
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let openai = format!("openai=http://127.0.0.1:{upstream}/v1");
    let gone = format!("gone=http://127.0.0.1:{closed}/v1");
    let tmux = record_tui("recordsdk", (140, 40), &to, &[&openai, &gone]);
    let screen = tmux.wait_for("the recording panel", |s| {
        base_url_on(s).is_some() && s.contains("waiting for the first call")
    });
    let base_url = base_url_on(&screen).unwrap();
    let port = base_url
        .strip_prefix("http://127.0.0.1:")
        .and_then(|rest| rest.strip_suffix("/openai"))
        .unwrap_or_else(|| panic!("{base_url}"));
    assert!(
        screen.contains(&format!("recording :{port} · 0 calls")),
        "{screen}"
    );

    let output = Command::new(&python)
        .args(["-c", CALLS])
        .env("OPENAI_BASE_URL", &base_url)
        .env_remove("OPENAI_API_KEY")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        said.contains("answer: ```json {\"city\": \"Paris\"} ```"),
        "{said}"
    );
    assert!(said.contains("second call: 502"), "{said}");

    let screen = tmux.wait_for("the capture and the count", |s| {
        s.contains("model gpt-4o-mini") && s.contains("2 calls · 1 not kept")
    });
    assert!(screen.contains("fenced"), "{screen}");
    assert!(!screen.contains("waiting for the first call"), "{screen}");
    tmux.keys(&["L"]);
    tmux.wait_for("the reason in the log", |s| {
        s.contains("Last call not kept") && s.contains("cannot reach")
    });
    tmux.keys(&["Escape", "a"]);
    tmux.wait_for("the panel again", |s| s.contains("2 calls so far"));
    tmux.keys(&["Escape", "q"]);
    assert_eq!(tmux.exit_status(), 0);
    // A summary and the reason a call was not kept are printed when the workbench closes,
    // not a line per call (the whole log is `--print-log`'s).
    tmux.wait_in_history(
        "the summary",
        "jxray record: 2 calls through the proxy, 1 recorded, 1 not kept",
    );
    tmux.wait_in_history("the reason not kept", "cannot reach");
}

/// ai-mock through its launcher (scripts/own_group.py), ended when dropped.
struct AiMock(std::process::Child);

impl Drop for AiMock {
    /// SIGTERM to the launcher, which ends ai-mock's whole group: a SIGKILL (`Child::kill`)
    /// would end the launcher alone and leave the server running, re-parented to init.
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status();
        let _ = self.0.wait();
    }
}

/// ai-mock (the pinned environment's) answering from scripts/record-e2e-responses.json, in a
/// process group that ends with it (and with the test, should it fail first); its port.
fn ai_mock() -> (AiMock, u16) {
    let root = env!("CARGO_MANIFEST_DIR");
    let python = sdk_python();
    let bin = Path::new(&python).parent().unwrap().to_path_buf();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let child = Command::new(&python)
        .args([
            &format!("{root}/scripts/own_group.py"),
            bin.join("ai-mock").to_str().unwrap(),
            "server",
            &format!("{root}/scripts/record-e2e-responses.json"),
            "-p",
            &port.to_string(),
        ])
        .env("PATH", path)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("ai-mock starts");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            std::time::Instant::now() < deadline,
            "ai-mock does not listen"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    (AiMock(child), port)
}

/// instructor's own re-asks (scripts/record_loops.py: the real package, its first answer
/// breaking the Pydantic model) recorded by `jxray record --tui`: the workbench shows each
/// re-ask as the second attempt of a chain, the first attempt's `schema` failure judged by
/// the schema its request carried.
#[test]
fn another_loops_re_asks_are_chains_in_the_workbench() {
    let instructor = venv_python("instructor-venv.sh");
    let (mock, mock_port) = ai_mock();
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join("captures");
    let openai = format!("openai=http://127.0.0.1:{mock_port}/openai");
    let tmux = record_tui("recordloops", (160, 45), &to, &[&openai]);
    let screen = tmux.wait_for("the recording panel", |s| base_url_on(s).is_some());
    let base_url = base_url_on(&screen).unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let output = Command::new(&instructor)
        .args([
            "-W",
            "ignore",
            &format!("{root}/scripts/record_loops.py"),
            "instructor",
        ])
        .env("OPENAI_BASE_URL", &base_url)
        .output()
        .unwrap();
    drop(mock);
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        said.contains("instructor-md-json re-asked 1, repaired 1"),
        "{said}"
    );
    tmux.wait_for("six calls recorded", |s| s.contains("6 calls"));
    // The last capture: MD_JSON's re-ask, the second attempt of its chain.
    tmux.keys(&["Escape", "G"]);
    let screen = tmux.wait_for("the re-ask's chain", |s| s.contains("attempt 2 of 2"));
    assert!(screen.contains("fenced"), "{screen}");
    // `c` walks to the first attempt: the answer broke the schema instructor asked for in
    // its system prompt.
    tmux.keys(&["c"]);
    let screen = tmux.wait_for("the first attempt", |s| s.contains("attempt 1 of 2"));
    assert!(screen.contains("schema"), "{screen}");
    assert!(screen.contains("/severity"), "{screen}");
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_status(), 0);
}

/// An upstream that streams a value's start, then holds the stream open until `finish`
/// says to end it.
fn held_stream_upstream(finish: std::sync::mpsc::Receiver<()>) -> u16 {
    use std::io::Write;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        if !read_chat_request(&mut stream) {
            return;
        }
        let chunk = |text: &str| {
            let event = format!(
                "data: {{\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":{}}},\"finish_reason\":null}}]}}\n\n",
                serde_json::to_string(text).unwrap()
            );
            format!("{:x}\r\n{event}\r\n", event.len())
        };
        let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n";
        stream.write_all(head.as_bytes()).unwrap();
        stream
            .write_all(chunk("{\"city\": \"Par").as_bytes())
            .unwrap();
        let _ = finish.recv();
        let _ = stream.write_all(chunk("is\"}").as_bytes());
        let _ = stream.write_all(b"0\r\n\r\n");
    });
    port
}

#[test]
fn record_tui_shows_a_stream_in_flight_and_where_it_stands() {
    let (finish, finished) = std::sync::mpsc::channel();
    let upstream = held_stream_upstream(finished);
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join("captures");
    let route = format!("up=http://127.0.0.1:{upstream}/v1");
    let tmux = record_tui("inflight", (140, 40), &to, &[&route]);
    let screen = tmux.wait_for("the recording panel", |s| base_url_on(s).is_some());
    let port: u16 = screen
        .split("recording :")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|port| port.parse().ok())
        .unwrap_or_else(|| panic!("{screen}"));
    let caller = std::thread::spawn(move || {
        use std::io::{Read, Write};
        let body = r#"{"model":"m","stream":true,"messages":[{"role":"user","content":"City?"}]}"#;
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        let request = format!(
            "POST /up/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        answer
    });
    tmux.wait_for("the call in flight", |s| s.contains("1 in flight (L)"));
    tmux.keys(&["L"]);
    let shown = tmux.wait_for("where it stands", |s| s.contains("Streams in flight"));
    assert!(
        shown.contains("POST /up/chat/completions · 13 bytes of output · reading direct"),
        "{shown}"
    );
    tmux.keys(&["Escape"]);
    finish.send(()).unwrap();
    let answer = caller.join().unwrap();
    assert!(answer.contains("is\\\"}"), "{answer}");
    tmux.wait_for("the call kept, none in flight", |s| {
        s.contains("1 call · 0 not kept") && !s.contains("in flight")
    });
    tmux.keys(&["q"]);
}
