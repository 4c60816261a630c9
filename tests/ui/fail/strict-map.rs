use serde::Deserialize;
use settled::StreamingModel;
use std::collections::HashMap;

#[derive(Debug, Deserialize, StreamingModel)]
#[settled(strict)]
struct Scores {
    by_player: HashMap<String, u32>,
}

fn main() {}
