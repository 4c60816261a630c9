//! What a user writes that the derive once got wrong: items named like the generated
//! code's locals, a user type named `Value`, a constraint on a type alias, an alias, a unit
//! enum field (no `In…` variant to match), and strict mode on all of it.

#![allow(non_camel_case_types, non_upper_case_globals, dead_code)]

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
// Named like the locals of the library's macros that generated code calls.
struct a;
struct b;
struct d;
struct f;
struct h;
struct s;
struct other;
struct names;
const __f_x: u8 = 0;
// Named like the generated code's own items.
struct __CHECK;
struct __C;
struct __Draft;
struct __Field;
struct __Inner;

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

/// Field names with no letter to start a variant name, or spelling `Self`.
#[derive(Debug, Deserialize, StreamingModel)]
struct OddNames {
    __: u8,
    _1: u8,
    self_: u8,
    x: u8,
}

/// A generic struct with a container default.
#[derive(Debug, Default, Deserialize, StreamingModel)]
#[serde(default)]
struct Defaults<T: Default> {
    items: Vec<T>,
    n: u8,
}

/// A newtype and an enum with data, with the generated code's names in scope too.
#[derive(Debug, Deserialize, StreamingModel)]
struct Wrapped(u8);

#[derive(Debug, Deserialize, StreamingModel)]
enum Act {
    Go { n: u8, w: Wrapped },
    Stop,
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
    let mut odd = OddNames::stream();
    let fields: Vec<String> = odd
        .feed(br#"{"__": 1, "_1": 2, "self_": 3, "x": 4}"#)
        .unwrap()
        .map(|event| format!("{event:?}"))
        .collect();
    assert_eq!(fields, ["Field(1)", "Field1(2)", "FieldSelf(3)", "X(4)"]);
    assert_eq!(odd.finish().unwrap().self_, 3);

    let mut defaults = Defaults::<u8>::stream();
    defaults.feed(br#"{"items": [1]}"#).unwrap();
    let defaults = defaults.finish().unwrap();
    assert_eq!((defaults.items, defaults.n), (vec![1], 0));

    let review = stream.finish().unwrap();
    assert_eq!((review.score, review.email.as_str()), (9, "a@b.c"));
}
