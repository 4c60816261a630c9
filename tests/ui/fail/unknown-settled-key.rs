use serde::Deserialize;
use settled::StreamingModel;

#[derive(Deserialize, StreamingModel)]
struct Review {
    #[settled(atomc)]
    id: String,
}

fn main() {}
