//! std scalars, `String`, `Option`, `Box`.

use super::atomic::atomic_step;
use super::{Ctx, Depth, Event, Step, Streamable, from_raw};
use std::convert::Infallible;

macro_rules! atomic_scalars {
    ($($t:ty),*) => {$(
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
        }
    )*};
}

atomic_scalars!(
    bool, char, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64
);

/// A string grows in the draft as its fragments arrive.
impl Streamable for String {
    type Value = String;
    type Draft = String;
    type Field = Infallible;
    type Builder = Depth;
    type Name = std::convert::Infallible;

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
