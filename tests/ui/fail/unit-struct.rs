use serde::Deserialize;
use settled::StreamingModel;

#[derive(Deserialize, StreamingModel)]
struct Nothing;

fn main() {}
