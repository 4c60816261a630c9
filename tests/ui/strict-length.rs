use serde::Deserialize;
use settle::StreamingModel;

#[derive(Debug, Deserialize, StreamingModel)]
#[settle(strict)]
struct Tweet {
    #[settle(max_length = 280)]
    text: String,
    #[settle(max_items = 4)]
    tags: Vec<String>,
}

fn main() {}
