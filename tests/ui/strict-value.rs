use serde::Deserialize;
use settle::StreamingModel;

#[derive(Debug, Deserialize, StreamingModel)]
#[settle(strict)]
struct Event {
    name: String,
    payload: serde_json::Value,
}

fn main() {}
