//! The exported functions and the buffers they share with the host. Memory is the
//! module's: the host asks for a buffer of a size, writes into it, and reads replies where
//! the module says they are. Nothing here dereferences a pointer the host gave; the host
//! only ever gets pointers to buffers this module owns.
//!
//! Every entry returns [`ANSWER`] when the output buffer holds the reply, [`ERROR`] when
//! it holds a usage error's message (UTF-8), which the package throws as a `TypeError`.

use std::cell::RefCell;
use std::sync::Arc;

use jxray_formats::usage::token_usage;

use crate::captures;
use crate::fixture;
use crate::repair;
use crate::reply::{self, Judged};
use crate::request::Request;
use crate::response;
use crate::stream;
use crate::validator;
use jxray_formats::judge::Validator;

/// The output buffer holds the reply.
pub const ANSWER: u32 = 0;
/// The output buffer holds an error message.
pub const ERROR: u32 = 1;

thread_local! {
    /// The request: the options (JSON), then the text or body.
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The last reply.
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// A validator's issues, written by the host while a call runs.
    static ISSUES: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A buffer of `len` bytes for the next request; the host writes the options and the text
/// into it. The pointer is valid until the next call of `jx_input`.
#[no_mangle]
pub extern "C" fn jx_input(len: usize) -> *mut u8 {
    sized(&INPUT, len)
}

/// A buffer of `len` bytes for the issues the host's validator reports (see `host`).
#[no_mangle]
pub extern "C" fn jx_issues(len: usize) -> *mut u8 {
    sized(&ISSUES, len)
}

/// Where the last reply is.
#[no_mangle]
pub extern "C" fn jx_output() -> *const u8 {
    OUTPUT.with(|output| output.borrow().as_ptr())
}

/// How long the last reply is.
#[no_mangle]
pub extern "C" fn jx_output_len() -> usize {
    OUTPUT.with(|output| output.borrow().len())
}

/// The entries that read a request (the options as JSON, then a text or a response body)
/// and answer with one reply. The module exports each as `jx_<name>`, which answers the
/// request in the input buffer with [`Entry::reply`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// The quick reply about the text (see [`reply::quick`]).
    Extract,
    /// The explained reply about the text (see [`reply::explained`]), named by the request
    /// ([`Request::origin`]).
    Explain,
    /// The explained outcomes of a provider response's outputs (see [`response::outcomes`]).
    Response,
    /// The verdict on a fixture file (see [`fixture::replay`]); the options carry its name as
    /// `source`, for errors, and `unreadable` when the host could not read it (a FIFO): the
    /// error then says so in one line.
    Fixture,
    /// The repair loop's decision about the text (see [`repair::decide`]).
    Repair,
    /// A repair run's step that is not an output, written in the text (see [`repair::step`]).
    Run,
    /// The tokens a call used, read from the text: a usage object or a whole response as
    /// JSON (see [`jxray_formats::usage::token_usage`]). The reply is `{"input", "output",
    /// "total"}`, each a count or `null`; a text that is not JSON has no counts.
    Usage,
    /// A repair attempt's files, from the attempt as JSON in the text (see
    /// [`captures::files`]).
    Attempt,
    /// The next candidate stem when a name is taken (see [`captures::next_stem`]).
    NextStem,
    /// Feed the text to this instance's stream; the reply is the snapshot.
    StreamFeed,
}

impl Entry {
    /// The reply to a request: `options` (JSON; empty for the defaults) and `input` (the
    /// text as UTF-8, or a response body).
    pub fn reply(self, options: &[u8], input: &[u8]) -> Reply {
        let text = || {
            std::str::from_utf8(input).map_err(|error| {
                format!("jxray: the text reached the engine as bad UTF-8: {error}")
            })
        };
        let request = Request::parse(options)?;
        match self {
            Entry::Extract => reply::quick(&judged(text()?, &request)?),
            Entry::Explain => reply::explained(&judged(text()?, &request)?, request.origin()),
            Entry::Response => response::outcomes(input, &request, validator(&request)?),
            Entry::Fixture => {
                let origin = request.source.as_deref().unwrap_or("fixture");
                match &request.unreadable {
                    Some(message) => Err(fixture::unreadable(origin, message)),
                    None => fixture::replay(text()?, origin),
                }
            }
            Entry::Repair => repair::decide(&judged(text()?, &request)?, request.origin(), false),
            Entry::Run => repair::step(text()?),
            Entry::Usage => {
                let usage = serde_json::from_str(text()?).unwrap_or(serde_json::Value::Null);
                serde_json::to_vec(&token_usage(&usage)).map_err(|error| error.to_string())
            }
            Entry::Attempt => captures::files(text()?),
            Entry::NextStem => captures::next_stem(text()?),
            Entry::StreamFeed => stream::feed(text()?),
        }
    }
}

/// [`Entry::Extract`] of the request in the input buffer.
#[no_mangle]
pub extern "C" fn jx_extract(options_len: usize, text_len: usize) -> u32 {
    answer(Entry::Extract, options_len, text_len)
}

/// [`Entry::Explain`] of the request in the input buffer.
#[no_mangle]
pub extern "C" fn jx_explain(options_len: usize, text_len: usize) -> u32 {
    answer(Entry::Explain, options_len, text_len)
}

/// [`Entry::Response`] of the request in the input buffer.
#[no_mangle]
pub extern "C" fn jx_response(options_len: usize, body_len: usize) -> u32 {
    answer(Entry::Response, options_len, body_len)
}

/// [`Entry::Fixture`] of the request in the input buffer.
#[no_mangle]
pub extern "C" fn jx_fixture(options_len: usize, text_len: usize) -> u32 {
    answer(Entry::Fixture, options_len, text_len)
}

/// [`Entry::Repair`] of the request in the input buffer.
#[no_mangle]
pub extern "C" fn jx_repair(options_len: usize, text_len: usize) -> u32 {
    answer(Entry::Repair, options_len, text_len)
}

/// [`Entry::Run`] of the request in the input buffer.
#[no_mangle]
pub extern "C" fn jx_run(options_len: usize, text_len: usize) -> u32 {
    answer(Entry::Run, options_len, text_len)
}

/// [`Entry::Usage`] of the request in the input buffer.
#[no_mangle]
pub extern "C" fn jx_usage(options_len: usize, text_len: usize) -> u32 {
    answer(Entry::Usage, options_len, text_len)
}

/// [`Entry::Attempt`] of the request in the input buffer.
#[no_mangle]
pub extern "C" fn jx_attempt(options_len: usize, text_len: usize) -> u32 {
    answer(Entry::Attempt, options_len, text_len)
}

/// [`Entry::NextStem`] of the request in the input buffer.
#[no_mangle]
pub extern "C" fn jx_next_stem(options_len: usize, text_len: usize) -> u32 {
    answer(Entry::NextStem, options_len, text_len)
}

/// Start this instance's stream; `runaway_bytes` is the runaway bound (0: the default);
/// with `items` (1), the host's validator judges each part of the value as it closes.
#[no_mangle]
pub extern "C" fn jx_stream_open(runaway_bytes: usize, items: u32) -> u32 {
    let host = (items == 1).then(host_validator).transpose();
    respond(host.and_then(|host| stream::open(runaway_bytes, host)))
}

/// Feed the text in the input buffer to this instance's stream; the reply is the snapshot.
#[no_mangle]
pub extern "C" fn jx_stream_feed(options_len: usize, text_len: usize) -> u32 {
    answer(Entry::StreamFeed, options_len, text_len)
}

/// End this instance's stream.
#[no_mangle]
pub extern "C" fn jx_stream_close() -> u32 {
    respond(stream::close())
}

/// The issues the host wrote, `len` bytes of the issues buffer.
#[cfg(target_arch = "wasm32")]
fn take_issues(len: usize) -> String {
    ISSUES.with(|issues| {
        let issues = issues.borrow();
        String::from_utf8_lossy(&issues[..len.min(issues.len())]).into_owned()
    })
}

/// A reply's bytes, or a usage error's message.
pub type Reply = Result<Vec<u8>, String>;

/// Answer the request in the input buffer (`options_len` bytes of options, then
/// `input_len` bytes of text or body) with `entry`, and keep its reply.
fn answer(entry: Entry, options_len: usize, input_len: usize) -> u32 {
    INPUT.with(|input| {
        let input = input.borrow();
        let (options, rest) = input.split_at(options_len);
        respond(entry.reply(options, &rest[..input_len]))
    })
}

fn judged<'a>(text: &'a str, request: &'a Request) -> Result<Judged<'a>, String> {
    Ok(Judged {
        text,
        request,
        validator: validator(request)?,
        warnings: &[],
        refused: false,
    })
}

fn respond(reply: Reply) -> u32 {
    let (status, bytes) = match reply {
        Ok(bytes) => (ANSWER, bytes),
        Err(message) => (ERROR, message.into_bytes()),
    };
    OUTPUT.with(|output| *output.borrow_mut() = bytes);
    status
}

/// At least `len` bytes of `buffer`; it only grows, so a call is not charged for clearing
/// room it will overwrite (every entry is given the lengths it reads).
fn sized(buffer: &'static std::thread::LocalKey<RefCell<Vec<u8>>>, len: usize) -> *mut u8 {
    buffer.with(|buffer| {
        let mut buffer = buffer.borrow_mut();
        if buffer.len() < len {
            buffer.resize(len, 0);
        }
        buffer.as_mut_ptr()
    })
}

/// The host's validator when the request says it holds one.
fn validator(request: &Request) -> Result<Option<Arc<dyn Validator>>, String> {
    if !request.validator {
        return Ok(None);
    }
    let host = host_validator()?;
    Ok(Some(validator::wired(host, request.bigints)))
}

#[cfg(target_arch = "wasm32")]
fn host_validator() -> Result<Arc<dyn validator::HostValidator>, String> {
    Ok(Arc::new(crate::host::Host { take_issues }))
}

/// Outside WebAssembly there is no JavaScript host to ask.
#[cfg(not(target_arch = "wasm32"))]
fn host_validator() -> Result<Arc<dyn validator::HostValidator>, String> {
    Err(
        "jxray: a validator is asked through the JavaScript host, which a native build has not"
            .into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(entry: extern "C" fn(usize, usize) -> u32, options: &str, text: &str) -> (u32, String) {
        let len = options.len() + text.len();
        jx_input(len);
        INPUT.with(|input| {
            let mut input = input.borrow_mut();
            input[..options.len()].copy_from_slice(options.as_bytes());
            input[options.len()..len].copy_from_slice(text.as_bytes());
        });
        let status = entry(options.len(), text.len());
        let reply = OUTPUT.with(|output| String::from_utf8(output.borrow().clone()).unwrap());
        assert_eq!(reply.len(), jx_output_len());
        (status, reply)
    }

    #[test]
    fn each_entry_reads_the_options_then_the_text() {
        assert_eq!(
            call(jx_extract, "", "```json\n[1]\n```"),
            (ANSWER, "1fenced\t@8,11".into())
        );
        let (status, reply) = call(jx_extract, r#"{"stopReason":"length"}"#, "[1]");
        assert_eq!((status, reply.as_str()), (ANSWER, "0"));
        let (status, reply) = call(jx_explain, r#"{"stopReason":"length"}"#, "[1]");
        assert_eq!(status, ANSWER);
        assert!(reply.contains(r#""kind":"truncated""#), "{reply}");
    }

    #[test]
    fn an_export_answers_as_its_entry_and_bad_utf8_is_its_error() {
        let text = "Sure:\n```json\n{\"é\": [1, 2]}\n```";
        let exports: [(extern "C" fn(usize, usize) -> u32, Entry); 3] = [
            (jx_extract, Entry::Extract),
            (jx_explain, Entry::Explain),
            (jx_repair, Entry::Repair),
        ];
        for (export, entry) in exports {
            let (status, reply) = call(export, "", text);
            assert_eq!(status, ANSWER, "{entry:?}");
            assert_eq!(entry.reply(b"", text.as_bytes()), Ok(reply.into_bytes()));
        }
        let error = Entry::Extract.reply(b"", b"{\"a\": \"\xff\"}").unwrap_err();
        assert!(error.contains("bad UTF-8"), "{error}");
    }

    #[test]
    fn usage_is_read_in_every_spelling() {
        let gemini =
            r#"{"promptTokenCount":600,"candidatesTokenCount":400,"totalTokenCount":1000}"#;
        assert_eq!(
            call(jx_usage, "", gemini),
            (ANSWER, r#"{"input":600,"output":400,"total":1000}"#.into())
        );
        assert_eq!(
            call(jx_usage, "", "not json"),
            (
                ANSWER,
                r#"{"input":null,"output":null,"total":null}"#.into()
            )
        );
    }

    #[test]
    fn a_bad_option_is_an_error_reply() {
        let (status, reply) = call(jx_extract, r#"{"pick":"middle"}"#, "[1]");
        assert_eq!(status, ERROR);
        assert!(reply.contains("middle"), "{reply}");
        let (status, reply) = call(jx_response, "", "{}");
        assert_eq!(status, ERROR);
        assert!(reply.starts_with("not an OpenAI"), "{reply}");
    }
}
