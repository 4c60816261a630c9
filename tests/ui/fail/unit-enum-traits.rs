use serde::Deserialize;
use settled::StreamingModel;

// A unit enum is its own draft once settled: it needs `Clone`, `PartialEq` and `Serialize`
// too, and missing any of them is one error that names them.
#[derive(Debug, Deserialize, StreamingModel)]
enum Verdict {
    Ship,
    Hold,
}

fn main() {}
