use serde::Deserialize;
use settled::StreamingModel;

#[derive(Debug, Deserialize, StreamingModel)]
struct Pair(String, u8);

#[derive(Debug, Deserialize, StreamingModel)]
struct Id(u64);

fn main() {
    let mut stream = Pair::stream();
    stream.feed(br#"["a", 1]"#).unwrap();
    let Pair(name, n) = stream.finish().unwrap();
    assert_eq!((name.as_str(), n), ("a", 1));
    let _ = Id::json_schema();
}
