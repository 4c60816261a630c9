use serde::Deserialize;
use settled::StreamingModel;

#[derive(Debug, Clone, PartialEq, Deserialize)]
struct Url(String);

// A field whose type cannot stream: one error, at the field, naming the two fixes.
#[derive(Debug, Deserialize, StreamingModel)]
struct Link {
    title: String,
    target: Url,
}

fn main() {}
