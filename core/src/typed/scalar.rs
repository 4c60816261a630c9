//! std scalars, `String`, `Option`, `Box`.

use super::atomic::atomic_step;
use super::{Ctx, Depth, Event, Step, Streamable};
use crate::schema::Schema;
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
                slot: &mut dyn super::Slot<$t>,
                event: Event<'_>,
                _ctx: &mut Ctx<'_, Infallible>,
            ) -> Step<$t> {
                atomic_step(builder, slot, event)
            }

            fn schema(_: &mut crate::schema::SchemaGen) -> crate::schema::Schema {
                $schema
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

atomic_scalars!(
    bool => typed("boolean", false),
    char => typed("string", false),
    u8 => integer(0, u8::MAX.into()),
    u16 => integer(0, u16::MAX.into()),
    u32 => integer(0, u32::MAX.into()),
    u64 => typed("integer", true),
    u128 => typed("integer", true),
    usize => typed("integer", true),
    i8 => integer(i8::MIN.into(), i8::MAX as u64),
    i16 => integer(i16::MIN.into(), i16::MAX as u64),
    i32 => integer(i32::MIN.into(), i32::MAX as u64),
    i64 => typed("integer", false),
    i128 => typed("integer", false),
    isize => typed("integer", false),
    f32 => typed("number", false),
    f64 => typed("number", false),
);

/// A string grows in the draft as its fragments arrive.
impl Streamable for String {
    type Value = String;
    type Draft = String;
    type Field = Infallible;
    type Builder = Depth;
    type Name = std::convert::Infallible;

    fn schema(_: &mut crate::schema::SchemaGen) -> crate::schema::Schema {
        typed("string", false)
    }

    fn step(
        builder: &mut Depth,
        slot: &mut dyn super::Slot<String>,
        event: Event<'_>,
        _ctx: &mut Ctx<'_, Infallible>,
    ) -> Step<String> {
        string_step(builder, slot, event)
    }
}

/// `Box<str>` streams as a `String`: its draft grows as the text arrives.
impl Streamable for Box<str> {
    type Value = Box<str>;
    type Draft = String;
    type Field = Infallible;
    type Builder = Depth;
    type Name = std::convert::Infallible;

    fn schema(_: &mut crate::schema::SchemaGen) -> crate::schema::Schema {
        typed("string", false)
    }

    fn step(
        builder: &mut Depth,
        slot: &mut dyn super::Slot<String>,
        event: Event<'_>,
        _ctx: &mut Ctx<'_, Infallible>,
    ) -> Step<Box<str>> {
        match string_step(builder, slot, event) {
            Step::More => Step::More,
            Step::Done(value) => Step::Done(value.map(String::into_boxed_str)),
        }
    }
}

/// The builder of a string: fragments go into the draft; the value settles at its
/// closing quote (a value of another shape is followed to its end for serde to reject).
fn string_step<V: serde::de::DeserializeOwned>(
    builder: &mut Depth,
    slot: &mut dyn super::Slot<String>,
    event: Event<'_>,
) -> Step<V>
where
    String: Into<V>,
{
    let own = builder.level() == 0 || (builder.level() == 1 && slot.is_set());
    match event {
        Event::BeginString if builder.level() == 0 => {
            slot.set(String::new());
            builder.track(&event);
            Step::More
        }
        Event::Fragment(text) if own => {
            if let Some(s) = slot.get() {
                s.push_str(text);
            }
            Step::More
        }
        // serde decodes the same escapes the scanner did: the draft is the value.
        Event::EndString(_) if own && builder.level() == 1 => {
            builder.track(&event);
            Step::Done(Ok(slot.get().map(|s| s.clone()).unwrap_or_default().into()))
        }
        _ => builder.follow(&event),
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
    const SHAPE: super::Shape = T::SHAPE;

    fn schema(generator: &mut crate::schema::SchemaGen) -> crate::schema::Schema {
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
        slot: &mut dyn super::Slot<Option<T::Draft>>,
        event: Event<'_>,
        ctx: &mut Ctx<'_, T::Field>,
    ) -> Step<Self::Value> {
        if !builder.begun {
            builder.begun = true;
            if let Event::Null(_) = event {
                slot.set(None);
                return Step::Done(Ok(None));
            }
        }
        let step = T::step(&mut builder.inner, &mut SomeSlot(slot), event, ctx);
        match step {
            Step::More => Step::More,
            Step::Done(value) => Step::Done(value.map(Some)),
        }
    }
}

/// The draft of an `Option<T>`'s value seen as a slot of `T`'s draft.
struct SomeSlot<'s, D>(&'s mut dyn super::Slot<Option<D>>);

impl<D> super::Slot<D> for SomeSlot<'_, D> {
    fn get(&mut self) -> Option<&mut D> {
        self.0.get().and_then(Option::as_mut)
    }
    fn set(&mut self, draft: D) {
        self.0.set(Some(draft));
    }
}

/// The draft of a `Box<T>` seen as a slot of `T`'s draft.
struct BoxSlot<'s, D>(&'s mut dyn super::Slot<Box<D>>);

impl<D> super::Slot<D> for BoxSlot<'_, D> {
    fn get(&mut self) -> Option<&mut D> {
        self.0.get().map(|b| &mut **b)
    }
    fn set(&mut self, draft: D) {
        self.0.set(Box::new(draft));
    }
}

/// The builder of an `Option<T>`.
#[derive(Debug, Default)]
pub struct OptionBuilder<B> {
    begun: bool,
    inner: B,
}

/// A box streams as its contents. Its builder is made at the value's first event, so a
/// type recursive through `Option<Box<Self>>` builds nothing it does not read.
impl<T: Streamable> Streamable for Box<T> {
    type Value = Box<T::Value>;
    type Draft = Box<T::Draft>;
    type Field = T::Field;
    type Builder = Option<Box<T::Builder>>;
    type Name = std::convert::Infallible;

    const SCHEMA_DEPTH: usize = T::SCHEMA_DEPTH;
    const SCHEMA_PROPERTIES: usize = T::SCHEMA_PROPERTIES;
    const SHAPE: super::Shape = T::SHAPE;

    fn schema(generator: &mut crate::schema::SchemaGen) -> crate::schema::Schema {
        T::schema(generator)
    }

    fn root_schema(generator: &mut crate::schema::SchemaGen) -> crate::schema::Schema {
        T::root_schema(generator)
    }

    fn check(value: &Self::Value, path: &mut Vec<String>) -> Result<(), super::Violation> {
        T::check(value, path)
    }

    fn step(
        builder: &mut Self::Builder,
        slot: &mut dyn super::Slot<Box<T::Draft>>,
        event: Event<'_>,
        ctx: &mut Ctx<'_, T::Field>,
    ) -> Step<Self::Value> {
        let builder = builder.get_or_insert_with(Box::default);
        let step = T::step(builder, &mut BoxSlot(slot), event, ctx);
        match step {
            Step::More => Step::More,
            Step::Done(value) => Step::Done(value.map(Box::new)),
        }
    }
}
