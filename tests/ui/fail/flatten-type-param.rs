use serde::Deserialize;
use settled::StreamingModel;

// A flattened field's keys must be known where the struct is declared: a type parameter's
// are not.

#[derive(Debug, Deserialize, StreamingModel)]
struct Envelope<T> {
    id: u8,
    #[serde(flatten)]
    body: T,
}

fn main() {}
