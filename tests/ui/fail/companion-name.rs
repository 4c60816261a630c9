use serde::Deserialize;
use settled::StreamingModel;

#[derive(Debug, Deserialize, StreamingModel)]
#[settled(field_enum = "Form Event")]
struct Form {
    title: String,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, Deserialize, StreamingModel)]
#[settled(draft = "VerdictDraft")]
enum Verdict {
    Ship,
}

#[derive(Debug, Deserialize, StreamingModel)]
#[settled(field_name_enum = "ShapeName")]
enum Shape {
    Circle { r: u32 },
}

fn main() {}
