use serde::{Deserialize, Serialize};
use settle::StreamingModel;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Url(String);

#[derive(Debug, Deserialize, StreamingModel)]
#[settle(strict)]
struct Link {
    #[settle(atomic)]
    target: Url,
}

fn main() {}
