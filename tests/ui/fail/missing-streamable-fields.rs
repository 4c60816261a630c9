use serde::Deserialize;
use settled::StreamingModel;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Deserialize)]
struct Url(String);

// One error per field whose type cannot stream (through Vec, Option, maps, Box), at the
// field, naming the two fixes.
#[derive(Debug, Deserialize, StreamingModel)]
struct Link {
    title: String,
    target: Url,
    mirrors: Vec<Url>,
    backup: Option<Url>,
    by_name: BTreeMap<String, Url>,
    boxed: Box<Url>,
}

fn main() {}
