//! The recording proxy beside the workbench (`jxray record --tui`): what it says at
//! start (where it listens, the line each SDK is pointed with) and the feed that brings
//! its notes (a call kept or not, a log line) into the event loop as actions.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

use jxray_record::{env_lines, Routes};

use super::action::{Action, ProxyNote};
use super::event::Event;
use crate::text::escape_line;

/// What the proxy tells the user at start; plain `jxray record` prints it, the workbench
/// shows it. Every text is one line, escaped.
#[derive(Debug, Clone)]
pub struct Recording {
    /// The address the app calls (`http://127.0.0.1:8788`).
    pub(crate) address: String,
    pub(crate) port: u16,
    /// The capture folder, as given.
    pub(crate) folder: String,
    /// One line per route to paste in the app's terminal or code, as `env_lines` words it.
    pub env_lines: Vec<String>,
    /// `/openai -> https://api.openai.com/v1`, one per route.
    pub(crate) routes: Vec<String>,
    /// Brings the proxy's notes to the event loop.
    pub(crate) feed: Feed,
}

impl Recording {
    /// What to tell the user of a proxy bound to `bound`, saving under `folder`, whose
    /// notes come through `feed`.
    pub fn new(
        bound: SocketAddr,
        routes: &Routes,
        folder: &std::path::Path,
        feed: Feed,
    ) -> Recording {
        let addr = call_address(bound);
        Recording {
            address: format!("http://{addr}"),
            port: addr.port(),
            folder: escape_line(&crate::text::shown_path(folder).to_string()).into_owned(),
            env_lines: env_lines(addr, routes)
                .iter()
                .map(|line| escape_line(line).into_owned())
                .collect(),
            routes: routes
                .iter()
                .map(|route| escape_line(&format!("/{} -> {route}", route.name)).into_owned())
                .collect(),
            feed,
        }
    }
}

/// Where an app on this machine calls a proxy bound to `bound`: listening everywhere, it
/// still calls loopback, of the same family (`::` may not take IPv4 calls where IPv6
/// sockets are IPv6 only).
pub(crate) fn call_address(mut bound: SocketAddr) -> SocketAddr {
    match bound.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => bound.set_ip(IpAddr::V4(Ipv4Addr::LOCALHOST)),
        IpAddr::V6(ip) if ip.is_unspecified() => bound.set_ip(IpAddr::V6(Ipv6Addr::LOCALHOST)),
        _ => {}
    }
    bound
}

/// What of an environment line is pasted: the line without the comment after it.
pub fn to_paste(line: &str) -> &str {
    line.split("    # ").next().unwrap_or(line).trim_end()
}

/// The proxy's notes on their way to the event loop: held until it connects (the proxy
/// starts first, so that a taken port is one line on the normal screen), then sent.
#[derive(Clone, Default)]
pub struct Feed(Arc<Mutex<FeedState>>);

enum FeedState {
    Holding(Vec<ProxyNote>),
    Sending(Sender<Event>),
}

impl Default for FeedState {
    fn default() -> FeedState {
        FeedState::Holding(Vec::new())
    }
}

impl Feed {
    /// Pass a note on (held until the event loop connects).
    pub(crate) fn send(&self, note: ProxyNote) {
        let mut state = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match &mut *state {
            FeedState::Holding(held) => held.push(note),
            // The event loop has ended: nothing is listening any more.
            FeedState::Sending(events) => {
                let _ = events.send(Event::Action(Action::Proxy(note)));
            }
        }
    }

    /// Send the held notes, then every later one, into `events`.
    pub(crate) fn connect(&self, events: Sender<Event>) {
        let mut state = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let FeedState::Holding(held) = &mut *state {
            for note in held.drain(..) {
                let _ = events.send(Event::Action(Action::Proxy(note)));
            }
        }
        *state = FeedState::Sending(events);
    }
}

impl std::fmt::Debug for Feed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Feed")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_sent_before_the_loop_connects_arrive_first_and_in_order() {
        let feed = Feed::default();
        feed.send(ProxyNote::Line("one".into()));
        let (events, inbox) = std::sync::mpsc::channel();
        feed.connect(events);
        feed.send(ProxyNote::NotKept("two".into()));
        let got: Vec<String> = inbox
            .try_iter()
            .map(|event| match event {
                Event::Action(Action::Proxy(note)) => format!("{note:?}"),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(got, ["Line(\"one\")", "NotKept(\"two\")"]);
    }

    #[test]
    fn an_address_bound_everywhere_is_called_on_loopback() {
        let routes = Routes::with(Vec::new());
        let recording = Recording::new(
            "0.0.0.0:8788".parse().unwrap(),
            &routes,
            "c".as_ref(),
            Feed::default(),
        );
        assert_eq!(recording.address, "http://127.0.0.1:8788");
        assert_eq!(recording.port, 8788);
        assert!(recording.env_lines[0]
            .starts_with("export OPENAI_BASE_URL=http://127.0.0.1:8788/openai"));
        assert_eq!(
            call_address("[::]:1".parse().unwrap()).to_string(),
            "[::1]:1"
        );
    }
}
