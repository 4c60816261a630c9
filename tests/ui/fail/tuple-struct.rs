use serde::Deserialize;
use settled::StreamingModel;

#[derive(Deserialize, StreamingModel)]
struct Pair(String, u8);

fn main() {}
