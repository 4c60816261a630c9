use serde::Deserialize;
use settle::StreamingModel;

#[derive(Deserialize, StreamingModel)]
struct Pair(String, u8);

fn main() {}
