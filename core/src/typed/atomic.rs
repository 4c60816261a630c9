//! Values that appear only when settled: `#[settled(atomic)]` fields, and fields serde reads
//! with a function of the user's (`deserialize_with`, `with`).

use super::StreamingModel;
use super::protocol::{Event, Flow, Member, Rejected, Slot};
use crate::json_schema::{Schema, SchemaGen};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::convert::Infallible;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

/// Streams any `DeserializeOwned` type as one value that appears in the draft only once
/// settled. `#[settled(atomic)]` on a field uses it; use it directly as a root or element
/// type for types without a `StreamingModel` impl.
///
/// The type needs neither `Clone` nor `Serialize`: its draft ([`Complete`]) shares the
/// value and keeps the JSON it was read from. Each copy an event needs is read again from
/// that JSON by serde.
pub struct Atomic<T>(PhantomData<fn() -> T>);

/// The draft of an atomic value: the settled value (shared, cheap to clone) and the JSON it
/// was read from. Derefs to the value; serializes as that JSON; compares by it.
pub struct Complete<T> {
    value: Arc<T>,
    json: Box<str>,
    read: fn(&[u8]) -> Result<T, serde_json::Error>,
}

impl<T> Complete<T> {
    /// The value.
    pub fn value(&self) -> &T {
        &self.value
    }

    /// The JSON text it was read from.
    pub fn json(&self) -> &str {
        &self.json
    }

    /// A value of its own, read again from the JSON.
    fn copy(&self) -> Result<T, Rejected> {
        (self.read)(self.json.as_bytes()).map_err(|error| Rejected { error, span: 0..0 })
    }

    /// The value, taken (read again from the JSON if the draft was cloned).
    fn take(self) -> Result<T, Rejected> {
        let read = self.read;
        match Arc::try_unwrap(self.value) {
            Ok(value) => Ok(value),
            Err(_) => read(self.json.as_bytes()).map_err(|error| Rejected { error, span: 0..0 }),
        }
    }
}

impl<T> std::ops::Deref for Complete<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> Clone for Complete<T> {
    fn clone(&self) -> Self {
        Complete {
            value: Arc::clone(&self.value),
            json: self.json.clone(),
            read: self.read,
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for Complete<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

impl<T> PartialEq for Complete<T> {
    fn eq(&self, other: &Self) -> bool {
        self.json == other.json
    }
}

impl<T> Serialize for Complete<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let json: serde_json::Value =
            serde_json::from_str(&self.json).map_err(serde::ser::Error::custom)?;
        json.serialize(serializer)
    }
}

/// How a field serde reads with a function of the user's (`deserialize_with`, `with`) is
/// read from JSON: the derive implements it on a marker type per such field.
pub trait DeserializeWith<T>: 'static {
    /// Reads the value from its JSON text, as serde would.
    fn deserialize(json: &[u8]) -> Result<T, serde_json::Error>;
}

/// The default reader: the type's own `Deserialize`.
pub(crate) struct OwnDeserialize;

impl<T: DeserializeOwned> DeserializeWith<T> for OwnDeserialize {
    fn deserialize(json: &[u8]) -> Result<T, serde_json::Error> {
        serde_json::from_slice(json)
    }
}

/// An atomic value read by `W` (a `deserialize_with` field).
pub struct AtomicWith<T, W>(PhantomData<fn() -> (T, W)>);

/// Follows the value to its end and reads it with `W`: the event gets one value, the draft
/// another.
fn step<T, W: DeserializeWith<T>>(
    member: &mut Member,
    event: &Event<'_>,
    slot: &mut dyn Slot<Complete<T>>,
) -> Flow<T> {
    let Some(raw) = member.track(event) else {
        return Flow::More;
    };
    let value = W::deserialize(raw.bytes()).map_err(|error| Rejected {
        error,
        span: raw.span(),
    });
    if value.is_ok() {
        if let Ok(copy) = W::deserialize(raw.bytes()) {
            slot.set(Complete {
                value: Arc::new(copy),
                json: String::from_utf8_lossy(raw.bytes()).into(),
                read: W::deserialize,
            });
        }
    }
    Flow::Done(value)
}

impl<T, W> StreamingModel for AtomicWith<T, W>
where
    T: DeserializeOwned + fmt::Debug + Send + Sync + 'static,
    W: DeserializeWith<T>,
{
    type Value = T;
    type Draft = Complete<T>;
    type Field = Infallible;
    type Name = Infallible;

    fn step(member: &mut Member, event: &Event<'_>, slot: &mut dyn Slot<Complete<T>>) -> Flow<T> {
        step::<T, W>(member, event, slot)
    }

    fn to_value(draft: &Complete<T>) -> Result<T, Rejected> {
        draft.copy()
    }

    fn into_value(draft: Complete<T>) -> Result<T, Rejected> {
        draft.take()
    }
}

impl<T> StreamingModel for Atomic<T>
where
    T: DeserializeOwned + fmt::Debug + Send + Sync + 'static,
{
    type Value = T;
    type Draft = Complete<T>;
    type Field = Infallible;
    type Name = Infallible;

    fn schema(generator: &mut SchemaGen) -> Schema {
        let _ = generator;
        Schema::Object(crate::json_schema::Object::new())
    }

    fn step(member: &mut Member, event: &Event<'_>, slot: &mut dyn Slot<Complete<T>>) -> Flow<T> {
        step::<T, OwnDeserialize>(member, event, slot)
    }

    fn to_value(draft: &Complete<T>) -> Result<T, Rejected> {
        draft.copy()
    }

    fn into_value(draft: Complete<T>) -> Result<T, Rejected> {
        draft.take()
    }
}
