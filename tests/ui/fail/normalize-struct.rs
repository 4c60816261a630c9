use serde::Deserialize;
use settled::StreamingModel;

#[derive(Debug, Deserialize, StreamingModel)]
#[settled(normalize)]
struct Task {
    status: String,
}

fn main() {}
