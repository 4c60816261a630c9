//! Values that appear only when settled: scalars, unit enums, `#[settle(atomic)]` fields.

use super::{Ctx, Depth, Event, Step, Streamable, from_raw};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::convert::Infallible;
use std::fmt;
use std::marker::PhantomData;

/// Streams any `DeserializeOwned` type as one value that appears in the draft only once
/// settled. `#[settle(atomic)]` on a field uses it; use it directly as a root or element
/// type for types without a `Streamable` impl.
pub struct Atomic<T>(PhantomData<fn() -> T>);

impl<T> Streamable for Atomic<T>
where
    T: DeserializeOwned + Clone + fmt::Debug + PartialEq + Serialize,
{
    type Value = T;
    type Draft = T;
    type Field = Infallible;
    type Builder = Depth;
    type Name = std::convert::Infallible;

    fn step(
        builder: &mut Depth,
        slot: &mut dyn super::Slot<T>,
        event: Event<'_>,
        _ctx: &mut Ctx<'_, Infallible>,
    ) -> Step<T> {
        atomic_step(builder, slot, event)
    }
}

/// The builder of an atomic value: follow it to its end, then deserialize it; the draft
/// takes the value only if serde accepts it.
#[doc(hidden)]
pub fn atomic_step<T: DeserializeOwned + Clone>(
    depth: &mut Depth,
    slot: &mut dyn super::Slot<T>,
    event: Event<'_>,
) -> Step<T> {
    match depth.track(&event) {
        None => Step::More,
        Some(raw) => {
            let value = from_raw::<T>(raw);
            if let Ok(v) = &value {
                slot.set(v.clone());
            }
            Step::Done(value)
        }
    }
}
