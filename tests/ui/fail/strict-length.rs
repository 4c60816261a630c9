use serde::Deserialize;
use settled::StreamingModel;

#[derive(Debug, Deserialize, StreamingModel)]
#[settled(strict)]
struct Tweet {
    #[settled(max_length = 280)]
    text: String,
    #[settled(max_items = 4)]
    tags: Vec<String>,
}

fn main() {}
