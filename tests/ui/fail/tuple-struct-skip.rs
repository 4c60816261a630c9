use serde::Deserialize;
use settled::StreamingModel;

// serde reads a tuple struct by position: `[5]` is `One(0, 5)`.
#[derive(Debug, Deserialize, StreamingModel)]
struct One(#[serde(skip)] u8, u8);

fn main() {}
