//! A model whose generated companions would clash with the user's own types
//! (`FormField`, `ShapeDraft`) renames them.
use serde::Deserialize;
use settled::StreamingModel;

#[derive(Debug, Deserialize, StreamingModel)]
#[settled(field_enum = "FormEvent", field_name_enum = "FormEventName")]
struct Form {
    title: String,
    fields: Vec<FormField>,
}

#[derive(Debug, Deserialize, StreamingModel)]
struct FormField {
    label: String,
}

#[derive(Debug, Deserialize, StreamingModel)]
#[serde(tag = "kind")]
#[settled(draft = "ShapeInProgress", field_enum = "ShapeEvent")]
enum Shape {
    Circle { r: u32 },
}

#[allow(dead_code)]
struct ShapeDraft;

fn main() {
    let mut stream = Form::stream();
    let events = stream
        .feed(br#"{"title": "t", "fields": [{"label": "a"}]}"#)
        .unwrap();
    let mut labels = 0;
    for event in events {
        if let FormEvent::FieldsItem(_, field) = event {
            assert_eq!(field.label, "a");
            labels += 1;
        }
    }
    assert_eq!(labels, 1);
    let _: Option<FormEventName> = None;
    let _: FormFieldDraft = FormFieldDraft::default();
    let mut shapes = Shape::stream();
    shapes.feed(br#"{"kind": "Circle", "r": 2}"#).unwrap();
    let _: Option<&ShapeInProgress> = shapes.current();
    let _: Option<ShapeEvent> = None;
    assert!(matches!(shapes.finish().unwrap(), Shape::Circle { r: 2 }));
}
