use serde::Deserialize;
use settled::StreamingModel;
use std::borrow::Cow;

// `#[serde(borrow)]` makes serde read the field from the input's bytes only (and serde
// borrows a `&'static str` unasked): a stream keeps its values past the chunk they arrived
// in.

#[derive(Debug, Deserialize, StreamingModel)]
struct Note {
    #[serde(borrow)]
    text: Cow<'static, str>,
}

#[derive(Debug, Deserialize, StreamingModel)]
#[serde(tag = "kind")]
enum Part {
    Text {
        #[serde(rename = "body", borrow)]
        text: Cow<'static, str>,
    },
}

#[derive(Debug, Deserialize, StreamingModel)]
struct Label {
    text: &'static str,
}

fn main() {}
