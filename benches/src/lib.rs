//! What the benchmarks share: two deterministic document shapes and the typed models they
//! are parsed into, chunkings, and the re-parsing baselines (naive and jiter's partial mode).
//!
//! - `answer`: an LLM answer, prose and a fence around pretty-printed JSON ([`Doc`], made by
//!   [`document`]).
//! - `records`: compact JSON as a tool call's arguments: records of short prose strings,
//!   integers, floats with exponents, booleans and nulls, with arrays of objects nested
//!   three deep ([`Records`], made by [`records`]).

use serde::{Deserialize, Serialize};
use settled::StreamingModel;
use std::path::PathBuf;

/// The document sizes benchmarked, in bytes (approximate).
pub const SIZES: [(&str, usize); 5] = [
    ("1KB", 1_000),
    ("10KB", 10_000),
    ("100KB", 100_000),
    ("1MB", 1_000_000),
    ("10MB", 10_000_000),
];

/// The quadratic baselines (jiter's partial mode, the naive re-parse) run up to this size:
/// at 1 MB one run of them takes minutes.
pub const QUADRATIC_MAX: usize = 100_000;

/// The document shapes, by the name the benchmarks and the report use.
pub const SHAPES: [&str; 2] = ["answer", "records"];

/// The text of a document of shape `shape` (one of [`SHAPES`]) of about `size` bytes.
pub fn text(shape: &str, size: usize) -> String {
    match shape {
        "records" => records(size).1,
        _ => document(size).1,
    }
}

/// The JSON inside a document's text: the fenced block of an answer, else the whole text.
pub fn json_part(text: &str) -> &str {
    let start = text.find("```json\n").map_or(0, |i| i + 8);
    let end = text
        .rfind("```")
        .filter(|&e| e >= start)
        .unwrap_or(text.len());
    &text[start..end]
}

/// Where criterion and the memory benchmark write their results: `$CARGO_TARGET_DIR`, else
/// the workspace's `target/`.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"),
        PathBuf::from,
    )
}

/// One entry of the document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
pub struct Entry {
    pub id: u64,
    pub title: String,
    pub body: String,
    pub tags: Vec<String>,
    pub score: f64,
    pub delta: i64,
    pub ratio: f64,
    pub big: f64,
    pub done: bool,
    pub note: Option<String>,
    pub matrix: Vec<Vec<i32>>,
}

/// The document: an LLM answer with a summary and many entries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
pub struct Doc {
    pub summary: String,
    pub entries: Vec<Entry>,
    pub total: u64,
}

/// A tiny deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "the",
    "parser",
    "keeps",
    "{braces}",
    "and",
    "[brackets]",
    "\"quoted\"",
    "text",
    "漢字",
    "🚀",
    "naïve",
    "café",
    "back\\slash",
    "tab\tstop",
    "line\nbreak",
    "stream",
    "token",
    "draft",
    "settles",
    "value",
    "model",
    "JSON",
    "schema",
    "<think>",
    "emoji 😀",
    "CJK 日本語",
];

fn prose(rng: &mut Rng, words: usize) -> String {
    (0..words)
        .map(|_| rng.pick(WORDS))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A document of about `size` bytes of JSON, wrapped like a model answer (prose and a
/// fence around pretty-printed JSON).
pub fn document(size: usize) -> (Doc, String) {
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let mut doc = Doc {
        summary: prose(&mut rng, 12),
        entries: Vec::new(),
        total: 0,
    };
    let mut approx = 200;
    while approx < size {
        let i = doc.entries.len() as u64;
        let entry = Entry {
            id: i,
            title: prose(&mut rng, 4),
            body: prose(&mut rng, 14),
            tags: (0..3).map(|_| rng.pick(WORDS).to_string()).collect(),
            score: (rng.next() % 10_000) as f64 / 100.0,
            delta: -((rng.next() % 1000) as i64),
            ratio: 1.5e-7 * (1 + rng.next() % 9) as f64,
            big: 1e21,
            done: rng.next() % 2 == 0,
            note: (rng.next() % 3 == 0).then(|| prose(&mut rng, 3)),
            matrix: vec![vec![1, -2, 3], vec![40, 50]],
        };
        approx += serde_json::to_string_pretty(&entry).map_or(400, |s| s.len() + 10);
        doc.entries.push(entry);
    }
    doc.total = doc.entries.len() as u64;
    let json = serde_json::to_string_pretty(&doc).unwrap_or_default();
    let text = format!("Here is the analysis you asked for:\n\n```json\n{json}\n```\n");
    (doc, text)
}

/// The innermost object of a record (the third level of arrays of objects).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
pub struct Part {
    pub sku: String,
    pub qty: i64,
    pub weight: f64,
    pub fragile: bool,
    pub note: Option<String>,
}

/// An item of a record (the second level).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
pub struct Item {
    pub name: String,
    pub price: f64,
    pub count: u32,
    pub in_stock: bool,
    pub discount: Option<f64>,
    pub parts: Vec<Part>,
}

/// One record (the first level).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
pub struct Record {
    pub id: u64,
    pub label: String,
    pub comment: String,
    pub offset: i64,
    pub rate: f64,
    pub active: bool,
    pub parent: Option<u64>,
    pub items: Vec<Item>,
}

/// The second document shape: many records, as a tool call's arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
pub struct Records {
    pub records: Vec<Record>,
    pub count: u64,
}

/// Words of the records' short strings: braces, quotes, escapes (including a control
/// character serde_json writes as `\u0007`), CJK and emoji.
const SHORT: &[&str] = &[
    "ok",
    "{x}",
    "[y]",
    "\"q\"",
    "a\\b",
    "tab\t",
    "nl\n",
    "bell\u{7}",
    "漢字",
    "日本語",
    "🚀",
    "😀👍",
    "naïve",
    "data",
    "id",
    "{\"k\": 1}",
];

fn short(rng: &mut Rng) -> String {
    let words = 1 + (rng.next() % 4) as usize;
    (0..words)
        .map(|_| rng.pick(SHORT))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A float `m × 10^e` that serde_json writes with an exponent and reads back exactly (its
/// default parser is not correctly rounded for every input; the tests compare values).
fn float_with_exponent(rng: &mut Rng, exponents: std::ops::Range<i32>) -> f64 {
    loop {
        let mantissa = 1 + rng.next() % 9_999;
        let span = (exponents.end - exponents.start) as u64;
        let exponent = exponents.start + (rng.next() % span) as i32;
        let Ok(value) = format!("{mantissa}e{exponent}").parse::<f64>() else {
            continue;
        };
        let written = serde_json::to_string(&value).unwrap_or_default();
        let exact = serde_json::from_str::<f64>(&written).is_ok_and(|back| back == value);
        if exact && written.contains('e') {
            return value;
        }
    }
}

fn part(rng: &mut Rng) -> Part {
    Part {
        sku: short(rng),
        qty: (rng.next() % 2_000) as i64 - 1_000,
        weight: float_with_exponent(rng, -12..-6),
        fragile: rng.next() % 2 == 0,
        note: (rng.next() % 3 == 0).then(|| short(rng)),
    }
}

fn item(rng: &mut Rng) -> Item {
    Item {
        name: short(rng),
        price: (rng.next() % 100_000) as f64 / 100.0,
        count: (rng.next() % 50) as u32,
        in_stock: rng.next() % 3 != 0,
        discount: (rng.next() % 2 == 0).then(|| float_with_exponent(rng, -9..-5)),
        parts: (0..1 + rng.next() % 3).map(|_| part(rng)).collect(),
    }
}

/// A records document of about `size` bytes of compact JSON (no prose around it, as a
/// tool call's arguments arrive).
pub fn records(size: usize) -> (Records, String) {
    let mut rng = Rng(0x5EED_7777_0BAD_F00D);
    let mut doc = Records {
        records: Vec::new(),
        count: 0,
    };
    let mut approx = 30;
    while approx < size {
        let id = doc.records.len() as u64;
        let record = Record {
            id: id * 1_000_003 + (1 << 40),
            label: short(&mut rng),
            comment: short(&mut rng),
            offset: -((rng.next() % 1_000_000_000) as i64),
            rate: float_with_exponent(&mut rng, 17..25),
            active: rng.next() % 2 == 0,
            parent: (id > 0 && rng.next() % 2 == 0).then(|| rng.next() % id),
            items: (0..1 + rng.next() % 3).map(|_| item(&mut rng)).collect(),
        };
        approx += serde_json::to_string(&record).map_or(400, |s| s.len() + 1);
        doc.records.push(record);
    }
    doc.count = doc.records.len() as u64;
    let json = serde_json::to_string(&doc).unwrap_or_default();
    (doc, json)
}

/// Fixed-size chunks.
pub fn fixed_chunks(text: &str, n: usize) -> Vec<&[u8]> {
    text.as_bytes().chunks(n).collect()
}

/// Token-sized chunks: a word with its leading space, a run of punctuation or of
/// whitespace, at most 8 bytes (what a BPE tokenizer yields on such text, roughly).
pub fn token_chunks(text: &str) -> Vec<&[u8]> {
    let bytes = text.as_bytes();
    let class = |b: u8| {
        if b.is_ascii_alphanumeric() || b >= 0x80 {
            0
        } else if b.is_ascii_whitespace() {
            1
        } else {
            2
        }
    };
    let mut chunks = Vec::new();
    let mut start = 0;
    for i in 1..bytes.len() {
        let joins_space = class(bytes[i - 1]) == 1 && class(bytes[i]) == 0 && i - start == 1;
        if (class(bytes[i]) != class(bytes[i - 1]) && !joins_space) || i - start >= 8 {
            chunks.push(&bytes[start..i]);
            start = i;
        }
    }
    chunks.push(&bytes[start..]);
    chunks
}

/// The naive approach: keep the whole buffer, track brackets and strings, and after every
/// chunk append the closers and re-parse everything with serde_json (keeping the last
/// value that parsed).
#[derive(Default)]
pub struct NaiveReparse {
    buffer: Vec<u8>,
    stack: Vec<u8>,
    in_string: bool,
    escaped: bool,
    started: bool,
    /// The last value that parsed.
    pub value: Option<serde_json::Value>,
}

impl NaiveReparse {
    /// Appends `chunk`, then re-parses the buffer closed with the open brackets.
    pub fn feed(&mut self, chunk: &[u8]) {
        for &b in chunk {
            if !self.started {
                if b == b'{' || b == b'[' {
                    self.started = true;
                } else {
                    continue;
                }
            }
            self.buffer.push(b);
            if self.in_string {
                match b {
                    _ if self.escaped => self.escaped = false,
                    b'\\' => self.escaped = true,
                    b'"' => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => self.in_string = true,
                b'{' => self.stack.push(b'}'),
                b'[' => self.stack.push(b']'),
                b'}' | b']' => {
                    self.stack.pop();
                }
                _ => {}
            }
        }
        if !self.started {
            return;
        }
        let mut closed = self.buffer.clone();
        if self.in_string {
            closed.push(b'"');
        }
        closed.extend(self.stack.iter().rev());
        if let Ok(value) = serde_json::from_slice(&closed) {
            self.value = Some(value);
        }
    }
}

/// jiter's partial mode re-parsing the growing buffer after every chunk (what Python's
/// pydantic/jiter users get).
#[derive(Default)]
pub struct JiterReparse {
    buffer: Vec<u8>,
    start: Option<usize>,
    /// Values that parsed.
    pub parsed: usize,
}

impl JiterReparse {
    /// Appends `chunk` and re-parses from the first bracket.
    pub fn feed(&mut self, chunk: &[u8]) {
        self.buffer.extend_from_slice(chunk);
        if self.start.is_none() {
            self.start = self.buffer.iter().position(|&b| b == b'{' || b == b'[');
        }
        let Some(start) = self.start else {
            return;
        };
        let json = self.buffer.get(start..).unwrap_or_default();
        if jiter::JsonValue::parse_with_config(json, false, jiter::PartialMode::TrailingStrings)
            .is_ok()
        {
            self.parsed += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_have_the_size_and_stream_back() {
        for (_, size) in SIZES.iter().take(3) {
            let (_, text) = document(*size);
            assert_eq!(json_part(&text).trim_start().as_bytes()[0], b'{');
            let (doc, text) = document(*size);
            assert!(
                text.len() >= *size && text.len() < size * 2 + 2000,
                "{}",
                text.len()
            );
            let mut stream = Doc::stream();
            for chunk in token_chunks(&text) {
                stream.feed(chunk).unwrap();
            }
            assert_eq!(stream.finish().unwrap(), doc);
            let mut naive = NaiveReparse::default();
            let mut jiter = JiterReparse::default();
            for chunk in fixed_chunks(&text, 64) {
                naive.feed(chunk);
                jiter.feed(chunk);
            }
            assert!(naive.value.is_some() && jiter.parsed > 0);
        }
    }

    #[test]
    fn records_have_the_size_the_shape_and_stream_back() {
        for (_, size) in SIZES.iter().take(3) {
            let (doc, text) = records(*size);
            assert!(
                text.len() >= *size && text.len() < size * 2 + 2000,
                "{}",
                text.len()
            );
            assert_eq!(json_part(&text), text);
            // What the shape promises: exponents, nulls, escapes, three levels of objects.
            for needle in ["e-", "null", "\\\"", "\\u0007", "\\n", "漢字", "🚀"] {
                assert!(text.contains(needle), "{needle}");
            }
            let rate = serde_json::to_string(&doc.records[0].rate).unwrap();
            assert!(rate.contains('e') && !rate.contains("e-"), "{rate}");
            assert!(text.contains(r#""parts":[{"sku""#));
            assert_eq!(serde_json::from_str::<Records>(&text).unwrap(), doc);
            let mut stream = Records::stream();
            for chunk in fixed_chunks(&text, 4) {
                stream.feed(chunk).unwrap();
            }
            assert_eq!(stream.finish().unwrap(), doc);
            let mut dynamic = settled::DynamicStream::new();
            for chunk in token_chunks(&text) {
                dynamic.feed(chunk).unwrap();
            }
            let value = dynamic.finish().unwrap();
            assert!(value.root().is_some());
        }
    }
}
