//! Chunk sources: stdin as read, stdin split into fixed sizes, or a chunks file.

use crate::args::Source;
use crate::replay::Failure;
use std::io::{self, BufRead, Read};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::Duration;

/// How long to wait for the next chunk before printing the current one: long enough to
/// see that the input ended (so a root number settles with the last chunk), short enough
/// to show a live stream live.
const LOOKAHEAD: Duration = Duration::from_millis(25);

/// The most bytes of stdin gathered into one chunk.
const GATHER_LIMIT: usize = 16 * 1024 * 1024;

/// The size of one read of stdin, and how many reads may wait for the replay.
const READ_SIZE: usize = 64 * 1024;
const READS_QUEUED: usize = GATHER_LIMIT / READ_SIZE;

/// Reads `input` (stdin) and sends what each read gave, until the input ends or fails.
fn read_all(mut input: impl Read, send: &SyncSender<io::Result<Vec<u8>>>) {
    let mut buf = vec![0; READ_SIZE];
    loop {
        let read = match input.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => Ok(buf.get(..n).unwrap_or_default().to_vec()),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => Err(e),
        };
        let failed = read.is_err();
        if send.send(read).is_err() || failed {
            return;
        }
    }
}

/// What asking for the next chunk gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Next {
    /// A chunk is in the buffer.
    Chunk,
    /// The input ended.
    End,
    /// Nothing yet (only when asked not to wait long).
    Pending,
}

/// Yields chunks in order.
pub(crate) enum Chunks {
    /// stdin, read by a thread so the replay can wait for it with a timeout. A chunk is
    /// every read that has come (up to [`GATHER_LIMIT`]): a live stream's chunks are its
    /// reads, as they come; a file or a fast pipe comes in chunks that grow with the time
    /// the replay takes over each, so that the snapshots printed per chunk stay about as
    /// long as the input, not its square. A read's error waits in `failed` for the call
    /// after the bytes read before it.
    Stdin {
        receive: Receiver<io::Result<Vec<u8>>>,
        failed: Option<io::Error>,
    },
    /// stdin read `n` bytes at a time, as they are needed; at most `left` more bytes.
    Split {
        input: Box<dyn Read + Send>,
        left: u64,
        n: usize,
    },
    /// A chunks file, decoded a line at a time (checked whole when opened).
    Lines(Lines<Box<dyn BufRead + Send>>),
}

impl Chunks {
    /// Opens `source`. A chunks file that is not NDJSON string literals is a usage error.
    pub(crate) fn open(source: &Source, max_bytes: u64) -> Result<Chunks, Failure> {
        match source {
            Source::Stdin => {
                let (send, receive) = sync_channel(READS_QUEUED);
                std::thread::spawn(move || read_all(io::stdin().lock(), &send));
                Ok(Chunks::Stdin {
                    receive,
                    failed: None,
                })
            }
            // One byte past the cap is enough for the stream to say it is too large; a
            // provider's events are read as they are needed, their text capped downstream.
            Source::Split(n) => Ok(Chunks::Split {
                input: Box::new(io::stdin()),
                left: max_bytes.saturating_add(1),
                n: *n,
            }),
            Source::Chunks(path) => {
                let unreadable =
                    |e: io::Error| Failure::Usage(format!("cannot read {}: {e}", path.display()));
                let bad_line = |(line, e): (usize, String)| {
                    Failure::Usage(format!("{} line {line}: {e}", path.display()))
                };
                let open = || -> Result<Box<dyn BufRead + Send>, Failure> {
                    let file = std::fs::File::open(path).map_err(unreadable)?;
                    Ok(Box::new(io::BufReader::new(file)))
                };
                let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file());
                if !regular {
                    // A pipe is read once: held, checked whole, then replayed from memory.
                    let mut text = Vec::new();
                    open()?.read_to_end(&mut text).map_err(unreadable)?;
                    let mut check = Lines::new(text.as_slice());
                    while check.next().map_err(bad_line)?.is_some() {}
                    let replay: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(text));
                    return Ok(Chunks::Lines(Lines::new(replay)));
                }
                // Checked whole first, a line at a time, so that a bad line is a usage
                // error before anything is printed; then read again as it is replayed.
                let mut check = Lines::new(open()?);
                while check.next().map_err(bad_line)?.is_some() {}
                Ok(Chunks::Lines(Lines::new(open()?)))
            }
        }
    }

    /// True when chunks arrive live (flush output after each line).
    pub(crate) fn is_live(&self) -> bool {
        matches!(self, Chunks::Stdin { .. })
    }

    /// Puts the next chunk in `out`. With `briefly`, a live source waits only a moment
    /// and may answer [`Next::Pending`].
    pub(crate) fn next_chunk(&mut self, out: &mut Vec<u8>, briefly: bool) -> io::Result<Next> {
        out.clear();
        match self {
            Chunks::Stdin { receive, failed } => {
                if let Some(error) = failed.take() {
                    return Err(error);
                }
                let got = if briefly {
                    match receive.recv_timeout(LOOKAHEAD) {
                        Ok(read) => Some(read),
                        Err(RecvTimeoutError::Timeout) => return Ok(Next::Pending),
                        Err(RecvTimeoutError::Disconnected) => None,
                    }
                } else {
                    receive.recv().ok()
                };
                match got {
                    Some(read) => {
                        *out = read?;
                        while out.len() < GATHER_LIMIT {
                            match receive.try_recv() {
                                Ok(Ok(more)) => out.extend_from_slice(&more),
                                Ok(Err(error)) => {
                                    *failed = Some(error);
                                    break;
                                }
                                Err(_) => break,
                            }
                        }
                        Ok(Next::Chunk)
                    }
                    None => Ok(Next::End),
                }
            }
            Chunks::Split { input, left, n } => {
                let want = u64::try_from(*n).unwrap_or(u64::MAX).min(*left);
                let got = input.by_ref().take(want).read_to_end(out)?;
                *left = left.saturating_sub(got as u64);
                Ok(if got == 0 { Next::End } else { Next::Chunk })
            }
            Chunks::Lines(lines) => match lines.next() {
                Ok(Some(chunk)) => {
                    *out = chunk;
                    Ok(Next::Chunk)
                }
                Ok(None) => Ok(Next::End),
                // The file changed since it was checked.
                Err((line, e)) => Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("chunks file line {line}: {e}"),
                )),
            },
        }
    }
}

/// A chunks file's chunks, a line at a time: one JSON string literal per non-blank line. A
/// UTF-16 surrogate pair split between two lines (as a UTF-16 tokenizer may split it)
/// joins the second line's chunk. Errors name their line (1-based).
pub(crate) struct Lines<R> {
    input: R,
    line: String,
    /// Lines read, and the last one that was not blank.
    read: usize,
    last: usize,
    carry: Option<u16>,
}

impl<R: BufRead> Lines<R> {
    fn new(input: R) -> Self {
        Lines {
            input,
            line: String::new(),
            read: 0,
            last: 0,
            carry: None,
        }
    }

    /// The next chunk, `None` at the end of the file.
    fn next(&mut self) -> Result<Option<Vec<u8>>, (usize, String)> {
        loop {
            self.line.clear();
            let n = self
                .input
                .read_line(&mut self.line)
                .map_err(|e| (self.read + 1, e.to_string()))?;
            if n == 0 {
                return match self.carry {
                    Some(_) => Err((
                        self.last,
                        "a UTF-16 surrogate pair is never completed".into(),
                    )),
                    None => Ok(None),
                };
            }
            self.read += 1;
            // A byte-order mark that an editor wrote at the file's start is no chunk's.
            let line = match self.read {
                1 => self.line.trim_start_matches('\u{feff}'),
                _ => &self.line,
            };
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            self.last = self.read;
            return decode_line(line, &mut self.carry)
                .map(Some)
                .map_err(|e| (self.read, e));
        }
    }
}

/// Decodes a whole chunks file (see [`Lines`]).
#[cfg(test)]
fn decode_chunks(text: &str) -> Result<Vec<Vec<u8>>, (usize, String)> {
    let mut lines = Lines::new(text.as_bytes());
    let mut chunks = Vec::new();
    while let Some(chunk) = lines.next()? {
        chunks.push(chunk);
    }
    Ok(chunks)
}

const NOT_A_STRING: &str = "each line must be one JSON string literal";

/// One JSON string literal's bytes; a trailing high surrogate is left in `carry`.
fn decode_line(line: &str, carry: &mut Option<u16>) -> Result<Vec<u8>, String> {
    let body = line
        .strip_prefix('"')
        .and_then(|l| l.strip_suffix('"'))
        .ok_or_else(|| NOT_A_STRING.to_string())?;
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c == '"' || c < ' ' {
            return Err(format!("{NOT_A_STRING} (unescaped {c:?})"));
        }
        if c != '\\' {
            if carry.is_some() {
                return Err("a UTF-16 surrogate pair is split by other text".into());
            }
            out.push(c);
            continue;
        }
        let decoded = match chars.next() {
            Some('"') => '"',
            Some('\\') => '\\',
            Some('/') => '/',
            Some('b') => '\u{8}',
            Some('f') => '\u{c}',
            Some('n') => '\n',
            Some('r') => '\r',
            Some('t') => '\t',
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                // Exactly four hex digits (`from_str_radix` alone takes `+41` or `12`).
                let unit = Some(&hex)
                    .filter(|h| h.len() == 4 && h.bytes().all(|b| b.is_ascii_hexdigit()))
                    .and_then(|h| u16::from_str_radix(h, 16).ok())
                    .ok_or_else(|| format!("invalid \\u escape `\\u{hex}`"))?;
                match (carry.take(), unit) {
                    (None, 0xD800..=0xDBFF) => {
                        *carry = Some(unit);
                        continue;
                    }
                    (Some(high), 0xDC00..=0xDFFF) => char::decode_utf16([high, unit])
                        .next()
                        .and_then(Result::ok)
                        .ok_or("invalid surrogate pair")?,
                    (None, _) => char::from_u32(u32::from(unit)).ok_or("lone low surrogate")?,
                    (Some(_), _) => {
                        return Err("a high surrogate is not followed by a low one".into());
                    }
                }
            }
            other => return Err(format!("invalid escape {other:?}")),
        };
        if carry.is_some() {
            return Err("a UTF-16 surrogate pair is split by other text".into());
        }
        out.push(decoded);
    }
    Ok(out.into_bytes())
}

/// At most this much of the assistant's text is held back waiting for a tool call: past
/// it, the text is the document.
const HOLD_BYTES: usize = 1 << 20;

/// The assistant's text held back, its deltas in one buffer (a delta's own allocation
/// would cost more than its text when deltas are a byte or a token each), then replayed
/// one delta at a time once the text is chosen.
#[derive(Default)]
struct Held {
    text: String,
    /// Where each delta ends in `text`.
    ends: Vec<usize>,
    /// Deltas replayed so far.
    replayed: usize,
}

impl Held {
    fn push(&mut self, delta: &str) {
        self.text.push_str(delta);
        self.ends.push(self.text.len());
    }

    fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The next delta to replay, if any is left.
    fn next_delta(&mut self) -> Option<&str> {
        let end = *self.ends.get(self.replayed)?;
        let start = match self.replayed.checked_sub(1) {
            Some(before) => self.ends.get(before).copied().unwrap_or(0),
            None => 0,
        };
        self.replayed += 1;
        self.text.get(start..end)
    }
}

/// A provider's SSE stream read from a [`Chunks`] source: each text delta of the chosen
/// channel is one chunk.
///
/// The channel is the assistant's text or the first tool call's arguments. Text in which
/// no value has begun (a model saying what it is about to do) is held back, and dropped
/// when a tool call follows: the arguments are then the whole document, as
/// `ToolStreams` reads them. The text is the document, and a tool call after it is not
/// read, once a value has begun in it (its settled values are printed as they come),
/// once it fails (past `--idle-limit` or `--max-bytes`: the replay stops there, as it
/// would without a tool call), once more than [`HOLD_BYTES`] of it is held, and at the
/// end. Under `--strict`, text that is not JSON is not the document unless no tool call
/// follows: it is not held past the byte where it failed, and a tool call is awaited
/// until the end or [`HOLD_BYTES`] of text.
pub(crate) struct Provided {
    inner: Chunks,
    raw: Vec<u8>,
    decoder: settled::provider::Decoder,
    queue: std::collections::VecDeque<String>,
    /// The channel replayed, once chosen.
    channel: Option<settled::provider::Channel>,
    /// The assistant's text while no channel is chosen (no value has begun in it yet),
    /// then, the text chosen, its deltas to replay before any in `queue`.
    held: Held,
    /// Bytes of the assistant's text read while no channel is chosen (held or not).
    seen: usize,
    /// `held`, fed to a stream with the replay's options: the text is chosen once a value
    /// has begun in it (the draft is no longer empty). `None` once it failed under
    /// `--strict`: the replay's stream, fed the same chunks, would stop at the last one
    /// held, so no more is held.
    probe: Option<settled::DynamicStream>,
    strict: bool,
    /// A decoding error, returned once the held text before it has been replayed.
    failed: Option<settled::provider::DecodeError>,
    /// The finish reason, once seen.
    pub(crate) finish: Option<settled::provider::FinishReason>,
    ended: bool,
}

impl Provided {
    /// One event may hold at most eight times the byte cap (escapes and the provider's
    /// JSON around the text), plus 64 KiB: memory stays a small multiple of the cap.
    pub(crate) fn new(
        inner: Chunks,
        provider: settled::provider::Provider,
        options: &settled::Options,
    ) -> Self {
        let limit = options
            .max_bytes
            .saturating_mul(8)
            .saturating_add(64 * 1024);
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        Provided {
            inner,
            raw: Vec::new(),
            decoder: settled::provider::Decoder::with_limit(provider, limit),
            queue: std::collections::VecDeque::new(),
            channel: None,
            held: Held::default(),
            seen: 0,
            probe: Some(settled::DynamicStream::with_options(options.clone())),
            strict: options.strict,
            failed: None,
            finish: None,
            ended: false,
        }
    }

    pub(crate) fn is_live(&self) -> bool {
        self.inner.is_live()
    }

    fn take(&mut self, deltas: Vec<settled::provider::Delta>) {
        use settled::provider::{Channel, Delta};
        for delta in deltas {
            match delta {
                Delta::Text { channel, text } => match self.channel {
                    Some(chosen) if chosen == channel => self.queue.push_back(text),
                    Some(_) => {}
                    None if channel == Channel::Text => self.hold(text),
                    None => {
                        self.choose_tool(channel);
                        self.queue.push_back(text);
                    }
                },
                // A tool call begins (its arguments may all be in later deltas, or be
                // empty).
                Delta::ToolStart { index, .. } if self.channel.is_none() => {
                    self.choose_tool(Channel::Tool(index));
                }
                Delta::Finish(reason) => self.finish = Some(reason),
                Delta::ToolStart { .. } => {}
            }
        }
    }

    /// A tool call before any value in the text: its arguments are the document, and the
    /// text before them is not part of it.
    fn choose_tool(&mut self, channel: settled::provider::Channel) {
        self.channel = Some(channel);
        self.held = Held::default();
        self.probe = None;
    }

    /// Holds one delta of the assistant's text, or chooses the text (see [`Provided`]).
    fn hold(&mut self, text: String) {
        self.seen = self.seen.saturating_add(text.len());
        let over = self.seen > HOLD_BYTES;
        let Some(probe) = &mut self.probe else {
            // Strict, and the text failed: what follows is not needed to report it.
            if over {
                self.choose_text();
            }
            return;
        };
        let result = probe.feed(text.as_bytes());
        let began = probe.draft().is_some();
        self.held.push(&text);
        match result {
            Ok(()) if !began && !over => {}
            Err(_) if self.strict && !over => self.probe = None,
            _ => self.choose_text(),
        }
    }

    /// The text is the document: the held deltas are replayed.
    fn choose_text(&mut self) {
        if self.channel.is_none() && !self.held.is_empty() {
            // Replayed from `held`, ahead of the queue (empty while text is held).
            self.channel = Some(settled::provider::Channel::Text);
        }
        self.probe = None;
    }

    /// Like [`Chunks::next_chunk`]; a stream that cannot be decoded is an
    /// `InvalidData` error, after the text held before it.
    pub(crate) fn next_chunk(&mut self, out: &mut Vec<u8>, briefly: bool) -> io::Result<Next> {
        loop {
            if self.channel == Some(settled::provider::Channel::Text) {
                if let Some(text) = self.held.next_delta() {
                    out.clear();
                    out.extend_from_slice(text.as_bytes());
                    return Ok(Next::Chunk);
                }
                if !self.held.is_empty() {
                    // Replayed whole: its memory goes.
                    self.held = Held::default();
                }
            }
            if let Some(text) = self.queue.pop_front() {
                out.clear();
                out.extend_from_slice(text.as_bytes());
                return Ok(Next::Chunk);
            }
            if let Some(error) = &self.failed {
                return Err(io::Error::new(io::ErrorKind::InvalidData, error.clone()));
            }
            if self.ended {
                return Ok(Next::End);
            }
            let decoded = match self.inner.next_chunk(&mut self.raw, briefly)? {
                Next::Chunk => self.decoder.feed(&self.raw),
                Next::End => {
                    self.ended = true;
                    self.decoder.finish()
                }
                Next::Pending => return Ok(Next::Pending),
            };
            match decoded {
                Ok(deltas) => self.take(deltas),
                Err(error) => self.failed = Some(error),
            }
            // At the end (or a broken stream), text with no value and no tool call after
            // it is the document after all.
            if self.ended || self.failed.is_some() {
                self.choose_text();
            }
        }
    }
}

/// Where the replay's chunks come from: bytes as they are, or a provider's stream.
pub(crate) enum Input {
    Plain(Chunks),
    Sse(Box<Provided>),
}

impl Input {
    pub(crate) fn is_live(&self) -> bool {
        match self {
            Input::Plain(c) => c.is_live(),
            Input::Sse(p) => p.is_live(),
        }
    }

    pub(crate) fn next_chunk(&mut self, out: &mut Vec<u8>, briefly: bool) -> io::Result<Next> {
        match self {
            Input::Plain(c) => c.next_chunk(out, briefly),
            Input::Sse(p) => p.next_chunk(out, briefly),
        }
    }

    /// The document is a tool call's arguments (chosen by the first chunk): JSON that
    /// begins no reply, so no reasoning block either.
    pub(crate) fn is_tool_call(&self) -> bool {
        match self {
            Input::Plain(_) => false,
            Input::Sse(p) => matches!(p.channel, Some(settled::provider::Channel::Tool(_))),
        }
    }

    /// The provider's finish reason, if the input was a provider stream that sent one.
    pub(crate) fn finish_reason(&self) -> Option<&settled::provider::FinishReason> {
        match self {
            Input::Plain(_) => None,
            Input::Sse(p) => p.finish.as_ref(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_lines_and_joins_split_surrogates() {
        let text = "\"{\\\"a\\\": \\\"\\ud83d\"\n\n\"\\ude80\\\"}\"\n\"tab\\there \\u00e9\"\n";
        let chunks = decode_chunks(text).unwrap();
        assert_eq!(chunks[0], b"{\"a\": \"");
        assert_eq!(chunks[1], "🚀\"}".as_bytes());
        assert_eq!(chunks[2], "tab\there é".as_bytes());
    }

    #[test]
    fn a_byte_order_mark_at_the_file_start_is_skipped() {
        let chunks = decode_chunks("\u{feff}\"{\\\"a\"\n\"\\\": 1}\"\n").unwrap();
        assert_eq!(chunks, [b"{\"a".to_vec(), b"\": 1}".to_vec()]);
        // Elsewhere it is no part of a string literal.
        assert!(decode_chunks("\"a\"\n\u{feff}\"b\"\n").is_err());
    }

    #[test]
    fn rejects_what_is_not_a_string_literal() {
        for text in [
            "{\"a\": 1}",
            "\"open",
            "\"\\ud83d\"",
            "\"\\ude80\"",
            "\"a\\qb\"",
            "\"\\ud83dx\"",
            "\"\\u+041\"",
            "\"\\u12\"",
            "\"\\u12\\\"",
            "\"\\u00g1\"",
        ] {
            assert!(decode_chunks(text).is_err(), "{text:?}");
        }
    }

    /// An input that never ends: `"ab"` lines, or with `raw`, the byte `x`.
    struct Endless {
        raw: bool,
        at: usize,
    }

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let line = if self.raw {
                &b"x"[..]
            } else {
                &b"\"ab\"\n"[..]
            };
            for byte in buf.iter_mut() {
                *byte = line[self.at % line.len()];
                self.at += 1;
            }
            Ok(buf.len())
        }
    }

    /// `--split` and `--chunks` read only what they replay (read whole, an endless input
    /// would never end, and a large one would be held whole): memory stays with the cap.
    #[test]
    fn sources_read_only_what_they_replay() {
        let mut out = Vec::new();
        let mut split = Chunks::Split {
            input: Box::new(Endless { raw: true, at: 0 }),
            left: u64::MAX,
            n: 7,
        };
        for _ in 0..3 {
            assert_eq!(split.next_chunk(&mut out, false).unwrap(), Next::Chunk);
            assert_eq!(out, b"xxxxxxx");
        }
        // Up to the cap, and no further.
        let mut split = Chunks::Split {
            input: Box::new(Endless { raw: true, at: 0 }),
            left: 10,
            n: 7,
        };
        assert_eq!(split.next_chunk(&mut out, false).unwrap(), Next::Chunk);
        assert_eq!(split.next_chunk(&mut out, false).unwrap(), Next::Chunk);
        assert_eq!(out, b"xxx");
        assert_eq!(split.next_chunk(&mut out, false).unwrap(), Next::End);
        let mut lines = Chunks::Lines(Lines::new(Box::new(io::BufReader::new(Endless {
            raw: false,
            at: 0,
        }))));
        for _ in 0..3 {
            assert_eq!(lines.next_chunk(&mut out, false).unwrap(), Next::Chunk);
            assert_eq!(out, b"ab");
        }
    }

    /// Reads that came while the replay was busy are one chunk: a fast input comes in a
    /// few chunks, not one per read, and nothing is lost or reordered; an error comes
    /// after the bytes read before it.
    #[test]
    fn reads_that_came_meanwhile_are_one_chunk() {
        let input: Vec<u8> = (0..4_000_000u32).map(|i| (i % 251) as u8).collect();
        let (send, receive) = std::sync::mpsc::sync_channel(READS_QUEUED);
        let source = input.clone();
        let reader = std::thread::spawn(move || read_all(source.as_slice(), &send));
        reader.join().unwrap();
        let mut chunks = Chunks::Stdin {
            receive,
            failed: None,
        };
        let mut got = Vec::new();
        let mut out = Vec::new();
        while chunks.next_chunk(&mut out, false).unwrap() == Next::Chunk {
            got.push(std::mem::take(&mut out));
        }
        assert_eq!(got.concat(), input);
        assert_eq!(got.len(), 1, "{} chunks", got.len());
        // A read error after some bytes: the bytes first, then the error.
        let (send, receive) = std::sync::mpsc::sync_channel(READS_QUEUED);
        send.send(Ok(b"ab".to_vec())).unwrap();
        send.send(Err(std::io::Error::other("gone"))).unwrap();
        let mut chunks = Chunks::Stdin {
            receive,
            failed: None,
        };
        assert_eq!(chunks.next_chunk(&mut out, false).unwrap(), Next::Chunk);
        assert_eq!(out, b"ab");
        assert!(chunks.next_chunk(&mut out, false).is_err());
    }
}
