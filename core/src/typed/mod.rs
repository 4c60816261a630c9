//! Typed streaming: the [`Streamable`] trait, implemented for std types here and for user
//! types by `#[derive(StreamingModel)]`.
//!
//! A type's builder receives the scanner's events for one value of that type, keeps the
//! value's draft up to date in place, and, when the value's last byte has been scanned,
//! returns the strict value, deserialized by serde from the value's clean text.

mod atomic;
mod depth;
mod map;
mod object;
mod scalar;
mod seq;
mod sink;
mod value;

use crate::sink::Raw;
use serde::de::DeserializeOwned;
use std::fmt;

pub use atomic::{Atomic, Settled};
pub use map::Entry;
pub use object::{FieldSet, FieldState};
pub use seq::Item;
pub(crate) use sink::TypedSink;

#[doc(hidden)]
pub use atomic::atomic_step;
#[doc(hidden)]
pub use depth::Depth;
/// The builders of the std implementations (named in generated code and docs).
pub mod builders {
    pub use super::map::MapBuilder;
    pub use super::scalar::OptionBuilder;
    pub use super::seq::VecBuilder;
    pub use super::value::ValueBuilder;
}
#[doc(hidden)]
pub use object::{Keys, ObjectState, Route};

/// One scanner event, as a typed builder receives it.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Event<'a> {
    /// `{`
    BeginObject,
    /// `}`: the object settles; its clean text.
    EndObject(Raw<'a>),
    /// `[`
    BeginArray,
    /// `]`: the array settles; its clean text.
    EndArray(Raw<'a>),
    /// The key of the member whose value begins with the next value event (sent as soon
    /// as the key closes), and the key's own text.
    Key(&'a str, Raw<'a>),
    /// A string value began.
    BeginString,
    /// More characters of the open string.
    Fragment(&'a str),
    /// The string settles.
    EndString(Raw<'a>),
    /// A complete number (its source text).
    Number(&'a str, Raw<'a>),
    /// A complete boolean.
    Bool(bool, Raw<'a>),
    /// A complete `null`.
    Null(Raw<'a>),
}

impl<'a> Event<'a> {
    /// The clean text of the value this event completes, if it completes one.
    pub fn settles(&self) -> Option<Raw<'a>> {
        match *self {
            Event::EndObject(raw)
            | Event::EndArray(raw)
            | Event::EndString(raw)
            | Event::Number(_, raw)
            | Event::Bool(_, raw)
            | Event::Null(raw) => Some(raw),
            _ => None,
        }
    }
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

/// What a builder reports after an event.
#[derive(Debug)]
pub enum Step<V> {
    /// The value continues.
    More,
    /// The value settled: the strict value, or serde's reason for rejecting it.
    Done(Result<V, Rejected>),
}

/// serde rejected a settled value: its error, and where the value sits in the clean buffer.
#[derive(Debug)]
pub struct Rejected {
    /// serde's error (positions relative to the value's own text).
    pub error: serde_json::Error,
    /// The value's span in the clean buffer.
    pub span: std::ops::Range<usize>,
}

/// A settled value that serde rejected, with its path below the value being built.
#[derive(Debug)]
pub struct Rejection {
    /// Path segments, innermost first (reversed), filled in as the rejection bubbles up.
    pub(crate) reversed_path: Vec<crate::dynamic::Segment>,
    /// What serde said, and where the value is.
    pub rejected: Rejected,
}

impl Rejection {
    /// The rejected value's RFC 6901 JSON Pointer from the root.
    pub fn pointer(&self) -> String {
        let mut pointer = String::new();
        for segment in self.reversed_path.iter().rev() {
            crate::dynamic::push_pointer(&mut pointer, segment);
        }
        pointer
    }
}

/// Where a builder sends what settles inside its value, and where rejections go.
pub struct Ctx<'a, F> {
    emit: &'a mut dyn FnMut(F),
    rejections: &'a mut Vec<Rejection>,
}

impl<'a, F> Ctx<'a, F> {
    /// A context sending fields to `emit` and rejections to `rejections`.
    pub fn new(emit: &'a mut dyn FnMut(F), rejections: &'a mut Vec<Rejection>) -> Self {
        Ctx { emit, rejections }
    }

    /// Sends one settled field.
    pub fn emit(&mut self, field: F) {
        (self.emit)(field);
    }

    /// Runs `f` with a context whose fields are wrapped by `wrap` into this context's
    /// fields; rejections recorded inside get `segment` prepended to their paths.
    pub fn nested<G, R>(
        &mut self,
        segment: PathSegment<'_>,
        mut wrap: impl FnMut(G) -> F,
        f: impl FnOnce(&mut Ctx<'_, G>) -> R,
    ) -> R {
        let before = self.rejections.len();
        let emit = &mut *self.emit;
        let mut forward = |g: G| emit(wrap(g));
        let mut inner = Ctx {
            emit: &mut forward,
            rejections: &mut *self.rejections,
        };
        let result = f(&mut inner);
        for rejection in self.rejections.iter_mut().skip(before) {
            rejection.reversed_path.push(segment.to_segment());
        }
        result
    }

    /// Records that the value at `segment` (below this context's value) was rejected.
    pub fn reject(&mut self, segment: PathSegment<'_>, rejected: Rejected) {
        self.reject_at(&[segment], rejected);
    }

    /// Records that the value at `path` (segments from this context's value down) was
    /// rejected.
    pub fn reject_at(&mut self, path: &[PathSegment<'_>], rejected: Rejected) {
        self.rejections.push(Rejection {
            reversed_path: path.iter().rev().map(|s| s.to_segment()).collect(),
            rejected,
        });
    }
}

/// A step of a path: an object key or an array index.
#[derive(Debug, Clone, Copy)]
pub enum PathSegment<'a> {
    /// An object member.
    Key(&'a str),
    /// An array element.
    Index(usize),
}

impl PathSegment<'_> {
    fn to_segment(self) -> crate::dynamic::Segment {
        match self {
            PathSegment::Key(k) => crate::dynamic::Segment::Key(k.into()),
            PathSegment::Index(i) => crate::dynamic::Segment::Index(i),
        }
    }
}

/// A type settled can stream: its draft, what settles inside it, and the builder that turns
/// scanner events into both.
///
/// Implemented for `bool`, integers, floats, `char`, `String`, `Option<T>`, `Vec<T>`,
/// `Box<T>`, `HashMap`/`BTreeMap` with `String` keys and `serde_json::Value`; derived with
/// `#[derive(StreamingModel)]` for structs and unit enums; [`Atomic<T>`] streams any
/// `DeserializeOwned` type as a value that appears only when settled.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be streamed by settled",
    label = "this field's type does not implement `settled::Streamable`",
    note = "derive it: `#[derive(StreamingModel)]` on `{Self}` (a struct with named fields or a unit enum)",
    note = "or mark the field `#[settled(atomic)]`: it then appears in the draft only once settled"
)]
pub trait Streamable: Sized {
    /// The strict value a settled value of this type deserializes to (`Self`, except for
    /// wrappers such as [`Atomic<T>`]).
    type Value: DeserializeOwned + fmt::Debug;
    /// The partial value shown while it streams.
    type Draft: Clone + fmt::Debug + PartialEq + serde::Serialize;
    /// What settles inside a value of this type (struct fields, vector elements).
    type Field: fmt::Debug;
    /// The builder's state between events.
    type Builder: Default;
    /// The names of the type's fields (a derived model's `XFieldName`; `Infallible` for
    /// types without named fields).
    type Name: FieldName;

    /// A model with named fields: [`Streamable::missing`] is meaningful.
    const MODEL: bool = false;

    /// The JSON shape of a value of this type, for a root that begins in prose: a bracket
    /// of the other shape there is prose (`as noted in [1]` before an object).
    #[doc(hidden)]
    const SHAPE: Shape = if Self::MODEL {
        Shape::Object
    } else {
        Shape::Any
    };

    /// The required fields (serde's notion: not `Option`, no `default`) that have not
    /// settled in `draft`.
    fn missing(draft: Option<&Self::Draft>) -> Vec<Self::Name> {
        let _ = draft;
        Vec::new()
    }

    /// The fields that have settled in `draft`.
    fn settled(draft: Option<&Self::Draft>) -> Vec<Self::Name> {
        let _ = draft;
        Vec::new()
    }

    /// Object nesting of the type's schema (a model is 1 plus its deepest field).
    const SCHEMA_DEPTH: usize = 0;
    /// Object properties in the type's schema, nested models included.
    const SCHEMA_PROPERTIES: usize = 0;

    /// The JSON Schema of a value of this type. Models add their definition to `generator`
    /// and return a `$ref`; the default accepts anything.
    fn schema(generator: &mut crate::schema::SchemaGen) -> crate::schema::Schema {
        let _ = generator;
        crate::schema::Schema::Object(crate::schema::Object::new())
    }

    /// The schema at the root of a document (models are inlined there).
    fn root_schema(generator: &mut crate::schema::SchemaGen) -> crate::schema::Schema {
        Self::schema(generator)
    }

    /// Checks the constraints declared with `#[settled(min_items = …, …)]` on a strict value
    /// (serde does not know them). `path` holds the JSON Pointer segments down to `value`.
    fn check(value: &Self::Value, path: &mut Vec<String>) -> Result<(), Violation> {
        let _ = (value, path);
        Ok(())
    }

    /// Feeds one event of this value (the first is the event that begins it). The draft
    /// lives in `slot` (empty until the value may be shown), updated in place.
    fn step(
        builder: &mut Self::Builder,
        slot: &mut dyn Slot<Self::Draft>,
        event: Event<'_>,
        ctx: &mut Ctx<'_, Self::Field>,
    ) -> Step<Self::Value>;
}

/// Where a value's draft lives: an `Option` field of its parent's draft, the last element
/// of a vector, a map entry, behind a box. Builders update it in place through this, so a
/// draft is never moved out and back per event.
pub trait Slot<D> {
    /// The draft, if the value has begun.
    fn get(&mut self) -> Option<&mut D>;
    /// Puts (or replaces) the draft.
    fn set(&mut self, draft: D);
    /// The value has begun.
    fn is_set(&mut self) -> bool {
        self.get().is_some()
    }
}

impl<D> Slot<D> for Option<D> {
    fn get(&mut self) -> Option<&mut D> {
        self.as_mut()
    }
    fn set(&mut self, draft: D) {
        *self = Some(draft);
    }
    fn is_set(&mut self) -> bool {
        self.is_some()
    }
}

/// A constraint a strict value breaks: where, and which rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// JSON Pointer of the value.
    pub path: String,
    /// The rule, e.g. `expected at least 1 item, got 0`.
    pub message: String,
}

impl Violation {
    /// A violation at `path` (segments, unescaped).
    pub fn at(path: &[String], message: String) -> Self {
        let mut pointer = String::new();
        for segment in path {
            crate::dynamic::push_pointer(
                &mut pointer,
                &crate::dynamic::Segment::Key(segment.as_str().into()),
            );
        }
        Violation {
            path: pointer,
            message,
        }
    }
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

impl Rejected {
    /// serde's `message` about the value (or key) at `raw`.
    pub fn custom(message: impl fmt::Display, raw: Raw<'_>) -> Self {
        Rejected {
            error: serde::de::Error::custom(message),
            span: raw.span(),
        }
    }
}

/// Deserializes a settled value from its clean text.
pub fn from_raw<V: DeserializeOwned>(raw: Raw<'_>) -> Result<V, Rejected> {
    serde_json::from_slice(raw.bytes()).map_err(|error| Rejected {
        error,
        span: raw.span(),
    })
}
