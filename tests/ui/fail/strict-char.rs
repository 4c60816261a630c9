use serde::Deserialize;
use settled::StreamingModel;

#[derive(Debug, Deserialize, StreamingModel)]
#[settled(strict)]
struct Grade {
    letter: char,
}

fn main() {}
