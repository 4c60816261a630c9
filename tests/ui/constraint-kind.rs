use serde::Deserialize;
use settle::StreamingModel;

#[derive(Debug, Deserialize, StreamingModel)]
struct Post {
    #[settle(min_items = 1)]
    title: String,
    #[settle(maximum = 5)]
    tags: Vec<String>,
}

fn main() {}
