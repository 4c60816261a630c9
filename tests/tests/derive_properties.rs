//! Property tests of derived models: random instances with nested structs, vectors,
//! options, enums, maps and escapes, serialized by serde_json (compact or pretty, with or
//! without a fence), fed in random chunkings including 1-byte chunks.
// Models here are streamed, not read field by field.
#![allow(dead_code)]

mod common;

use common::{chunk, chunk_sizes, extends};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use settled::{FieldName, StreamingModel};
use std::collections::{BTreeMap, HashMap};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, StreamingModel)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Color {
    DeepRed,
    Green,
    #[serde(rename = "blue!")]
    Blue,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
#[serde(rename_all = "camelCase")]
struct Inner {
    display_name: String,
    count: i64,
    tags: Vec<String>,
    color: Option<Color>,
    ratio: Option<u16>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
struct Outer {
    #[serde(rename = "ID")]
    id: u32,
    title: String,
    inner: Inner,
    items: Vec<Inner>,
    maybe: Option<Inner>,
    weights: HashMap<String, i32>,
    flags: BTreeMap<String, bool>,
    grid: Vec<Vec<u8>>,
    #[settled(atomic)]
    token: String,
    extra: Value,
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z {}\\[\\]:,\"\\\\/]{0,10}",
        "\\PC{0,6}",
        "[é漢🚀\u{1}\n\t]{0,4}"
    ]
}

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::DeepRed), Just(Color::Green), Just(Color::Blue)]
}

fn inner() -> impl Strategy<Value = Inner> {
    (
        text(),
        any::<i64>(),
        prop::collection::vec(text(), 0..4),
        proptest::option::of(color()),
        proptest::option::of(any::<u16>()),
    )
        .prop_map(|(display_name, count, tags, color, ratio)| Inner {
            display_name,
            count,
            tags,
            color,
            ratio,
        })
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(Value::from),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 12, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(text(), inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn outer() -> impl Strategy<Value = Outer> {
    (
        (
            any::<u32>(),
            text(),
            inner(),
            prop::collection::vec(inner(), 0..3),
        ),
        (
            proptest::option::of(inner()),
            prop::collection::hash_map(text(), any::<i32>(), 0..3),
            prop::collection::btree_map(text(), any::<bool>(), 0..3),
            prop::collection::vec(prop::collection::vec(any::<u8>(), 0..3), 0..3),
            "[A-Z0-9-]{1,8}",
            json_value(),
        ),
    )
        .prop_map(
            |((id, title, inner, items), (maybe, weights, flags, grid, token, extra))| Outer {
                id,
                title,
                inner,
                items,
                maybe,
                weights,
                flags,
                grid,
                token,
                extra,
            },
        )
}

/// Checks one settled field of `Inner` against the instance.
fn check_inner(field: &InnerField, expected: &Inner) -> Result<(), TestCaseError> {
    match field {
        InnerField::DisplayName(v) => prop_assert_eq!(v, &expected.display_name),
        InnerField::Count(v) => prop_assert_eq!(v, &expected.count),
        InnerField::TagsItem(i, v) => prop_assert_eq!(Some(v), expected.tags.get(*i)),
        InnerField::Tags(v) => prop_assert_eq!(v, &expected.tags),
        InnerField::Color(v) => prop_assert_eq!(v, &expected.color),
        InnerField::Ratio(v) => prop_assert_eq!(v, &expected.ratio),
        InnerField::InColor(never) => match *never {},
    }
    Ok(())
}

/// Checks one settled field of `Outer`; returns the top-level field's name if it is one.
fn check_outer(
    field: &OuterField,
    expected: &Outer,
) -> Result<Option<OuterFieldName>, TestCaseError> {
    use OuterFieldName as N;
    let top = match field {
        OuterField::Id(v) => {
            prop_assert_eq!(v, &expected.id);
            Some(N::Id)
        }
        OuterField::Title(v) => {
            prop_assert_eq!(v, &expected.title);
            Some(N::Title)
        }
        OuterField::Inner(v) => {
            prop_assert_eq!(v, &expected.inner);
            Some(N::Inner)
        }
        OuterField::InInner(f) => {
            check_inner(f, &expected.inner)?;
            None
        }
        OuterField::ItemsItem(i, v) => {
            prop_assert_eq!(Some(v), expected.items.get(*i));
            None
        }
        OuterField::InItems(i, f) => {
            check_inner(f, &expected.items[*i])?;
            None
        }
        OuterField::Items(v) => {
            prop_assert_eq!(v, &expected.items);
            Some(N::Items)
        }
        OuterField::Maybe(v) => {
            prop_assert_eq!(v, &expected.maybe);
            Some(N::Maybe)
        }
        OuterField::InMaybe(f) => {
            check_inner(f, expected.maybe.as_ref().expect("maybe is present"))?;
            None
        }
        OuterField::Weights(v) => {
            prop_assert_eq!(v, &expected.weights);
            Some(N::Weights)
        }
        OuterField::InWeights(settled::Entry::Value(k, v)) => {
            prop_assert_eq!(Some(v), expected.weights.get(k));
            None
        }
        OuterField::Flags(v) => {
            prop_assert_eq!(v, &expected.flags);
            Some(N::Flags)
        }
        OuterField::InFlags(settled::Entry::Value(k, v)) => {
            prop_assert_eq!(Some(v), expected.flags.get(k));
            None
        }
        OuterField::GridItem(i, v) => {
            prop_assert_eq!(Some(v), expected.grid.get(*i));
            None
        }
        OuterField::InGrid(i, settled::Item::Element(j, v)) => {
            prop_assert_eq!(Some(v), expected.grid.get(*i).and_then(|row| row.get(*j)));
            None
        }
        OuterField::Grid(v) => {
            prop_assert_eq!(v, &expected.grid);
            Some(N::Grid)
        }
        OuterField::Token(v) => {
            prop_assert_eq!(v, &expected.token);
            Some(N::Token)
        }
        OuterField::Extra(v) => {
            prop_assert_eq!(v, &expected.extra);
            Some(N::Extra)
        }
        other => return Err(TestCaseError::fail(format!("unexpected event {other:?}"))),
    };
    Ok(top)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(256)
    ))]

    #[test]
    fn derived_model_streams_every_field(
        expected in outer(),
        pretty in any::<bool>(),
        fenced in any::<bool>(),
        sizes in chunk_sizes(),
    ) {
        let json = if pretty {
            serde_json::to_string_pretty(&expected).unwrap()
        } else {
            serde_json::to_string(&expected).unwrap()
        };
        let text = if fenced {
            format!("Here is the object:\n```json\n{json}\n```\nDone.")
        } else {
            json
        };
        let final_json = serde_json::to_value(&expected).unwrap();
        let mut stream = Outer::stream();
        let mut previous: Option<Value> = None;
        let mut tops = Vec::new();
        for piece in chunk(text.as_bytes(), &sizes) {
            let fields: Vec<OuterField> = stream.feed(piece).unwrap().collect();
            for field in &fields {
                if let Some(top) = check_outer(field, &expected)? {
                    tops.push(top);
                }
            }
            let draft = serde_json::to_value(stream.draft()).unwrap();
            prop_assert!(extends(&draft, &final_json), "draft {} is not a prefix of {}", draft, final_json);
            if let Some(prev) = &previous {
                prop_assert!(extends(prev, &draft), "draft {} does not extend {}", draft, prev);
            }
            for name in OuterFieldName::ALL {
                if stream.draft().state(*name) == settled::FieldState::Settled {
                    let key = name.key();
                    prop_assert_eq!(draft.get(key), final_json.get(key), "settled {} changed", key);
                }
            }
            previous = Some(draft);
        }
        tops.sort_by_key(|name| *name as usize);
        prop_assert_eq!(tops, OuterFieldName::ALL.to_vec(), "every top-level field settles once");
        let value = stream.finish().unwrap();
        prop_assert_eq!(value, expected);
    }
}

#[test]
fn absent_and_null_stay_apart() {
    let mut stream = Outer::stream();
    let text = r#"{"ID": 1, "maybe": null, "inner": {"displayName": "x", "color": null"#;
    stream.feed(text.as_bytes()).unwrap();
    let draft = stream.draft();
    assert_eq!(draft.maybe, Some(None), "the model wrote null");
    assert_eq!(draft.title, None, "title has not arrived");
    let inner = draft.inner.as_ref().unwrap();
    assert_eq!(inner.color, Some(None));
    assert_eq!(inner.ratio, None);
}

#[test]
fn unknown_keys_are_skipped_and_aliases_read() {
    #[derive(Debug, PartialEq, Deserialize, StreamingModel)]
    struct Small {
        #[serde(alias = "heading")]
        title: String,
        #[serde(default)]
        n: u8,
        #[serde(skip)]
        cache: u8,
    }
    let mut stream = Small::stream();
    let text = r#"{"junk": {"title": "no", "n": [1, {"x": 2}]}, "heading": "yes", "cache": 5}"#;
    let fields: Vec<_> = stream.feed(text.as_bytes()).unwrap().collect();
    assert_eq!(format!("{fields:?}"), r#"[Title("yes")]"#);
    assert_eq!(stream.draft().title.as_deref(), Some("yes"));
    assert_eq!(
        stream.finish().unwrap(),
        Small {
            title: "yes".into(),
            n: 0,
            cache: 0
        }
    );
}

/// Issue 12, bug 9: a duplicate key changed a settled value (`Score(1)` then `Score(2)`).
/// serde rejects a struct's duplicate field; the stream says so in the chunk where the key
/// closes, at the key, and the first value stays.
#[test]
fn a_duplicate_field_fails_fast_at_its_key_and_the_first_value_stays() {
    let mut stream = Inner::stream();
    let fields: Vec<_> = stream
        .feed(br#"{"displayName": "a", "count": 1"#)
        .unwrap()
        .collect();
    assert_eq!(fields.len(), 1, "the count settles at its delimiter");
    let err = stream.feed(br#", "displayName""#).unwrap_err();
    assert_eq!(err.kind(), settled::ErrorKind::Validation);
    assert_eq!(err.path(), Some("/displayName"));
    assert!(
        err.reason().contains("duplicate field `displayName`"),
        "{err}"
    );
    assert_eq!(err.offset(), 33, "at the repeated key");
    assert_eq!(stream.draft().display_name.as_deref(), Some("a"));
    assert_eq!(
        stream.draft().state(InnerFieldName::DisplayName),
        settled::FieldState::Settled
    );
    let err = stream.finish().unwrap_err();
    assert!(err.to_string().contains("duplicate field"), "{err}");
}

/// Without fail-fast the duplicate's value is skipped (no second event, the draft keeps
/// the first value) and `finish` reports serde's verdict.
#[test]
fn a_duplicate_field_is_skipped_without_fail_fast() {
    let mut stream = Inner::stream_with_options(settled::Options::default().fail_fast(false));
    let text = r#"{"displayName": "a", "count": 1, "displayName": "b", "tags": [], "color": null, "ratio": 3}"#;
    let fields: Vec<String> = stream
        .feed(text.as_bytes())
        .unwrap()
        .map(|f| format!("{f:?}"))
        .collect();
    assert_eq!(
        fields
            .iter()
            .filter(|f| f.starts_with("DisplayName"))
            .count(),
        1,
        "{fields:?}"
    );
    assert_eq!(stream.draft().display_name.as_deref(), Some("a"));
    let err = stream.finish().unwrap_err();
    assert_eq!(err.kind(), settled::ErrorKind::Validation);
    assert!(
        err.to_string().contains("duplicate field `displayName`"),
        "{err}"
    );
}

/// The example of the issue, through an alias: `{"score": 1, "confidence": 2}` is the same
/// field twice.
#[test]
fn a_field_read_twice_through_an_alias_is_a_duplicate() {
    #[derive(Debug, Deserialize, StreamingModel)]
    struct Scored {
        #[serde(alias = "confidence")]
        score: u8,
    }
    let mut stream = Scored::stream();
    let mut events = Vec::new();
    let mut error = None;
    for byte in br#"{"score": 1, "confidence": 2}"#.chunks(1) {
        match stream.feed(byte) {
            Ok(fields) => events.extend(fields.map(|f| format!("{f:?}"))),
            Err(e) => {
                error = Some(e);
                break;
            }
        }
    }
    assert_eq!(events, ["Score(1)"]);
    let error = error.expect("the duplicate fails");
    assert!(
        error.reason().contains("duplicate field `score`"),
        "{error}"
    );
    assert_eq!(error.path(), Some("/confidence"), "the key the model wrote");
    assert_eq!(*stream.draft().score.as_ref().unwrap(), 1);
}

/// Maps and `serde_json::Value` fields: serde would keep the last value, but the first has
/// settled (and been shown); the typed stream rejects the repetition.
#[test]
fn duplicate_map_keys_are_rejected_in_a_typed_stream() {
    #[derive(Debug, Deserialize, StreamingModel)]
    struct Maps {
        weights: std::collections::BTreeMap<String, u8>,
        extra: serde_json::Value,
    }
    let mut stream = Maps::stream();
    let err = stream
        .feed(br#"{"weights": {"a": 1, "a": 2}}"#)
        .unwrap_err();
    assert_eq!(err.path(), Some("/weights/a"));
    assert!(err.reason().contains("duplicate key `a`"), "{err}");
    assert_eq!(stream.draft().weights.as_ref().unwrap()["a"], 1);

    let mut stream = Maps::stream();
    let err = stream
        .feed(br#"{"weights": {}, "extra": {"x": [{"k": 1, "k": 2}]}}"#)
        .unwrap_err();
    assert_eq!(err.path(), Some("/extra/x/0/k"));
    assert_eq!(
        stream.draft().extra.as_ref().unwrap(),
        &serde_json::json!({"x": [{"k": 1}]})
    );
}

#[test]
fn callbacks_take_any_variant_nested_ones_too() {
    use std::sync::{Arc, Mutex};
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut stream = Outer::stream();
    let (a, b, c, d) = (log.clone(), log.clone(), log.clone(), log.clone());
    stream
        // A value settled inside the nested model.
        .on(OuterField::InInner, move |f: &InnerField| {
            a.lock().unwrap().push(format!("inner {f:?}"));
        })
        // A value settled inside one element of a vector of models.
        .on_item(OuterField::InItems, move |i, f| {
            b.lock().unwrap().push(format!("items[{i}] {f:?}"));
        })
        .on_item(OuterField::ItemsItem, move |i, item: &Inner| {
            c.lock().unwrap().push(format!("item {i} {}", item.count));
        })
        .on(OuterField::Token, move |t: &String| {
            d.lock().unwrap().push(format!("token {t}"));
        });
    let text = r#"{"ID": 1, "title": "t",
        "inner": {"displayName": "a", "count": 2, "tags": [], "color": null, "ratio": 3},
        "items": [{"displayName": "b", "count": 4, "tags": ["x"], "color": "GREEN", "ratio": null}],
        "maybe": null, "weights": {}, "flags": {}, "grid": [], "token": "T-1", "extra": null}"#;
    for chunk in text.as_bytes().chunks(3) {
        stream.feed(chunk).unwrap();
    }
    stream.finish().unwrap();
    let log = log.lock().unwrap();
    assert_eq!(
        log[..6],
        [
            r#"inner DisplayName("a")"#,
            "inner Count(2)",
            "inner Tags([])",
            "inner Color(None)",
            "inner Ratio(Some(3))",
            r#"items[0] DisplayName("b")"#,
        ]
    );
    assert_eq!(
        log[6..9],
        [
            "items[0] Count(4)",
            r#"items[0] TagsItem(0, "x")"#,
            r#"items[0] Tags(["x"])"#
        ]
    );
    assert_eq!(
        log[9..],
        [
            "items[0] Color(Some(Green))",
            "items[0] Ratio(None)",
            "item 0 4",
            "token T-1"
        ]
    );
}

#[test]
fn callbacks_fire_in_settling_order() {
    use std::sync::{Arc, Mutex};
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut stream = Inner::stream();
    let (a, b, c) = (log.clone(), log.clone(), log.clone());
    stream
        .on_item(InnerField::TagsItem, move |i, t| {
            a.lock().unwrap().push(format!("tag {i} {t}"));
        })
        .on(InnerField::Count, move |n| {
            b.lock().unwrap().push(format!("count {n}"));
        })
        .on(InnerField::Tags, move |t| {
            c.lock().unwrap().push(format!("tags {}", t.len()));
        });
    let text =
        r#"{"tags": ["x", "y"], "count": 5, "displayName": "", "color": null, "ratio": null}"#;
    for byte in text.as_bytes() {
        stream.feed(std::slice::from_ref(byte)).unwrap();
    }
    assert_eq!(
        *log.lock().unwrap(),
        ["tag 0 x", "tag 1 y", "tags 2", "count 5"]
    );
    stream.finish().unwrap();
}

#[test]
fn a_vec_root_reports_each_element() {
    let mut stream = settled::TypedStream::<Vec<Inner>>::new();
    let one = r#"{"displayName": "a", "count": 1, "tags": [], "color": "GREEN", "ratio": null}"#;
    let text = format!("Items: [{one}, {one}]");
    let mut settled = Vec::new();
    for piece in text.as_bytes().chunks(5) {
        for item in stream.feed(piece).unwrap() {
            if let settled::Item::Element(i, inner) = item {
                settled.push((i, inner.count, inner.color));
            }
        }
    }
    assert_eq!(
        settled,
        [(0, 1, Some(Color::Green)), (1, 1, Some(Color::Green))]
    );
    assert_eq!(stream.finish().unwrap().len(), 2);
}

#[test]
fn generic_models_stream() {
    #[derive(Debug, PartialEq, Deserialize, StreamingModel)]
    struct Page<T> {
        items: Vec<T>,
        next: Option<String>,
    }
    let mut stream = Page::<Inner>::stream();
    let one = r#"{"displayName": "a", "count": 1, "tags": ["t"], "color": null, "ratio": 2}"#;
    let text = format!(r#"{{"items": [{one}], "next": null}}"#);
    let fields: Vec<_> = stream.feed(text.as_bytes()).unwrap().collect();
    assert!(matches!(
        fields[0],
        PageField::InItems(0, InnerField::DisplayName(_))
    ));
    assert!(
        fields
            .iter()
            .any(|f| matches!(f, PageField::ItemsItem(0, _)))
    );
    assert_eq!(stream.finish().unwrap().items.len(), 1);
}

fn trimmed<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(String::deserialize(d)?.trim().to_string())
}

fn number_in_string<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    String::deserialize(d)?
        .trim()
        .parse()
        .map_err(serde::de::Error::custom)
}

/// A field serde reads with a function of the user's streams as one value: it appears once
/// settled, and its event and the final value are what that function returned.
#[test]
fn fields_serde_reads_with_a_function_stream_whole_through_it() {
    #[derive(Debug, PartialEq, Deserialize, StreamingModel)]
    struct Custom {
        #[serde(deserialize_with = "trimmed")]
        title: String,
        #[serde(deserialize_with = "number_in_string")]
        n: u32,
        plain: String,
    }
    let mut stream = Custom::stream();
    let fields: Vec<_> = stream.feed(br#"{"title": "  h"#).unwrap().collect();
    assert!(fields.is_empty());
    assert!(stream.draft().title.is_none(), "only once settled");
    let fields: Vec<_> = stream
        .feed(br#"i  ", "n": "5", "plain": "x"}"#)
        .unwrap()
        .collect();
    assert_eq!(format!("{fields:?}"), r#"[Title("hi"), N(5), Plain("x")]"#);
    assert_eq!(
        stream.draft().title.as_deref().map(String::as_str),
        Some("hi")
    );
    let mut bad = Custom::stream();
    let err = bad.feed(br#"{"n": "five", "#).unwrap_err();
    assert_eq!(err.path(), Some("/n"), "the function's error, at the value");
    assert_eq!(
        stream.finish().unwrap(),
        Custom {
            title: "hi".into(),
            n: 5,
            plain: "x".into()
        },
        "what serde reads"
    );
}

#[test]
fn a_user_type_named_value_is_a_model() {
    mod m {
        #[derive(Debug, serde::Deserialize, settled::StreamingModel)]
        pub(crate) struct Value {
            pub(crate) x: u8,
        }
    }
    #[derive(Debug, Deserialize, StreamingModel)]
    struct Metric {
        value: m::Value,
    }
    let mut stream = Metric::stream();
    let fields: Vec<_> = stream.feed(br#"{"value": {"x": 3}}"#).unwrap().collect();
    assert!(matches!(
        fields[0],
        MetricField::InValue(m::ValueField::X(3))
    ));
}

/// A type with nothing but `Deserialize` and `Debug`: no `Clone`, `PartialEq` or `Serialize`.
#[derive(Debug, Deserialize)]
struct Opaque {
    url: String,
}

#[test]
fn any_deserialize_type_can_be_atomic() {
    #[derive(Debug, Deserialize, StreamingModel)]
    struct Link {
        title: String,
        #[settled(atomic)]
        target: Opaque,
    }
    let mut stream = Link::stream();
    stream.feed(br#"{"target": {"url": "https://exam"#).unwrap();
    assert!(stream.draft().target.is_none(), "only once settled");
    let fields: Vec<_> = stream
        .feed(br#"ple.com"}, "title": "x"}"#)
        .unwrap()
        .collect();
    assert!(matches!(&fields[0], LinkField::Target(o) if o.url == "https://example.com"));
    let draft = stream.draft().target.as_ref().unwrap();
    assert_eq!(draft.url, "https://example.com", "derefs to the value");
    assert_eq!(
        serde_json::to_string(stream.draft()).unwrap(),
        r#"{"title":"x","target":{"url":"https://example.com"}}"#
    );
    let link = stream.finish().unwrap();
    assert_eq!(
        (link.title.as_str(), link.target.url.as_str()),
        ("x", "https://example.com")
    );
}
