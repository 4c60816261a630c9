use serde::Deserialize;
use settled::StreamingModel;

#[derive(Deserialize, StreamingModel)]
enum Shape {
    Circle { radius: f64 },
    Square(f64),
    Empty,
}

fn main() {}
