use serde::Deserialize;
use settle::StreamingModel;
use std::collections::HashMap;

#[derive(Debug, Deserialize, StreamingModel)]
#[settle(strict)]
struct Scores {
    by_player: HashMap<String, u32>,
}

fn main() {}
