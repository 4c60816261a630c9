use serde::Deserialize;
use settled::StreamingModel;

// Only a struct (or a map) flattens: an `Option` of one, or an enum, is refused at the
// field, and the note says what to do instead.

#[derive(Debug, Deserialize, StreamingModel)]
struct Meta {
    author: String,
}

#[derive(Debug, Deserialize, StreamingModel)]
struct Post {
    title: String,
    #[serde(flatten)]
    meta: Option<Meta>,
}

#[derive(Debug, Deserialize, StreamingModel)]
#[serde(tag = "type")]
enum Action {
    Reply { text: String },
    Stop,
}

#[derive(Debug, Deserialize, StreamingModel)]
struct Step {
    id: u32,
    #[serde(flatten)]
    action: Action,
}

fn main() {}
