use serde::Deserialize;
use settle::StreamingModel;

#[derive(Debug, Deserialize, StreamingModel)]
#[serde(transparent)]
struct Tags {
    items: Vec<String>,
}

fn main() {}
