//! std scalars and strings.

use super::StreamingModel;
use super::protocol::{Event, Flow, Member, Rejected, Slot, atomic_step};
use crate::json_schema::{Schema, SchemaGen};
use std::convert::Infallible;

macro_rules! atomic_scalars {
    ($($t:ty => $schema:expr $(=> $unsupported:expr)?),* $(,)?) => {$(
        /// Appears in the draft only once complete (never `1.` as 1, never `tru`).
        impl StreamingModel for $t {
            type Value = $t;
            type Draft = $t;
            type Field = Infallible;
            type Name = Infallible;
            $(const LIMITS: crate::typed::Limits = crate::typed::Limits::LEAF.unsupported($unsupported);)?

            fn step(member: &mut Member, event: &Event<'_>, slot: &mut dyn Slot<$t>) -> Flow<$t> {
                atomic_step(member, event, slot)
            }

            fn schema(_: &mut SchemaGen) -> Schema {
                $schema
            }

            fn to_value(draft: &$t) -> Result<$t, Rejected> {
                Ok(*draft)
            }

            fn into_value(draft: $t) -> Result<$t, Rejected> {
                Ok(draft)
            }
        }
    )*};
}

/// An integer's schema with its type's range.
fn integer(min: i64, max: u64) -> Schema {
    Schema::object([
        ("type", Schema::from("integer")),
        ("minimum", Schema::from(min)),
        ("maximum", Schema::from(max)),
    ])
}

/// `{"type": name}`, and a lower bound for unsigned types without a narrower range.
fn typed(name: &str, unsigned: bool) -> Schema {
    let mut schema = Schema::object([("type", name)]);
    if let (true, Schema::Object(o)) = (unsigned, &mut schema) {
        o.insert("minimum", 0u8);
    }
    schema
}

/// A string of exactly one character (JSON Schema counts code points, as `char` does).
fn character() -> Schema {
    Schema::object([
        ("type", Schema::from("string")),
        ("minLength", 1u8.into()),
        ("maxLength", 1u8.into()),
    ])
}

atomic_scalars!(
    bool => typed("boolean", false),
    char => character() => "a `char` is a string of one character, and strict mode cannot \
        say so (no `minLength`/`maxLength`): a longer string would be generated; use a \
        `String`",
    u8 => integer(0, u8::MAX.into()),
    u16 => integer(0, u16::MAX.into()),
    u32 => integer(0, u32::MAX.into()),
    u64 => integer(0, u64::MAX),
    u128 => typed("integer", true),
    usize => integer(0, usize::MAX as u64),
    i8 => integer(i8::MIN.into(), i8::MAX as u64),
    i16 => integer(i16::MIN.into(), i16::MAX as u64),
    i32 => integer(i32::MIN.into(), i32::MAX as u64),
    i64 => integer(i64::MIN, i64::MAX as u64),
    i128 => typed("integer", false),
    isize => integer(isize::MIN as i64, isize::MAX as u64),
    f32 => typed("number", false),
    f64 => typed("number", false),
);

/// The builder of a string: fragments go into the draft; the value settles at its
/// closing quote (a value of another shape is followed to its end for serde to reject).
fn string_step<V: serde::de::DeserializeOwned>(
    member: &mut Member,
    event: &Event<'_>,
    slot: &mut dyn Slot<String>,
    value: fn(&String) -> V,
) -> Flow<V> {
    match event {
        Event::BeginString if member.level() == 0 => {
            slot.set(String::new());
            member.track(event);
            Flow::More
        }
        Event::Fragment(text) if member.level() == 1 => {
            if let Some(s) = slot.get() {
                s.push_str(text);
            }
            Flow::More
        }
        // serde decodes the same escapes the scanner did: the draft is the value.
        Event::EndString(_) if member.level() == 1 => {
            member.track(event);
            match slot.get() {
                Some(s) => {
                    // Complete: the room its growth left goes back.
                    crate::room::give_back_text(s);
                    Flow::Done(Ok(value(s)))
                }
                None => Flow::More,
            }
        }
        _ => member.follow(event),
    }
}

/// A string grows in the draft as its fragments arrive. Its event holds a copy of the
/// text (the draft keeps its own).
impl StreamingModel for String {
    type Value = String;
    type Draft = String;
    type Field = Infallible;
    type Name = Infallible;

    fn schema(_: &mut SchemaGen) -> Schema {
        typed("string", false)
    }

    fn step(member: &mut Member, event: &Event<'_>, slot: &mut dyn Slot<String>) -> Flow<String> {
        string_step(member, event, slot, String::clone)
    }

    fn to_value(draft: &String) -> Result<String, Rejected> {
        Ok(draft.clone())
    }

    fn into_value(draft: String) -> Result<String, Rejected> {
        Ok(draft)
    }
}

/// `Box<str>` streams as a `String`: its draft grows as the text arrives.
impl StreamingModel for Box<str> {
    type Value = Box<str>;
    type Draft = String;
    type Field = Infallible;
    type Name = Infallible;

    fn schema(_: &mut SchemaGen) -> Schema {
        typed("string", false)
    }

    fn step(member: &mut Member, event: &Event<'_>, slot: &mut dyn Slot<String>) -> Flow<Box<str>> {
        string_step(member, event, slot, |s| s.as_str().into())
    }

    fn to_value(draft: &String) -> Result<Box<str>, Rejected> {
        Ok(draft.as_str().into())
    }

    fn into_value(draft: String) -> Result<Box<str>, Rejected> {
        Ok(draft.into_boxed_str())
    }
}

/// `Cow<'static, str>` streams as a `String` (always owned: the text arrives in pieces).
impl StreamingModel for std::borrow::Cow<'static, str> {
    type Value = std::borrow::Cow<'static, str>;
    type Draft = String;
    type Field = Infallible;
    type Name = Infallible;

    fn schema(_: &mut SchemaGen) -> Schema {
        typed("string", false)
    }

    fn step(member: &mut Member, event: &Event<'_>, slot: &mut dyn Slot<String>) -> Flow<Self> {
        string_step(member, event, slot, |s| s.clone().into())
    }

    fn to_value(draft: &String) -> Result<Self, Rejected> {
        Ok(draft.clone().into())
    }

    fn into_value(draft: String) -> Result<Self, Rejected> {
        Ok(draft.into())
    }
}
