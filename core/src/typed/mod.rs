//! Typed streaming: the [`StreamingModel`] trait, implemented for std types here and for
//! user types by `#[derive(StreamingModel)]`.
//!
//! A value's draft is the only copy of what has arrived: builders update it in place, a
//! settled value's event is built from it, and the final value is the draft taken apart
//! (moved, not parsed again). serde deserializes each leaf once, as it settles.

mod atomic;
mod constraints;
mod containers;
mod missing;
mod object;
mod protocol;
mod scalar;
mod sink;
mod value;
mod wrappers;

use crate::schema::{Schema, SchemaGen};
use std::fmt;

pub use atomic::{Atomic, Complete};
pub use containers::{Entry, Item};
#[doc(hidden)]
pub use object::FieldSet;
pub use object::FieldState;
pub(crate) use sink::Rejection;
pub(crate) use sink::TypedSink;

/// The protocol the derive's generated code and the std implementations share.
pub(crate) mod protocol_items {
    pub use super::atomic::{AtomicWith, DeserializeWith};
    pub use super::constraints::{
        Described, Items, Length, Number, SchemaOf, SchemaOfAnything, SchemaOfModel, check_items,
        check_length, check_range, strict, strict_atomic,
    };
    pub use super::missing::{
        is_required, missing, names, require, require_present, take, take_or, take_present,
        take_ref, take_ref_or, take_ref_present,
    };
    pub use super::object::{
        Constraint, Keys, Object, ObjectFrame, check_constraints, object_step, settle_draft,
        settle_member, wrap_inner, wrap_items,
    };
    pub use super::protocol::{
        Event, Flow, Frame, FrameFlow, Member, Out, Rejected, Slot, atomic_step, from_raw,
    };
    pub use crate::path::Step;
}

/// The JSON shape a type reads.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// An object: models and maps.
    Object,
    /// An array: sequences.
    Array,
    /// Anything (scalars, `serde_json::Value`, atomic values).
    Any,
}

/// A type that streams: its draft (what has arrived, shown while it streams), what settles
/// inside it, and the names of its fields. `#[derive(StreamingModel)]` implements it for a
/// struct with named fields or a unit enum; settled implements it for `bool`, integers,
/// floats, `char`, `String`, `Box<str>`, `Option<T>`, `Box<T>`, `Vec<T>`,
/// `HashMap`/`BTreeMap` with `String` keys and `serde_json::Value`; [`Atomic<T>`] streams
/// any `DeserializeOwned` type as one value that appears once settled.
///
/// Write it in bounds as you would `Deserialize`: `fn show<T: StreamingModel>(…)`, and
/// stream any such type with [`TypedStream::<T>::new`](crate::TypedStream::new). A derived
/// model also has `X::stream()`, `X::stream_with_options(options)` and `X::json_schema()`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be streamed by settled",
    label = "this field's type does not implement `settled::StreamingModel`",
    note = "if `{Self}` is a struct with named fields or a unit enum of this crate, derive it: `#[derive(StreamingModel)]`",
    note = "or mark the field `#[settled(atomic)]`: any type serde reads then streams as one value, shown once settled"
)]
pub trait StreamingModel: Sized + 'static {
    /// The strict value a settled value of this type is (`Self`, except for wrappers such as
    /// [`Atomic<T>`]).
    type Value: serde::de::DeserializeOwned + fmt::Debug + Send + 'static;
    /// The partial value shown while it streams.
    type Draft: Clone + fmt::Debug + PartialEq + serde::Serialize + 'static;
    /// What settles inside a value of this type (a model's fields, a vector's elements);
    /// `Infallible` for values with nothing inside.
    type Field: fmt::Debug + Send + 'static;
    /// The names of the type's fields (a derived model's `XFieldName`).
    type Name: FieldName;

    /// The required fields (serde's notion: no default, and a missing value is an error,
    /// unlike `Option`) that have not settled in `draft`.
    #[doc(hidden)]
    fn missing(draft: Option<&Self::Draft>) -> Vec<Self::Name> {
        let _ = draft;
        Vec::new()
    }

    /// The fields that have settled in `draft`.
    #[doc(hidden)]
    fn settled(draft: Option<&Self::Draft>) -> Vec<Self::Name> {
        let _ = draft;
        Vec::new()
    }

    /// A model with named fields: [`StreamingModel::missing`] is meaningful.
    #[doc(hidden)]
    const MODEL: bool = false;

    /// The JSON shape of a value of this type, for a root that begins in prose: a bracket
    /// of the other shape there is prose (`as noted in [1]` before an object).
    #[doc(hidden)]
    const SHAPE: Shape = if Self::MODEL {
        Shape::Object
    } else {
        Shape::Any
    };

    /// Object nesting of the type's schema (a model is 1 plus its deepest field).
    #[doc(hidden)]
    const SCHEMA_DEPTH: usize = 0;
    /// Object properties in the type's schema, nested models included.
    #[doc(hidden)]
    const SCHEMA_PROPERTIES: usize = 0;
    /// Why OpenAI's strict structured outputs cannot describe this type (`None`: they can).
    #[doc(hidden)]
    const STRICT_UNSUPPORTED: Option<&'static str> = None;

    /// The JSON Schema of a value of this type. Models add their definition to `generator`
    /// and return a `$ref`; the default accepts anything.
    #[doc(hidden)]
    fn schema(generator: &mut SchemaGen) -> Schema {
        let _ = generator;
        Schema::Object(crate::schema::Object::new())
    }

    /// The schema at the root of a document (models are inlined there).
    #[doc(hidden)]
    fn root_schema(generator: &mut SchemaGen) -> Schema {
        Self::schema(generator)
    }

    /// Feeds one event of a value of this type (the first is the event that begins it).
    /// The draft lives in `slot` (empty until the value may be shown), updated in place;
    /// a container pushes a frame that receives the events inside it.
    #[doc(hidden)]
    fn step(
        member: &mut protocol::Member,
        event: &protocol::Event<'_>,
        slot: &mut dyn protocol::Slot<Self::Draft>,
    ) -> protocol::Flow<Self::Value>;

    /// The draft a pushed frame of this type works on, seen through the type's wrappers
    /// (`None`: there is none, e.g. the value is `null`).
    #[doc(hidden)]
    fn frame_draft(draft: &mut Self::Draft) -> Option<&mut dyn std::any::Any> {
        let _ = draft;
        None
    }

    /// The strict value of a complete draft, copied (for an event: the draft stays).
    #[doc(hidden)]
    fn to_value(draft: &Self::Draft) -> Result<Self::Value, protocol::Rejected>;

    /// The strict value of a complete draft, taken apart (for the final value).
    #[doc(hidden)]
    fn into_value(draft: Self::Draft) -> Result<Self::Value, protocol::Rejected>;
}

/// A field of a model, by name: a derived model's `XFieldName` implements it.
pub trait FieldName: Copy + fmt::Debug + PartialEq + 'static {
    /// The key serde reads for the field.
    fn key(self) -> &'static str;
}

impl FieldName for std::convert::Infallible {
    fn key(self) -> &'static str {
        match self {}
    }
}
