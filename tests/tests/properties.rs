//! Property tests of the scanner's contract over random documents, random serializations
//! (whitespace, escapes, comments, trailing commas, prose, fences, `<think>` blocks) and
//! random chunkings, 1-byte chunks included.
//!
//! Case count: `PROPTEST_CASES` (CI sets 1000).
// Models here are streamed, not read field by field.
#![allow(dead_code)]

mod common;

use common::{chunk, extends};
use proptest::prelude::*;
use serde_json::Value;
use settled::{DynamicStream, ErrorKind, Options, SecondRoot};
use std::collections::{BTreeSet, HashMap};

/// A JSON document with numbers kept as text.
#[derive(Debug, Clone)]
enum Doc {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<Doc>),
    Obj(Vec<(String, Doc)>),
}

fn number() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        prop_oneof!["0", "[1-9][0-9]{0,22}"],
        proptest::option::of("[0-9]{1,6}"),
        proptest::option::of(("[eE]", "[+-]?", "[0-9]{1,2}")),
    )
        .prop_map(|(neg, int, frac, exp)| {
            let mut s = String::new();
            if neg {
                s.push('-');
            }
            s.push_str(&int);
            if let Some(frac) = frac {
                s.push('.');
                s.push_str(&frac);
            }
            if let Some((e, sign, digits)) = exp {
                s.push_str(&e);
                s.push_str(&sign);
                s.push_str(&digits);
            }
            s
        })
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z {}\\[\\]:,\"\\\\/]{0,12}",
        "\\PC{0,8}",
        "[é漢🚀\u{7f}\u{1}\n\t\u{2028}a]{0,6}",
    ]
}

fn doc() -> impl Strategy<Value = Doc> {
    let leaf = prop_oneof![
        Just(Doc::Null),
        any::<bool>().prop_map(Doc::Bool),
        number().prop_map(Doc::Num),
        text().prop_map(Doc::Str),
    ];
    leaf.prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Doc::Arr),
            prop::collection::vec((text(), inner), 0..6).prop_map(|members| {
                let mut seen = BTreeSet::new();
                Doc::Obj(
                    members
                        .into_iter()
                        .filter(|(k, _)| seen.insert(k.clone()))
                        .collect(),
                )
            }),
        ]
    })
}

fn container() -> impl Strategy<Value = Doc> {
    doc().prop_map(|d| match d {
        Doc::Arr(_) | Doc::Obj(_) => d,
        other => Doc::Arr(vec![other]),
    })
}

/// Deterministic choices for a serialization.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn chance(&mut self, one_in: u64) -> bool {
        self.next() % one_in == 0
    }
}

struct Writer {
    rng: Rng,
    lenient: bool,
    out: String,
}

impl Writer {
    fn ws(&mut self) {
        while self.rng.chance(3) {
            let pick = self.rng.next() % 6;
            match pick {
                0 => self.out.push(' '),
                1 => self.out.push('\n'),
                2 => self.out.push('\t'),
                3 => self.out.push_str("\r\n"),
                4 if self.lenient => self.out.push_str("/* c {[ */"),
                5 if self.lenient => self.out.push_str("// note ] }\n"),
                _ => self.out.push(' '),
            }
        }
    }

    fn string(&mut self, s: &str) {
        self.out.push('"');
        for c in s.chars() {
            let escape = self.rng.chance(4);
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str(if escape { "\\u000a" } else { "\\n" }),
                '\t' => self.out.push_str("\\t"),
                c if (c as u32) < 0x20 => self.out.push_str(&format!("\\u{:04x}", c as u32)),
                '/' if escape => self.out.push_str("\\/"),
                c if escape => {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        self.out.push_str(&format!("\\u{unit:04X}"));
                    }
                }
                c => self.out.push(c),
            }
        }
        self.out.push('"');
    }

    fn doc(&mut self, d: &Doc) {
        match d {
            Doc::Null => self.out.push_str("null"),
            Doc::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Doc::Num(n) => self.out.push_str(n),
            Doc::Str(s) => self.string(s),
            Doc::Arr(items) => {
                self.out.push('[');
                for (i, item) in items.iter().enumerate() {
                    self.ws();
                    if i > 0 {
                        self.out.push(',');
                        self.ws();
                    }
                    self.doc(item);
                }
                self.trailing_comma(!items.is_empty());
                self.ws();
                self.out.push(']');
            }
            Doc::Obj(members) => {
                self.out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    self.ws();
                    if i > 0 {
                        self.out.push(',');
                        self.ws();
                    }
                    self.string(k);
                    self.ws();
                    self.out.push(':');
                    self.ws();
                    self.doc(v);
                }
                self.trailing_comma(!members.is_empty());
                self.ws();
                self.out.push('}');
            }
        }
    }

    fn trailing_comma(&mut self, any: bool) {
        if self.lenient && any && self.rng.chance(4) {
            self.ws();
            self.out.push(',');
        }
    }
}

const PREAMBLES: &[&str] = &[
    "",
    "Sure! Here is the JSON you asked for:\n",
    "```json\n",
    "```\n",
    "Here you go: ```json\n",
    "<think>\nThe user wants {\"a\": 1} in [brackets].\n</think>\n",
    "<thinking>{x}</thinking>```json\n",
    "<reasoning>[1, 2] {\"b\": 2}</reasoning>\n<answer>",
    "<|channel|>analysis<|message|>Try {\"a\": [1]}.<|end|><|start|>assistant<|channel|>final<|message|>",
    "[THINK]Maybe {\"a\": [1]} or [2]? [x] No.[/THINK]\n",
    "Fill in the {fields} and see [user 1]. Result: ",
    "Note {fields} ",
];

const EPILOGUES: &[&str] = &["", "\n```", "\n```\nHope this helps! {ok}", " Done [1]."];

fn to_value(d: &Doc) -> Value {
    match d {
        Doc::Null => Value::Null,
        Doc::Bool(b) => Value::Bool(*b),
        Doc::Num(n) => serde_json::from_str(n).unwrap_or(Value::Null),
        Doc::Str(s) => Value::String(s.clone()),
        Doc::Arr(items) => Value::Array(items.iter().map(to_value).collect()),
        Doc::Obj(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), to_value(v)))
                .collect(),
        ),
    }
}

/// Numbers the test compares must parse as serde_json numbers (no 1e400 overflow).
fn numbers_fit(d: &Doc) -> bool {
    match d {
        Doc::Num(n) => serde_json::from_str::<Value>(n).is_ok(),
        Doc::Arr(items) => items.iter().all(numbers_fit),
        Doc::Obj(members) => members.iter().all(|(_, v)| numbers_fit(v)),
        _ => true,
    }
}

/// Every JSON Pointer in `v`.
fn all_paths(v: &Value, path: String, out: &mut BTreeSet<String>) {
    match v {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                all_paths(item, format!("{path}/{i}"), out);
            }
        }
        Value::Object(members) => {
            for (k, item) in members {
                let key = k.replace('~', "~0").replace('/', "~1");
                all_paths(item, format!("{path}/{key}"), out);
            }
        }
        _ => {}
    }
    out.insert(path);
}

/// Feeds `chunks` and checks the whole contract against `expected`.
fn check_contract(
    options: &Options,
    chunks: &[&[u8]],
    expected: &Value,
) -> Result<(), TestCaseError> {
    let mut stream = DynamicStream::with_options(options.clone());
    let mut previous: Option<Value> = None;
    let mut reported: HashMap<String, usize> = HashMap::new();
    let last = chunks.len().saturating_sub(1);
    for (i, chunk) in chunks.iter().enumerate() {
        stream
            .feed(chunk)
            .map_err(|e| TestCaseError::fail(format!("chunk {i}: {e}")))?;
        if i == last {
            stream
                .end_input()
                .map_err(|e| TestCaseError::fail(format!("finish: {e}")))?;
        }
        let snapshot: Option<Value> = stream
            .draft()
            .map(|v| serde_json::from_str(&v.to_json()).expect("snapshot is JSON"));
        if let Some(snap) = &snapshot {
            prop_assert!(
                extends(snap, expected),
                "chunk {i}: snapshot {snap} is not a prefix of {expected}"
            );
            if let Some(prev) = &previous {
                prop_assert!(
                    extends(prev, snap),
                    "chunk {i}: {snap} does not extend {prev}"
                );
            }
        } else {
            prop_assert!(previous.is_none(), "chunk {i}: the snapshot disappeared");
        }
        let mut in_chunk: Vec<String> = Vec::new();
        for (pointer, value) in stream.settled() {
            let path = pointer.to_string();
            let path = path.as_str();
            let value: Value = serde_json::from_str(&value.to_json()).expect("settled is JSON");
            prop_assert_eq!(
                Some(&value),
                expected.pointer(path),
                "chunk {}: settled {}",
                i,
                path
            );
            // Innermost first: nothing settled later in the chunk lies inside this path.
            prop_assert!(
                !in_chunk.iter().any(|p| path.starts_with(p.as_str())
                    && path.len() > p.len()
                    && path.as_bytes()[p.len()] == b'/')
                    || in_chunk.is_empty(),
                "chunk {i}: {path} settled after its container"
            );
            in_chunk.push(path.to_string());
            *reported.entry(path.to_string()).or_default() += 1;
        }
        previous = snapshot;
    }
    prop_assert_eq!(previous.as_ref(), Some(expected), "final value");
    let mut paths = BTreeSet::new();
    all_paths(expected, String::new(), &mut paths);
    for path in &paths {
        prop_assert_eq!(
            reported.get(path).copied(),
            Some(1),
            "path {:?} must settle exactly once",
            path
        );
    }
    prop_assert_eq!(reported.len(), paths.len());
    Ok(())
}

fn sizes() -> impl Strategy<Value = Vec<usize>> {
    prop_oneof![
        Just(vec![1]),
        Just(vec![7]),
        prop::collection::vec(1usize..24, 1..16),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(256)
    ))]

    /// Lenient mode: a container root wrapped in prose, fences or a `<think>` block, with
    /// comments and trailing commas, in any chunking, reads back as the document and keeps
    /// every snapshot rule.
    #[test]
    fn lenient_stream_keeps_the_contract(
        d in container().prop_filter("numbers fit f64", numbers_fit),
        seed in any::<u64>(),
        pre in 0..PREAMBLES.len(),
        post in 0..EPILOGUES.len(),
        sizes in sizes(),
    ) {
        let mut w = Writer { rng: Rng(seed | 1), lenient: true, out: PREAMBLES[pre].to_string() };
        w.ws();
        w.doc(&d);
        w.ws();
        w.out.push_str(EPILOGUES[post]);
        let chunks = chunk(w.out.as_bytes(), &sizes);
        check_contract(&Options::default(), &chunks, &to_value(&d))?;
    }

    /// Strict mode: any root (scalars included) with RFC whitespace, in any chunking.
    #[test]
    fn strict_stream_keeps_the_contract(
        d in doc().prop_filter("numbers fit f64", numbers_fit),
        seed in any::<u64>(),
        sizes in sizes(),
    ) {
        let mut w = Writer { rng: Rng(seed | 1), lenient: false, out: String::new() };
        w.ws();
        w.doc(&d);
        w.ws();
        let chunks = chunk(w.out.as_bytes(), &sizes);
        check_contract(&Options::default().strict(true), &chunks, &to_value(&d))?;
    }

    /// A reply that is one scalar and nothing else (whitespace around it, a reasoning block
    /// before it, or a JSON fence around it) is read leniently as strict mode reads the
    /// scalar alone, in any chunking: a string holding brackets too (nothing inside it
    /// shows while the reply may be that string).
    #[test]
    fn a_reply_that_is_one_scalar_reads_as_strict_mode_reads_it(
        d in prop_oneof![
            Just(Doc::Null),
            any::<bool>().prop_map(Doc::Bool),
            number().prop_map(Doc::Num),
            text().prop_map(Doc::Str),
            "[\\[{ 0-9,:\"a-z]{0,24}".prop_map(Doc::Str),
        ],
        frame in 0..4usize,
        seed in any::<u64>(),
        sizes in sizes(),
    ) {
        let mut w = Writer { rng: Rng(seed | 1), lenient: false, out: String::new() };
        w.doc(&d);
        let alone = outcome(&Options::default().strict(true), &[w.out.as_bytes()]);
        prop_assert!(alone.is_ok(), "{} alone: {:?}", w.out, alone);
        let framed = match frame {
            0 => format!(" \n{}\n", w.out),
            1 => format!("<think>so: {{\"a\": [1]}}</think>\n{}", w.out),
            2 => format!("```json\n{}\n```\n", w.out),
            _ => w.out.clone(),
        };
        let read = outcome(&Options::default(), &chunk(framed.as_bytes(), &sizes));
        prop_assert_eq!(read, alone, "{}", framed);
    }

    /// Every proper prefix of a container document that stops inside the root is
    /// `truncated`, and its last snapshot is a prefix of the document.
    #[test]
    fn every_cut_inside_the_root_is_truncated(d in container().prop_filter("numbers fit f64", numbers_fit), cut in any::<prop::sample::Index>()) {
        let text = serde_json::to_string(&to_value(&d)).unwrap();
        let full: Value = serde_json::from_str(&text).unwrap();
        let cut = cut.index(text.len());
        let mut stream = DynamicStream::with_options(Options::default().strict(true));
        let cut_bytes = &text.as_bytes()[..cut];
        stream.feed(cut_bytes).unwrap();
        let err = stream.end_input().unwrap_err();
        let expected = if cut == 0 { ErrorKind::NoStructure } else { ErrorKind::Truncated };
        prop_assert_eq!(err.kind(), expected);
        prop_assert_eq!(err.offset(), cut as u64);
        if let Some(snap) = stream.draft() {
            let snap: Value = serde_json::from_str(&snap.to_json()).unwrap();
            prop_assert!(extends(&snap, &full), "{} is not a prefix of {}", snap, full);
        }
    }

    /// Arbitrary bytes never panic, and the outcome (value, or error kind and offset) does
    /// not depend on the chunking.
    #[test]
    fn arbitrary_bytes_never_panic_and_ignore_chunking(
        bytes in prop::collection::vec(prop_oneof![
            any::<u8>(),
            prop::sample::select(b"{}[]\":,\\/*u0123456789eE.-+tfnrals \n`<>think".to_vec()),
        ], 0..200),
        strict in any::<bool>(),
        sizes in sizes(),
    ) {
        let options = Options::default().strict(strict).max_depth(16);
        let whole = outcome(&options, &[&bytes]);
        let chunked = outcome(&options, &chunk(&bytes, &sizes));
        prop_assert_eq!(whole, chunked);
    }

    /// A value after prose is read as it is without the prose, whatever the depth cap: too
    /// deep at the same bracket when it nests past the cap (never a piece of it as the
    /// answer), and the same value when it does not.
    #[test]
    fn prose_before_a_value_changes_nothing_under_any_depth_cap(
        d in container().prop_filter("numbers fit f64", numbers_fit),
        cap in 0usize..5,
        pre in prop::sample::select(vec!["Sure: ", "Here is the JSON you asked for.\n", "ok "]),
        sizes in sizes(),
    ) {
        let text = serde_json::to_string(&to_value(&d)).unwrap();
        let options = Options::default().max_depth(cap);
        let alone = outcome(&options, &[text.as_bytes()]);
        let framed = format!("{pre}{text}");
        let after_prose = outcome(&options, &chunk(framed.as_bytes(), &sizes));
        match (&alone, &after_prose) {
            (Err((ErrorKind::TooDeep, at)), _) => {
                prop_assert_eq!(&after_prose, &Err((ErrorKind::TooDeep, at + pre.len() as u64)));
            }
            (Ok(value), Ok(read)) => prop_assert_eq!(value, read),
            // A root that shows nothing in prose (`[]`) may be read as prose.
            (Ok(_), Err((kind, _))) => prop_assert_eq!(*kind, ErrorKind::NoStructure),
            (Err(e), _) => prop_assert!(false, "{text} alone: {e:?}"),
        }
    }

    /// Mutations of valid documents (a byte replaced, dropped or duplicated) never panic
    /// and do not depend on the chunking.
    #[test]
    fn mutated_documents_ignore_chunking(
        d in container(),
        seed in any::<u64>(),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        how in 0..3u8,
        sizes in sizes(),
    ) {
        let mut w = Writer { rng: Rng(seed | 1), lenient: true, out: "Answer: ".into() };
        w.doc(&d);
        let mut bytes = w.out.into_bytes();
        let i = at.index(bytes.len());
        match how {
            0 => bytes[i] = byte,
            1 => { bytes.remove(i); }
            _ => bytes.insert(i, bytes[i]),
        }
        for strict in [false, true] {
            let options = Options::default().strict(strict);
            let whole = outcome(&options, &[&bytes]);
            let chunked = outcome(&options, &chunk(&bytes, &sizes));
            prop_assert_eq!(whole, chunked);
        }
    }
}

/// Every value reported settled, in order (path and JSON), and the outcome.
type Reports = (Vec<(String, String)>, Result<String, ErrorKind>);

/// [`Reports`] of a stream, and how many values replaced the one before them.
fn settled_reports(options: &Options, chunks: &[&[u8]]) -> (Reports, usize) {
    let mut stream = DynamicStream::with_options(options.clone());
    let mut reports = Vec::new();
    // `end_input` lists what it settled after what the last chunk did.
    let mut note = |stream: &DynamicStream, skip: usize| {
        let settled = stream.settled().skip(skip);
        reports.extend(settled.map(|(p, v)| (p.to_string(), v.to_json())));
    };
    let mut last = 0;
    for chunk in chunks {
        let fed = stream.feed(chunk);
        note(&stream, 0);
        if let Err(e) = fed {
            return ((reports, Err(e.kind())), replaced(&stream));
        }
        last = stream.settled().count();
    }
    let ended = stream.end_input();
    note(&stream, last);
    let replacements = replaced(&stream);
    let end = ended
        .map_err(|e| e.kind())
        .and_then(|()| stream.finish().map(|v| v.to_json()).map_err(|e| e.kind()));
    ((reports, end), replacements)
}

fn replaced(stream: &DynamicStream) -> usize {
    let replacement = |w: &&settled::Warning| w.kind == settled::WarningKind::SecondValueReplaced;
    stream.warnings().iter().filter(replacement).count()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(256)
    ))]

    /// Keeping the last of two values, the values reported settled (those of a value
    /// replaced later, and of a last one the input ends inside, included) do not depend
    /// on the chunking (review: a value replaced in the chunk it settled in went
    /// unreported). A third value in one chunk drops the first's reports (memory stays
    /// with the values kept): what it lists is then some of what 1-byte chunks list.
    #[test]
    fn values_kept_last_report_what_settled_in_any_chunking(
        docs in prop::collection::vec(container().prop_filter("numbers fit f64", numbers_fit), 1..3),
        seed in any::<u64>(),
        cut in any::<prop::sample::Index>(),
        sizes in sizes(),
    ) {
        let mut w = Writer { rng: Rng(seed | 1), lenient: true, out: "Example: ".into() };
        for d in &docs {
            w.doc(d);
            w.out.push_str(" then ");
        }
        let mut bytes = w.out.into_bytes();
        // Sometimes the input ends inside the last value.
        if seed % 2 == 0 {
            let from = bytes.len() / 2;
            bytes.truncate(from + cut.index(bytes.len() - from));
        }
        let options = Options::default().second_root(SecondRoot::KeepLast);
        let text = String::from_utf8_lossy(&bytes);
        let (whole, replacements) = settled_reports(&options, &[&bytes]);
        let (bytewise, _) = settled_reports(&options, &chunk(&bytes, &[1]));
        if replacements > 1 {
            // Prose may hold more values than the documents (`[0,` then `[null]`).
            prop_assert_eq!(&whole.1, &bytewise.1, "{}", text);
            let mut all = bytewise.0.iter();
            for report in &whole.0 {
                prop_assert!(all.any(|r| r == report), "{:?} not in order in {:?}: {}", report, bytewise.0, text);
            }
            return Ok(());
        }
        prop_assert_eq!(&whole, &bytewise, "{}", text);
        for sizes in [vec![7], sizes] {
            let (chunked, _) = settled_reports(&options, &chunk(&bytes, &sizes));
            prop_assert_eq!(&whole, &chunked, "{}", text);
        }
    }
}

/// The final value's JSON, or the error's kind and offset.
fn outcome(options: &Options, chunks: &[&[u8]]) -> Result<String, (ErrorKind, u64)> {
    let mut stream = DynamicStream::with_options(options.clone());
    for chunk in chunks {
        if let Err(e) = stream.feed(chunk) {
            assert!(e.offset() <= chunks.iter().map(|c| c.len() as u64).sum());
            return Err((e.kind(), e.offset()));
        }
    }
    stream
        .finish()
        .map(|v| v.to_json())
        .map_err(|e| (e.kind(), e.offset()))
}
