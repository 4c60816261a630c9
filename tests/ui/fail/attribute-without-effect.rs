// A `#[settled(...)]` where it would do nothing is an error at it, not silently ignored.
use serde::Deserialize;
use settled::StreamingModel;

#[derive(Debug, Deserialize, StreamingModel)]
struct Pair(#[settled(min_items = 1)] Vec<u8>, u8);

#[derive(Debug, Deserialize, StreamingModel)]
#[serde(transparent)]
struct Name {
    #[settled(min_length = 3)]
    text: String,
}

#[derive(Debug, Deserialize, StreamingModel)]
struct Meta {
    author: String,
}

#[derive(Debug, Deserialize, StreamingModel)]
struct Post {
    #[serde(flatten)]
    #[settled(description = "who wrote it")]
    meta: Meta,
    #[serde(skip)]
    #[settled(max_length = 5)]
    cache: String,
    #[settled(min_items = 5, max_items = 2)]
    tags: Vec<String>,
    #[settled(minimum = 10, maximum = 1)]
    score: u8,
}

#[derive(Debug, Deserialize, StreamingModel)]
enum Shape {
    #[settled(description = "a circle")]
    Circle { r: f64 },
    Square(#[settled(min_items = 1)] Vec<f64>),
    Pair(#[settled(atomic)] u8, u8),
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, Deserialize, StreamingModel)]
enum Level {
    #[settled(description = "low")]
    Low,
    High,
}

fn main() {}
