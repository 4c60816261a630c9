use serde::Deserialize;
use settled::StreamingModel;

#[derive(Debug, Deserialize, StreamingModel)]
struct Collide {
    tag: Vec<String>,
    tag_item: String,
    __settled: u8,
}

fn main() {}
