//! serde reads a struct from an array of its fields as well as from an object: random
//! documents mixing the two forms, at random chunkings (1-byte and 7-byte included), read
//! back as serde reads them, with drafts that only extend and events equal to the value
//! at their place.

use common::{chunk, chunk_sizes, extends};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use settled::StreamingModel;

mod common;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
struct Pair {
    p: u8,
    #[serde(default)]
    q: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
struct Row {
    id: u32,
    name: String,
    tags: Vec<String>,
    inner: Option<Pair>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
struct Table {
    rows: Vec<Row>,
    head: Pair,
}

/// A JSON string.
fn s(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// `fields` (name, JSON) as an object, or as an array of the values when `array`.
fn structure(fields: &[(&str, String)], array: bool) -> String {
    if array {
        let values: Vec<&str> = fields.iter().map(|(_, v)| v.as_str()).collect();
        format!("[{}]", values.join(","))
    } else {
        let members: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("{}:{v}", s(k)))
            .collect();
        format!("{{{}}}", members.join(","))
    }
}

/// `pair` written with the forms `bits` picks (a defaulted `q` may be left out of the
/// array form).
fn pair(pair: &Pair, bits: &mut impl Iterator<Item = bool>) -> String {
    let array = bits.next().unwrap_or(false);
    let short = bits.next().unwrap_or(false) && pair.q.is_empty();
    let mut fields = vec![("p", pair.p.to_string())];
    if !(array && short) {
        fields.push(("q", s(&pair.q)));
    }
    structure(&fields, array)
}

fn row(row: &Row, bits: &mut impl Iterator<Item = bool>) -> String {
    let array = bits.next().unwrap_or(false);
    let tags: Vec<String> = row.tags.iter().map(|t| s(t)).collect();
    let inner = match &row.inner {
        Some(p) => pair(p, bits),
        None => "null".into(),
    };
    structure(
        &[
            ("id", row.id.to_string()),
            ("name", s(&row.name)),
            ("tags", format!("[{}]", tags.join(","))),
            ("inner", inner),
        ],
        array,
    )
}

fn table(table: &Table, bits: &[bool]) -> String {
    let mut bits = bits.iter().copied().cycle();
    let array = bits.next().unwrap_or(false);
    let rows: Vec<String> = table.rows.iter().map(|r| row(r, &mut bits)).collect();
    let head = pair(&table.head, &mut bits);
    structure(
        &[("rows", format!("[{}]", rows.join(","))), ("head", head)],
        array,
    )
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[a-z ]{0,8}",
        "[\"\\\\{}\\[\\],:]{0,4}",
        "[é漢😀]{0,3}",
    ]
}

fn pairs() -> impl Strategy<Value = Pair> {
    (any::<u8>(), text()).prop_map(|(p, q)| Pair { p, q })
}

fn tables() -> impl Strategy<Value = Table> {
    let row = (
        any::<u32>(),
        text(),
        prop::collection::vec(text(), 0..3),
        prop::option::of(pairs()),
    )
        .prop_map(|(id, name, tags, inner)| Row {
            id,
            name,
            tags,
            inner,
        });
    (prop::collection::vec(row, 0..4), pairs()).prop_map(|(rows, head)| Table { rows, head })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(256)
    ))]

    #[test]
    fn structs_as_arrays_read_as_serde_reads_them(
        expected in tables(),
        bits in prop::collection::vec(any::<bool>(), 1..24),
        sizes in chunk_sizes(),
    ) {
        let json = table(&expected, &bits);
        let serde: Table = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&serde, &expected, "the generator writes what serde reads");
        let final_json = serde_json::to_value(&expected).unwrap();
        let mut stream = Table::stream();
        let mut previous: Option<Value> = None;
        for piece in chunk(json.as_bytes(), &sizes) {
            for field in stream.feed(piece).unwrap() {
                match field {
                    TableField::Head(head) => prop_assert_eq!(&head, &expected.head),
                    TableField::Rows(rows) => prop_assert_eq!(&rows, &expected.rows),
                    TableField::RowsItem(i, row) => prop_assert_eq!(Some(&row), expected.rows.get(i)),
                    _ => {}
                }
            }
            let draft = serde_json::to_value(stream.draft()).unwrap();
            prop_assert!(extends(&draft, &final_json), "draft {} is not within {}", draft, final_json);
            if let Some(prev) = &previous {
                prop_assert!(extends(prev, &draft), "draft {} does not extend {}", draft, prev);
            }
            previous = Some(draft);
        }
        prop_assert_eq!(stream.finish().unwrap(), expected);
    }

    #[test]
    fn a_struct_array_of_the_wrong_length_fails_as_serde_does(
        p in any::<u8>(),
        extra in prop::collection::vec(any::<u8>(), 0..3),
        sizes in chunk_sizes(),
    ) {
        // `[]` lacks `p`; `[p]` and `[p, "q"]` are whole; more is too many.
        let mut values = vec![p.to_string(), s("q")];
        values.extend(extra.iter().map(|e| e.to_string()));
        for len in 0..=values.len() {
            let json = format!(r#"{{"rows":[],"head":[{}]}}"#, values[..len].join(","));
            let serde = serde_json::from_str::<Table>(&json);
            let mut stream = Table::stream();
            let mut ours = Ok(());
            for piece in chunk(json.as_bytes(), &sizes) {
                if let Err(e) = stream.feed(piece) {
                    ours = Err(e.kind());
                    break;
                }
            }
            let ours = ours.and_then(|()| stream.finish().map_err(|e| e.kind()));
            prop_assert_eq!(ours.is_ok(), serde.is_ok(), "{}: {:?} vs {:?}", json, ours, serde);
            if let (Ok(ours), Ok(serde)) = (ours, serde) {
                prop_assert_eq!(ours, serde);
            }
        }
    }
}
