use serde::Deserialize;
use settled::StreamingModel;

#[derive(Debug, Deserialize, StreamingModel)]
#[settled(strict)]
struct Event {
    name: String,
    payload: serde_json::Value,
}

fn main() {}
