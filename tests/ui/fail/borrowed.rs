use serde::Deserialize;
use settled::StreamingModel;

#[derive(Deserialize, StreamingModel)]
struct Quote<'a> {
    text: &'a str,
}

fn main() {}
