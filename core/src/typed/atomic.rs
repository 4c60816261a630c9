//! Values that appear only when settled: scalars, unit enums, `#[settled(atomic)]` fields.

use super::{Ctx, Depth, Event, Step, Streamable, from_raw};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::convert::Infallible;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

/// Streams any `DeserializeOwned` type as one value that appears in the draft only once
/// settled. `#[settled(atomic)]` on a field uses it; use it directly as a root or element
/// type for types without a `Streamable` impl.
pub struct Atomic<T>(PhantomData<fn() -> T>);

/// The draft of an atomic value: the settled value (shared, cheap to clone) and the JSON it
/// was read from. Derefs to the value; serializes as that JSON; compares by it. It asks
/// nothing of `T` beyond `Debug`, so any `DeserializeOwned` type can be atomic.
pub struct Settled<T> {
    value: Arc<T>,
    json: Box<str>,
}

impl<T> Settled<T> {
    /// The value.
    pub fn value(&self) -> &T {
        &self.value
    }

    /// The JSON text it was read from.
    pub fn json(&self) -> &str {
        &self.json
    }
}

impl<T> std::ops::Deref for Settled<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> Clone for Settled<T> {
    fn clone(&self) -> Self {
        Settled {
            value: Arc::clone(&self.value),
            json: self.json.clone(),
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for Settled<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

impl<T> PartialEq for Settled<T> {
    fn eq(&self, other: &Self) -> bool {
        self.json == other.json
    }
}

impl<T> Serialize for Settled<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let json: serde_json::Value =
            serde_json::from_str(&self.json).map_err(serde::ser::Error::custom)?;
        json.serialize(serializer)
    }
}

impl<T> Streamable for Atomic<T>
where
    T: DeserializeOwned + fmt::Debug,
{
    type Value = T;
    type Draft = Settled<T>;
    type Field = Infallible;
    type Builder = Depth;
    type Name = std::convert::Infallible;

    fn step(
        builder: &mut Depth,
        slot: &mut dyn super::Slot<Settled<T>>,
        event: Event<'_>,
        _ctx: &mut Ctx<'_, Infallible>,
    ) -> Step<T> {
        let Some(raw) = builder.track(&event) else {
            return Step::More;
        };
        let value = from_raw::<T>(raw);
        if value.is_ok() {
            // The event takes the value; the draft reads its own copy (no `Clone` needed).
            if let Ok(copy) = from_raw::<T>(raw) {
                slot.set(Settled {
                    value: Arc::new(copy),
                    json: String::from_utf8_lossy(raw.bytes()).into(),
                });
            }
        }
        Step::Done(value)
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
