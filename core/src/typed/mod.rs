//! Typed streaming: the [`StreamingModel`] trait, implemented for std types here and for
//! user types by `#[derive(StreamingModel)]`.
//!
//! A value's draft is the only copy of what has arrived: builders update it in place, a
//! settled value's event is built from it, and the final value is the draft taken apart
//! (moved, not parsed again). serde deserializes each leaf once, as it settles.

mod atomic;
mod checks;
mod constraints;
mod containers;
mod leaves;
mod map_keys;
mod missing;
mod normalize;
mod object;
mod protocol;
mod replay;
mod runs;
mod scalar;
mod sequences;
mod sink;
mod tagged;
mod union;
mod value;
mod wrappers;

use crate::json_schema::{Schema, SchemaGen};
use std::fmt;

pub use atomic::{Atomic, Complete};
pub(crate) use containers::Rest;
pub use containers::{Entry, Item};
#[doc(hidden)]
pub use object::FieldSet;
pub use object::FieldState;
pub use sequences::{TupleDraft, TupleItem};
pub(crate) use sink::Rejection;
pub(crate) use sink::TypedSink;

/// The protocol the derive's generated code and the std implementations share.
pub(crate) mod protocol_items {
    pub use super::atomic::{AtomicWith, DeserializeWith};
    pub use super::checks::{Checked, UnitEnumTraits, Zero};
    pub use super::constraints::{
        Described, Items, Length, Number, ObjectSchema, SchemaOf, SchemaOfAnything, SchemaOfModel,
        check_items, check_length, check_range, items_cap, strict, strict_atomic,
    };
    pub use super::containers::Rest;
    pub use super::missing::{
        DraftMap, Required, debug_draft, is_required, missing, missing_keys_with, missing_ok,
        missing_refused, nth, require_all, required, take, take_or, take_present, take_ref,
        take_ref_or, take_ref_present,
    };
    pub use super::normalize::normalized_step;
    pub use super::object::{
        Constraint, Flattens, Keys, Object, ObjectFrame, Op, Reply, Within, check_constraints,
        field, field_items, flattened, flattened_complete, flattened_missing, flattened_rest, leaf,
        object_step, rest,
    };
    pub use super::protocol::{
        Event, Flow, Frame, FrameFlow, Member, Out, Rejected, Slot, atomic_step, from_raw,
    };
    pub use super::runs::{Run, RunMeta, limits_of, run_limits, take_run};
    pub use super::tagged::{tagged_newtype, tagged_newtype_erased};
    pub use super::union::{
        EnumFrame, Kind, Repr, Union, VariantOp, VariantReply, Variants, union_schema, union_step,
        unit_variant, variant,
    };
    pub use super::{Limits, Part, Parts, Shape, StreamingModel};
    pub use crate::__draft_impls as draft_impls;
    pub use crate::__draft_traits as draft_traits;
    pub use crate::__name_traits as name_traits;
    pub use crate::__parts as parts;
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
/// inside it, and the names of its fields. `#[derive(StreamingModel)]` implements it for
/// structs (named, newtype, tuple and `#[serde(transparent)]`) and unit enums. settled
/// implements it for:
///
/// - scalars and strings: `bool`, integers, floats, `char`, `String`, `Box<str>`,
///   `Cow<'static, str>`, `()`; strings grow in the draft, other scalars appear settled;
/// - wrappers: `Option<T>`, `Box<T>`, `Arc<T>` (not `Rc<T>`: a stream is `Send`);
/// - sequences: `Vec<T>`, `VecDeque<T>`, `HashSet<T>`, `BTreeSet<T>`, `[T; N]` (their
///   draft is a `Vec`, each element reported as it settles) and tuples of two to five
///   elements (a [`TupleDraft`], elements reported as [`TupleItem`]s);
/// - maps: `HashMap<K, T>` and `BTreeMap<K, T>` with any key serde reads from a JSON
///   string (`String`, integers, unit enums);
/// - values serde reads whole, which appear once settled: `PathBuf`, `IpAddr`,
///   `SocketAddr` (and their v4/v6 forms), `NonZero` integers, `Duration`, `SystemTime`;
///   with the features of the same names, `chrono`'s `DateTime<Utc>`,
///   `DateTime<FixedOffset>`, `NaiveDate`, `NaiveDateTime`, `NaiveTime`, `time`'s
///   `OffsetDateTime`, `PrimitiveDateTime`, `Date`, `Time`, `uuid::Uuid`, `url::Url` and
///   `rust_decimal::Decimal`;
/// - `serde_json::Value`, its draft growing as it arrives.
///
/// [`Atomic<T>`] streams any other `DeserializeOwned` type as one value that appears once
/// settled (`#[settled(atomic)]` on a field), and a field serde reads with a function of
/// the user's (`deserialize_with`, `with`) streams that way too: its draft is the settled
/// value, its event what the function returned.
///
/// Write it in bounds as you would `Deserialize`: `fn show<T: StreamingModel>(…)`, and
/// stream any such type with [`TypedStream::<T>::new`](crate::TypedStream::new). A derived
/// model also has `X::stream()`, `X::stream_with_options(options)` and `X::json_schema()`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be streamed by settled",
    label = "this field's type does not implement `settled::StreamingModel`",
    note = "if `{Self}` is a struct or a unit enum defined in this crate, derive it: `#[derive(StreamingModel)]`",
    note = "or mark the field `#[settled(atomic)]`: any type serde reads then streams as one value, shown once settled"
)]
pub trait StreamingModel: Sized + 'static {
    /// The strict value a settled value of this type is (`Self`, except for wrappers such as
    /// [`Atomic<T>`]).
    type Value: serde::de::DeserializeOwned + fmt::Debug + Send + 'static;
    /// The partial value shown while it streams.
    type Draft: Clone + fmt::Debug + PartialEq + serde::Serialize + Send + 'static;
    /// What settles inside a value of this type (a model's fields, a vector's elements);
    /// `Infallible` for values with nothing inside.
    type Field: fmt::Debug + Send + 'static;
    /// The names of the type's fields (a derived model's `XFieldName`).
    type Name: FieldName;

    /// Which fields of a model's draft have settled (`None`: not a model).
    #[doc(hidden)]
    fn field_set(draft: &Self::Draft) -> Option<FieldSet> {
        let _ = draft;
        None
    }

    /// The required fields (serde's notion: no default, and a missing value is an error,
    /// unlike `Option`) that have not settled in `draft`.
    #[doc(hidden)]
    fn missing(draft: Option<&Self::Draft>) -> Vec<Self::Name> {
        let set = draft.and_then(Self::field_set);
        let all = Self::Name::all();
        let done = |i: usize| set.is_some_and(|s| s.contains(i));
        let pending = all
            .iter()
            .enumerate()
            .filter(|&(i, &n)| !done(i) && n.is_required());
        pending.map(|(_, &n)| n).collect()
    }

    /// The JSON keys of [`StreamingModel::missing`]'s fields, what a model is asked to
    /// write: a flattened struct's own missing keys in its field's place (its field has
    /// no key of its own).
    #[doc(hidden)]
    fn missing_keys(draft: Option<&Self::Draft>) -> Vec<&'static str> {
        Self::missing(draft)
            .into_iter()
            .map(FieldName::key)
            .collect()
    }

    /// The fields that have settled in `draft`.
    #[doc(hidden)]
    fn settled(draft: Option<&Self::Draft>) -> Vec<Self::Name> {
        let set = draft.and_then(Self::field_set);
        let all = Self::Name::all();
        let done = |i: usize| set.is_some_and(|s| s.contains(i));
        all.iter()
            .enumerate()
            .filter(|&(i, _)| done(i))
            .map(|(_, &n)| n)
            .collect()
    }

    /// A model with named fields: [`StreamingModel::missing`] is meaningful.
    #[doc(hidden)]
    const MODEL: bool = false;

    /// The type has a definition of its own in a schema (models and enums with data):
    /// at the root, references to it point at `#`.
    #[doc(hidden)]
    const NAMED: bool = Self::MODEL;

    /// The JSON shape of a value of this type, for a root that begins in prose: a bracket
    /// of the other shape there is prose (`as noted in [1]` before an object).
    #[doc(hidden)]
    const SHAPE: Shape = if Self::MODEL {
        Shape::Object
    } else {
        Shape::Any
    };

    /// The type reads `null` whatever its [`StreamingModel::SHAPE`] (an `Option`): a reply
    /// that is `null` and nothing else is its value.
    #[doc(hidden)]
    const NULLABLE: bool = false;

    /// The JSON shape of an array's elements (sequences of one type; `Any` for the rest):
    /// a root array in prose whose element has another shape is prose (`see [1]` before
    /// a list of objects).
    #[doc(hidden)]
    const ELEMENT: Shape = Shape::Any;

    /// `to_value` may refuse a complete draft (an array of the wrong length): containers
    /// build the value as it settles even when no event wants it.
    #[doc(hidden)]
    const VALIDATES: bool = false;

    /// What strict structured outputs check of the type's schema.
    #[doc(hidden)]
    const LIMITS: Limits = Limits::LEAF;

    /// The JSON Schema of a value of this type. Models add their definition to `generator`
    /// and return a `$ref`; the default accepts anything.
    #[doc(hidden)]
    fn schema(generator: &mut SchemaGen) -> Schema {
        if Self::MODEL {
            // A model is defined once, in `$defs`, from its own schema.
            return generator.define::<Self>(Self::root_schema);
        }
        Schema::Object(crate::json_schema::Object::new())
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
        // A model's frame holds its draft; other values have no frame of their own.
        match Self::MODEL {
            true => Some(draft),
            false => None,
        }
    }

    /// The strict value of a complete draft, copied (for an event: the draft stays).
    #[doc(hidden)]
    fn to_value(draft: &Self::Draft) -> Result<Self::Value, protocol::Rejected> {
        Self::into_value(draft.clone())
    }

    /// The strict value of a complete draft, taken apart (for the final value).
    #[doc(hidden)]
    fn into_value(draft: Self::Draft) -> Result<Self::Value, protocol::Rejected>;
}

/// The draft of a streamed type `T`: a derived draft's field of type `T` is an
/// `Option<DraftOf<T>>` (`None` until its value begins).
pub type DraftOf<T> = <T as StreamingModel>::Draft;

/// What settles inside a streamed type `T` (a derived model's `XField`, a vector's
/// [`Item`]): the payload of a derived field enum's `In…` variants.
pub type FieldOf<T> = <T as StreamingModel>::Field;

/// What OpenAI's strict structured outputs limit in a type's schema.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Object nesting (a model is 1 plus its deepest field).
    pub depth: usize,
    /// Object properties, nested models included.
    pub properties: usize,
    /// Why strict structured outputs cannot describe the type (`None`: they can).
    pub strict: Option<&'static str>,
}

impl Limits {
    /// A value with no object inside.
    pub const LEAF: Limits = Limits {
        depth: 0,
        properties: 0,
        strict: None,
    };

    /// These limits beside `other`'s: the deeper, the properties of both, the first reason
    /// strict structured outputs cannot describe one. Built by value, a chain of these
    /// names other types' limits without borrowing them: a constant that borrows them is
    /// evaluated where it is checked, and two models that refer to each other through a
    /// `Vec` would make that a cycle; a chain is evaluated only where it is used (a
    /// `#[settled(strict)]` check).
    pub const fn with(self, other: Limits) -> Limits {
        Limits {
            depth: if other.depth > self.depth {
                other.depth
            } else {
                self.depth
            },
            properties: self.properties + other.properties,
            strict: match self.strict {
                Some(reason) => Some(reason),
                None => other.strict,
            },
        }
    }

    /// A model around these limits (its fields' [`Limits::with`] one another), with
    /// `count` properties of its own.
    pub const fn nest(self, count: usize) -> Limits {
        Limits {
            depth: self.depth + 1,
            properties: self.properties + count,
            strict: self.strict,
        }
    }

    /// The same limits, with a reason strict structured outputs cannot describe the type.
    pub const fn unsupported(self, reason: &'static str) -> Limits {
        Limits {
            strict: Some(reason),
            ..self
        }
    }
}

/// A field of a model, by name: a derived model's `XFieldName` implements it.
pub trait FieldName: Copy + fmt::Debug + Eq + std::hash::Hash + 'static {
    /// Every field, in declaration order.
    const ALL: &'static [Self];
    /// The key serde reads for the field.
    fn key(self) -> &'static str;
    /// serde requires the field: no default, and its type has no value for a missing key
    /// (an `Option` does).
    fn is_required(self) -> bool;
    /// Every field, in declaration order ([`FieldName::ALL`]).
    fn all() -> &'static [Self] {
        Self::ALL
    }
}

impl FieldName for std::convert::Infallible {
    const ALL: &'static [Self] = &[];
    fn key(self) -> &'static str {
        match self {}
    }
    fn is_required(self) -> bool {
        match self {}
    }
}

/// `Debug` (the variant's name), `PartialEq`, `Eq` and `Hash` (by index) for a derived
/// field-name enum: `name_traits!(ReviewFieldName, [Verdict, Score])`; with `of Model`,
/// its `FieldName` impl too, read from the model's tables (a non-generic model).
#[doc(hidden)]
#[macro_export]
macro_rules! __name_traits {
    ($name:ident of $model:ty, []) => {
        #[automatically_derived]
        impl $crate::FieldName for $name {
            const ALL: &'static [Self] = &[];
            fn key(self) -> &'static str {
                match self {}
            }
            fn is_required(self) -> bool {
                match self {}
            }
        }
        $crate::__name_traits!($name, []);
    };
    ($name:ident of $model:ty, [$($variant:ident),+]) => {
        #[automatically_derived]
        impl $crate::FieldName for $name {
            const ALL: &'static [Self] = &[$(Self::$variant),+];
            fn key(self) -> &'static str {
                $crate::__private::nth(
                    <$model as $crate::__private::Object>::KEYS.names,
                    self as usize,
                )
            }
            fn is_required(self) -> bool {
                $crate::__private::required::<$model>(self as usize)
            }
        }
        $crate::__name_traits!($name, [$($variant),+]);
    };
    ($name:ident, []) => {
        #[automatically_derived]
        impl ::core::fmt::Debug for $name {
            fn fmt(&self, _: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                match *self {}
            }
        }
        #[automatically_derived]
        impl ::core::cmp::PartialEq for $name {
            fn eq(&self, _: &Self) -> bool {
                match *self {}
            }
        }
        #[automatically_derived]
        impl ::core::cmp::Eq for $name {}
        #[automatically_derived]
        impl ::core::hash::Hash for $name {
            fn hash<H: ::core::hash::Hasher>(&self, _: &mut H) {
                match *self {}
            }
        }
    };
    ($name:ident, [$($variant:ident),+]) => {
        #[automatically_derived]
        impl ::core::fmt::Debug for $name {
            fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let __names = [$(::core::stringify!($variant)),+];
                __f.write_str($crate::__private::nth(&__names, *self as usize))
            }
        }
        #[automatically_derived]
        impl ::core::cmp::PartialEq for $name {
            fn eq(&self, __other: &Self) -> bool {
                *self as usize == *__other as usize
            }
        }
        #[automatically_derived]
        impl ::core::cmp::Eq for $name {}
        #[automatically_derived]
        impl ::core::hash::Hash for $name {
            fn hash<__H: ::core::hash::Hasher>(&self, __h: &mut __H) {
                __h.write_usize(*self as usize)
            }
        }
    };
}

/// A settled value as callbacks and `Debug` read it: any `'static` value with `Debug`.
#[doc(hidden)]
pub trait PartValue: std::any::Any + fmt::Debug {
    /// The value, to downcast.
    fn as_any(&self) -> &dyn std::any::Any;
}

impl<T: std::any::Any + fmt::Debug> PartValue for T {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// One variant of a derived model's field enum, read generically: one match in generated
/// code serves the callbacks ([`TypedStream::on`](crate::TypedStream::on)) and `Debug`.
#[doc(hidden)]
pub struct Part<'a> {
    /// The variant's constructor (`ReviewField::Score`), by its type: what a callback is
    /// registered with.
    pub ctor: std::any::TypeId,
    /// The variant's name.
    pub variant: &'static str,
    /// The element's index, for a variant that carries one (`…Item`, `In…` of a vector).
    pub item: Option<usize>,
    /// The payload.
    pub value: &'a dyn PartValue,
}

impl<'a> Part<'a> {
    /// A variant with one value, made by `ctor`.
    pub fn of<C: 'static>(_ctor: C, variant: &'static str, value: &'a dyn PartValue) -> Self {
        Part {
            ctor: std::any::TypeId::of::<C>(),
            variant,
            item: None,
            value,
        }
    }

    /// A variant with an index and a value (one element of a vector field), made by `ctor`.
    pub fn item<C: 'static>(
        _ctor: C,
        variant: &'static str,
        item: usize,
        value: &'a dyn PartValue,
    ) -> Self {
        Part {
            ctor: std::any::TypeId::of::<C>(),
            variant,
            item: Some(item),
            value,
        }
    }
}

impl fmt::Debug for Part<'_> {
    /// As `#[derive(Debug)]` writes the variant: `Name(value)` or `Name(index, value)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut tuple = f.debug_tuple(self.variant);
        if let Some(item) = &self.item {
            tuple.field(item);
        }
        tuple.field(&self.value).finish()
    }
}

/// A derived model's field enum, read generically (see [`Part`]).
#[doc(hidden)]
pub trait Parts: 'static {
    /// The variant `self` is.
    fn part(&self) -> Part<'_>;
}

/// `Parts` and `Debug` for a non-generic model's field enum, named through its check as
/// `$checked`: `parts!(ReviewField as __Field { Score, InVerdict } [ReasonsItem])`, the
/// variants with one value in braces, those with an index and a value in brackets.
#[doc(hidden)]
#[macro_export]
macro_rules! __parts {
    ($field:ident as $checked:ident { $($of:ident),* } [ $($item:ident),* ]) => {
        #[automatically_derived]
        impl $crate::__private::Parts for $field {
            fn part(&self) -> $crate::__private::Part<'_> {
                use $crate::__private::Part;
                let __s: &$checked = self;
                match __s {
                    $($checked::$of(__v) => Part::of(
                        $checked::$of,
                        ::core::stringify!($of),
                        __v,
                    ),)*
                    $($checked::$item(__i, __v) => Part::item(
                        $checked::$item,
                        ::core::stringify!($item),
                        *__i,
                        __v,
                    ),)*
                }
            }
        }
        #[automatically_derived]
        impl ::core::fmt::Debug for $field {
            fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::core::fmt::Debug::fmt(&$crate::__private::Parts::part(self), __f)
            }
        }
    };
}
