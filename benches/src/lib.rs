//! What the benchmarks share: deterministic LLM-like documents, the typed model they are
//! parsed into, chunkings, and the naive re-parsing baseline.

use serde::{Deserialize, Serialize};
use settled::StreamingModel;

/// The document sizes benchmarked, in bytes (approximate).
pub const SIZES: [(&str, usize); 4] = [
    ("1KB", 1_000),
    ("10KB", 10_000),
    ("100KB", 100_000),
    ("1MB", 1_000_000),
];

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
}
