//! Enum variants named like the trait's associated types (`Value`, `Draft`, `Field`,
//! `Name`) and a unit enum in a module without the prelude (review: the generated code
//! wrote `Self::Draft` and `Schema::from`, which such enums made ambiguous or unknown).

#![allow(dead_code)]

use serde::{Deserialize, Serialize};
use settled::StreamingModel;

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, StreamingModel)]
enum Kind {
    Value,
    Draft,
    Field,
    Name,
    Reference,
}

#[derive(Debug, PartialEq, Deserialize, StreamingModel)]
enum Step {
    Draft { text: String },
    Field(u8),
    Value(Kind),
    Name,
}

#[derive(Debug, PartialEq, Deserialize, StreamingModel)]
#[serde(tag = "type")]
enum Tagged {
    Draft { text: String },
    Value { kind: Kind },
}

#[no_implicit_prelude]
mod bare {
    #[derive(
        ::core::clone::Clone,
        ::core::fmt::Debug,
        ::core::cmp::PartialEq,
        ::serde::Serialize,
        ::serde::Deserialize,
        ::settled::StreamingModel,
    )]
    pub enum Mood {
        Calm,
        Loud,
    }
}

#[derive(Debug, Deserialize, StreamingModel)]
struct Holder {
    kind: Kind,
    step: Step,
    tagged: Tagged,
    mood: bare::Mood,
}

fn main() {
    let mut stream = Holder::stream();
    stream
        .feed(br#"{"kind": "Value", "step": {"Draft": {"text": "t"}}, "tagged": {"type": "Value", "kind": "Draft"}, "mood": "Loud"}"#)
        .unwrap();
    let holder = stream.finish().unwrap();
    assert_eq!(holder.kind, Kind::Value);
    assert_eq!(holder.step, Step::Draft { text: "t".into() });
    assert_eq!(holder.tagged, Tagged::Value { kind: Kind::Draft });
    assert!(matches!(holder.mood, bare::Mood::Loud));
    let _ = settled::schema::plain::<Holder>();
}
