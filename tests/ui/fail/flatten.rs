use serde::Deserialize;
use settled::StreamingModel;

#[derive(Deserialize, StreamingModel)]
struct Meta {
    author: String,
}

#[derive(Deserialize, StreamingModel)]
struct Post {
    title: String,
    #[serde(flatten)]
    meta: Meta,
}

fn main() {}
