use serde::{Deserialize, Serialize};
use settled::StreamingModel;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Url(String);

#[derive(Debug, Deserialize, StreamingModel)]
#[settled(strict)]
struct Link {
    #[settled(atomic)]
    target: Url,
}

fn main() {}
