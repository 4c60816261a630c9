use serde::Deserialize;
use settled::StreamingModel;

#[derive(Debug, Deserialize, StreamingModel)]
struct Post {
    #[settled(min_items = 1)]
    title: String,
    #[settled(maximum = 5)]
    tags: Vec<String>,
}

fn main() {}
