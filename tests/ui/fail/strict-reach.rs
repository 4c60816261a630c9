// `#[settled(strict)]` reaches what strict structured outputs cannot say inside nested
// types, and goes on a struct with named fields only.
use serde::Deserialize;
use settled::StreamingModel;

#[derive(Debug, Deserialize, StreamingModel)]
struct Inner {
    #[settled(min_length = 2)]
    code: String,
}

fn from_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let text = String::deserialize(d)?;
    text.parse().map_err(serde::de::Error::custom)
}

#[derive(Debug, Deserialize, StreamingModel)]
#[settled(strict)]
struct Outer {
    inner: Inner,
    delta: std::num::NonZeroI32,
    #[serde(deserialize_with = "from_text")]
    count: u32,
}

#[derive(Debug, Deserialize, StreamingModel)]
#[settled(strict)]
enum Choice {
    A { x: u8 },
    B { y: u8 },
}

fn main() {}
