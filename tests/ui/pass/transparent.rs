use serde::Deserialize;
use settled::StreamingModel;

#[derive(Debug, Deserialize, StreamingModel)]
#[serde(transparent)]
struct Tags {
    items: Vec<String>,
}

fn main() {}
