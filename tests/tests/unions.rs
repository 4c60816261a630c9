//! Enums with data (issue 15), in serde's four representations: random instances of
//! models holding each representation (unit, newtype, tuple and struct variants, nested
//! unions, a `Vec` of unions, a union in an `Option`, recursion through `Box` and `Vec`),
//! written with the tag first (as serde writes) or where a sorted object puts it (often
//! last), fed in random chunkings (1-byte and 7-byte included): `finish` is the
//! instance, every event is the instance at its path, drafts only extend.
#![recursion_limit = "512"]

mod common;

use common::{assert_strict, chunk, chunk_sizes, extends};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use settled::schema::Schema;
use settled::{ErrorKind, FieldName, Item, StreamingModel, TupleItem};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
pub struct Leaf {
    name: String,
    n: i32,
}

/// Internally tagged: the tag is a member of the variant's object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Internal {
    Reply {
        text: String,
    },
    Search {
        query: String,
        top_k: u32,
        #[serde(default)]
        tags: Vec<String>,
    },
    Wrap(Leaf),
    Stop,
}

/// Adjacently tagged, recursive through `Box`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    Unit,
    Num(i64),
    Pair(String, bool),
    Named {
        a: String,
        inner: Option<Box<Adjacent>>,
    },
}

/// Externally tagged (serde's default), recursive through `Vec`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
pub enum External {
    Unit,
    Text(String),
    Pair(u8, String),
    Named {
        #[serde(rename = "A")]
        a: String,
        list: Vec<External>,
    },
}

/// Untagged: serde's rule decides at the end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
#[serde(untagged)]
pub enum Untagged {
    Num(i64),
    Text(String),
    Obj { x: String, y: Option<bool> },
    List(Vec<u8>),
    Pair(u8, String),
    Nothing,
}

/// A union of unions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
pub enum Nested {
    Inner(Internal),
    Other(Adjacent),
}

/// A generic internally tagged union.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome<T> {
    Ok { value: T },
    Failed { message: String },
    Pending,
}

/// A generic externally tagged union of two parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
pub enum Either<A, B> {
    Left(A),
    Right(B),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
pub struct Doc {
    ext: External,
    int: Internal,
    adj: Adjacent,
    un: Untagged,
    many: Vec<Internal>,
    maybe: Option<Adjacent>,
    nested: Nested,
    outcome: Outcome<Leaf>,
    either: Vec<Either<u8, Leaf>>,
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z {}\\[\\]:,\"\\\\/]{0,8}",
        "\\PC{0,5}",
        "[é漢🚀\u{1}\n]{0,3}"
    ]
}

fn leaf() -> impl Strategy<Value = Leaf> {
    (text(), any::<i32>()).prop_map(|(name, n)| Leaf { name, n })
}

fn internal() -> impl Strategy<Value = Internal> {
    prop_oneof![
        text().prop_map(|text| Internal::Reply { text }),
        (text(), any::<u32>(), prop::collection::vec(text(), 0..3))
            .prop_map(|(query, top_k, tags)| Internal::Search { query, top_k, tags }),
        leaf().prop_map(Internal::Wrap),
        Just(Internal::Stop),
    ]
}

fn adjacent() -> impl Strategy<Value = Adjacent> {
    let leaf = prop_oneof![
        Just(Adjacent::Unit),
        any::<i64>().prop_map(Adjacent::Num),
        (text(), any::<bool>()).prop_map(|(s, b)| Adjacent::Pair(s, b)),
        text().prop_map(|a| Adjacent::Named { a, inner: None }),
    ];
    leaf.prop_recursive(3, 8, 1, |inner| {
        (text(), inner).prop_map(|(a, i)| Adjacent::Named {
            a,
            inner: Some(Box::new(i)),
        })
    })
}

fn external() -> impl Strategy<Value = External> {
    let leaf = prop_oneof![
        Just(External::Unit),
        text().prop_map(External::Text),
        (any::<u8>(), text()).prop_map(|(n, s)| External::Pair(n, s)),
    ];
    leaf.prop_recursive(3, 10, 3, |inner| {
        (text(), prop::collection::vec(inner, 0..3))
            .prop_map(|(a, list)| External::Named { a, list })
    })
}

fn untagged() -> impl Strategy<Value = Untagged> {
    prop_oneof![
        any::<i64>().prop_map(Untagged::Num),
        text().prop_map(Untagged::Text),
        (text(), any::<Option<bool>>()).prop_map(|(x, y)| Untagged::Obj { x, y }),
        prop::collection::vec(any::<u8>(), 0..4).prop_map(Untagged::List),
        (any::<u8>(), text()).prop_map(|(n, s)| Untagged::Pair(n, s)),
        Just(Untagged::Nothing),
    ]
}

fn doc() -> impl Strategy<Value = Doc> {
    (
        external(),
        internal(),
        adjacent(),
        untagged(),
        prop::collection::vec(internal(), 0..3),
        prop::option::of(adjacent()),
        prop_oneof![
            internal().prop_map(Nested::Inner),
            adjacent().prop_map(Nested::Other)
        ],
        prop_oneof![
            leaf().prop_map(|value| Outcome::Ok { value }),
            text().prop_map(|message| Outcome::Failed { message }),
            Just(Outcome::Pending),
        ],
        prop::collection::vec(
            prop_oneof![
                any::<u8>().prop_map(Either::Left),
                leaf().prop_map(Either::Right)
            ],
            0..3,
        ),
    )
        .prop_map(
            |(ext, int, adj, un, many, maybe, nested, outcome, either)| Doc {
                ext,
                int,
                adj,
                un,
                many,
                maybe,
                nested,
                outcome,
                either,
            },
        )
}

fn fail(what: impl std::fmt::Debug, at: impl std::fmt::Debug) -> TestCaseError {
    TestCaseError::fail(format!("event {what:?} does not match {at:?}"))
}

fn check_leaf(f: &LeafField, v: &Leaf) -> Result<(), TestCaseError> {
    match f {
        LeafField::Name(s) => prop_assert_eq!(s, &v.name),
        LeafField::N(n) => prop_assert_eq!(n, &v.n),
    }
    Ok(())
}

fn check_internal(f: &InternalField, v: &Internal) -> Result<(), TestCaseError> {
    match (f, v) {
        (InternalField::Reply(InternalReplyField::Text(s)), Internal::Reply { text }) => {
            prop_assert_eq!(s, text);
        }
        (InternalField::Search(f), Internal::Search { query, top_k, tags }) => match f {
            InternalSearchField::Query(s) => prop_assert_eq!(s, query),
            InternalSearchField::TopK(k) => prop_assert_eq!(k, top_k),
            InternalSearchField::Tags(t) => prop_assert_eq!(t, tags),
            InternalSearchField::TagsItem(i, t) => prop_assert_eq!(Some(t), tags.get(*i)),
        },
        (InternalField::Wrap(f), Internal::Wrap(leaf)) => check_leaf(f, leaf)?,
        _ => return Err(fail(f, v)),
    }
    Ok(())
}

fn check_adjacent(f: &AdjacentField, v: &Adjacent) -> Result<(), TestCaseError> {
    match (f, v) {
        (AdjacentField::Pair(TupleItem::At0(Item::Element(0, s))), Adjacent::Pair(a, _)) => {
            prop_assert_eq!(s, a);
        }
        (AdjacentField::Pair(TupleItem::At1(Item::Element(1, b))), Adjacent::Pair(_, c)) => {
            prop_assert_eq!(b, c);
        }
        (AdjacentField::Named(f), Adjacent::Named { a, inner }) => match f {
            AdjacentNamedField::A(s) => prop_assert_eq!(s, a),
            AdjacentNamedField::Inner(i) => prop_assert_eq!(i, inner),
            AdjacentNamedField::InInner(f) => match inner {
                Some(inner) => check_adjacent(f, inner)?,
                None => return Err(fail(f, inner)),
            },
        },
        _ => return Err(fail(f, v)),
    }
    Ok(())
}

fn check_external(f: &ExternalField, v: &External) -> Result<(), TestCaseError> {
    match (f, v) {
        (ExternalField::Pair(TupleItem::At0(Item::Element(0, n))), External::Pair(m, _)) => {
            prop_assert_eq!(n, m);
        }
        (ExternalField::Pair(TupleItem::At1(Item::Element(1, s))), External::Pair(_, t)) => {
            prop_assert_eq!(s, t);
        }
        (ExternalField::Named(f), External::Named { a, list }) => match f {
            ExternalNamedField::A(s) => prop_assert_eq!(s, a),
            ExternalNamedField::List(l) => prop_assert_eq!(l, list),
            ExternalNamedField::ListItem(i, e) => prop_assert_eq!(Some(e), list.get(*i)),
            ExternalNamedField::InList(i, f) => match list.get(*i) {
                Some(e) => check_external(f, e)?,
                None => return Err(fail(f, list)),
            },
        },
        _ => return Err(fail(f, v)),
    }
    Ok(())
}

fn check_untagged(f: &UntaggedField, v: &Untagged) -> Result<(), TestCaseError> {
    match (f, v) {
        (UntaggedField::Obj(UntaggedObjField::X(s)), Untagged::Obj { x, .. }) => {
            prop_assert_eq!(s, x);
        }
        (UntaggedField::Obj(UntaggedObjField::Y(b)), Untagged::Obj { y, .. }) => {
            prop_assert_eq!(b, y);
        }
        (UntaggedField::List(Item::Element(i, n)), Untagged::List(l)) => {
            prop_assert_eq!(Some(n), l.get(*i));
        }
        (UntaggedField::Pair(TupleItem::At0(Item::Element(0, n))), Untagged::Pair(m, _)) => {
            prop_assert_eq!(n, m);
        }
        (UntaggedField::Pair(TupleItem::At1(Item::Element(1, s))), Untagged::Pair(_, t)) => {
            prop_assert_eq!(s, t);
        }
        _ => return Err(fail(f, v)),
    }
    Ok(())
}

/// One event against the instance: the value at the event's path.
fn check(field: &DocField, d: &Doc) -> Result<(), TestCaseError> {
    use DocField as F;
    match field {
        F::Ext(v) => prop_assert_eq!(v, &d.ext),
        F::InExt(f) => check_external(f, &d.ext)?,
        F::Int(v) => prop_assert_eq!(v, &d.int),
        F::InInt(f) => check_internal(f, &d.int)?,
        F::Adj(v) => prop_assert_eq!(v, &d.adj),
        F::InAdj(f) => check_adjacent(f, &d.adj)?,
        F::Un(v) => prop_assert_eq!(v, &d.un),
        F::InUn(f) => check_untagged(f, &d.un)?,
        F::Many(v) => prop_assert_eq!(v, &d.many),
        F::ManyItem(i, v) => prop_assert_eq!(Some(v), d.many.get(*i)),
        F::InMany(i, f) => match d.many.get(*i) {
            Some(v) => check_internal(f, v)?,
            None => return Err(fail(f, &d.many)),
        },
        F::Maybe(v) => prop_assert_eq!(v, &d.maybe),
        F::InMaybe(f) => match &d.maybe {
            Some(v) => check_adjacent(f, v)?,
            None => return Err(fail(f, &d.maybe)),
        },
        F::Nested(v) => prop_assert_eq!(v, &d.nested),
        F::InNested(f) => match (f, &d.nested) {
            (NestedField::Inner(f), Nested::Inner(v)) => check_internal(f, v)?,
            (NestedField::Other(f), Nested::Other(v)) => check_adjacent(f, v)?,
            _ => return Err(fail(f, &d.nested)),
        },
        F::Outcome(v) => prop_assert_eq!(v, &d.outcome),
        F::InOutcome(f) => match (f, &d.outcome) {
            (OutcomeField::Ok(OutcomeOkField::Value(v)), Outcome::Ok { value }) => {
                prop_assert_eq!(v, value);
            }
            (OutcomeField::Ok(OutcomeOkField::InValue(f)), Outcome::Ok { value }) => {
                check_leaf(f, value)?;
            }
            (OutcomeField::Failed(OutcomeFailedField::Message(m)), Outcome::Failed { message }) => {
                prop_assert_eq!(m, message);
            }
            _ => return Err(fail(f, &d.outcome)),
        },
        F::Either(v) => prop_assert_eq!(v, &d.either),
        F::EitherItem(i, v) => prop_assert_eq!(Some(v), d.either.get(*i)),
        F::InEither(i, f) => match (f, d.either.get(*i)) {
            (EitherField::Right(f), Some(Either::Right(leaf))) => check_leaf(f, leaf)?,
            _ => return Err(fail(f, &d.either)),
        },
    }
    Ok(())
}

/// The document's JSON: as serde writes it (tags first), or through a `Value`, whose
/// sorted keys put many tags after the members (`c` before `t`, `type` after `text`).
fn written(doc: &Doc, sorted: bool, pretty: bool) -> String {
    let value = serde_json::to_value(doc).unwrap();
    match (sorted, pretty) {
        (true, true) => serde_json::to_string_pretty(&value).unwrap(),
        (true, false) => serde_json::to_string(&value).unwrap(),
        (false, true) => serde_json::to_string_pretty(doc).unwrap(),
        (false, false) => serde_json::to_string(doc).unwrap(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(256)
    ))]

    #[test]
    fn unions_stream(expected in doc(), sorted in any::<bool>(), pretty in any::<bool>(), sizes in chunk_sizes()) {
        let json = written(&expected, sorted, pretty);
        let final_json = serde_json::to_value(&expected).unwrap();
        let mut stream = Doc::stream();
        let mut previous: Option<Value> = None;
        let mut settled = Vec::new();
        for piece in chunk(json.as_bytes(), &sizes) {
            for field in stream.feed(piece).unwrap() {
                check(&field, &expected)?;
                settled.push(format!("{field:?}"));
            }
            let draft = serde_json::to_value(stream.draft()).unwrap();
            prop_assert!(extends(&draft, &final_json), "draft {} is not a prefix of {}", draft, final_json);
            if let Some(prev) = &previous {
                prop_assert!(extends(prev, &draft), "draft {} does not extend {}", draft, prev);
            }
            previous = Some(draft);
        }
        // Every field of the document settled, as a whole.
        for name in DocFieldName::ALL {
            let key = format!("{:?}(", name);
            prop_assert!(settled.iter().any(|s| s.starts_with(&key)), "{key} never settled: {settled:?}");
        }
        prop_assert_eq!(previous, Some(final_json));
        prop_assert_eq!(stream.finish().unwrap(), expected);
    }
}

/// Feeds `doc` in `chunk`-byte pieces (strict mode: scalar roots too): the events, the
/// draft (as JSON) after each chunk, and how it ended.
fn run<T: StreamingModel>(
    doc: &str,
    chunk: usize,
) -> (Vec<String>, Vec<Value>, Result<T::Value, settled::Error>) {
    let options = settled::Options::default().strict(true);
    let mut stream = settled::TypedStream::<T>::with_options(options);
    let mut events = Vec::new();
    let mut drafts = Vec::new();
    for piece in doc.as_bytes().chunks(chunk) {
        let fed = stream.feed(piece);
        drafts.push(serde_json::to_value(stream.current()).unwrap());
        match fed {
            Ok(fields) => events.extend(fields.map(|f| format!("{f:?}"))),
            Err(e) => return (events, drafts, Err(e.error().clone())),
        }
    }
    let end = stream.finish().map_err(|e| e.error().clone());
    (events, drafts, end)
}

#[test]
fn the_reply_text_streams_inside_its_variant() {
    let doc = r#"{"type": "reply", "text": "Hello there"}"#;
    let mut stream = Internal::stream();
    stream.feed(&doc.as_bytes()[..8]).unwrap();
    assert_eq!(stream.current(), None, "the variant is not known yet");
    stream.feed(&doc.as_bytes()[8..30]).unwrap();
    match stream.current() {
        Some(InternalDraft::Reply(reply)) => assert_eq!(reply.text.as_deref(), Some("Hel")),
        other => panic!("{other:?}"),
    }
    let fields: Vec<_> = stream.feed(&doc.as_bytes()[30..]).unwrap().collect();
    assert!(matches!(
        fields.as_slice(),
        [InternalField::Reply(InternalReplyField::Text(t))] if t == "Hello there"
    ));
    assert_eq!(
        stream.finish().unwrap(),
        Internal::Reply {
            text: "Hello there".into()
        }
    );
}

#[test]
fn members_before_a_late_tag_show_once_it_arrives() {
    let doc = r#"{"query": "rust", "top_k": 3, "type": "search"}"#;
    let mut stream = Internal::stream();
    let before = doc.find("\"type\"").unwrap();
    let fields: Vec<_> = stream.feed(&doc.as_bytes()[..before]).unwrap().collect();
    assert!(
        fields.is_empty(),
        "nothing settles before the tag: {fields:?}"
    );
    assert_eq!(stream.current(), None);
    let fields: Vec<_> = stream
        .feed(&doc.as_bytes()[before..])
        .unwrap()
        .map(|f| format!("{f:?}"))
        .collect();
    assert_eq!(fields, ["Search(Query(\"rust\"))", "Search(TopK(3))"]);
    assert_eq!(
        serde_json::to_value(stream.current()).unwrap(),
        json!({"type": "search", "query": "rust", "top_k": 3})
    );
}

#[test]
fn truncation_inside_a_variant_keeps_its_draft() {
    for doc in [
        r#"{"thought": "x", "int": {"type": "reply", "text": "Hal"#,
        r#"{"int": {"text": "Hal", "type": "reply", "text2": "#,
    ] {
        #[derive(Debug, Deserialize, StreamingModel)]
        #[allow(dead_code)]
        struct One {
            int: Internal,
        }
        let mut stream = One::stream();
        stream.feed(doc.as_bytes()).unwrap();
        let err = stream.finish().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Truncated);
        match err.draft().and_then(|d| d.int.as_ref()) {
            Some(InternalDraft::Reply(r)) => assert_eq!(r.text.as_deref(), Some("Hal")),
            other => panic!("{doc}: {other:?}"),
        }
    }
}

#[test]
fn a_wrong_tag_fails_at_the_tag_in_the_chunk_it_settles() {
    #[derive(Debug, Deserialize, StreamingModel)]
    #[allow(dead_code)]
    struct One {
        int: Internal,
    }
    let doc = r#"{"int": {"text": "hi", "type": "shout", "more": 1}}"#;
    let settle = doc.find("\"shout\"").unwrap() + "\"shout\"".len();
    let mut stream = One::stream();
    stream.feed(&doc.as_bytes()[..settle - 1]).unwrap();
    let err = stream
        .feed(&doc.as_bytes()[settle - 1..settle])
        .unwrap_err();
    let err = err.error();
    assert_eq!(err.kind(), ErrorKind::Validation);
    assert_eq!(err.path(), Some("/int/type"));
    assert!(err.to_string().contains("unknown variant `shout`"), "{err}");
}

/// `doc` reads as serde reads it, at every chunking: serde's value, or a `Validation`
/// error where serde refuses it.
fn same<T: StreamingModel<Value = T> + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug>(
    doc: &str,
) {
    let serde = serde_json::from_str::<T>(doc);
    for chunk in [1, 2, 3, 7, 1000] {
        let (_, drafts, ours) = run::<T>(doc, chunk);
        match (&serde, &ours) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{doc}"),
            (Err(_), Err(e)) => assert_eq!(e.kind(), ErrorKind::Validation, "{doc}: {e}"),
            _ => panic!("{doc} at {chunk}: serde {serde:?}, settled {ours:?} (drafts {drafts:?})"),
        }
    }
}

#[test]
fn every_representation_reads_as_serde_reads() {
    same::<External>(r#""Unit""#);
    same::<External>(r#"{"Unit": null}"#);
    same::<External>(r#"{"Text": "a"}"#);
    same::<External>(r#"{"Pair": [1, "b"]}"#);
    same::<External>(r#"{"Named": {"A": "x", "list": ["Unit", {"Text": "y"}]}}"#);
    same::<External>(r#"{"Nope": 1}"#);
    same::<External>(r#"{}"#);
    same::<External>(r#"{"Text": "a", "Unit": null}"#);
    same::<External>(r#""Text""#);
    same::<Internal>(r#"{"type": "stop"}"#);
    same::<Internal>(r#"{"type": "stop", "extra": [1, {"type": 2}]}"#);
    same::<Internal>(r#"{"name": "n", "n": 1, "type": "wrap"}"#);
    same::<Internal>(r#"{"type": "search", "query": "q"}"#);
    same::<Internal>(r#"{"query": "q", "top_k": 1}"#);
    same::<Internal>(r#"{"type": 5}"#);
    same::<Internal>(r#"{"type": "reply", "text": "a", "type": "reply"}"#);
    same::<Internal>(r#"{"meta": {"type": "stop"}, "type": "reply", "text": "t"}"#);
    same::<Adjacent>(r#"{"t": "Unit"}"#);
    same::<Adjacent>(r#"{"c": null, "t": "Unit"}"#);
    same::<Adjacent>(r#"{"c": 5, "t": "Num"}"#);
    same::<Adjacent>(r#"{"c": ["s", true], "t": "Pair"}"#);
    same::<Adjacent>(
        r#"{"t": "Named", "c": {"a": "x", "inner": {"c": {"a": "y", "inner": null}, "t": "Named"}}}"#,
    );
    same::<Adjacent>(r#"{"t": "Num"}"#);
    same::<Adjacent>(r#"{"c": 5}"#);
    same::<Adjacent>(r#"{"t": "Num", "c": "five"}"#);
    same::<Untagged>(r#"5"#);
    same::<Untagged>(r#""five""#);
    same::<Untagged>(r#"{"x": "a", "y": true}"#);
    same::<Untagged>(r#"[1, 2]"#);
    same::<Untagged>(r#"{"z": 1}"#);
    same::<Untagged>(r#"[1, "a"]"#);
    same::<Nested>(r#"{"Inner": {"text": "x", "type": "reply"}}"#);
    same::<Outcome<u8>>(r#"{"value": 3, "status": "ok"}"#);
    same::<Outcome<u8>>(r#"{"status": "ok", "value": 300}"#);
    same::<Outcome<Vec<String>>>(r#"{"status": "ok", "value": ["a", "b"]}"#);
    same::<Either<u8, String>>(r#"{"Right": "r"}"#);
    same::<Either<u8, String>>(r#"{"Left": "r"}"#);
    same::<Nested>(r#"{"Other": {"c": {"a": "q", "inner": null}, "t": "Named"}}"#);
}

#[test]
fn the_agent_step_example_dispatches_the_search_first_and_grows_the_reply() {
    use settled_examples::models::{Action, ActionDraft, AgentStep, AgentStepField};
    let mut stream = AgentStep::stream();
    let mut search_at = None;
    let mut reply_lengths = Vec::new();
    let mut reply_done_at = None;
    for (n, chunk) in settled_examples::token_chunks(settled_examples::AGENT_STEP_RESPONSE)
        .into_iter()
        .enumerate()
    {
        for field in stream.feed(chunk.as_bytes()).unwrap() {
            match field {
                AgentStepField::ActionsItem(0, Action::Search { query, top_k }) => {
                    assert_eq!(
                        (query.as_str(), top_k),
                        ("settled 0.2 changelog streaming enums", 3)
                    );
                    search_at = Some(n);
                }
                AgentStepField::ActionsItem(1, Action::Reply { .. }) => reply_done_at = Some(n),
                _ => {}
            }
        }
        if let Some(ActionDraft::Reply(reply)) =
            stream.draft().actions.as_ref().and_then(|a| a.get(1))
        {
            reply_lengths.push(reply.text.as_ref().map_or(0, String::len));
        }
    }
    let (search_at, reply_done_at) = (search_at.unwrap(), reply_done_at.unwrap());
    assert!(search_at < reply_done_at);
    // The reply was shown growing over many chunks before it settled.
    reply_lengths.dedup();
    assert!(reply_lengths.len() > 50, "{reply_lengths:?}");
    assert!(reply_lengths.windows(2).all(|w| w[0] < w[1]));
    let step = stream.finish().unwrap();
    assert!(matches!(&step.actions[1], Action::Reply { text } if text.len() > 400));
}

fn validator(schema: &settled::schema::Schema) -> jsonschema::Validator {
    jsonschema::validator_for(&schema.to_value()).expect("the schema compiles")
}

#[test]
fn union_schemas_per_profile() {
    use settled::schema::{anthropic_tool, openai_response_format, openai_strict, plain};
    use settled_examples::models::AgentStep;
    insta::assert_json_snapshot!("agent_step_plain", plain::<AgentStep>());
    insta::assert_json_snapshot!(
        "agent_step_openai",
        openai_response_format::<AgentStep>("agent_step")
    );
    insta::assert_json_snapshot!(
        "agent_step_anthropic",
        anthropic_tool::<AgentStep>("agent_step", "The agent's next step.")
    );
    insta::assert_json_snapshot!("unions_plain", plain::<Doc>());
    insta::assert_json_snapshot!("unions_openai", openai_strict::<Doc>());
    assert_strict(&openai_strict::<AgentStep>(), "");
    assert_strict(&openai_strict::<Doc>(), "");
    // The tag is each branch's first property, and first in `required`.
    let plain = plain::<AgentStep>();
    for branch in plain["$defs"]["Action"]["anyOf"].as_array().unwrap() {
        let Schema::Object(branch) = branch else {
            panic!()
        };
        let Some(Schema::Object(properties)) = branch.get("properties") else {
            panic!()
        };
        assert_eq!(properties.keys().next(), Some("type"));
        assert_eq!(branch.get("required").unwrap()[0], "type");
    }
}

#[test]
fn a_wrong_tag_or_a_missing_member_does_not_validate() {
    use settled::schema::{openai_strict, plain};
    use settled_examples::models::AgentStep;
    for schema in [plain::<AgentStep>(), openai_strict::<AgentStep>()] {
        let v = validator(&schema);
        assert!(v.is_valid(&json!({"thought": "t", "actions": [{"type": "reply", "text": "x"}]})));
        assert!(v.is_valid(
            &json!({"thought": "t", "actions": [{"top_k": 2, "query": "q", "type": "search"}]})
        ));
        assert!(!v.is_valid(&json!({"thought": "t", "actions": [{"type": "shout", "text": "x"}]})));
        assert!(
            !v.is_valid(&json!({"thought": "t", "actions": [{"type": "search", "text": "x"}]}))
        );
        assert!(!v.is_valid(&json!({"thought": "t", "actions": [{"text": "x"}]})));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn instances_validate_against_every_profile(expected in doc()) {
        let instance = serde_json::to_value(&expected).unwrap();
        for schema in [settled::schema::plain::<Doc>(), settled::schema::openai_strict::<Doc>()] {
            let v = validator(&schema);
            prop_assert!(v.is_valid(&instance), "{} against {}", instance, schema.to_value());
        }
    }
}

/// `Internal` with `#[settled(normalize)]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
#[serde(tag = "type", rename_all = "snake_case")]
#[settled(normalize)]
pub enum Lenient {
    InProgress {
        note: String,
    },
    #[serde(alias = "finished")]
    Done,
}

/// Externally tagged, with `#[settled(normalize)]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
#[serde(rename_all = "snake_case")]
#[settled(normalize)]
pub enum LenientExternal {
    InProgress { note: String },
    Done,
}

#[test]
fn tags_as_models_write_them_with_normalize_and_as_serde_reads_them_without() {
    for tag in [
        "in_progress",
        "In Progress",
        "IN-PROGRESS",
        "inProgress",
        "InProgress",
    ] {
        let doc = format!(r#"{{"type": "{tag}", "note": "n"}}"#);
        for chunk in [1, 7, 1000] {
            let (_, _, end) = run::<Lenient>(&doc, chunk);
            assert_eq!(
                end.unwrap(),
                Lenient::InProgress { note: "n".into() },
                "{doc}"
            );
        }
        let (_, _, end) = run::<Internal>(&doc.replace("in", "re"), 1);
        assert!(end.is_err());
        let external = format!(r#"{{"{tag}": {{"note": "n"}}}}"#);
        let (_, _, end) = run::<LenientExternal>(&external, 3);
        assert_eq!(
            end.unwrap(),
            LenientExternal::InProgress { note: "n".into() },
            "{external}"
        );
    }
    for tag in ["Done", "DONE", "Finished", "finished"] {
        let (_, _, end) = run::<Lenient>(&format!(r#"{{"type": "{tag}"}}"#), 2);
        assert_eq!(end.unwrap(), Lenient::Done, "{tag}");
        let (_, _, end) = run::<LenientExternal>(&format!(r#""{tag}""#), 2);
        if tag.eq_ignore_ascii_case("done") {
            assert_eq!(end.unwrap(), LenientExternal::Done, "{tag}");
        } else {
            assert!(end.is_err(), "{tag}");
        }
    }
    // Without the opt-in, serde decides: the same spellings fail as serde fails.
    for tag in ["Reply", "REPLY", "re ply"] {
        let doc = format!(r#"{{"type": "{tag}", "text": "n"}}"#);
        assert!(serde_json::from_str::<Internal>(&doc).is_err());
        let (_, _, end) = run::<Internal>(&doc, 1);
        let err = end.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Validation);
        assert!(
            err.to_string()
                .contains(&format!("unknown variant `{tag}`")),
            "{err}"
        );
    }
}

/// Recursive, internally tagged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
#[serde(tag = "type")]
pub enum Tree {
    Node { child: Box<Tree> },
    Leaf { text: String },
}

#[test]
fn nested_late_tags_replay_within_a_budget() {
    // Every level's tag comes last: each level keeps its members until its tag, and the
    // levels inside are replayed again, kept as ranges of the outer recording.
    let depth = 40;
    let mut doc = format!(r#"{{"text": "{}", "type": "Leaf"}}"#, "x".repeat(100));
    for _ in 0..depth {
        doc = format!(r#"{{"child": {doc}, "type": "Node"}}"#);
    }
    let expected: Tree = serde_json::from_str(&doc).unwrap();
    for chunk in [1, 7, 1000] {
        let (_, _, end) = run::<Tree>(&doc, chunk);
        assert_eq!(end, Ok(expected.clone()));
    }
    // Nothing is copied per level: a byte cap of the document's length is enough. The
    // budget is 8 times the cap, counting the text kept; a copy per level would keep the
    // document's text about 20 times.
    let options = settled::Options::default().max_bytes(doc.len() as u64);
    let mut stream = Tree::stream_with_options(options);
    stream.feed(doc.as_bytes()).unwrap();
    assert_eq!(stream.finish().unwrap(), expected);

    // A large value at the bottom of 120 late-tagged levels would be replayed 120 times:
    // past 64 times the events read, refused at the value.
    #[derive(Debug, Clone, PartialEq, Deserialize, StreamingModel)]
    #[serde(tag = "type")]
    enum Deep {
        Node { child: Box<Deep> },
        Leaf { items: Vec<u8> },
    }
    let items = vec!["1"; 20_000].join(",");
    let nest = |depth: usize| {
        let mut doc = format!(r#"{{"items": [{items}], "type": "Leaf"}}"#);
        for _ in 0..depth {
            doc = format!(r#"{{"child": {doc}, "type": "Node"}}"#);
        }
        doc
    };
    for depth in [20, 120] {
        let doc = nest(depth);
        let expected: Deep = serde_json::from_str(&doc).unwrap();
        let mut stream = Deep::stream();
        stream.push(doc.as_bytes()).unwrap();
        assert_eq!(stream.finish().unwrap(), expected, "depth {depth}");
    }
}

/// Recursive and untagged, through a list and a struct variant.
#[derive(Debug, Clone, PartialEq, Deserialize, StreamingModel)]
#[serde(untagged)]
pub enum J {
    N(u32),
    S(String),
    L(Vec<J>),
    O { k: Box<J> },
}

#[derive(Debug, Clone, PartialEq, Deserialize, StreamingModel)]
pub struct JRoot {
    j: J,
}

#[test]
fn nesting_alone_never_exhausts_the_replay_budget() {
    // Each untagged level replays what it kept once more: a wide value under 80 of them
    // is replayed 80 times, as serde reads it again once per level. serde reads these;
    // so does the stream, at every chunking.
    for (depth, width) in [(40, 5000), (60, 3000)] {
        let doc = format!(
            r#"{{"j":{}{}{}}}"#,
            r#"{"k":["#.repeat(depth),
            vec!["1"; width].join(","),
            "]}".repeat(depth)
        );
        let expected: JRoot = serde_json::from_str(&doc).unwrap();
        for size in [1, 7, doc.len()] {
            let (_, _, end) = run::<JRoot>(&doc, size);
            assert_eq!(
                end.as_ref(),
                Ok(&expected),
                "{depth} x {width}, {size}-byte chunks"
            );
        }
    }
}

/// Internally tagged, its newtype variants wrapping enums of every representation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
#[serde(tag = "type")]
pub enum Wrapping {
    Inner(Kinded),
    Ex(ExtInner),
    Un(UnInner),
    Bx(Box<Leaf>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
#[serde(tag = "kind")]
pub enum Kinded {
    P { p: u8 },
    Q,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
pub enum ExtInner {
    P { p: u8 },
    Q(u8),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
#[serde(untagged)]
pub enum UnInner {
    P { p: u8 },
    Q { q: String },
}

/// Adjacently tagged, with unit, `Option` and `other` variants.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
#[serde(tag = "t", content = "c")]
pub enum AdjUnits {
    U,
    N(i64),
    O(Option<String>),
    #[serde(other)]
    Other,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
pub enum ExtOther {
    A(u8),
    #[serde(other)]
    Other,
}

/// A generic union whose defaulted field uses the parameter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
#[serde(tag = "type")]
pub enum Gen<T> {
    A {
        x: T,
        #[serde(default)]
        more: Vec<T>,
    },
    B,
}

#[test]
fn found_in_review_unions_inside_unions_units_and_others() {
    for doc in [
        r#"{"type":"Inner","kind":"Q"}"#,
        r#"{"kind":"P","p":3,"type":"Inner"}"#,
        r#"{"type":"Inner","p":3,"kind":"P"}"#,
        r#"{"type":"Ex","Q":1}"#,
        r#"{"Q":1,"type":"Ex"}"#,
        r#"{"type":"Ex","P":{"p":2}}"#,
        r#"{"type":"Un","p":1}"#,
        r#"{"q":"s","type":"Un"}"#,
        r#"{"type":"Bx","name":"a","n":1}"#,
        r#"{"type":"Inner","kind":"Z"}"#,
    ] {
        same::<Wrapping>(doc);
    }
    #[derive(Debug, PartialEq, Deserialize, StreamingModel)]
    struct Holder {
        e: Wrapping,
        z: u8,
        v: Vec<Wrapping>,
    }
    same::<Holder>(
        r#"{"e":{"type":"Inner","kind":"Q"},"z":1,"v":[{"type":"Ex","Q":3},{"type":"Un","q":"s"},{"kind":"Q","type":"Inner"}]}"#,
    );
    for doc in [
        r#"{"c":5,"t":"U"}"#,
        r#"{"c":null,"t":"U"}"#,
        r#"{"t":"U","c":5}"#,
        r#"{"c":{"deep":[1]},"t":"zz"}"#,
        r#"{"t":"zz"}"#,
        r#"{"t":"O"}"#,
        r#"{"t":"O","c":null}"#,
        r#"{"t":"N"}"#,
    ] {
        same::<AdjUnits>(doc);
    }
    for doc in [r#"{"zz":null}"#, r#"{"zz":1}"#, r#""zz""#, r#"{"A":1}"#] {
        same::<ExtOther>(doc);
    }
    for doc in [
        r#"{"type":"A","x":1}"#,
        r#"{"x":1,"more":[2],"type":"A"}"#,
        r#"{"type":"B"}"#,
    ] {
        same::<Gen<u8>>(doc);
    }
}

#[test]
fn flat_documents_stay_within_the_replay_budget() {
    // Replayed values leave the budget: a long flat list of untagged and late-tagged
    // values under a small byte cap is read whole.
    let mut doc = String::from("[");
    for i in 0..2000 {
        if i > 0 {
            doc.push(',');
        }
        doc.push_str(r#"{"x":"hello","y":true}"#);
    }
    doc.push(']');
    let options = settled::Options::default().max_bytes(doc.len() as u64 + 1);
    let mut stream = settled::TypedStream::<Vec<Untagged>>::with_options(options.clone());
    stream.feed(doc.as_bytes()).unwrap();
    assert_eq!(stream.finish().unwrap().len(), 2000);
    let late = doc
        .replace(r#""y":true"#, r#""type":"reply""#)
        .replace(r#""x""#, r#""text""#);
    let options = settled::Options::default().max_bytes(late.len() as u64 + 1);
    let mut stream = settled::TypedStream::<Vec<Internal>>::with_options(options);
    stream.feed(late.as_bytes()).unwrap();
    assert_eq!(stream.finish().unwrap().len(), 2000);
}

#[test]
fn self_in_a_variant_names_the_enum_and_a_flattened_map_in_a_variant_is_in_its_schema() {
    #[derive(Debug, PartialEq, Serialize, Deserialize, StreamingModel)]
    #[serde(tag = "kind")]
    enum Expr {
        Num {
            value: i64,
        },
        Add {
            left: Box<Self>,
            right: Box<Self>,
        },
        List(Vec<Self>),
        V {
            id: u8,
            #[serde(flatten)]
            rest: std::collections::BTreeMap<String, u8>,
        },
    }
    let doc = r#"{"left":{"kind":"Num","value":1},"right":{"value":2,"kind":"Num"},"kind":"Add"}"#;
    let (_, _, end) = run::<Expr>(doc, 3);
    assert_eq!(end.unwrap(), serde_json::from_str::<Expr>(doc).unwrap());
    let instance = json!({"kind": "V", "id": 1, "x": 2});
    assert_eq!(
        serde_json::from_value::<Expr>(instance.clone()).unwrap(),
        Expr::V {
            id: 1,
            rest: [("x".to_string(), 2)].into()
        }
    );
    for schema in [
        settled::schema::plain::<Expr>(),
        settled::schema::openai_strict::<Expr>(),
    ] {
        assert!(
            validator(&schema).is_valid(&instance),
            "{}",
            schema.to_value()
        );
    }
    let (_, _, end) = run::<Expr>(&instance.to_string(), 1);
    assert_eq!(
        end.unwrap(),
        Expr::V {
            id: 1,
            rest: [("x".to_string(), 2)].into()
        }
    );
}

/// An untagged newtype enum `U0` around `U1` … around `U72`, each a level of its own
/// around the same JSON: every level replays the list once more.
macro_rules! untagged_chain {
    ($($name:ident => $next:ident,)*) => {
        $(
            #[derive(Debug, Clone, PartialEq, Deserialize, StreamingModel)]
            #[serde(untagged)]
            pub enum $name {
                V($next),
            }
        )*
    };
}

untagged_chain! {
    U0 => U1,
    U1 => U2,
    U2 => U3,
    U3 => U4,
    U4 => U5,
    U5 => U6,
    U6 => U7,
    U7 => U8,
    U8 => U9,
    U9 => U10,
    U10 => U11,
    U11 => U12,
    U12 => U13,
    U13 => U14,
    U14 => U15,
    U15 => U16,
    U16 => U17,
    U17 => U18,
    U18 => U19,
    U19 => U20,
    U20 => U21,
    U21 => U22,
    U22 => U23,
    U23 => U24,
    U24 => U25,
    U25 => U26,
    U26 => U27,
    U27 => U28,
    U28 => U29,
    U29 => U30,
    U30 => U31,
    U31 => U32,
    U32 => U33,
    U33 => U34,
    U34 => U35,
    U35 => U36,
    U36 => U37,
    U37 => U38,
    U38 => U39,
    U39 => U40,
    U40 => U41,
    U41 => U42,
    U42 => U43,
    U43 => U44,
    U44 => U45,
    U45 => U46,
    U46 => U47,
    U47 => U48,
    U48 => U49,
    U49 => U50,
    U50 => U51,
    U51 => U52,
    U52 => U53,
    U53 => U54,
    U54 => U55,
    U55 => U56,
    U56 => U57,
    U57 => U58,
    U58 => U59,
    U59 => U60,
    U60 => U61,
    U61 => U62,
    U62 => U63,
    U63 => U64,
    U64 => U65,
    U65 => U66,
    U66 => U67,
    U67 => U68,
    U68 => U69,
    U69 => U70,
    U70 => U71,
    U71 => U72,
}

#[derive(Debug, Clone, PartialEq, Deserialize, StreamingModel)]
#[serde(untagged)]
pub enum U72 {
    Leaf(Vec<String>),
}

#[derive(Debug, Clone, PartialEq, Deserialize, StreamingModel)]
pub struct ChainRoot {
    u: U0,
}

#[test]
fn enums_nested_in_enums_stay_within_the_replay_budget_at_every_chunking() {
    // 72 levels of enums around a list two levels deep in the JSON: each replays the list
    // once more. serde reads it; so does the stream, whatever the chunking (string
    // fragments, whose number the chunking decides, are not what the budget counts).
    let doc = format!(r#"{{"u": [{}]}}"#, vec![r#""abcdefghij""#; 5000].join(","));
    let expected: ChainRoot = serde_json::from_str(&doc).unwrap();
    for size in [1, 7, doc.len()] {
        let (_, _, end) = run::<ChainRoot>(&doc, size);
        assert_eq!(end.as_ref(), Ok(&expected), "{size}-byte chunks");
    }
}

type LeafOrNot = Option<Leaf>;

/// Internally tagged newtype variants that hold an `Option` of a struct, however spelled.
#[derive(Debug, Clone, PartialEq, Deserialize, StreamingModel)]
#[serde(tag = "type")]
enum MaybeLeaf {
    O(Option<Leaf>),
    Plain(Leaf),
    Boxed(Option<Box<Leaf>>),
    Aliased(LeafOrNot),
    Twice(Option<Option<Leaf>>),
}

/// An internally tagged enum whose payload is a type parameter.
#[derive(Debug, Clone, PartialEq, Deserialize, StreamingModel)]
#[serde(tag = "type")]
enum Generic<T> {
    P(T),
}

#[derive(Debug, Clone, PartialEq, Deserialize, StreamingModel)]
struct MaybeLeaves {
    items: Vec<MaybeLeaf>,
    generic: Generic<Option<Leaf>>,
}

/// serde's internal tagging refuses to write an `Option` payload: such a variant's draft
/// is written as serde reads it (its members beside the tag, the tag alone before them),
/// so every draft serializes, and shows as JSON in `Debug` (review: every draft failed
/// once the variant was known).
#[test]
fn an_internally_tagged_option_payload_has_a_draft_that_serializes() {
    let text = r#"{"items": [{"type": "O", "name": "a", "n": 1}, {"type": "Plain", "name": "b", "n": 2}, {"type": "Boxed", "name": "c", "n": 3}, {"type": "Aliased", "name": "d", "n": 4}, {"type": "Twice", "name": "e", "n": 5}], "generic": {"type": "P", "name": "f", "n": 6}}"#;
    let mut stream = MaybeLeaves::stream();
    let mut last = json!({});
    for byte in text.as_bytes() {
        stream.feed(std::slice::from_ref(byte)).unwrap();
        let draft = serde_json::to_value(stream.draft()).expect("the draft serializes");
        assert!(extends(&last, &draft), "{last} then {draft}");
        assert!(!format!("{:?}", stream.draft()).contains("cannot"));
        last = draft;
    }
    let written: Value = serde_json::from_str(text).unwrap();
    assert_eq!(last, written);
    assert_eq!(
        serde_json::to_value(MaybeLeavesDraft {
            items: Some(vec![MaybeLeafDraft::O(None)]),
            ..Default::default()
        })
        .unwrap(),
        json!({"items": [{"type": "O"}]}),
        "the tag alone while the payload is absent"
    );
    let value = stream.finish().unwrap();
    assert_eq!(value, serde_json::from_str(text).unwrap());
}

/// Internally tagged, with a newtype variant holding the enum itself: serde cannot derive
/// `Serialize` for it (each level would wrap the serializer once more: serde-rs/serde#3100),
/// but it reads it, so a model may hold it.
#[derive(Debug, PartialEq, Deserialize, StreamingModel)]
#[serde(tag = "op")]
pub enum Op {
    Num { w: i64, v: i64 },
    Wrap(Box<Op>),
    Maybe(Option<Box<Op>>),
}

#[derive(Debug, PartialEq, Deserialize, StreamingModel)]
pub struct Hold {
    op: Op,
    ops: Vec<Op>,
}

/// The draft of such a variant serializes too, its payload's members in the order they
/// arrived (review: the crate stopped compiling, E0275 without a span, once a stream of
/// the model was used, because the draft's `Serialize` was serde's derive). serde reads
/// no document with a `Wrap` in it (the inner tag is a duplicate field to it), and the
/// stream says so too; the drafts of those variants are made here by hand.
#[test]
fn an_internally_tagged_variant_holding_its_own_enum_has_a_draft_that_serializes() {
    let text = r#"{"op": {"op": "Num", "w": 2, "v": 1}, "ops": [{"op": "Num", "w": 3, "v": 4}]}"#;
    for size in [1, 7, text.len()] {
        let mut stream = Hold::stream();
        for piece in text.as_bytes().chunks(size) {
            stream.feed(piece).unwrap();
            serde_json::to_string(stream.draft()).expect("the draft serializes");
            assert!(!format!("{:?}", stream.draft()).contains("cannot"));
        }
        assert_eq!(
            serde_json::to_string(stream.draft()).unwrap(),
            r#"{"op":{"op":"Num","w":2,"v":1},"ops":[{"op":"Num","w":3,"v":4}]}"#
        );
        let value = stream.finish().unwrap();
        assert_eq!(value, serde_json::from_str::<Hold>(text).unwrap());
    }
    let mut stream = Op::stream();
    stream.feed(br#"{"op": "Num", "w": 2, "v": 1}"#).unwrap();
    let num = stream.current().cloned().unwrap();
    let wrapped = OpDraft::Wrap(Box::new(Box::new(OpDraft::Wrap(Box::new(Box::new(
        num.clone(),
    ))))));
    assert_eq!(
        serde_json::to_string(&wrapped).unwrap(),
        r#"{"op":"Wrap","op":"Wrap","op":"Num","w":2,"v":1}"#,
        "members in the order they arrived"
    );
    assert_eq!(
        serde_json::to_string(&OpDraft::Maybe(Box::new(None))).unwrap(),
        r#"{"op":"Maybe"}"#,
        "the tag alone while the payload is absent"
    );
    assert_eq!(
        serde_json::to_string(&OpDraft::Maybe(Box::new(Some(Box::new(num))))).unwrap(),
        r#"{"op":"Maybe","op":"Num","w":2,"v":1}"#
    );
    let wrong = serde_json::from_str::<Hold>(
        r#"{"op": {"op": "Wrap", "op": "Num", "w": 2, "v": 1}, "ops": []}"#,
    );
    let mut stream = Hold::stream();
    let ours = stream.feed(br#"{"op": {"op": "Wrap", "op": "Num", "w": 2, "v": 1}, "ops": []}"#);
    assert!(wrong.is_err());
    assert_eq!(ours.unwrap_err().kind(), ErrorKind::Validation);
}

#[derive(Debug, PartialEq, Deserialize, StreamingModel)]
pub struct Paths {
    #[serde(default)]
    ext: Vec<External>,
    #[serde(default)]
    int: Vec<Internal>,
    #[serde(default)]
    adj: Vec<Adjacent>,
    #[serde(default)]
    id: u32,
}

/// A refused value's path goes as deep as the stream can tell, past where
/// serde_path_to_error stops (serde reads a tagged enum's content from a buffer, so its
/// path ends at the enum); a refused key is named by its own path (review: undocumented).
#[test]
fn a_refused_value_is_named_by_the_deepest_path() {
    for (text, path) in [
        (r#"{"ext": [{"Nope": 1}]}"#, "/ext/0/Nope"),
        (
            r#"{"int": [{"type": "search", "query": "q", "top_k": -1}]}"#,
            "/int/0/top_k",
        ),
        (r#"{"adj": [{"t": "Named", "c": {"a": 1}}]}"#, "/adj/0/c/a"),
        (r#"{"ext": [{"Pair": [1, "x", 3]}]}"#, "/ext/0/Pair/2"),
        (r#"{"id": 1, "id": 2}"#, "/id"),
    ] {
        assert!(serde_json::from_str::<Paths>(text).is_err(), "{text}");
        for size in [1, 7, text.len()] {
            let mut stream = Paths::stream();
            let mut error = None;
            for piece in text.as_bytes().chunks(size) {
                if let Err(e) = stream.feed(piece) {
                    error = Some(e.into_error());
                    break;
                }
            }
            let error = match error {
                Some(error) => error,
                None => stream.finish().unwrap_err().error().clone(),
            };
            assert_eq!(error.kind(), ErrorKind::Validation, "{text}: {error}");
            assert_eq!(error.path(), Some(path), "{text} by {size}: {error}");
        }
    }
}

/// A typed review: a struct variant's value of the wrong type was named by the hidden
/// struct it is read as (`expected struct __ExternalNamed`), where serde names the variant.
#[test]
fn a_struct_variant_of_the_wrong_type_is_named_as_serde_names_it() {
    for (json, expected) in [
        (r#"{"Named": null}"#, "struct variant External::Named"),
        (r#"{"Named": "u"}"#, "struct variant External::Named"),
    ] {
        let serde = serde_json::from_str::<External>(json)
            .unwrap_err()
            .to_string();
        assert!(serde.contains(expected), "{serde}");
        let ours = first_error::<External>(json);
        assert!(ours.contains(expected), "{json}: {ours}");
        assert!(!ours.contains("__"), "{json}: {ours}");
    }
    let ours = first_error::<Adjacent>(r#"{"t": "Named", "c": null}"#);
    assert!(ours.contains("Adjacent::Named"), "{ours}");
    assert!(!ours.contains("__"), "{ours}");
}

/// The message of the error `json` ends a stream of `T` with, fed whole (empty if none).
fn first_error<T: StreamingModel>(json: &str) -> String {
    let mut stream = settled::TypedStream::<T>::new();
    stream
        .feed(json.as_bytes())
        .err()
        .map(|e| e.to_string())
        .or_else(|| stream.finish().err().map(|e| e.to_string()))
        .unwrap_or_default()
}

/// A generic enum whose struct variants each use some of its type parameters, in serde's
/// four representations, and one whose where clause names a parameter a struct variant
/// does not use (review: these did not compile).
mod generic_variants {
    use super::*;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
    #[serde(tag = "status", rename_all = "snake_case")]
    enum ApiResult<T, E> {
        Ok { data: T },
        Failed { error: E },
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
    enum Split<T, U> {
        A { t: T },
        B(U),
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
    #[serde(tag = "t", content = "c")]
    enum Adjacent<T, U> {
        A { t: T },
        B { u: U, n: u8 },
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
    #[serde(untagged)]
    enum Either<T, U> {
        L { left: T },
        R { right: U },
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
    enum Bounded<T>
    where
        T: Clone,
    {
        A { x: u8 },
        B(T),
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StreamingModel)]
    #[serde(tag = "kind")]
    enum Chain<T, U> {
        Link {
            value: T,
            next: Option<Box<Chain<T, U>>>,
        },
        Tail {
            #[serde(alias = "end")]
            last: U,
        },
    }

    /// Streams `text` whole and in 1- and 7-byte chunks: each ends with serde's value.
    fn streams_as_serde<T>(text: &str)
    where
        T: StreamingModel<Value = T> + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        let expected: T = serde_json::from_str(text).expect("serde reads it");
        for size in [1, 7, text.len()] {
            let mut stream = settled::TypedStream::<T>::new();
            for piece in text.as_bytes().chunks(size) {
                stream.feed(piece).expect("feeds");
            }
            assert_eq!(
                stream.finish().expect("finishes"),
                expected,
                "{text} in {size}"
            );
        }
    }

    #[test]
    fn generic_enums_whose_variants_use_some_of_their_parameters_stream() {
        streams_as_serde::<ApiResult<Vec<u8>, String>>(r#"{"status": "ok", "data": [1, 2]}"#);
        streams_as_serde::<ApiResult<Vec<u8>, String>>(r#"{"status": "failed", "error": "no"}"#);
        streams_as_serde::<Split<String, u8>>(r#"{"A": {"t": "x"}}"#);
        streams_as_serde::<Split<String, u8>>(r#"{"B": 7}"#);
        streams_as_serde::<Adjacent<bool, String>>(r#"{"t": "B", "c": {"u": "é", "n": 3}}"#);
        streams_as_serde::<Either<u8, String>>(r#"{"right": "r"}"#);
        streams_as_serde::<Bounded<String>>(r#"{"A": {"x": 1}}"#);
        streams_as_serde::<Bounded<String>>(r#"{"B": "b"}"#);
        streams_as_serde::<Chain<u8, String>>(
            r#"{"kind": "Link", "value": 1, "next": {"kind": "Tail", "end": "z"}}"#,
        );
    }
}
