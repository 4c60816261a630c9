use serde::Deserialize;
use settled::StreamingModel;

#[derive(Debug, Clone, PartialEq, Deserialize)]
struct Url(String);

// A newtype and a tuple struct name their types through the same check as a struct's
// fields: one error per type that cannot stream, at it.
#[derive(Debug, Deserialize, StreamingModel)]
struct Link(Url);

#[derive(Debug, Deserialize, StreamingModel)]
struct Weighted(f64, Url);

fn main() {}
