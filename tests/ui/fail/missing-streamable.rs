use serde::Deserialize;
use settled::StreamingModel;

#[derive(Debug, Clone, PartialEq, Deserialize)]
struct Url(String);

#[derive(Debug, Deserialize, StreamingModel)]
struct Link {
    title: String,
    target: Url,
}

fn main() {}
