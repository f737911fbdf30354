//! A real headless Chromium (Debian's `chromium`), driven through the DevTools protocol
//! over its pipe (`--remote-debugging-pipe`: JSON messages ended by NUL on fds 3 and 4,
//! which a shell maps from the child's standard input and output). Every event the page
//! sends is kept, so a test can say no console error was logged and no request was made.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

/// Where Debian installs it; `.ci/run` installs it when it is missing.
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// How long any one answer may take (a first start on a busy machine is slow).
const PATIENCE: Duration = Duration::from_secs(90);

pub struct Browser {
    child: Child,
    input: ChildStdin,
    messages: Receiver<Value>,
    next_id: u64,
    session: Option<String>,
    /// Every event received so far, in order.
    pub events: Vec<Value>,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Start Chromium headless with a fresh profile and open one page, attached.
    pub fn launch() -> Browser {
        assert!(
            std::path::Path::new(CHROMIUM).exists(),
            "{CHROMIUM} is missing: install Debian's chromium (`apt-get install -y chromium`; \
             .ci/run does this)"
        );
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("exec \"$@\" 3<&0 4>&1 </dev/null >/dev/null")
            .arg("sh")
            .arg(CHROMIUM)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--remote-debugging-pipe",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        let input = child.stdin.take().unwrap();
        let output = child.stdout.take().unwrap();
        let (sender, messages) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(output);
            let mut message = Vec::new();
            while reader.read_until(0, &mut message).unwrap_or(0) > 0 {
                message.pop_if(|byte| *byte == 0);
                if let Ok(value) = serde_json::from_slice::<Value>(&message) {
                    if sender.send(value).is_err() {
                        return;
                    }
                }
                message.clear();
            }
        });
        let mut browser = Browser {
            child,
            input,
            messages,
            next_id: 0,
            session: None,
            events: Vec::new(),
            _profile: profile,
        };
        let target = browser.call("Target.createTarget", json!({"url": "about:blank"}));
        let target = target["targetId"].as_str().unwrap().to_string();
        let attached = browser.call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        );
        browser.session = Some(attached["sessionId"].as_str().unwrap().to_string());
        for domain in ["Page", "Runtime", "Log", "Network"] {
            browser.call(&format!("{domain}.enable"), json!({}));
        }
        browser
    }

    /// Send a command (to the page once attached) and wait for its result.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = &self.session {
            message["sessionId"] = json!(session);
        }
        let mut bytes = serde_json::to_vec(&message).unwrap();
        bytes.push(0);
        self.input
            .write_all(&bytes)
            .expect("chromium reads its pipe");
        self.input.flush().unwrap();
        loop {
            let message = self.next_message(method);
            if message["id"] == id {
                assert!(message.get("error").is_none(), "{method}: {message}");
                return message["result"].clone();
            }
            self.events.push(message);
        }
    }

    /// Open `url` and wait until it has loaded.
    pub fn open(&mut self, url: &str) {
        let seen = self.events.len();
        self.call("Page.navigate", json!({"url": url}));
        let loaded = |events: &[Value]| {
            events
                .iter()
                .any(|event| event["method"] == "Page.loadEventFired")
        };
        while !loaded(&self.events[seen..]) {
            let message = self.next_message("Page.loadEventFired");
            self.events.push(message);
        }
    }

    /// The value of a JavaScript expression in the page (awaited when a promise).
    pub fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(
            result.get("exceptionDetails").is_none(),
            "{expression}: {result}"
        );
        result["result"]["value"].clone()
    }

    /// The events of one method received so far.
    pub fn events_of(&self, method: &str) -> Vec<&Value> {
        self.events
            .iter()
            .filter(|event| event["method"] == method)
            .collect()
    }

    fn next_message(&mut self, waiting_for: &str) -> Value {
        self.messages
            .recv_timeout(PATIENCE)
            .unwrap_or_else(|_| panic!("chromium did not answer {waiting_for} in {PATIENCE:?}"))
    }
}

impl Drop for Browser {
    /// Close the browser (its helper processes with it); kill it if it does not go.
    fn drop(&mut self) {
        let close = json!({"id": 0, "method": "Browser.close"});
        let mut bytes = serde_json::to_vec(&close).unwrap_or_default();
        bytes.push(0);
        let _ = self.input.write_all(&bytes);
        let _ = self.input.flush();
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
