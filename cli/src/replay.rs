//! The replay loop: feed each chunk, print its line, print the done line.

use crate::args::{Emit, Replay};
use crate::source::{Chunks, Input, Next, Provided};
use settled::{DynamicStream, Error, ErrorKind};
use std::io::{self, Write};

/// Why a replay could not run to its done line.
pub(crate) enum Failure {
    Usage(String),
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Io(e)
    }
}

/// Runs the replay; `Ok(true)` after a value, `Ok(false)` after an error line.
///
/// The next chunk is read before the current chunk's line is printed, so that a value
/// settled by the end of the input (a root number, or a reply that is one scalar) is reported with the last chunk.
pub(crate) fn run(replay: &Replay) -> Result<bool, Failure> {
    // The byte cap counts the text a provider's events carry, not the events: their
    // reader enforces its own bounds.
    let cap = match replay.sse {
        Some(_) => u64::MAX,
        None => replay.options.max_bytes,
    };
    let plain = Chunks::open(&replay.source, cap, replay.options.max_bytes)?;
    let mut chunks = match replay.sse {
        Some(provider) => Input::Sse(Box::new(Provided::new(plain, provider, &replay.options))),
        None => Input::Plain(plain),
    };
    let live = chunks.is_live();
    let mut stream = DynamicStream::with_options(replay.options.clone());
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let mut line = String::new();
    let mut current = Vec::new();
    let mut upcoming = Vec::new();
    let mut have = match chunks.next_chunk(&mut current, false) {
        Ok(next) => next == Next::Chunk,
        Err(e) if e.kind() == io::ErrorKind::InvalidData => {
            return finish_broken(&mut out, &mut line, &e, &stream);
        }
        Err(e) => return Err(e.into()),
    };
    if replay.options.starts_in_reasoning && chunks.is_tool_call() {
        // The reasoning block the prompt opened is in the text, not in a tool's arguments.
        stream = DynamicStream::with_options(replay.options.clone().starts_in_reasoning(false));
    }
    let mut index = 0u64;
    let mut outcome: Option<Result<(), Error>> = None;
    while have {
        if let Err(error) = stream.feed(&current) {
            write_chunk(&mut out, &mut line, replay.emit, index, &stream)?;
            outcome = Some(Err(error));
            break;
        }
        // Look ahead: at the end of the input, finish before printing the last line so a
        // root number (or a reply that is one scalar) settles with it. A live source that is slower than the lookahead
        // gets its line now.
        let mut printed = false;
        let mut next = chunks.next_chunk(&mut upcoming, live);
        if matches!(next, Ok(Next::Pending)) {
            write_chunk(&mut out, &mut line, replay.emit, index, &stream)?;
            out.flush()?;
            printed = true;
            next = chunks.next_chunk(&mut upcoming, false);
        }
        let next = match next {
            Ok(next) => next,
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                if !printed {
                    write_chunk(&mut out, &mut line, replay.emit, index, &stream)?;
                }
                return finish_broken(&mut out, &mut line, &e, &stream);
            }
            Err(e) => return Err(e.into()),
        };
        if next == Next::End {
            let reported = stream.settled().count();
            let shown = (printed && replay.emit == Emit::Full).then(|| snapshot_json(&stream));
            outcome = Some(end(&mut stream, &chunks));
            // The chunk's line went out before the input ended, and the end settled a
            // value (a root number, a reply that is one scalar) or changed the snapshot
            // (`[4` cut: the array where the reply begins is the answer, cut): the
            // chunk's line again, with what settled since.
            let changed = shown.is_some_and(|shown| shown != snapshot_json(&stream));
            if printed && (stream.settled().count() > reported || changed) {
                let (emit, skip) = (replay.emit, reported);
                write_chunk_from(&mut out, &mut line, emit, index, &stream, skip)?;
            }
        }
        if !printed {
            write_chunk(&mut out, &mut line, replay.emit, index, &stream)?;
            if live {
                out.flush()?;
            }
        }
        std::mem::swap(&mut current, &mut upcoming);
        index += 1;
        have = next == Next::Chunk;
    }
    let outcome = match outcome {
        Some(outcome) => outcome,
        None => end(&mut stream, &chunks),
    };
    line.clear();
    let ok = match outcome {
        Ok(()) => {
            line.push_str(r#"{"done":true,"value":"#);
            if let Some(value) = stream.draft() {
                value.write_json(&mut line);
            }
            true
        }
        Err(error) => {
            write_error(&mut line, &error);
            // The last good snapshot: what `--emit final` would otherwise lose.
            line.push_str(r#","snapshot":"#);
            match stream.draft() {
                Some(value) => value.write_json(&mut line),
                None => line.push_str("null"),
            }
            false
        }
    };
    // What was tolerated on the way (a second value kept or replaced, a duplicate key).
    if !stream.warnings().is_empty() {
        line.push_str(r#","warnings":["#);
        for (i, warning) in stream.warnings().iter().enumerate() {
            if i > 0 {
                line.push(',');
            }
            line.push_str(r#"{"offset":"#);
            line.push_str(&warning.offset.to_string());
            line.push_str(r#","message":"#);
            push_json_str(&mut line, &warning.to_string());
            line.push('}');
        }
        line.push(']');
    }
    line.push('}');
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(ok)
}

/// Ends the input the way the provider said it ended: a finish that stopped it early (a
/// token limit, a filter, a refusal) is a cut; so is the end of a stream whose tool call
/// began and sent no argument text before it ended with no finish reason (the connection
/// dropped: as `ToolStreams::finish` reads it, not a call without parameters).
fn end(stream: &mut DynamicStream, chunks: &Input) -> Result<(), Error> {
    match chunks.finish_reason() {
        Some(reason) => match reason.stop_cause() {
            Some(cause) => stream.cut_input(cause),
            None => stream.end_input(),
        },
        None if chunks.is_tool_call() && stream.offset() == 0 => {
            stream.cut_input("no finish reason")
        }
        None => stream.end_input(),
    }
}

/// One chunk line, as `--emit` asks. Written as it is produced: a line may be far larger
/// than the input (every settled value carries its path), and none of it is held whole
/// but the snapshot and one value at a time.
fn write_chunk(
    out: &mut impl Write,
    line: &mut String,
    emit: Emit,
    index: u64,
    stream: &DynamicStream,
) -> io::Result<()> {
    write_chunk_from(out, line, emit, index, stream, 0)
}

/// [`write_chunk`] listing the settled values after the first `skip`.
fn write_chunk_from(
    out: &mut impl Write,
    line: &mut String,
    emit: Emit,
    index: u64,
    stream: &DynamicStream,
    skip: usize,
) -> io::Result<()> {
    if emit == Emit::Final {
        return Ok(());
    }
    write!(out, r#"{{"chunk":{index}"#)?;
    if emit == Emit::Full {
        out.write_all(br#","snapshot":"#)?;
        line.clear();
        match stream.draft() {
            Some(value) => value.write_json(line),
            None => line.push_str("null"),
        }
        out.write_all(line.as_bytes())?;
    }
    out.write_all(br#","settled":["#)?;
    for (i, (path, value)) in stream.settled().skip(skip).enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        out.write_all(br#"{"path":""#)?;
        let mut escaped = JsonText { out, error: None };
        if path.write_to(&mut escaped).is_err() {
            return Err(escaped
                .error
                .unwrap_or_else(|| io::Error::other("formatting a path failed")));
        }
        out.write_all(br#"","value":"#)?;
        line.clear();
        value.write_json(line);
        out.write_all(line.as_bytes())?;
        out.write_all(b"}")?;
    }
    out.write_all(b"]}\n")
}

/// Writes text into a JSON string literal (without its quotes), escaped, to `out`.
struct JsonText<'w, W: Write> {
    out: &'w mut W,
    error: Option<io::Error>,
}

impl<W: Write> std::fmt::Write for JsonText<'_, W> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let mut plain = 0;
        let mut result = Ok(());
        for (i, c) in s.char_indices() {
            if c >= ' ' && c != '"' && c != '\\' {
                continue;
            }
            result = result
                .and_then(|()| {
                    self.out
                        .write_all(s.as_bytes().get(plain..i).unwrap_or_default())
                })
                .and_then(|()| match c {
                    '"' => self.out.write_all(br#"\""#),
                    '\\' => self.out.write_all(br"\\"),
                    '\n' => self.out.write_all(br"\n"),
                    '\r' => self.out.write_all(br"\r"),
                    '\t' => self.out.write_all(br"\t"),
                    c => write!(self.out, "\\u{:04x}", u32::from(c)),
                });
            plain = i + c.len_utf8();
        }
        result = result.and_then(|()| {
            self.out
                .write_all(s.as_bytes().get(plain..).unwrap_or_default())
        });
        result.map_err(|e| {
            self.error = Some(e);
            std::fmt::Error
        })
    }
}

/// A provider stream that could not be decoded ends the replay as `invalid`.
fn finish_broken(
    out: &mut impl Write,
    line: &mut String,
    error: &io::Error,
    stream: &DynamicStream,
) -> Result<bool, Failure> {
    let at = stream.position();
    line.clear();
    line.push_str(r#"{"done":true,"error":{"kind":"invalid","message":"#);
    push_json_str(
        line,
        &format!("the provider stream cannot be decoded: {error}"),
    );
    line.push_str(&format!(
        r#","offset":{},"line":{},"column":{}}},"snapshot":"#,
        at.offset, at.line, at.column
    ));
    match stream.draft() {
        Some(value) => value.write_json(line),
        None => line.push_str("null"),
    }
    line.push('}');
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(false)
}

fn write_error(line: &mut String, error: &Error) {
    line.push_str(r#"{"done":true,"error":{"kind":"#);
    push_json_str(line, kind_name(error.kind()));
    line.push_str(r#","message":"#);
    push_json_str(line, &error.to_string());
    line.push_str(r#","offset":"#);
    line.push_str(&error.offset().to_string());
    line.push_str(r#","line":"#);
    line.push_str(&error.line().to_string());
    line.push_str(r#","column":"#);
    line.push_str(&error.column().to_string());
    line.push('}');
}

fn kind_name(kind: ErrorKind) -> &'static str {
    kind.as_str()
}

fn push_json_str(line: &mut String, s: &str) {
    // serde_json's string escaping cannot fail for a `&str`.
    match serde_json::to_string(s) {
        Ok(quoted) => line.push_str(&quoted),
        Err(_) => line.push_str("\"\""),
    }
}

/// The stream's snapshot as JSON (`null` before any).
fn snapshot_json(stream: &DynamicStream) -> String {
    let mut json = String::new();
    match stream.draft() {
        Some(value) => value.write_json(&mut json),
        None => json.push_str("null"),
    }
    json
}
