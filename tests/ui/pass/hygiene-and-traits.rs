//! What a user writes that the derive once got wrong: items named like the generated
//! code's locals, a user type named `Value`, a constraint on a type alias, an alias, a unit
//! enum field (no `In…` variant to match), and strict mode on all of it.

#![allow(non_camel_case_types, dead_code)]

use serde::Deserialize;
use settled::StreamingModel;

// Named like the locals of generated code.
struct value;
struct builder;
struct field_slot;
struct step;
struct error;
struct x;
struct item;
struct i;
struct v;
struct measured;

type Score = u8;

#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, Deserialize, StreamingModel)]
enum Verdict {
    Ship,
    Hold,
}

/// A user struct named `Value`: not `serde_json::Value`.
#[derive(Debug, Deserialize, StreamingModel)]
#[settled(strict)]
struct Value {
    x: u8,
}

#[derive(Debug, Deserialize, StreamingModel)]
#[settled(strict)]
struct Review {
    verdict: Verdict,
    #[settled(maximum = 10)]
    score: Score,
    #[serde(alias = "mail")]
    email: String,
    inner: Value,
}

/// No fields: its field enum has no variants.
#[derive(Debug, Deserialize, StreamingModel)]
struct Nothing {}

fn main() {
    let mut empty = Nothing::stream();
    assert_eq!(empty.feed(b"{}").unwrap().count(), 0);
    empty.finish().unwrap();
    // The field enum's `Debug` reads as a derived one would.
    assert_eq!(format!("{:?}", ReviewField::Score(9)), "Score(9)");

    let mut stream = Review::stream();
    let text = br#"{"verdict": "Ship", "score": 9, "mail": "a@b.c", "inner": {"x": 1}}"#;
    for field in stream.feed(text).unwrap() {
        // Every arm a user needs: a unit enum field has nothing inside to match.
        match field {
            ReviewField::Verdict(_) | ReviewField::Score(_) | ReviewField::Email(_) => {}
            ReviewField::Inner(_) | ReviewField::InInner(_) => {}
        }
    }
    let review = stream.finish().unwrap();
    assert_eq!((review.score, review.email.as_str()), (9, "a@b.c"));
}
