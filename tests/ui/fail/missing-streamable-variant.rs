use serde::Deserialize;
use settled::StreamingModel;

#[derive(Debug, Clone, PartialEq, Deserialize)]
struct Url(String);

// A struct variant's fields go through the same check as a struct's: one error, at the
// field, for each enum.
#[derive(Debug, Deserialize, StreamingModel)]
enum Action {
    Open { target: Url },
    Close,
}

#[derive(Debug, Deserialize, StreamingModel)]
#[serde(tag = "type")]
enum Tagged {
    Plain { link: Url },
    Other { n: u8 },
}

fn main() {}
