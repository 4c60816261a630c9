use serde::Deserialize;
use settled::StreamingModel;
use std::collections::HashMap;

// A `HashMap` or `BTreeMap` flattened takes the keys no field reads; other flattened
// collections cannot stream, and two maps cannot both take them.

#[derive(Debug, Deserialize, StreamingModel)]
struct Post {
    title: String,
    #[serde(flatten)]
    extra: serde_json::Map<String, serde_json::Value>,
}

#[derive(Debug, Deserialize, StreamingModel)]
struct Twice {
    #[serde(flatten)]
    first: HashMap<String, String>,
    #[serde(flatten)]
    second: HashMap<String, u8>,
}

#[derive(Debug, Deserialize, StreamingModel)]
struct Meta {
    author: String,
}

#[derive(Debug, Deserialize, StreamingModel)]
struct MapFirst {
    #[serde(flatten)]
    rest: HashMap<String, String>,
    #[serde(flatten)]
    meta: Meta,
}

#[derive(Debug, Deserialize, StreamingModel)]
struct WithRest {
    id: u8,
    #[serde(flatten)]
    rest: HashMap<String, u8>,
}

#[derive(Debug, Deserialize, StreamingModel)]
struct BothTakeTheRest {
    #[serde(flatten)]
    inner: WithRest,
    #[serde(flatten)]
    rest: HashMap<String, u8>,
}

// serde reads a struct that flattens fields of its own as a map, which takes none of the
// keys it reads from the ones the fields after it see: a flattened map beside it gets them
// too, and a map flattened inside it gets the keys of the structs flattened after it.

#[derive(Debug, Deserialize, StreamingModel)]
struct Inner {
    a: u32,
}

#[derive(Debug, Deserialize, StreamingModel)]
struct Mid {
    m: String,
    #[serde(flatten)]
    inner: Inner,
}

#[derive(Debug, Deserialize, StreamingModel)]
struct NestedBesideMap {
    #[serde(flatten)]
    mid: Mid,
    #[serde(flatten)]
    extra: HashMap<String, u32>,
}

#[derive(Debug, Deserialize, StreamingModel)]
struct MapInsideFirst {
    #[serde(flatten)]
    inner: WithRest,
    #[serde(flatten)]
    meta: Meta,
}

#[derive(Debug, Deserialize, StreamingModel)]
struct NestedBeforeMapInside {
    #[serde(flatten)]
    mid: Mid,
    #[serde(flatten)]
    with_rest: WithRest,
}

// A generic model is checked where the flattened types do not name its parameters.
#[derive(Debug, Deserialize, StreamingModel)]
struct GenericBesideMap<T> {
    #[serde(flatten)]
    mid: Mid,
    #[serde(flatten)]
    extra: HashMap<String, u32>,
    t: Option<T>,
}

fn main() {}
