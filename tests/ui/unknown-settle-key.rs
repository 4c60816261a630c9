use serde::Deserialize;
use settle::StreamingModel;

#[derive(Deserialize, StreamingModel)]
struct Review {
    #[settle(atomc)]
    id: String,
}

fn main() {}
