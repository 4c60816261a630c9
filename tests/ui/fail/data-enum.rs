use serde::Deserialize;
use settled::StreamingModel;

// Enums with data stream; these forms cannot yet, and each error says what to do.

#[derive(Debug, Deserialize, StreamingModel)]
enum Sized<const N: usize> {
    Value([u8; N]),
    Nothing,
}

#[derive(Debug, Deserialize, StreamingModel)]
#[serde(tag = "type")]
enum Mixed {
    Tagged { a: u8 },
    #[serde(untagged)]
    Fallback(String),
}

#[derive(Debug, Deserialize, StreamingModel)]
enum Positional {
    Pair(#[serde(default)] u8, u8),
}

fn main() {}
