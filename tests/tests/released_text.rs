//! A typed stream releases the clean text of what it has already built (issue 14, item 3):
//! the scanner keeps only the text after the open containers' frames (or the open scalar,
//! or an untagged value it will hand to serde). Nothing a user sees may change: values,
//! errors, their byte offsets, lines, columns and paths are those of a stream that
//! released nothing. Documents here are past the release threshold (16 KiB), with the
//! interesting part after it.

use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use settled::{Options, Raw, Scanner, Sink, StreamingModel};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
struct Log {
    notes: Vec<String>,
    entries: Vec<Entry>,
    last: Entry,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
struct Entry {
    id: u32,
    text: String,
    score: Option<f64>,
    kind: Kind,
    any: Loose,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Kind {
    Plain,
    Linked { url: String, weight: u8 },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
#[serde(untagged)]
enum Loose {
    Number(i64),
    Words(Vec<String>),
    Named { name: String },
}

fn entry() -> impl Strategy<Value = Entry> {
    let kind = prop_oneof![
        Just(Kind::Plain),
        ("[a-z/]{0,30}", any::<u8>()).prop_map(|(url, weight)| Kind::Linked { url, weight }),
    ];
    let loose = prop_oneof![
        any::<i64>().prop_map(Loose::Number),
        prop::collection::vec("[a-z\u{4e00}-\u{4e10}]{0,8}", 0..4).prop_map(Loose::Words),
        "[a-z \"\\\\]{0,12}".prop_map(|name| Loose::Named { name }),
    ];
    (
        any::<u32>(),
        "[ -~\n\u{e9}\u{1f600}]{0,40}",
        prop::option::of(-1e6f64..1e6),
        kind,
        loose,
    )
        .prop_map(|(id, text, score, kind, any)| Entry {
            id,
            text,
            score,
            kind,
            any,
        })
}

fn log() -> impl Strategy<Value = Log> {
    (
        prop::collection::vec("[ -~]{300,500}", 40..80),
        prop::collection::vec(entry(), 1..40),
        entry(),
    )
        .prop_map(|(notes, entries, last)| Log {
            notes,
            entries,
            last,
        })
}

/// How a document was read: the value's JSON, or the error's details.
type Outcome = Result<String, (String, u64, u64, u64, Option<String>)>;

fn read(text: &[u8], chunk: usize) -> Outcome {
    let mut stream = Log::stream();
    for piece in text.chunks(chunk.max(1)) {
        if let Err(e) = stream.feed(piece) {
            return Err(details(&e));
        }
    }
    match stream.finish() {
        Ok(log) => Ok(serde_json::to_string(&log).unwrap_or_default()),
        Err(e) => Err(details(&settled::Error::from(e))),
    }
}

fn details(e: &settled::Error) -> (String, u64, u64, u64, Option<String>) {
    (
        format!("{:?}", e.kind()),
        e.offset(),
        e.line(),
        e.column(),
        e.path().map(str::to_owned),
    )
}

/// Line and column (1-based, bytes) of `offset` in `text`.
fn line_column(text: &[u8], offset: u64) -> (u64, u64) {
    let head = &text[..offset as usize];
    match head.iter().rposition(|&c| c == b'\n') {
        Some(nl) => (
            1 + head.iter().filter(|&&c| c == b'\n').count() as u64,
            (head.len() - nl) as u64,
        ),
        None => (1, head.len() as u64 + 1),
    }
}

/// A way to break the document after the release threshold.
#[derive(Debug, Clone, Copy)]
enum Break {
    None,
    /// A string where the last entry's id (a `u32`) goes.
    WrongType,
    /// The last entry's id past `u32`.
    Overflow,
    /// The last entry without its `text`: refused where that object closes, at its start.
    Missing,
    /// An unknown variant tag in the last entry.
    UnknownTag,
    /// The document cut before its end.
    Cut,
}

fn broken(log: &Log, how: Break, pretty: bool) -> String {
    let mut value = serde_json::to_value(log).unwrap();
    let last = &mut value["last"];
    match how {
        Break::None | Break::Cut => {}
        Break::WrongType => last["id"] = "seven".into(),
        Break::Overflow => last["id"] = serde_json::json!(5_000_000_000u64),
        Break::Missing => {
            last.as_object_mut().unwrap().remove("text");
        }
        Break::UnknownTag => last["kind"] = serde_json::json!({"type": "nope"}),
    }
    let mut text = if pretty {
        serde_json::to_string_pretty(&value).unwrap()
    } else {
        serde_json::to_string(&value).unwrap()
    };
    if let Break::Cut = how {
        text.truncate(text.len() - 3);
    }
    format!("Here is the log:\n```json\n{text}\n```\n")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Values and errors do not depend on the chunking, although small chunks release
    /// text along the way and one whole chunk releases none before it is read.
    #[test]
    fn released_text_changes_nothing_a_user_sees(
        log in log(),
        how in prop_oneof![
            Just(Break::None), Just(Break::WrongType), Just(Break::Overflow),
            Just(Break::Missing), Just(Break::UnknownTag), Just(Break::Cut),
        ],
        pretty in any::<bool>(),
        chunk in 1usize..64,
    ) {
        let text = broken(&log, how, pretty);
        prop_assume!(text.len() > 20_000);
        let whole = read(text.as_bytes(), text.len());
        let small = read(text.as_bytes(), chunk);
        let seven = read(text.as_bytes(), 7);
        prop_assert_eq!(&small, &whole);
        prop_assert_eq!(&seven, &whole);
        match (&whole, how) {
            (Ok(json), Break::None) => {
                // serde's own reading of the text (its floats need not round-trip).
                let start = text.find('{').unwrap_or(0);
                let end = text.rfind('}').map_or(text.len(), |e| e + 1);
                let serde: Log = serde_json::from_str(&text[start..end]).unwrap();
                prop_assert_eq!(json, &serde_json::to_string(&serde).unwrap());
            }
            (Err((kind, offset, line, column, path)), _) => {
                prop_assert!(!matches!(how, Break::None), "{kind} at {offset}");
                // The position is the input's, counted independently.
                prop_assert_eq!(line_column(text.as_bytes(), *offset), (*line, *column));
                if !matches!(how, Break::Cut) {
                    prop_assert!(path.as_deref().is_some_and(|p| p.starts_with("/last")),
                        "{kind} at {path:?}");
                }
            }
            (Ok(_), _) => prop_assert!(false, "{how:?} was accepted"),
        }
    }
}

/// A sink that needs no text of any container: the scanner holds only what is open.
struct Builds;

impl Sink for Builds {
    fn released_depth(&self) -> usize {
        usize::MAX
    }
}

/// A sink that needs the text of everything (the default).
struct Keeps;

impl Sink for Keeps {}

/// Feeds `count` elements of a long array in 100-byte chunks; returns the most clean text
/// the scanner held after a chunk, and the text of the last element's `Raw`.
fn longest_held(sink: &mut impl Sink, count: usize) -> usize {
    let mut text = String::from("[");
    for i in 0..count {
        if i > 0 {
            text.push_str(",\n");
        }
        text.push_str(&format!("{{\"n\": {i}, \"s\": \"{}\"}}", "x".repeat(90)));
    }
    text.push(']');
    let mut scanner = Scanner::new(Options::default());
    let mut most = 0;
    for chunk in text.as_bytes().chunks(100) {
        scanner.feed(chunk, sink).unwrap();
        most = most.max(scanner.clean().len());
    }
    scanner.finish(sink).unwrap();
    most
}

#[test]
fn a_sink_that_builds_from_events_holds_only_what_is_open() {
    let keeps = longest_held(&mut Keeps, 20_000);
    let builds = longest_held(&mut Builds, 20_000);
    assert!(keeps > 2_000_000, "{keeps}");
    // The threshold and at most as much kept again, plus a chunk.
    assert!(builds < 3 * 16 * 1024, "{builds}");
}

/// A released container's `Raw` keeps its span; its text is gone (and says so by being
/// empty), while the text of a value inside the window is whole.
#[test]
fn a_released_container_keeps_its_span() {
    #[derive(Default)]
    struct Spans(Vec<(usize, usize, usize)>);
    impl Sink for Spans {
        fn released_depth(&self) -> usize {
            1
        }
        fn end_object(&mut self, raw: Raw<'_>) {
            self.0
                .push((raw.span().start, raw.span().end, raw.bytes().len()));
        }
        fn end_array(&mut self, raw: Raw<'_>) {
            self.0
                .push((raw.span().start, raw.span().end, raw.bytes().len()));
        }
    }
    let inner = format!("{{\"s\": \"{}\"}}", "y".repeat(40_000));
    let text = format!("[{inner}, {inner}]");
    let mut scanner = Scanner::new(Options::default());
    let mut spans = Spans::default();
    for chunk in text.as_bytes().chunks(1000) {
        scanner.feed(chunk, &mut spans).unwrap();
    }
    scanner.finish(&mut spans).unwrap();
    let [first, second, outer] = spans.0[..] else {
        panic!("{:?}", spans.0);
    };
    // The inner objects are whole: depth 1 releases only the text before them.
    assert_eq!(first, (1, 1 + inner.len(), inner.len()));
    assert_eq!(second.1 - second.0, inner.len());
    assert_eq!(second.2, inner.len());
    // The array's span is all of it; its text was released.
    assert_eq!((outer.0, outer.1), (0, text.len()));
    assert_eq!(outer.2, 0);
}

/// A container refused where it closes is reported at its start, which was released long
/// before: the position comes from the line and column kept for open containers.
#[test]
fn a_refused_container_whose_start_was_released_keeps_its_position() {
    // Read by serde only.
    #[allow(dead_code)]
    #[derive(Debug, Deserialize, StreamingModel)]
    struct Capped {
        title: String,
        #[settled(max_items = 3)]
        items: Vec<String>,
    }
    let long = "z".repeat(10_000);
    let text = format!(
        "Sure.\n```json\n{{\n  \"title\": \"t\",\n  \"items\":\n    [\n\"{long}\",\n\"{long}\",\n\"{long}\",\n\"{long}\"\n    ]\n}}\n```\n"
    );
    let at = text.find('[').unwrap() as u64;
    for chunk in [text.len(), 1000, 7, 1] {
        let mut stream = Capped::stream();
        let error = text
            .as_bytes()
            .chunks(chunk)
            .find_map(|piece| stream.feed(piece).err().map(settled::FeedError::into_error))
            .unwrap_or_else(|| panic!("{chunk}: accepted"));
        assert_eq!(
            (error.offset(), error.line(), error.column(), error.path()),
            (at, 6, 5, Some("/items")),
            "{chunk}: {error}"
        );
    }
}
