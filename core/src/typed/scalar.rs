//! std scalars, `String`, `Option`, `Box`.

use super::atomic::atomic_step;
use super::{Ctx, Depth, Event, Step, Streamable, from_raw};
use serde_json::json;
use std::convert::Infallible;

macro_rules! atomic_scalars {
    ($($t:ty => $schema:expr),* $(,)?) => {$(
        impl Streamable for $t {
            type Value = $t;
            type Draft = $t;
            type Field = Infallible;
            type Builder = Depth;
            type Name = std::convert::Infallible;

            fn step(
                builder: &mut Depth,
                slot: &mut Option<$t>,
                event: Event<'_>,
                _ctx: &mut Ctx<'_, Infallible>,
            ) -> Step<$t> {
                atomic_step(builder, slot, event)
            }

            fn schema(_: &mut crate::schema::SchemaGen) -> serde_json::Value {
                $schema
            }
        }
    )*};
}

/// An integer's schema with its type's range.
fn integer(min: i128, max: u128) -> serde_json::Value {
    json!({ "type": "integer", "minimum": min, "maximum": max })
}

atomic_scalars!(
    bool => json!({ "type": "boolean" }),
    char => json!({ "type": "string" }),
    u8 => integer(0, u8::MAX.into()),
    u16 => integer(0, u16::MAX.into()),
    u32 => integer(0, u32::MAX.into()),
    u64 => json!({ "type": "integer", "minimum": 0 }),
    u128 => json!({ "type": "integer", "minimum": 0 }),
    usize => json!({ "type": "integer", "minimum": 0 }),
    i8 => integer(i8::MIN.into(), i8::MAX as u128),
    i16 => integer(i16::MIN.into(), i16::MAX as u128),
    i32 => integer(i32::MIN.into(), i32::MAX as u128),
    i64 => json!({ "type": "integer" }),
    i128 => json!({ "type": "integer" }),
    isize => json!({ "type": "integer" }),
    f32 => json!({ "type": "number" }),
    f64 => json!({ "type": "number" }),
);

/// A string grows in the draft as its fragments arrive.
impl Streamable for String {
    type Value = String;
    type Draft = String;
    type Field = Infallible;
    type Builder = Depth;
    type Name = std::convert::Infallible;

    fn schema(_: &mut crate::schema::SchemaGen) -> serde_json::Value {
        json!({ "type": "string" })
    }

    fn step(
        builder: &mut Depth,
        slot: &mut Option<String>,
        event: Event<'_>,
        _ctx: &mut Ctx<'_, Infallible>,
    ) -> Step<String> {
        let own = builder.level() == 0 || (builder.level() == 1 && slot.is_some());
        match event {
            Event::BeginString if builder.level() == 0 => {
                *slot = Some(String::new());
                builder.track(&event);
                Step::More
            }
            Event::Fragment(text) if own => {
                if let Some(s) = slot {
                    s.push_str(text);
                }
                Step::More
            }
            // serde decodes the same escapes the scanner did: the draft is the value.
            Event::EndString(_) if own && builder.level() == 1 => {
                builder.track(&event);
                Step::Done(Ok(slot.clone().unwrap_or_default()))
            }
            _ => match builder.track(&event) {
                Some(raw) => Step::Done(from_raw(raw)),
                None => Step::More,
            },
        }
    }
}

/// `null` shows as `Some(None)`; absent stays `None`.
impl<T: Streamable> Streamable for Option<T> {
    type Value = Option<T::Value>;
    type Draft = Option<T::Draft>;
    type Field = T::Field;
    type Builder = OptionBuilder<T::Builder>;
    type Name = std::convert::Infallible;

    const SCHEMA_DEPTH: usize = T::SCHEMA_DEPTH;
    const SCHEMA_PROPERTIES: usize = T::SCHEMA_PROPERTIES;

    fn schema(generator: &mut crate::schema::SchemaGen) -> serde_json::Value {
        let mut schema = T::schema(generator);
        crate::schema::make_nullable(&mut schema);
        schema
    }

    fn check(value: &Self::Value, path: &mut Vec<String>) -> Result<(), super::Violation> {
        match value {
            Some(v) => T::check(v, path),
            None => Ok(()),
        }
    }

    fn step(
        builder: &mut Self::Builder,
        slot: &mut Option<Option<T::Draft>>,
        event: Event<'_>,
        ctx: &mut Ctx<'_, T::Field>,
    ) -> Step<Self::Value> {
        if !builder.begun {
            builder.begun = true;
            if let Event::Null(_) = event {
                *slot = Some(None);
                return Step::Done(Ok(None));
            }
        }
        let mut inner = slot.take().flatten();
        let step = T::step(&mut builder.inner, &mut inner, event, ctx);
        if inner.is_some() {
            *slot = Some(inner);
        }
        match step {
            Step::More => Step::More,
            Step::Done(value) => Step::Done(value.map(Some)),
        }
    }
}

/// The builder of an `Option<T>`.
#[derive(Debug, Default)]
pub struct OptionBuilder<B> {
    begun: bool,
    inner: B,
}

impl<T: Streamable> Streamable for Box<T> {
    type Value = Box<T::Value>;
    type Draft = Box<T::Draft>;
    type Field = T::Field;
    type Builder = Box<T::Builder>;
    type Name = std::convert::Infallible;

    const SCHEMA_DEPTH: usize = T::SCHEMA_DEPTH;
    const SCHEMA_PROPERTIES: usize = T::SCHEMA_PROPERTIES;

    fn schema(generator: &mut crate::schema::SchemaGen) -> serde_json::Value {
        T::schema(generator)
    }

    fn root_schema(generator: &mut crate::schema::SchemaGen) -> serde_json::Value {
        T::root_schema(generator)
    }

    fn check(value: &Self::Value, path: &mut Vec<String>) -> Result<(), super::Violation> {
        T::check(value, path)
    }

    fn step(
        builder: &mut Self::Builder,
        slot: &mut Option<Box<T::Draft>>,
        event: Event<'_>,
        ctx: &mut Ctx<'_, T::Field>,
    ) -> Step<Self::Value> {
        let mut inner = slot.take().map(|b| *b);
        let step = T::step(builder, &mut inner, event, ctx);
        *slot = inner.map(Box::new);
        match step {
            Step::More => Step::More,
            Step::Done(value) => Step::Done(value.map(Box::new)),
        }
    }
}
