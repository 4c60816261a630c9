use serde::Deserialize;
use settled::StreamingModel;

#[derive(Debug, Deserialize, StreamingModel)]
#[settled(description = "first", description = "second")]
struct Listing {
    #[settled(min_items = 3, min_items = 1)]
    tags: Vec<String>,
}

fn main() {}
