//! A reply that is one JSON scalar and nothing else: `42`, `"yes"`, `null`, alone, after
//! reasoning blocks, or in a JSON fence. Lenient reading looks for an object or an array
//! in prose, and a word or a number may begin prose, so such a reply is prose until its
//! end. [`Lone`] follows the raw input while it can still be one (most replies show that
//! they cannot at their first byte that is not whitespace), and at the end of input the
//! scanner reads the scalar again as the value, at its own offsets, as strict mode reads it.
//! A JSON fence after prose is followed the same way from its next line
//! ([`Lone::in_fence`]): one scalar and a closing fence are its value if no root comes.

use super::lenient::{BRACKET_TAG, REASONING_TAGS as TAGS};
use super::tables::{is_bom_byte, is_json_tag, is_ws, string_run};

/// Where in `ws* block* (scalar | fence) ws*` the input is, `fence` being
/// ```` ```json ```` (or an untagged fence), a line break, the scalar and a closing fence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    /// Whitespace and reasoning blocks only so far.
    Lead,
    /// The first `n` bytes of a byte-order mark, where the input begins.
    Bom(u8),
    /// `<` and the next bytes of a reasoning tag (`tag`'s first `pos` bytes).
    Open { tag: u8, pos: u8 },
    /// Inside a reasoning block: `pos` bytes of its closing tag matched.
    Block { tag: u8, pos: u8 },
    /// Backticks opening a fence.
    Ticks(u8),
    /// The fence's language tag, `len` bytes so far.
    Tag(u8),
    /// The rest of the fence's line after its tag (`title="x"`): the tag's length.
    Info(u8),
    /// Whitespace after the fence's line.
    FenceLead,
    /// A `/` before or after the scalar (`back`: where the comment returns to).
    Slash { back: Back },
    /// A `//` comment, to its line's end.
    LineComment { back: Back },
    /// A `/* */` comment (`star`: its last byte was `*`).
    BlockComment { back: Back, star: bool },
    /// Inside a string scalar (after a backslash: `escaped`).
    Str { escaped: bool },
    /// A number or a literal: bytes that may continue one.
    Word,
    /// Whitespace after the scalar.
    After,
    /// Backticks closing the fence.
    CloseTicks(u8),
    /// Whitespace after the closing fence.
    Closed,
}

/// Where a comment returns to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Back {
    /// Before the scalar, outside a fence.
    Lead,
    /// Before the scalar, inside the fence.
    FenceLead,
    /// After the scalar.
    After,
    /// After the closing fence.
    Closed,
}

impl Back {
    fn at(self) -> At {
        match self {
            Back::Lead => At::Lead,
            Back::FenceLead => At::FenceLead,
            Back::After => At::After,
            Back::Closed => At::Closed,
        }
    }
}

/// The first byte of the closing tag of reasoning tag `tag`.
fn close_start(tag: u8) -> u8 {
    TAGS.get(usize::from(tag))
        .and_then(|(_, close)| close.first().copied())
        .unwrap_or(b'<')
}

/// A place in the input: its offset, line, and the offset its line starts at.
pub(super) type Place = (u64, u64, u64);

/// Follows the input while it may be one scalar (see the module's docs).
#[derive(Debug, Clone)]
pub(super) struct Lone {
    at: At,
    fenced: bool,
    /// The byte the fence is made of: `` ` `` or `~`.
    fence: u8,
    /// Only `null` is a value (a typed root of a shape that reads `null`).
    null_only: bool,
    /// No scalar is a value (a typed root that is an object or an array): the reading
    /// only tells where comments after one are (`42 // was {"a": 0}`).
    no_value: bool,
    tag: [u8; 6],
    /// The scalar's bytes so far.
    text: Vec<u8>,
    /// Where the scalar's first byte is.
    start: Place,
    /// The input offset right after the scalar's last byte, once it ended.
    end: Option<u64>,
    /// Where the next byte is.
    now: Place,
}

impl Lone {
    /// Following from the input's first byte; `in_block`: inside a `<think>` block the
    /// prompt opened.
    pub(super) fn new(in_block: bool) -> Self {
        Lone {
            at: match in_block {
                true => At::Block { tag: 0, pos: 0 },
                false => At::Lead,
            },
            fenced: false,
            fence: b'`',
            null_only: false,
            no_value: false,
            tag: [0; 6],
            text: Vec::new(),
            start: (0, 1, 0),
            end: None,
            now: (0, 1, 0),
        }
    }

    /// Following from the line after a JSON fence's marker (made of `fence`), at `now`:
    /// one scalar there and a closing fence, whatever came before the fence.
    pub(super) fn in_fence(fence: u8, now: Place) -> Self {
        Lone {
            at: At::FenceLead,
            fenced: true,
            fence,
            start: now,
            now,
            ..Lone::new(false)
        }
    }

    /// Reads the next bytes of input: where in them (at which index) the input shows it
    /// cannot be one scalar, if it does.
    pub(super) fn feed(&mut self, bytes: &[u8]) -> Option<usize> {
        let mut i = 0;
        while let Some(&c) = bytes.get(i) {
            let rest = bytes.get(i..).unwrap_or_default();
            match self.at {
                At::Str { escaped: false } => {
                    // A run of plain string bytes at once (no line break among them).
                    let run = string_run(rest);
                    if run > 0 {
                        self.text
                            .extend_from_slice(rest.get(..run).unwrap_or_default());
                        self.now.0 += run as u64;
                        i += run;
                        continue;
                    }
                }
                At::Block { pos: 0, tag } if c != close_start(tag) => {
                    // Reasoning, up to the next tag: only its lines are counted.
                    let first = close_start(tag);
                    let run = rest.iter().position(|&c| c == first).unwrap_or(rest.len());
                    let text = rest.get(..run).unwrap_or_default();
                    if let Some(nl) = text.iter().rposition(|&c| c == b'\n') {
                        self.now.1 += text.iter().filter(|&&c| c == b'\n').count() as u64;
                        self.now.2 = self.now.0 + nl as u64 + 1;
                    }
                    self.now.0 += run as u64;
                    i += run;
                    continue;
                }
                _ => {}
            }
            if !self.byte(c) {
                return Some(i);
            }
            self.now.0 += 1;
            if c == b'\n' {
                self.now.1 += 1;
                self.now.2 = self.now.0;
            }
            i += 1;
        }
        None
    }

    /// One byte (not a plain byte inside a string); `false` if it ends the candidacy.
    fn byte(&mut self, c: u8) -> bool {
        if self.at == At::Word && !is_word_byte(c) {
            // The scalar ends before this byte (if it goes on, see below).
            self.end = Some(self.now.0);
        }
        self.at = match self.at {
            At::Lead | At::FenceLead if is_ws(c) => self.at,
            At::Lead if self.now.0 == 0 && is_bom_byte(0, c) => At::Bom(1),
            At::Bom(n) if is_bom_byte(u64::from(n), c) => match n {
                2 => At::Lead,
                _ => At::Bom(n + 1),
            },
            At::Lead if c == b'<' => At::Open { tag: 0, pos: 1 },
            At::Lead if c == b'[' => At::Open {
                tag: BRACKET_TAG as u8,
                pos: 1,
            },
            At::Lead if matches!(c, b'`' | b'~') => {
                self.fence = c;
                At::Ticks(1)
            }
            // The scalar ends: unless it is one (`2024-01-01`, `tru`), the input is prose.
            At::Word if !is_word_byte(c) && !self.scalar_valid() => return false,
            At::Lead | At::FenceLead | At::Word | At::After | At::Closed if c == b'/' => {
                At::Slash {
                    back: match self.at {
                        At::Lead => Back::Lead,
                        At::FenceLead => Back::FenceLead,
                        At::Closed => Back::Closed,
                        _ => Back::After,
                    },
                }
            }
            At::Slash { back } => match c {
                b'/' => At::LineComment { back },
                b'*' => At::BlockComment { back, star: false },
                _ => return false,
            },
            At::LineComment { back } if matches!(c, b'\n' | b'\r') => back.at(),
            At::LineComment { .. } => self.at,
            At::BlockComment { back, star: true } if c == b'/' => back.at(),
            At::BlockComment { back, .. } => At::BlockComment {
                back,
                star: c == b'*',
            },
            At::Lead | At::FenceLead => return self.begin(c),
            At::Open { tag, pos } => {
                let matched = TAGS
                    .get(usize::from(tag))
                    .and_then(|(open, _)| open.get(..usize::from(pos)))
                    .unwrap_or_default();
                let lower = c.to_ascii_lowercase();
                let next = TAGS.iter().position(|(open, _)| {
                    open.get(..usize::from(pos)) == Some(matched)
                        && open.get(usize::from(pos)) == Some(&lower)
                });
                let Some((t, open)) = next.and_then(|t| Some((t, TAGS.get(t)?.0))) else {
                    return false;
                };
                let tag = u8::try_from(t).unwrap_or_default();
                match usize::from(pos) + 1 == open.len() {
                    true => At::Block { tag, pos: 0 },
                    false => At::Open { tag, pos: pos + 1 },
                }
            }
            At::Block { tag, pos } => {
                let close = TAGS
                    .get(usize::from(tag))
                    .map_or(&b""[..], |(_, close)| close);
                if close.get(usize::from(pos)) == Some(&c.to_ascii_lowercase()) {
                    match usize::from(pos) + 1 == close.len() {
                        true => At::Lead,
                        false => At::Block { tag, pos: pos + 1 },
                    }
                } else {
                    At::Block {
                        tag,
                        pos: u8::from(close.first() == Some(&c)),
                    }
                }
            }
            At::Ticks(n) if c == self.fence => At::Ticks(n.saturating_add(1)),
            At::Ticks(n) if n >= 3 => {
                self.fenced = true;
                return self.tag_byte(0, c);
            }
            At::Tag(len) => return self.tag_byte(len, c),
            At::Info(len) => return self.info_byte(len, c),
            At::Str { escaped: true } => {
                if !matches!(
                    c,
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' | b'u'
                ) {
                    // No JSON string: `"\x [1]` is prose.
                    return false;
                }
                self.text.push(c);
                At::Str { escaped: false }
            }
            At::Str { escaped: false } => {
                self.text.push(c);
                match c {
                    b'"' if self.scalar_valid() => {
                        self.end = Some(self.now.0 + 1);
                        At::After
                    }
                    b'"' => return false,
                    b'\\' => At::Str { escaped: true },
                    // A control byte: not a JSON string.
                    _ => return false,
                }
            }
            At::Word if is_word_byte(c) => {
                self.text.push(c);
                At::Word
            }
            At::Word | At::After if is_ws(c) => At::After,
            At::Word | At::After if c == self.fence && self.fenced => At::CloseTicks(1),
            At::CloseTicks(n) if c == self.fence => At::CloseTicks(n.saturating_add(1)),
            At::CloseTicks(n) if n >= 3 && is_ws(c) => At::Closed,
            // A comment right after the closing fence.
            At::CloseTicks(n) if n >= 3 && c == b'/' => At::Slash { back: Back::Closed },
            At::Closed if is_ws(c) => At::Closed,
            _ => return false,
        };
        true
    }

    /// The first byte of the scalar.
    fn begin(&mut self, c: u8) -> bool {
        self.start = self.now;
        self.text.push(c);
        self.at = match c {
            b'"' => At::Str { escaped: false },
            b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => At::Word,
            _ => return false,
        };
        true
    }

    /// A byte of the fence's tag line (`len` bytes of tag so far): a JSON fence's tag,
    /// then its line break.
    fn tag_byte(&mut self, len: u8, c: u8) -> bool {
        if c == b'\n' {
            let tag = self.tag.get(..usize::from(len)).unwrap_or_default();
            self.at = At::FenceLead;
            return is_json_tag(tag);
        }
        if matches!(c, b' ' | b'\t' | b'\r') {
            // Before the tag, or after it: the rest of the line is its info string.
            self.at = if len == 0 { At::Tag(0) } else { At::Info(len) };
            return true;
        }
        // The scanner's tag characters (`json-ld` is no JSON tag).
        let word = c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'+' | b'.');
        if len > 0 && !word {
            return self.info_byte(len, c);
        }
        match self.tag.get_mut(usize::from(len)) {
            Some(slot) if word => *slot = c.to_ascii_lowercase(),
            _ => return false,
        }
        self.at = At::Tag(len + 1);
        true
    }

    /// A byte of the fence's line after its tag (`len` bytes): anything but a bracket
    /// (a value on the marker's line) or the fence's own byte (no fence), to the line's
    /// end.
    fn info_byte(&mut self, len: u8, c: u8) -> bool {
        if c == b'\n' {
            return self.tag_byte(len, c);
        }
        self.at = At::Info(len);
        !matches!(c, b'{' | b'[') && c != self.fence
    }

    /// Where the scalar is: the input offset of its first byte and, once it ended, the
    /// offset right after its last; `None` before it began.
    pub(super) fn span(&self) -> Option<(u64, Option<u64>)> {
        (!self.text.is_empty()).then_some((self.start.0, self.end))
    }

    /// Only `null` is a value.
    pub(super) fn null_only(&mut self) {
        self.null_only = true;
    }

    /// No scalar is a value.
    pub(super) fn no_value(&mut self) {
        self.no_value = true;
    }

    /// The scalar's text and where it starts (offset, line, line start), if the input
    /// read so far is one complete scalar (its closing fence may be missing).
    pub(super) fn scalar(&self) -> Option<(&[u8], Place)> {
        let complete = match self.at {
            // A comment after it may run to the input's end (closed or not, as one after
            // an object does), and so may a `/` that would have begun one.
            At::Word | At::After | At::Closed => true,
            At::Slash { back } | At::LineComment { back } | At::BlockComment { back, .. } => {
                matches!(back, Back::After | Back::Closed)
            }
            // The input may end inside the closing fence.
            At::CloseTicks(_) => true,
            _ => false,
        };
        let value = !self.no_value && (!self.null_only || self.text == b"null");
        (complete && value && self.scalar_valid()).then_some((&self.text, self.start))
    }

    /// The scalar's text so far is one JSON scalar (whether the stream reads it as its
    /// value or not: see `null_only`, `no_value`).
    fn scalar_valid(&self) -> bool {
        match self.text.first() {
            // A string serde reads whole: its escapes, surrogates and UTF-8 checked
            // (`"\ud800 [1]"` is no string; read as prose, `[1]` is the answer).
            Some(b'"') => serde_json::from_slice::<String>(&self.text).is_ok(),
            _ => serde_json::from_slice::<serde::de::IgnoredAny>(&self.text).is_ok(),
        }
    }

    /// The scalar is complete and its fence closed after it (whatever comes next).
    pub(super) fn closed(&self) -> bool {
        let closed = match self.at {
            At::Closed => true,
            At::CloseTicks(n) => n >= 3,
            At::Slash { back } | At::LineComment { back } | At::BlockComment { back, .. } => {
                back == Back::Closed
            }
            _ => false,
        };
        closed && self.scalar_valid()
    }

    /// Something (whitespace, a closing fence) came after the scalar: a number in it is
    /// complete even if the input was cut there.
    pub(super) fn ended(&self) -> bool {
        match self.at {
            At::After | At::Closed => true,
            At::Slash { back } | At::LineComment { back } | At::BlockComment { back, .. } => {
                matches!(back, Back::After | Back::Closed)
            }
            // The input may end inside the closing fence.
            At::CloseTicks(_) => true,
            _ => false,
        }
    }

    /// The scalar's text and where it starts, if the input read so far ends inside one: a
    /// string not closed, or the first bytes of a literal or a number (`tru`, `-`, `1.`).
    /// Read again, it is the value the input was cut in.
    pub(super) fn cut(&self) -> Option<(&[u8], Place)> {
        let text = self.text.as_slice();
        let begins = |word: &[u8]| word.len() > text.len() && word.starts_with(text);
        let cut = match self.at {
            _ if self.no_value => false,
            At::Str { .. } => !self.null_only,
            At::Word if self.null_only => begins(b"null"),
            At::Word => {
                begins(b"true") || begins(b"false") || begins(b"null") || number_begins(text)
            }
            _ => false,
        };
        cut.then_some((text, self.start))
    }
}

/// A byte a number or a literal may go on with (a word's: the scalar is checked where it
/// ends).
fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'.' | b'+' | b'-')
}

/// `text` is the beginning of a JSON number, not yet one (`-`, `1.`, `2e+`): a digit
/// would make it one.
fn number_begins(text: &[u8]) -> bool {
    let mut more = text.to_vec();
    more.push(b'0');
    serde_json::from_slice::<serde::de::IgnoredAny>(text).is_err()
        && serde_json::from_slice::<serde::de::IgnoredAny>(&more).is_ok()
}
