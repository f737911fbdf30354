//! One candidate's JSON value, read as its bytes arrive: the same grammar as the engine's
//! validator (`scan`), with its lossless repairs (a raw newline, carriage return or tab in a
//! string; `` \` ``), fed from where it stopped, never from the start again.
//!
//! What it shows never invents: a string appears as the characters received; a number,
//! `true`, `false` or `null` only once its token has ended; a key only once its closing
//! quote came (and its member once its value begins); no closer is ever supplied.

use super::deltas::Op;
use super::tree::{empty, push_index, push_key, Tree};
use super::OpenPaths;
use crate::scan::{plain_end, scan_number, Expect};

/// How far a feed got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Progress {
    /// Every byte available was read; the value is still open.
    NeedMore,
    /// The value closed; the byte after it is at this offset.
    Done(usize),
    /// The byte at this offset cannot continue a JSON value.
    Failed(usize),
}

/// The token being read, when one is open.
#[derive(Debug)]
enum Token {
    None,
    /// An object key whose text begins at this offset; its text so far once an escape
    /// made it differ from its bytes (until then the bytes are its text: nothing copied).
    Key(usize, Option<String>),
    /// A string value, shown as it arrives.
    Str,
    /// A number that started at this offset.
    Number(usize),
    /// `true`, `false` or `null`: the word and how much of it has arrived.
    Word(&'static [u8], usize),
}

/// A member's key, read whole.
#[derive(Debug)]
enum Key {
    /// The text between its quotes, as it is.
    Bytes(usize, usize),
    /// Its text with its escapes read.
    Decoded(String),
}

/// A JSON value being read.
#[derive(Debug)]
pub(super) struct ValueReader {
    max_depth: usize,
    /// The open containers' brackets, outermost first.
    brackets: Vec<u8>,
    /// Items or members so far in each open container.
    counts: Vec<usize>,
    /// The path of the value being read, a JSON Pointer (between values, its container's).
    pointer: String,
    /// The pointer's length before each step.
    step_marks: Vec<usize>,
    /// Each open container's path's length in `pointer`: every open path is a prefix of it.
    container_ends: Vec<usize>,
    /// A member's key, between its closing quote and its value.
    key: Option<Key>,
    /// The last key's string, emptied, for the next key (no allocation per member).
    spare_key: String,
    /// The open paths' current stamp: a new one each time a container or string value
    /// opens or closes.
    open_stamp: u64,
    expect: Expect,
    token: Token,
    /// The next byte to read.
    pos: usize,
}

impl ValueReader {
    /// A reader for the value that opens at `start` with `{`, `[` (or any value token).
    pub(super) fn new(start: usize, max_depth: usize) -> ValueReader {
        ValueReader {
            max_depth,
            brackets: Vec::new(),
            counts: Vec::new(),
            pointer: String::new(),
            step_marks: Vec::new(),
            container_ends: Vec::new(),
            key: None,
            spare_key: String::new(),
            open_stamp: OpenPaths::stamps(),
            expect: Expect::Value,
            token: Token::None,
            pos: start,
        }
    }

    /// Make `into` the paths still open, outermost first: every container, and a string
    /// being read. What has not changed since the last snapshot is left as it is (a chunk
    /// inside a string costs a comparison).
    pub(super) fn fill_open_paths(&self, into: &mut OpenPaths) {
        if into.stamp == self.open_stamp {
            return;
        }
        let string = matches!(self.token, Token::Str).then_some(self.pointer.len());
        let innermost = string.or(self.container_ends.last().copied()).unwrap_or(0);
        let ends = self.container_ends.iter().copied().chain(string);
        into.set(&self.pointer[..innermost], ends, self.open_stamp);
    }

    /// A container or string value opened or closed: the open paths are another reading.
    fn open_changed(&mut self) {
        self.open_stamp = OpenPaths::next_stamp(self.open_stamp);
    }

    /// Whether the value got past its opening bracket: its first key closed, or its first
    /// item began. A bracket in a sentence fails before that.
    pub(super) fn began_inside(&self) -> bool {
        self.counts.first().is_some_and(|&n| n > 0) || self.key.is_some()
    }

    /// Read what `text` holds past where the last feed stopped. Values, and the paths of
    /// strings and containers that closed, go into `tree`.
    pub(super) fn advance(&mut self, text: &str, tree: &mut Tree) -> Progress {
        let bytes = text.as_bytes();
        loop {
            let step = match self.token {
                Token::None => self.between(text, tree),
                Token::Key(..) | Token::Str => self.string(text, tree),
                Token::Number(from) => self.number(text, from, tree),
                Token::Word(word, got) => self.word(bytes, word, got, tree),
            };
            if let Some(progress) = step {
                return progress;
            }
        }
    }

    /// Outside any token: white space, punctuation, or the start of a token.
    fn between(&mut self, text: &str, tree: &mut Tree) -> Option<Progress> {
        let bytes = text.as_bytes();
        while matches!(bytes.get(self.pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
        let Some(&byte) = bytes.get(self.pos) else {
            return Some(Progress::NeedMore);
        };
        let at = self.pos;
        let fail = Some(Progress::Failed(at));
        match self.expect {
            Expect::Colon if byte == b':' => self.expect = Expect::Value,
            Expect::Colon => return fail,
            Expect::CommaOrClose => match (byte, self.brackets.last()) {
                (b',', Some(b'{')) => self.expect = Expect::Key,
                (b',', Some(_)) => self.expect = Expect::Value,
                (b'}', Some(b'{')) | (b']', Some(b'[')) => return self.close(tree),
                _ => return fail,
            },
            Expect::Key | Expect::KeyOrClose => match byte {
                b'"' => self.token = Token::Key(at + 1, None),
                b'}' if self.expect == Expect::KeyOrClose => return self.close(tree),
                _ => return fail,
            },
            Expect::Value | Expect::ValueOrClose => match byte {
                b']' if self.expect == Expect::ValueOrClose => return self.close(tree),
                _ => return self.begin_value(text, byte, tree),
            },
        }
        self.pos += 1;
        None
    }

    /// The first byte of a value.
    fn begin_value(&mut self, text: &str, byte: u8, tree: &mut Tree) -> Option<Progress> {
        let at = self.pos;
        match byte {
            b'{' | b'[' => {
                if self.brackets.len() >= self.max_depth {
                    return Some(Progress::Failed(at));
                }
                self.enter(text);
                self.open_changed();
                tree.add(&self.pointer, empty(byte), "");
                self.brackets.push(byte);
                self.counts.push(0);
                self.container_ends.push(self.pointer.len());
                self.expect = if byte == b'{' {
                    Expect::KeyOrClose
                } else {
                    Expect::ValueOrClose
                };
            }
            b'"' => {
                self.enter(text);
                self.open_changed();
                tree.open_string(&self.pointer);
                self.token = Token::Str;
            }
            b'-' | b'0'..=b'9' => {
                self.enter(text);
                self.token = Token::Number(at);
            }
            b't' | b'f' | b'n' => {
                self.enter(text);
                let word: &[u8] = match byte {
                    b't' => b"true",
                    b'f' => b"false",
                    _ => b"null",
                };
                self.token = Token::Word(word, 1);
            }
            _ => return Some(Progress::Failed(at)),
        }
        self.pos += 1;
        None
    }

    /// The path steps into the value that begins now: the member whose key was read, or
    /// the container's next item.
    fn enter(&mut self, text: &str) {
        let Some(count) = self.counts.last_mut() else {
            return;
        };
        self.step_marks.push(self.pointer.len());
        match self.key.take() {
            Some(Key::Bytes(from, to)) => push_key(&mut self.pointer, &text[from..to]),
            Some(Key::Decoded(mut key)) => {
                push_key(&mut self.pointer, &key);
                key.clear();
                self.spare_key = key;
            }
            None => push_index(&mut self.pointer, *count),
        }
        *count += 1;
    }

    /// The value at the current path ended (its token, or its container closed), and
    /// [`ValueReader::step_out`] left its path.
    fn leave(&mut self) -> Option<Progress> {
        self.token = Token::None;
        if self.brackets.is_empty() {
            return Some(Progress::Done(self.pos));
        }
        self.expect = Expect::CommaOrClose;
        None
    }

    /// The value that ended is left: the path steps back out to its container.
    fn step_out(&mut self) {
        if let Some(mark) = self.step_marks.pop() {
            self.pointer.truncate(mark);
        }
    }

    fn close(&mut self, tree: &mut Tree) -> Option<Progress> {
        self.open_changed();
        self.brackets.pop();
        self.counts.pop();
        self.container_ends.pop();
        self.pos += 1;
        // Its children have left: the path is the container's own.
        tree.closed(&self.pointer, self.pos);
        self.step_out();
        self.token = Token::None;
        self.leave()
    }

    /// Inside a key or a string value.
    fn string(&mut self, text: &str, tree: &mut Tree) -> Option<Progress> {
        let bytes = text.as_bytes();
        let run_end = plain_end(bytes, self.pos, bytes.len());
        self.take(&text[self.pos..run_end], tree);
        self.pos = run_end;
        let Some(&byte) = bytes.get(self.pos) else {
            return Some(Progress::NeedMore);
        };
        match byte {
            b'"' => {
                self.pos += 1;
                match std::mem::replace(&mut self.token, Token::None) {
                    Token::Key(from, decoded) => {
                        self.key = Some(match decoded {
                            None => Key::Bytes(from, self.pos - 1),
                            Some(key) => Key::Decoded(key),
                        });
                        self.expect = Expect::Colon;
                        None
                    }
                    _ => {
                        self.open_changed();
                        tree.closed(&self.pointer, self.pos);
                        self.step_out();
                        self.leave()
                    }
                }
            }
            b'\\' => self.escape(text, tree),
            // Lossless repairs: the raw character is what the model meant.
            b'\n' | b'\r' | b'\t' => {
                self.take(&text[self.pos..self.pos + 1], tree);
                self.pos += 1;
                None
            }
            _ => Some(Progress::Failed(self.pos)),
        }
    }

    /// Characters of the open string as they are in the text: a value's shown, a key's
    /// kept once it has its own text.
    fn take(&mut self, piece: &str, tree: &mut Tree) {
        match &mut self.token {
            Token::Key(_, None) => {}
            Token::Key(_, Some(key)) => key.push_str(piece),
            _ => tree.append(piece, &self.pointer),
        }
    }

    /// What the escape at `at` stands for: a key's text is its own from here on.
    fn take_escaped(&mut self, piece: &str, at: usize, text: &str, tree: &mut Tree) {
        if let Token::Key(from, decoded @ None) = &mut self.token {
            let mut key = std::mem::take(&mut self.spare_key);
            key.push_str(&text[*from..at]);
            *decoded = Some(key);
        }
        self.take(piece, tree);
    }

    /// A backslash at `pos`: wait until its escape is whole, then take what it stands for.
    fn escape(&mut self, text: &str, tree: &mut Tree) -> Option<Progress> {
        let bytes = text.as_bytes();
        let at = self.pos;
        let Some(&kind) = bytes.get(at + 1) else {
            return Some(Progress::NeedMore);
        };
        let simple = match kind {
            b'"' => Some('"'),
            b'\\' => Some('\\'),
            b'/' => Some('/'),
            b'b' => Some('\u{8}'),
            b'f' => Some('\u{c}'),
            b'n' => Some('\n'),
            b'r' => Some('\r'),
            b't' => Some('\t'),
            // `\`` is a lossless repair: a backtick.
            b'`' => Some('`'),
            b'u' => None,
            _ => return Some(Progress::Failed(at)),
        };
        if let Some(c) = simple {
            self.take_escaped(c.encode_utf8(&mut [0; 4]), at, text, tree);
            self.pos = at + 2;
            return None;
        }
        let (unit, len) = match unit_at(bytes, at) {
            Unit::Whole(unit) => (unit, 6),
            Unit::Partial => return Some(Progress::NeedMore),
            Unit::Bad => return Some(Progress::Failed(at)),
        };
        let c = if (0xD800..0xDC00).contains(&unit) {
            // A high surrogate is one character with the low one that follows it.
            match (bytes.get(at + 6..at + 8), unit_at(bytes, at + 6)) {
                (None, _) | (Some(b"\\u"), Unit::Partial) => return Some(Progress::NeedMore),
                (Some(b"\\u"), Unit::Whole(low)) if (0xDC00..0xE000).contains(&low) => {
                    self.pos = at + 12;
                    let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                    let c = char::from_u32(code).unwrap_or('\u{fffd}');
                    self.take_escaped(c.encode_utf8(&mut [0; 4]), at, text, tree);
                    return None;
                }
                _ => '\u{fffd}',
            }
        } else {
            char::from_u32(unit).unwrap_or('\u{fffd}')
        };
        self.take_escaped(c.encode_utf8(&mut [0; 4]), at, text, tree);
        self.pos = at + len;
        None
    }

    /// A number's bytes; once a byte that cannot continue it arrives, the engine's own
    /// number grammar says whether the token is a number.
    fn number(&mut self, text: &str, from: usize, tree: &mut Tree) -> Option<Progress> {
        let bytes = text.as_bytes();
        while matches!(
            bytes.get(self.pos),
            Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
        ) {
            self.pos += 1;
        }
        if self.pos >= bytes.len() {
            return Some(Progress::NeedMore);
        }
        match scan_number(bytes, from, self.pos) {
            Ok(end) if end == self.pos => {}
            Ok(end) => return Some(Progress::Failed(end)),
            Err(crate::scan::ScanEnd::Invalid { at, .. }) => return Some(Progress::Failed(at)),
            Err(_) => return Some(Progress::Failed(self.pos)),
        }
        // ASCII, as the grammar checked: a slice of the text needs no second check.
        let token = text.get(from..self.pos).unwrap_or("0");
        // The grammar has checked the token whole: the number is its spelling, exactly as
        // the engine decodes it (`1E22` stays `1E22`, `1.50` keeps its zero).
        self.scalar(Op::Number, token, tree)
    }

    /// `true`, `false` or `null`, byte by byte; it is a value once a byte that cannot
    /// continue a word follows it.
    fn word(
        &mut self,
        bytes: &[u8],
        word: &'static [u8],
        mut got: usize,
        tree: &mut Tree,
    ) -> Option<Progress> {
        while got < word.len() {
            let Some(&byte) = bytes.get(self.pos) else {
                self.token = Token::Word(word, got);
                return Some(Progress::NeedMore);
            };
            if byte != word[got] {
                return Some(Progress::Failed(self.pos));
            }
            got += 1;
            self.pos += 1;
        }
        self.token = Token::Word(word, got);
        // The word is a value once the byte after it has come (`truer` is no `true`).
        if self.pos >= bytes.len() {
            return Some(Progress::NeedMore);
        }
        let op = match word {
            b"true" => Op::True,
            b"false" => Op::False,
            _ => Op::Null,
        };
        self.scalar(op, "", tree)
    }

    /// A number or literal whose token ended: shown as it is final, and left.
    fn scalar(&mut self, op: Op, spelling: &str, tree: &mut Tree) -> Option<Progress> {
        tree.ended(&self.pointer, self.pos);
        tree.add(&self.pointer, op, spelling);
        self.step_out();
        self.leave()
    }
}

enum Unit {
    Whole(u32),
    Partial,
    Bad,
}

/// The code unit of the `\uXXXX` escape at `at`.
fn unit_at(bytes: &[u8], at: usize) -> Unit {
    let mut unit = 0;
    for k in 2..6 {
        let Some(&digit) = bytes.get(at + k) else {
            return Unit::Partial;
        };
        let Some(value) = (digit as char).to_digit(16) else {
            return Unit::Bad;
        };
        unit = unit * 16 + value;
    }
    Unit::Whole(unit)
}
