//! Coverage-guided fuzz targets. Each `pub fn name(data: &[u8])` panics on a contract
//! violation; `fuzz/fuzz_targets/<name>.rs` hands it to libFuzzer on nightly, and
//! `tests/fuzz_corpus.rs` replays the committed seeds (`fuzz/seeds/<name>/`) on stable.
//!
//! Byte-driven targets read their first byte(s) as a plan (chunk sizes, options) and the
//! rest as the input, so a seed is a plan byte followed by a realistic model output.

use arbitrary::{Arbitrary, Unstructured};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use settled::provider::sse::{SseEvent, SseParser};
use settled::provider::{Channel, Decoder, Delta, FinishReason, Provider};
use settled::{DynamicStream, ErrorKind, Options, SecondRoot, StreamingModel, ValueKind, ValueRef};
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};

/// How a stream ended: the value's JSON text, or the error's kind and byte offset.
pub type Outcome = Result<String, (ErrorKind, u64)>;

/// Two chunk sizes in `1..=16` read from one plan byte (low nibble, high nibble).
fn plan(byte: u8) -> [usize; 2] {
    [usize::from(byte & 0x0f) + 1, usize::from(byte >> 4) + 1]
}

/// The chunk sizes named by the first byte, and the input after it.
fn split_plan(data: &[u8]) -> Option<([usize; 2], &[u8])> {
    data.split_first().map(|(&byte, rest)| (plan(byte), rest))
}

/// Splits `bytes` into chunks of `sizes`, cycling through them (a size of 0 counts as 1).
pub fn chunked<'a>(bytes: &'a [u8], sizes: &[usize]) -> Vec<&'a [u8]> {
    let mut chunks = Vec::new();
    let mut at = 0;
    let mut turn = 0;
    while at < bytes.len() {
        let size = sizes.get(turn % sizes.len().max(1)).copied().unwrap_or(1);
        let end = (at + size.max(1)).min(bytes.len());
        chunks.push(&bytes[at..end]);
        at = end;
        turn += 1;
    }
    chunks
}

/// Feeds `chunks` to a fresh [`DynamicStream`] and returns how it ended. An error's offset
/// never lies past the bytes fed.
pub fn outcome(options: &Options, chunks: &[&[u8]]) -> Outcome {
    let mut stream = DynamicStream::with_options(options.clone());
    let result = chunks
        .iter()
        .try_for_each(|chunk| stream.feed(chunk))
        .and_then(|()| {
            stream
                .finish()
                .map(|v| v.to_json())
                .map_err(settled::Error::from)
        });
    ended(result, chunks)
}

/// A partial value as a `serde_json::Value`. A number serde_json cannot hold (`1e400`)
/// becomes the string of its source text.
pub fn to_value(value: ValueRef<'_>) -> Value {
    match value.kind() {
        ValueKind::Null => Value::Null,
        ValueKind::Bool => Value::Bool(value.as_bool() == Some(true)),
        ValueKind::Number => {
            let text = value.as_number_text().unwrap_or_default();
            text.parse::<serde_json::Number>()
                .map_or_else(|_| Value::String(text.to_owned()), Value::Number)
        }
        ValueKind::String => Value::String(value.as_str().unwrap_or_default().to_owned()),
        ValueKind::Array => Value::Array(value.elements().map(to_value).collect()),
        ValueKind::Object => Value::Object(
            value
                .members()
                .map(|(key, member)| (key.to_owned(), to_value(member)))
                .collect(),
        ),
    }
}

/// `prev` may be shown before `next`: strings grow by appending, containers gain members,
/// scalars never change, nothing disappears or changes type.
pub fn extends(prev: &Value, next: &Value) -> bool {
    match (prev, next) {
        (Value::String(a), Value::String(b)) => b.starts_with(a.as_str()),
        (Value::Array(a), Value::Array(b)) => {
            a.len() <= b.len() && a.iter().zip(b).all(|(x, y)| extends(x, y))
        }
        (Value::Object(a), Value::Object(b)) => a
            .iter()
            .all(|(key, x)| b.get(key).is_some_and(|y| extends(x, y))),
        (a, b) => a == b,
    }
}

/// The value at RFC 6901 `pointer` under `root`.
pub fn lookup<'a>(root: ValueRef<'a>, pointer: &str) -> Option<ValueRef<'a>> {
    let Some(tokens) = pointer.strip_prefix('/') else {
        return pointer.is_empty().then_some(root);
    };
    let mut at = root;
    for token in tokens.split('/') {
        let key = token.replace("~1", "/").replace("~0", "~");
        at = match at.kind() {
            ValueKind::Array => at.index(key.parse().ok()?)?,
            ValueKind::Object => at.get(&key)?,
            _ => return None,
        };
    }
    Some(at)
}

// ---------------------------------------------------------------------------------------
// strict_differential
// ---------------------------------------------------------------------------------------

/// serde_json failed only where settled may legitimately differ: a number it cannot
/// represent, or nesting past its recursion limit.
fn serde_only_limit(error: &serde_json::Error) -> bool {
    let message = error.to_string();
    message.starts_with("number out of range") || message.starts_with("recursion limit exceeded")
}

/// Strict mode against serde_json: the first byte chooses a chunking, the rest is the
/// document. Both accept the same documents with the same value (a duplicate key keeps its
/// first value; numbers out of serde_json's range and nesting past its limit aside), and
/// the outcome is the same whole, in the planned chunks and byte by byte.
pub fn strict_differential(data: &[u8]) {
    let Some((sizes, input)) = split_plan(data) else {
        return;
    };
    let options = Options::default().strict(true);
    let whole = strict_value(&options, &[input]);
    for chunks in [chunked(input, &sizes), chunked(input, &[1])] {
        let other = strict_value(&options, &chunks);
        assert_eq!(whole, other, "the outcome depends on the chunking");
    }
    match (&whole, crate::FirstWins::parse(input)) {
        (Ok(ours), Ok(theirs)) => assert_eq!(ours, &theirs, "a different value than serde_json"),
        (Err(ours), Ok(theirs)) => panic!("serde_json reads {theirs}, settled fails: {ours:?}"),
        (Ok(ours), Err(theirs)) => assert!(
            serde_only_limit(&theirs),
            "settled reads {ours}, serde_json fails: {theirs}"
        ),
        (Err(_), Err(_)) => {}
    }
}

/// Like [`outcome`], with the value as a `serde_json::Value`.
fn strict_value(options: &Options, chunks: &[&[u8]]) -> Result<Value, (ErrorKind, u64)> {
    let mut stream = DynamicStream::with_options(options.clone());
    let result = chunks
        .iter()
        .try_for_each(|chunk| stream.feed(chunk))
        .and_then(|()| {
            let value = stream.finish().map_err(settled::Error::from)?;
            Ok(value.root().map_or(Value::Null, to_value))
        });
    result.map_err(|e| (e.kind(), e.offset()))
}

// ---------------------------------------------------------------------------------------
// lenient_snapshots
// ---------------------------------------------------------------------------------------

/// Lenient mode over arbitrary bytes: the first byte chooses a chunking, the rest is the
/// input, fed byte by byte and in the planned chunks. The outcome does not depend on the
/// chunking; every snapshot extends the one before; every settled value is the final value
/// at its pointer.
pub fn lenient_snapshots(data: &[u8]) {
    let Some((sizes, input)) = split_plan(data) else {
        return;
    };
    let options = Options::default();
    let bytewise = watch(&options, &chunked(input, &[1]));
    let planned = watch(&options, &chunked(input, &sizes));
    assert_eq!(bytewise, planned, "the outcome depends on the chunking");
    assert_eq!(planned, outcome(&options, &[input]), "fed whole");
}

/// Feeds `chunks`, checking the snapshot rule after every chunk and the settled reports at
/// the end; returns the outcome.
fn watch(options: &Options, chunks: &[&[u8]]) -> Outcome {
    let mut stream = DynamicStream::with_options(options.clone());
    let mut previous: Option<Value> = None;
    let mut reports: Vec<(String, String)> = Vec::new();
    let mut failed = None;
    for (i, chunk) in chunks.iter().enumerate() {
        let fed = stream.feed(chunk);
        previous = next_snapshot(&stream, previous, i);
        record_settled(&stream, &mut reports);
        if let Err(e) = fed {
            failed = Some((e.kind(), e.offset()));
            break;
        }
    }
    if failed.is_none() {
        if let Err(e) = stream.end_input() {
            failed = Some((e.kind(), e.offset()));
        }
        next_snapshot(&stream, previous, chunks.len());
        record_settled(&stream, &mut reports);
    }
    let root = stream.draft();
    for (pointer, json) in &reports {
        let at = root
            .and_then(|root| lookup(root, pointer))
            .map(|v| v.to_json());
        assert_eq!(at.as_ref(), Some(json), "settled {pointer} then changed");
    }
    match failed {
        Some(error) => Err(error),
        None => Ok(root.map(|v| v.to_json()).unwrap_or_default()),
    }
}

/// The stream's snapshot, checked to extend `previous` (a snapshot never disappears).
fn next_snapshot(stream: &DynamicStream, previous: Option<Value>, chunk: usize) -> Option<Value> {
    let next = stream.draft().map(to_value);
    match (&previous, &next) {
        (Some(prev), Some(next)) => assert!(
            extends(prev, next),
            "chunk {chunk}: snapshot {next} does not extend {prev}"
        ),
        (Some(prev), None) => panic!("chunk {chunk}: snapshot {prev} disappeared"),
        _ => {}
    }
    next
}

/// Appends the last feed's settled reports as (pointer, JSON) pairs.
fn record_settled(stream: &DynamicStream, reports: &mut Vec<(String, String)>) {
    reports.extend(
        stream
            .settled()
            .map(|(pointer, value)| (pointer.to_string(), value.to_json())),
    );
}

// ---------------------------------------------------------------------------------------
// typed
// ---------------------------------------------------------------------------------------

/// How deep [`Thread`]s nest when generated (each level is two JSON containers).
const MAX_NESTING: usize = 4;

thread_local! {
    /// The nesting of the [`Thread`] being generated.
    static NESTING: Cell<usize> = const { Cell::new(0) };
}

/// Most replies a generated [`Thread`] has (a wide tree makes a slow target).
const MAX_REPLIES: usize = 3;

/// Runs `generate` one nesting level deeper; at [`MAX_NESTING`], the default instead
/// (`None`, no replies).
fn deeper<T: Default>(generate: impl FnOnce() -> arbitrary::Result<T>) -> arbitrary::Result<T> {
    let depth = NESTING.with(Cell::get);
    if depth >= MAX_NESTING {
        return Ok(T::default());
    }
    NESTING.with(|n| n.set(depth + 1));
    let value = generate();
    NESTING.with(|n| n.set(depth));
    value
}

/// A thread's optional parent, recursion bounded by [`deeper`].
fn parent(u: &mut Unstructured<'_>) -> arbitrary::Result<Option<Box<Thread>>> {
    deeper(|| Option::arbitrary(u))
}

/// Up to [`MAX_REPLIES`] replies, recursion bounded by [`deeper`].
fn replies(u: &mut Unstructured<'_>) -> arbitrary::Result<Vec<Thread>> {
    deeper(|| {
        let count = u.int_in_range(0..=MAX_REPLIES)?;
        (0..count).map(|_| Thread::arbitrary(u)).collect()
    })
}

/// A float serde_json writes and reads back exactly: a multiple of 1/4.
fn quarter(u: &mut Unstructured<'_>) -> arbitrary::Result<f64> {
    Ok(f64::from(i16::arbitrary(u)?) / 4.0)
}

/// A unit enum: appears in a draft only once complete.
#[derive(Debug, Clone, Copy, PartialEq, Arbitrary, Serialize, Deserialize, StreamingModel)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Ship it.
    Ship,
    /// Hold it.
    Hold,
    /// Needs another look.
    NeedsWork,
}

/// A review thread: every kind of field a model writes, recursive through an optional boxed
/// parent and a vector of replies.
#[derive(Debug, Clone, PartialEq, Arbitrary, Serialize, Deserialize, StreamingModel)]
pub struct Thread {
    /// Free text (escapes, CJK, emoji, braces).
    pub title: String,
    /// A unit enum.
    pub verdict: Verdict,
    /// A small unsigned number.
    pub score: u8,
    /// A signed number.
    pub delta: i64,
    /// A float.
    #[arbitrary(with = quarter)]
    pub ratio: f64,
    /// A boolean.
    pub done: bool,
    /// Strings in a vector.
    pub tags: Vec<String>,
    /// A string-keyed map.
    pub weights: BTreeMap<String, u8>,
    /// Recursion through `Option<Box<Self>>`.
    #[arbitrary(with = parent)]
    pub parent: Option<Box<Thread>>,
    /// Recursion through `Vec<Self>`.
    #[arbitrary(with = replies)]
    pub replies: Vec<Thread>,
    /// A tuple: an array with positional events.
    pub anchor: (u16, String),
    /// A fixed-length array.
    pub rgb: [u8; 3],
    /// A set, streamed as an array.
    pub ids: BTreeSet<u16>,
    /// A map with integer keys (read from the key's text).
    pub lines: BTreeMap<u32, String>,
    /// A newtype struct: streams as its string.
    pub label: Label,
    /// Internally tagged unions, their tags first or (sorted) after their members.
    pub steps: Vec<Step>,
    /// An adjacently tagged union in an `Option`.
    pub alt: Option<Alt>,
    /// An externally tagged union holding a union.
    pub ext: Ext,
    /// An untagged union.
    pub any: Any,
}

/// An internally tagged union.
#[derive(Debug, Clone, PartialEq, Arbitrary, Serialize, Deserialize, StreamingModel)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Step {
    /// A struct variant.
    Reply {
        /// Free text.
        text: String,
    },
    /// Another, with a vector.
    Call {
        /// A name.
        name: String,
        /// Arguments.
        args: Vec<u8>,
    },
    /// A newtype variant around a model.
    Labelled(Note),
    /// A newtype variant around another union (its tag among this one's members).
    Choice(Alt),
    /// A unit variant.
    Stop,
}

/// A model inside a union.
#[derive(Debug, Clone, PartialEq, Arbitrary, Serialize, Deserialize, StreamingModel)]
pub struct Note {
    /// Free text.
    pub note: String,
    /// An adjacently tagged union inside an internally tagged one.
    pub alt: Option<Alt>,
}

/// An adjacently tagged union.
#[derive(Debug, Clone, PartialEq, Arbitrary, Serialize, Deserialize, StreamingModel)]
#[serde(tag = "t", content = "c")]
pub enum Alt {
    /// A unit variant.
    Empty,
    /// A newtype variant.
    Count(u32),
    /// A tuple variant.
    Pair(String, bool),
}

/// An externally tagged union.
#[derive(Debug, Clone, PartialEq, Arbitrary, Serialize, Deserialize, StreamingModel)]
pub enum Ext {
    /// A unit variant (written as a string).
    Nothing,
    /// A newtype variant holding a union.
    Step(Step),
    /// A struct variant.
    Named {
        /// Free text.
        name: String,
    },
}

/// An untagged union.
#[derive(Debug, Clone, PartialEq, Arbitrary, Serialize, Deserialize, StreamingModel)]
#[serde(untagged)]
pub enum Any {
    /// A number.
    Number(i32),
    /// A string.
    Text(String),
    /// An object.
    Object {
        /// Free text.
        key: String,
    },
    /// An array.
    List(Vec<bool>),
}

/// A newtype struct.
#[derive(Debug, Clone, PartialEq, Arbitrary, Serialize, Deserialize, StreamingModel)]
pub struct Label(pub String);

/// The JSON of `thread`, as a model might wrap it; returns the text and the JSON's byte
/// range in it.
fn wrap(thread: &Thread, style: u8) -> (String, std::ops::Range<usize>) {
    // Through a `Value`, keys are sorted: many tags come after their members.
    let (compact, pretty) = if style & 4 == 0 {
        (
            serde_json::to_string(thread).unwrap_or_default(),
            serde_json::to_string_pretty(thread).unwrap_or_default(),
        )
    } else {
        let value = serde_json::to_value(thread).unwrap_or_default();
        (
            serde_json::to_string(&value).unwrap_or_default(),
            serde_json::to_string_pretty(&value).unwrap_or_default(),
        )
    };
    let (before, json, after) = match style % 4 {
        0 => ("", compact, ""),
        1 => (
            "Sure! Here is the JSON:\n```json\n",
            pretty,
            "\n```\nAnything else?",
        ),
        2 => (
            "<think>\nThe user wants {\"a\": 1} in [brackets].\n</think>\n",
            compact,
            "\n",
        ),
        _ => ("\n  ", pretty, "\n\n"),
    };
    let range = before.len()..before.len() + json.len();
    (format!("{before}{json}{after}"), range)
}

/// Structure-aware: a generated [`Thread`], serialized (maybe wrapped in prose, a fence or
/// a `<think>` block) and fed in planned chunks, reads back as itself; its drafts render
/// and only grow; a cut inside the JSON is [`ErrorKind::Truncated`].
pub fn typed(data: &[u8]) {
    NESTING.with(|n| n.set(0));
    let mut u = Unstructured::new(data);
    let (Ok(plan_byte), Ok(style), Ok(cut)) = (
        u8::arbitrary(&mut u),
        u8::arbitrary(&mut u),
        u16::arbitrary(&mut u),
    ) else {
        return;
    };
    let Ok(thread) = Thread::arbitrary_take_rest(u) else {
        return;
    };
    let (text, json) = wrap(&thread, style);
    let chunks = chunked(text.as_bytes(), &plan(plan_byte));
    let expected = serde_json::to_value(&thread).unwrap_or_default();
    assert_eq!(read_thread(&chunks, &expected), thread, "{text}");
    // A cut after the opening brace and before the closing one.
    let inside = json.start + 1 + usize::from(cut) % (json.len() - 1);
    let mut stream = Thread::stream();
    let fed = stream
        .feed(&text.as_bytes()[..inside])
        .map(|fields| fields.count());
    assert!(fed.is_ok(), "cut at {inside}: {fed:?}");
    let kind = stream.finish().map_err(|e| e.kind());
    assert_eq!(
        kind.err(),
        Some(ErrorKind::Truncated),
        "cut at {inside} of {text}"
    );
}

/// How many times [`read_thread`] renders the draft, spread over the chunks (rendering
/// after every 1-byte chunk would make the target quadratic).
const DRAFT_RENDERS: usize = 32;

/// Feeds `chunks` to a typed stream and returns the value. The draft is rendered every few
/// chunks: each rendering extends the one before, and the last extends `expected`.
fn read_thread(chunks: &[&[u8]], expected: &Value) -> Thread {
    let mut stream = Thread::stream();
    let stride = chunks.len().div_ceil(DRAFT_RENDERS).max(1);
    let mut previous: Option<Value> = None;
    for (i, chunk) in chunks.iter().enumerate() {
        match stream.feed(chunk) {
            Ok(fields) => fields.for_each(|field| assert!(!format!("{field:?}").is_empty())),
            Err(e) => panic!("chunk {i}: {e}"),
        }
        if i % stride == 0 || i + 1 == chunks.len() {
            let draft = serde_json::to_value(stream.draft());
            let draft = draft.unwrap_or_else(|e| panic!("chunk {i}: the draft renders: {e}"));
            if let Some(prev) = &previous {
                assert!(
                    extends(prev, &draft),
                    "chunk {i}: {draft} does not extend {prev}"
                );
            }
            std::hint::black_box((stream.missing(), stream.is_satisfied()));
            previous = Some(draft);
        }
    }
    if let Some(last) = &previous {
        assert!(
            extends(last, expected),
            "the last draft {last} is not within {expected}"
        );
    }
    match stream.finish() {
        Ok(thread) => thread,
        Err(e) => panic!("finish: {e}"),
    }
}

// ---------------------------------------------------------------------------------------
// providers
// ---------------------------------------------------------------------------------------

/// What a decoder produced: the deltas, then the first error's message if any.
type Decoded = (Vec<Delta>, Option<String>);

/// Provider bodies: the first byte chooses a chunking, the rest is an SSE body fed to each
/// provider's decoder and to the SSE parser. Nothing panics, and the events, deltas and
/// first error do not depend on the chunking.
pub fn providers(data: &[u8]) {
    let Some((sizes, body)) = split_plan(data) else {
        return;
    };
    let chunkings = [vec![body], chunked(body, &sizes), chunked(body, &[1])];
    let events = sse(&chunkings[0]);
    for chunks in &chunkings[1..] {
        assert_eq!(sse(chunks), events, "SSE events depend on the chunking");
    }
    for provider in [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Anthropic,
    ] {
        let decoded = decode(provider, &chunkings[0]);
        for chunks in &chunkings[1..] {
            assert_eq!(
                decode(provider, chunks),
                decoded,
                "{provider:?} depends on the chunking"
            );
        }
        replay_text(&decoded.0);
    }
}

/// The SSE parser's events over `chunks`, and whether an event was left unterminated.
fn sse(chunks: &[&[u8]]) -> (Vec<SseEvent>, bool) {
    let mut parser = SseParser::new();
    let events = chunks.iter().flat_map(|chunk| parser.feed(chunk)).collect();
    (events, parser.finish())
}

/// Decodes `chunks` with `provider`'s decoder, stopping at the first error.
fn decode(provider: Provider, chunks: &[&[u8]]) -> Decoded {
    let mut decoder = Decoder::new(provider);
    let mut deltas = Vec::new();
    for chunk in chunks {
        match decoder.feed(chunk) {
            Ok(more) => deltas.extend(more),
            Err(e) => return (deltas, Some(e.message)),
        }
    }
    match decoder.finish() {
        Ok(more) => deltas.extend(more),
        Err(e) => return (deltas, Some(e.message)),
    }
    (deltas, None)
}

/// Feeds the text channel to a lenient stream and ends it the way the provider said.
fn replay_text(deltas: &[Delta]) {
    let finish = deltas.iter().rev().find_map(|delta| match delta {
        Delta::Finish(reason) => Some(reason.clone()),
        _ => None,
    });
    let mut stream = DynamicStream::with_options(Options::default());
    let fed = deltas.iter().try_for_each(|delta| match delta {
        Delta::Text {
            channel: Channel::Text,
            text,
        } => stream.feed(text.as_bytes()),
        _ => Ok(()),
    });
    if fed.is_ok() {
        let reason = finish.unwrap_or(FinishReason::Stop);
        let finished = settled::provider::FinishWith::finish_with(stream, Some(&reason));
        std::hint::black_box(finished.map(|v| v.to_json()).is_ok());
    }
}

// ---------------------------------------------------------------------------------------
// options
// ---------------------------------------------------------------------------------------

/// Options at their edges, read from three bytes: depth, byte cap, idle limit, strictness
/// and the second-root policy from the first; a "small" limit from the second; the stall
/// guard and whether the input starts in reasoning from the third.
pub fn edge_options(bytes: [u8; 3]) -> Options {
    let [flags, small, stall] = bytes;
    let small = u64::from(small % 64) + 2;
    let pick = |shift: u8| usize::from((flags >> shift) & 3);
    let max_depth = [0, 1, 2, 10_000][pick(0)];
    let max_bytes = [0, 1, small, 64 * 1024 * 1024][pick(2)];
    let idle_limit = [0, 1, small, 256 * 1024][pick(4)];
    let stall_limit = [None, Some(0), Some(1), Some(small)][usize::from(stall & 3)];
    let second_root = if flags & 0x80 == 0 {
        SecondRoot::KeepFirst
    } else {
        SecondRoot::KeepLast
    };
    Options::default()
        .max_depth(max_depth)
        .max_bytes(max_bytes)
        .idle_limit(idle_limit)
        .stall_limit(stall_limit)
        .strict(flags & 0x40 != 0)
        .second_root(second_root)
        .starts_in_reasoning(stall & 4 != 0)
}

/// Limits at their edges: the first three bytes choose the [`Options`]
/// ([`edge_options`]), the rest is the input, fed whole and byte by byte. Nothing panics
/// or hangs, and the outcome is the same at both chunkings.
pub fn options(data: &[u8]) {
    let Some((head, input)) = data.split_first_chunk::<3>() else {
        return;
    };
    let options = edge_options(*head);
    let whole = outcome(&options, &[input]);
    let bytewise = outcome(&options, &chunked(input, &[1]));
    assert_eq!(
        whole, bytewise,
        "{options:?}: the outcome depends on the chunking"
    );
    let whole = typed_outcome(&options, &[input]);
    let bytewise = typed_outcome(&options, &chunked(input, &[1]));
    assert_eq!(
        whole, bytewise,
        "{options:?}: the typed outcome depends on the chunking"
    );
    // Roots whose lenient reading differs: a list (citations, task lists, empty answers)
    // and an `Option` of one (a `null` reply, alone or fenced).
    for chunks in [&[input][..], &chunked(input, &[7])] {
        let list = root_outcome::<Vec<u32>>(&options, chunks);
        assert_eq!(
            list,
            root_outcome::<Vec<u32>>(&options, &chunked(input, &[1]))
        );
        let maybe = root_outcome::<Option<Vec<String>>>(&options, chunks);
        assert_eq!(
            maybe,
            root_outcome::<Option<Vec<String>>>(&options, &chunked(input, &[1]))
        );
    }
}

/// How a typed stream of root `T` with `options` ended (see [`typed_outcome`]).
fn root_outcome<T>(options: &Options, chunks: &[&[u8]]) -> Outcome
where
    T: StreamingModel,
    T::Value: serde::Serialize,
{
    streamed::<T>(options, chunks, |_| {})
}

/// Feeds `chunks` to a typed stream of root `T`, calling `look` on it after each one
/// that passed; its ending as an [`Outcome`].
fn streamed<T>(
    options: &Options,
    chunks: &[&[u8]],
    mut look: impl FnMut(&settled::TypedStream<T>),
) -> Outcome
where
    T: StreamingModel,
    T::Value: serde::Serialize,
{
    let mut stream = settled::TypedStream::<T>::with_options(options.clone());
    let mut failed = None;
    for chunk in chunks {
        if let Err(e) = stream.feed(chunk) {
            failed = Some(e.into_error());
            break;
        }
        look(&stream);
    }
    let result = match failed {
        Some(e) => Err(e),
        None => stream
            .finish()
            .map(|t| serde_json::to_string(&t).unwrap_or_default())
            .map_err(settled::Error::from),
    };
    ended(result, chunks)
}

/// A stream's ending as an [`Outcome`]; an error's offset never lies past the bytes fed.
fn ended(result: Result<String, settled::Error>, chunks: &[&[u8]]) -> Outcome {
    let total: u64 = chunks.iter().map(|c| c.len() as u64).sum();
    result.map_err(|e| {
        assert!(
            e.offset() <= total,
            "offset {} past {total} bytes",
            e.offset()
        );
        (e.kind(), e.offset())
    })
}

/// How a typed stream of [`Thread`] with `options` ended: the value as JSON, or the
/// error's kind and offset (within the input). The draft renders after every chunk.
fn typed_outcome(options: &Options, chunks: &[&[u8]]) -> Outcome {
    streamed::<Thread>(options, chunks, |stream| {
        let rendered = serde_json::to_string(stream.draft());
        assert!(rendered.is_ok(), "the draft renders: {rendered:?}");
    })
}
