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

/// The most bytes of stdin gathered into one chunk (fewer under a lower byte cap: see
/// [`gather_limit`]).
const GATHER_LIMIT: usize = 16 * 1024 * 1024;

/// The size of one read of stdin.
const READ_SIZE: usize = 64 * 1024;

/// The most bytes of stdin gathered into one chunk, and (as many again) waiting for the
/// replay, under the byte cap `max_bytes`: what the replay can read of them, one byte past
/// the cap, or for a provider's events, one event's bound (eight times the cap, plus 64
/// KiB: see [`Provided::new`]). Memory stays with the cap, whatever the input's size.
fn gather_limit(max_bytes: u64, events: bool) -> usize {
    let bound = match events {
        true => max_bytes.saturating_mul(8).saturating_add(64 * 1024),
        false => max_bytes.saturating_add(1),
    };
    usize::try_from(bound)
        .unwrap_or(usize::MAX)
        .clamp(1, GATHER_LIMIT)
}

/// Reads `input` (stdin), at most `left` bytes, and sends what each read gave, until the
/// input ends or fails.
fn read_all(mut input: impl Read, mut left: u64, send: &SyncSender<io::Result<Vec<u8>>>) {
    let mut buf = vec![0; READ_SIZE];
    loop {
        let want = usize::try_from(left).unwrap_or(usize::MAX).min(READ_SIZE);
        if want == 0 {
            return;
        }
        let read = match input.read(buf.get_mut(..want).unwrap_or_default()) {
            Ok(0) => return,
            Ok(n) => {
                left = left.saturating_sub(n as u64);
                Ok(buf.get(..n).unwrap_or_default().to_vec())
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => Err(e),
        };
        let failed = read.is_err();
        if send.send(read).is_err() || failed {
            return;
        }
    }
}

/// A failed read of stdin, saying so (its kind kept: a closed pipe stays one).
fn from_stdin(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("cannot read stdin: {e}"))
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
        gather: usize,
    },
    /// stdin read `n` bytes at a time, as they are needed; at most `left` more bytes.
    Split {
        input: Box<dyn Read + Send>,
        left: u64,
        n: usize,
    },
    /// A chunks file, decoded a line at a time: the chunks `held` when it was opened (a
    /// pipe is read once), then the rest of its lines as they are replayed.
    Lines {
        held: Held,
        rest: Lines<Box<dyn BufRead + Send>>,
    },
}

impl Chunks {
    /// Opens `source`. A chunks file that is not NDJSON string literals is a usage error.
    /// `cap`: the bytes the replay reads at most (`u64::MAX` for a provider's events,
    /// whose text the byte cap counts downstream); `max_bytes`, the byte cap.
    pub(crate) fn open(source: &Source, cap: u64, max_bytes: u64) -> Result<Chunks, Failure> {
        match source {
            Source::Stdin => {
                // One byte past the cap is enough for the stream to say it is too large
                // (a provider's events are read to their end, their text capped
                // downstream).
                let gather = gather_limit(max_bytes, cap == u64::MAX);
                let (send, receive) = sync_channel((gather / READ_SIZE).max(1));
                let left = cap.saturating_add(1);
                std::thread::spawn(move || read_all(io::stdin().lock(), left, &send));
                Ok(Chunks::Stdin {
                    receive,
                    failed: None,
                    gather,
                })
            }
            // One byte past the cap is enough for the stream to say it is too large; a
            // provider's events are read as they are needed, their text capped downstream.
            Source::Split(n) => Ok(Chunks::Split {
                input: Box::new(io::stdin()),
                left: cap.saturating_add(1),
                n: *n,
            }),
            Source::Chunks(path) => {
                // `-` is stdin, as for most tools that take a file.
                let stdin = path.as_os_str() == "-";
                let name = if stdin {
                    "stdin".into()
                } else {
                    path.display().to_string()
                };
                let unreadable = |e: io::Error| Failure::Usage(format!("cannot read {name}: {e}"));
                let bad_line =
                    |(line, e): (usize, String)| Failure::Usage(format!("{name} line {line}: {e}"));
                let open = || -> Result<Lines<Box<dyn BufRead + Send>>, Failure> {
                    let file: Box<dyn BufRead + Send> = if stdin {
                        Box::new(io::BufReader::new(io::stdin()))
                    } else {
                        let file = std::fs::File::open(path).map_err(unreadable)?;
                        Box::new(io::BufReader::new(file))
                    };
                    Ok(Lines::new(file, max_bytes, cap != u64::MAX))
                };
                // Checked first, a line at a time, so that a bad line is a usage error
                // before anything is printed: up to one byte past the cap (the replay
                // stops there) or, for a provider's events (whose text, not their bytes,
                // the cap counts), up to `HOLD_BYTES` of them. A regular file is then read
                // again as it is replayed; a pipe, read once, has what was checked held.
                let regular = !stdin && std::fs::metadata(path).is_ok_and(|m| m.is_file());
                let bound = match cap {
                    u64::MAX => HOLD_BYTES,
                    cap => usize::try_from(cap.saturating_add(1)).unwrap_or(usize::MAX),
                };
                let mut check = open()?;
                let mut held = Held::default();
                let mut checked = 0usize;
                while checked <= bound {
                    let Some(chunk) = check.next().map_err(bad_line)? else {
                        break;
                    };
                    checked = checked.saturating_add(chunk.len());
                    if !regular {
                        held.push(&chunk);
                    }
                }
                let rest = if regular { open()? } else { check };
                Ok(Chunks::Lines { held, rest })
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
            Chunks::Stdin {
                receive,
                failed,
                gather,
            } => {
                if let Some(error) = failed.take() {
                    return Err(from_stdin(error));
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
                        *out = read.map_err(from_stdin)?;
                        while out.len() < *gather {
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
                let got = input
                    .by_ref()
                    .take(want)
                    .read_to_end(out)
                    .map_err(from_stdin)?;
                *left = left.saturating_sub(got as u64);
                Ok(if got == 0 { Next::End } else { Next::Chunk })
            }
            Chunks::Lines { held, rest } => {
                if let Some(chunk) = held.next_delta() {
                    out.extend_from_slice(chunk.as_bytes());
                    return Ok(Next::Chunk);
                }
                *held = Held::default();
                match rest.next() {
                    Ok(Some(chunk)) => {
                        *out = chunk.into_bytes();
                        Ok(Next::Chunk)
                    }
                    Ok(None) => Ok(Next::End),
                    // The file changed since it was checked, or this line is past what
                    // was checked.
                    Err((line, e)) => Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("chunks file line {line}: {e}"),
                    )),
                }
            }
        }
    }
}

/// A chunks file's chunks, a line at a time: one JSON string literal per non-blank line. A
/// UTF-16 surrogate pair split between two lines (as a UTF-16 tokenizer may split it)
/// joins the second line's chunk. Errors name their line (1-based).
///
/// At most `limit` bytes of a line are held (blank space around it is skipped, not held):
/// enough for every byte the replay can read under the byte cap (an escape is at most six
/// bytes a byte). A longer line is, with `cut`, the chunk its first `limit` bytes spell (the
/// replay stops inside it, at the cap), the rest skipped to its end; without (a provider's
/// events, which cannot be cut), an error.
pub(crate) struct Lines<R> {
    input: R,
    line: Vec<u8>,
    limit: usize,
    cut: bool,
    /// The rest of a line that was cut is still to skip.
    skip: bool,
    /// Lines read, and the last one that was not blank.
    read: usize,
    last: usize,
    carry: Option<u16>,
}

impl<R: BufRead> Lines<R> {
    fn new(input: R, max_bytes: u64, cut: bool) -> Self {
        let limit = max_bytes
            .saturating_add(1)
            .saturating_mul(8)
            .saturating_add(64 * 1024);
        Lines {
            input,
            line: Vec::new(),
            limit: usize::try_from(limit).unwrap_or(usize::MAX),
            cut,
            skip: false,
            read: 0,
            last: 0,
            carry: None,
        }
    }

    /// The next chunk, `None` at the end of the file.
    fn next(&mut self) -> Result<Option<String>, (usize, String)> {
        if std::mem::take(&mut self.skip) {
            // Not before the cut line's chunk is replayed: the line may never end.
            self.input
                .skip_until(b'\n')
                .map_err(|e| (self.read, e.to_string()))?;
        }
        loop {
            let failed = |read: usize| move |e: io::Error| (read + 1, e.to_string());
            // Blank space before the line's text: not held, whatever its length.
            let blank = self.skip_blank().map_err(failed(self.read))?;
            match blank {
                None => {
                    return match self.carry {
                        Some(_) => Err((
                            self.last,
                            "a UTF-16 surrogate pair is never completed".into(),
                        )),
                        None => Ok(None),
                    };
                }
                Some(true) => {
                    self.read += 1;
                    continue;
                }
                Some(false) => {}
            }
            self.line.clear();
            let limit = u64::try_from(self.limit).unwrap_or(u64::MAX);
            (&mut self.input)
                .take(limit)
                .read_until(b'\n', &mut self.line)
                .map_err(failed(self.read))?;
            self.read += 1;
            let whole = self.line.len() < self.limit || self.line.last() == Some(&b'\n');
            let text = match std::str::from_utf8(&self.line) {
                Ok(text) => text,
                // A character the limit split.
                Err(e) if !whole && e.error_len().is_none() => {
                    std::str::from_utf8(self.line.get(..e.valid_up_to()).unwrap_or_default())
                        .unwrap_or_default()
                }
                Err(_) => return Err((self.read, "the line is not UTF-8".into())),
            };
            // A byte-order mark that an editor wrote at the file's start is no chunk's.
            let text = match self.read {
                1 => text.trim_start_matches('\u{feff}'),
                _ => text,
            };
            let text = text.trim();
            if text.is_empty() {
                continue;
            }
            self.last = self.read;
            if whole {
                return decode_line(text, &mut self.carry, false)
                    .map(Some)
                    .map_err(|e| (self.read, e));
            }
            if !self.cut {
                let limit = self.limit;
                return Err((self.read, format!("the line is longer than {limit} bytes")));
            }
            let chunk = decode_line(text, &mut self.carry, true).map_err(|e| (self.read, e))?;
            self.skip = true;
            return Ok(Some(chunk));
        }
    }

    /// Skips spaces, tabs and carriage returns: `None` at the end of the input,
    /// `Some(true)` after a blank line's newline, `Some(false)` before a line's text.
    fn skip_blank(&mut self) -> io::Result<Option<bool>> {
        loop {
            let buf = match self.input.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(None);
            }
            let blank = buf
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t' | b'\r'))
                .count();
            let next = buf.get(blank).copied();
            let newline = next == Some(b'\n');
            self.input.consume(blank + usize::from(newline));
            match next {
                Some(b'\n') => return Ok(Some(true)),
                Some(_) => return Ok(Some(false)),
                None => {}
            }
        }
    }
}

/// Decodes a whole chunks file (see [`Lines`]).
#[cfg(test)]
fn decode_chunks(text: &str) -> Result<Vec<Vec<u8>>, (usize, String)> {
    let mut lines = Lines::new(text.as_bytes(), u64::MAX, true);
    let mut chunks = Vec::new();
    while let Some(chunk) = lines.next()? {
        chunks.push(chunk.into_bytes());
    }
    Ok(chunks)
}

const NOT_A_STRING: &str = "each line must be one JSON string literal";

/// One JSON string literal's text; a trailing high surrogate is left in `carry`. With
/// `cut`, `line` is the start of a longer line: its closing quote may be missing, and an
/// escape cut at its end is dropped (as is a high surrogate left waiting).
fn decode_line(line: &str, carry: &mut Option<u16>, cut: bool) -> Result<String, String> {
    let body = line
        .strip_prefix('"')
        .ok_or_else(|| NOT_A_STRING.to_string())?;
    let body = match (cut, body.strip_suffix('"')) {
        (false, None) => return Err(NOT_A_STRING.to_string()),
        (false, Some(body)) => body,
        // The closing quote, if any, ends the line's text (checked below).
        (true, _) => body,
    };
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if cut && c == '"' && chars.as_str().trim().is_empty() {
            break;
        }
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
                if cut && hex.len() < 4 && chars.as_str().is_empty() {
                    break;
                }
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
            None if cut => break,
            Some(other) => return Err(format!("invalid escape `\\{other}`")),
            None => return Err("a backslash ends the string".into()),
        };
        if carry.is_some() {
            return Err("a UTF-16 surrogate pair is split by other text".into());
        }
        out.push(decoded);
    }
    if cut {
        *carry = None;
    }
    Ok(out)
}

/// At most this much of the assistant's text is held back waiting for a tool call: past
/// it, the text is the document.
const HOLD_BYTES: usize = 1 << 20;

/// The assistant's text held back, its deltas in one buffer (a delta's own allocation
/// would cost more than its text when deltas are a byte or a token each), then replayed
/// one delta at a time once the text is chosen.
#[derive(Default)]
pub(crate) struct Held {
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
/// end. Under `--strict`, text that fails before any value began in it is not the
/// document unless no tool call follows: it is not held past the byte where it failed,
/// and a tool call is awaited until the end or [`HOLD_BYTES`] of text.
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
        // A value that began in the delta that failed began as it would have in a delta of
        // its own: the text is chosen whatever the deltas' sizes (`{x}`, `{"a": 1} x`).
        match result {
            Ok(()) if !began && !over => {}
            Err(_) if self.strict && !began && !over => self.probe = None,
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

    /// stdin is read to one byte past the cap, and no more waits for the replay than the
    /// cap can use (a review: 50 MB piped under a 1,000-byte cap peaked at 35 MB).
    #[test]
    fn stdin_is_read_with_the_cap() {
        let (send, receive) = sync_channel(4);
        let input = vec![b'x'; 3 * READ_SIZE];
        read_all(&input[..], 1001, &send);
        drop(send);
        let read: Vec<u8> = receive.iter().flat_map(Result::unwrap).collect();
        assert_eq!(read.len(), 1001);
        let (send, receive) = sync_channel(4);
        read_all(&input[..], u64::MAX, &send);
        drop(send);
        assert_eq!(receive.iter().flat_map(Result::unwrap).count(), input.len());
        assert_eq!(gather_limit(1000, false), 1001);
        assert_eq!(gather_limit(0, false), 1);
        assert_eq!(gather_limit(1000, true), 8000 + 64 * 1024);
        assert_eq!(gather_limit(u64::MAX, false), GATHER_LIMIT);
        assert_eq!(gather_limit(u64::MAX, true), GATHER_LIMIT);
    }

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

    #[test]
    fn a_bad_escape_is_named_as_written() {
        let message = |line: &str| decode_line(line, &mut None, false).unwrap_err();
        assert_eq!(message("\"a\\qb\""), "invalid escape `\\q`");
        assert_eq!(message("\"ab\\\""), "a backslash ends the string");
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
        let endless = Box::new(io::BufReader::new(Endless { raw: false, at: 0 }));
        let mut lines = Chunks::Lines {
            held: Held::default(),
            rest: Lines::new(endless, 10, true),
        };
        for _ in 0..3 {
            assert_eq!(lines.next_chunk(&mut out, false).unwrap(), Next::Chunk);
            assert_eq!(out, b"ab");
        }
        // An endless line: the chunk its first bytes spell (the replay stops inside it, at
        // the cap), not the whole line.
        let endless = Box::new(io::BufReader::new(
            io::Cursor::new(b"\"").chain(Endless { raw: true, at: 0 }),
        ));
        let mut lines = Chunks::Lines {
            held: Held::default(),
            rest: Lines::new(endless, 10, true),
        };
        assert_eq!(lines.next_chunk(&mut out, false).unwrap(), Next::Chunk);
        assert!(
            out.len() > 10 && out.iter().all(|&b| b == b'x'),
            "{}",
            out.len()
        );
    }

    /// A line longer than the byte cap can replay is read up to what it can replay; a
    /// provider's event line is not cut.
    #[test]
    fn a_long_line_is_read_as_far_as_the_cap() {
        let long = format!(
            "  \"{}\\u00e9{}\"  \n\"next\"\n",
            "a".repeat(100),
            "b".repeat(100_000)
        );
        let mut lines = Lines::new(long.as_bytes(), 10, true);
        let limit = lines.limit;
        let chunk = lines.next().unwrap().unwrap();
        assert!(
            chunk.starts_with(&format!("{}é", "a".repeat(100))),
            "{chunk:?}"
        );
        assert!(chunk.len() < limit && chunk.len() > 10, "{}", chunk.len());
        assert_eq!(lines.next().unwrap().as_deref(), Some("next"));
        assert_eq!(lines.next().unwrap(), None);
        // Cut inside an escape, or inside a surrogate pair: what came before it.
        for tail in ["\\u00", "\\ud83d", "\\ud83d\\ude", "\\"] {
            let line = format!("\"{}{tail}", "a".repeat(limit - 1 - tail.len()));
            let text = format!("{line}xyz\n\"b\"");
            let mut lines = Lines::new(text.as_bytes(), 10, true);
            let chunk = lines.next().unwrap().unwrap();
            assert_eq!(chunk, "a".repeat(limit - 1 - tail.len()), "{tail}");
            assert_eq!(lines.next().unwrap().as_deref(), Some("b"), "{tail}");
        }
        // Blank space of any length is skipped, not held.
        let padded = format!("{}\"x\"\n", " ".repeat(1 << 20));
        assert_eq!(
            Lines::new(padded.as_bytes(), 10, true)
                .next()
                .unwrap()
                .as_deref(),
            Some("x")
        );
        // Text after the closing quote is still refused; an event line is not cut.
        let junk = format!("\"ab\" junk{}\n", " ".repeat(limit));
        assert!(Lines::new(junk.as_bytes(), 10, true).next().is_err());
        let event = format!("\"{}\"\n", "a".repeat(limit));
        assert!(Lines::new(event.as_bytes(), 10, false).next().is_err());
    }

    /// Reads that came while the replay was busy are one chunk: a fast input comes in a
    /// few chunks, not one per read, and nothing is lost or reordered; an error comes
    /// after the bytes read before it.
    #[test]
    fn reads_that_came_meanwhile_are_one_chunk() {
        let input: Vec<u8> = (0..4_000_000u32).map(|i| (i % 251) as u8).collect();
        let (send, receive) = std::sync::mpsc::sync_channel(GATHER_LIMIT / READ_SIZE);
        let source = input.clone();
        let reader = std::thread::spawn(move || read_all(source.as_slice(), u64::MAX, &send));
        reader.join().unwrap();
        let mut chunks = Chunks::Stdin {
            receive,
            failed: None,
            gather: GATHER_LIMIT,
        };
        let mut got = Vec::new();
        let mut out = Vec::new();
        while chunks.next_chunk(&mut out, false).unwrap() == Next::Chunk {
            got.push(std::mem::take(&mut out));
        }
        assert_eq!(got.concat(), input);
        assert_eq!(got.len(), 1, "{} chunks", got.len());
        // A read error after some bytes: the bytes first, then the error.
        let (send, receive) = std::sync::mpsc::sync_channel(2);
        send.send(Ok(b"ab".to_vec())).unwrap();
        send.send(Err(std::io::Error::other("gone"))).unwrap();
        let mut chunks = Chunks::Stdin {
            receive,
            failed: None,
            gather: GATHER_LIMIT,
        };
        assert_eq!(chunks.next_chunk(&mut out, false).unwrap(), Next::Chunk);
        assert_eq!(out, b"ab");
        assert!(chunks.next_chunk(&mut out, false).is_err());
    }
}
