use serde::Deserialize;
use settled::StreamingModel;
use std::collections::HashMap;

#[derive(Debug, Deserialize, StreamingModel)]
struct Post {
    title: String,
    #[serde(flatten)]
    extra: HashMap<String, String>,
}

fn main() {}
