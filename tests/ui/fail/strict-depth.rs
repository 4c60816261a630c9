use serde::Deserialize;
use settled::StreamingModel;

macro_rules! nest {
    ($name:ident) => {
        #[derive(Debug, Deserialize, StreamingModel)]
        struct $name {
            leaf: String,
        }
    };
    ($name:ident, $inner:ident) => {
        #[derive(Debug, Deserialize, StreamingModel)]
        struct $name {
            inner: $inner,
        }
    };
}

nest!(L1);
nest!(L2, L1);
nest!(L3, L2);
nest!(L4, L3);
nest!(L5, L4);
nest!(L6, L5);
nest!(L7, L6);
nest!(L8, L7);
nest!(L9, L8);
nest!(L10, L9);

#[derive(Debug, Deserialize, StreamingModel)]
#[settled(strict)]
struct Deep {
    inner: L10,
}

fn main() {}
