use settled::StreamingModel;

#[derive(StreamingModel)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
