//! The other sequences: `VecDeque`, `HashSet`, `BTreeSet` and arrays stream as a `Vec`
//! (their draft is a `Vec` of element drafts, each element reported as it settles) and
//! become their own type once settled; tuples stream as arrays, element by element.

use super::StreamingModel;
use super::containers::{Item, values};
use super::protocol::{Event, Flow, Frame, FrameFlow, Member, Out, Rejected, Slot};
use crate::json_schema::{Schema, SchemaGen};
use crate::path::Step;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::any::Any;
use std::collections::{BTreeSet, HashSet, VecDeque};
use std::convert::Infallible;

/// The schema of an array of `T`.
fn array_of<T: StreamingModel>(generator: &mut SchemaGen) -> Schema {
    Schema::object([
        ("type", Schema::from("array")),
        ("items", T::schema(generator)),
    ])
}

/// Sequences collected from a `Vec` of elements once settled.
macro_rules! collected {
    ($($(#[$doc:meta])* $coll:ident where $($bound:path),+ => $unique:expr;)*) => {$(
        $(#[$doc])*
        impl<T: StreamingModel> StreamingModel for $coll<T>
        where
            T::Value: $($bound +)+,
        {
            type Value = $coll<T::Value>;
            type Draft = Vec<T::Draft>;
            type Field = Item<T::Value, T::Field>;
            type Name = Infallible;

            const LIMITS: super::Limits = T::LIMITS;
            const SHAPE: super::Shape = super::Shape::Array;
            const ELEMENT: super::Shape = T::SHAPE;

            fn schema(generator: &mut SchemaGen) -> Schema {
                let mut schema = array_of::<T>(generator);
                if let (true, Schema::Object(o)) = ($unique, &mut schema) {
                    o.insert("uniqueItems", true);
                }
                schema
            }

            fn step(
                member: &mut Member,
                event: &Event<'_>,
                slot: &mut dyn Slot<Self::Draft>,
            ) -> Flow<Self::Value> {
                <Vec<T>>::step(member, event, slot).map(|v| v.into_iter().collect())
            }

            fn frame_draft(draft: &mut Self::Draft) -> Option<&mut dyn Any> {
                Some(draft)
            }

            fn to_value(draft: &Self::Draft) -> Result<Self::Value, Rejected> {
                values(draft.iter(), T::to_value).map(|v| v.into_iter().collect())
            }

            fn into_value(draft: Self::Draft) -> Result<Self::Value, Rejected> {
                values(draft.into_iter(), T::into_value).map(|v| v.into_iter().collect())
            }
        }
    )*};
}

collected! {
    /// A `VecDeque` streams as a `Vec`.
    VecDeque where Sized => false;
    /// A `HashSet` streams as a `Vec` of its elements in arrival order (each reported as it
    /// settles); duplicates collapse once settled, as serde's do.
    HashSet where Eq, std::hash::Hash => true;
    /// A `BTreeSet` streams as a `Vec` of its elements in arrival order; the set is sorted
    /// and duplicates collapse once settled, as serde's do.
    BTreeSet where Ord => true;
}

/// An array streams as a `Vec` of its elements; its length is checked as it settles, with
/// serde's message. An element past its length is not reported (the array will be
/// refused).
impl<T: StreamingModel, const N: usize> StreamingModel for [T; N]
where
    [T::Value; N]: DeserializeOwned + std::fmt::Debug + Send,
{
    type Value = [T::Value; N];
    type Draft = Vec<T::Draft>;
    type Field = Item<T::Value, T::Field>;
    type Name = Infallible;

    const LIMITS: super::Limits = T::LIMITS;
    const SHAPE: super::Shape = super::Shape::Array;
    const ELEMENT: super::Shape = T::SHAPE;
    const VALIDATES: bool = true;

    fn schema(generator: &mut SchemaGen) -> Schema {
        let mut schema = array_of::<T>(generator);
        if let Schema::Object(o) = &mut schema {
            o.insert("minItems", N as u64);
            o.insert("maxItems", N as u64);
        }
        schema
    }

    fn step(
        member: &mut Member,
        event: &Event<'_>,
        slot: &mut dyn Slot<Self::Draft>,
    ) -> Flow<Self::Value> {
        // An element past `N` is not reported: the array will be refused.
        match super::containers::vec_step::<T>(member, event, slot, N) {
            Flow::More => Flow::More,
            Flow::Push(frame) => Flow::Push(frame),
            Flow::Done(result) => Flow::Done(result.and_then(exactly::<T::Value, N>)),
        }
    }

    fn frame_draft(draft: &mut Self::Draft) -> Option<&mut dyn Any> {
        Some(draft)
    }

    fn to_value(draft: &Self::Draft) -> Result<Self::Value, Rejected> {
        exactly(values(draft.iter(), T::to_value)?)
    }

    fn into_value(draft: Self::Draft) -> Result<Self::Value, Rejected> {
        exactly(values(draft.into_iter(), T::into_value)?)
    }
}

/// The elements as an array of `N`, or serde's complaint about the length.
fn exactly<V, const N: usize>(items: Vec<V>) -> Result<[V; N], Rejected> {
    let len = items.len();
    items.try_into().map_err(|_| {
        Rejected::unplaced(format_args!(
            "invalid length {len}, expected an array of length {N}"
        ))
    })
}

/// What settles inside a tuple: the element at a position, as an [`Item`] (its index is
/// the position). `At0` for the first element, `At1` for the second, and so on.
#[derive(Debug, Clone, PartialEq)]
pub enum TupleItem<A, B = Infallible, C = Infallible, D = Infallible, E = Infallible> {
    /// The first element (or something inside it) settled.
    At0(A),
    /// The second element.
    At1(B),
    /// The third element.
    At2(C),
    /// The fourth element.
    At3(D),
    /// The fifth element.
    At4(E),
}

/// The draft of a tuple: a tuple of `Option`s, `None` until an element begins. Reads as
/// that tuple (`draft.0`, `draft.1`); serializes as an array of the elements that have
/// begun, so a draft only ever grows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TupleDraft<T> {
    elements: T,
}

impl<T> TupleDraft<T> {
    /// The tuple of element drafts.
    pub fn into_inner(self) -> T {
        self.elements
    }
}

impl<T> std::ops::Deref for TupleDraft<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.elements
    }
}

impl<T> std::ops::DerefMut for TupleDraft<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.elements
    }
}

/// The frame of a tuple: elements in order, each with its own builder; `S` is the tuple
/// type.
struct TupleFrame<S: Tuple> {
    /// The open element's position (once it settled: the count of elements seen).
    position: usize,
    /// The index in the JSON array of the open element, or of the last one read (what an
    /// error's path names); elements past the tuple's size count on.
    index: usize,
    open: bool,
    member: Member,
    outbox: Option<S::Field>,
}

/// What the tuple impls share with their frame.
trait Tuple: StreamingModel {
    const LEN: usize;
    /// An event of element `position`; a settled element comes back as the tuple's field.
    fn element(
        position: usize,
        member: &mut Member,
        event: &Event<'_>,
        draft: &mut Self::Draft,
    ) -> Flow<Self::Field>;
    /// Element `position`'s frame closed: its value, as the tuple's field.
    fn element_closed(position: usize, draft: &Self::Draft) -> Result<Self::Field, Rejected>;
    /// Element `position`'s type may refuse a complete draft (see
    /// [`StreamingModel::VALIDATES`]): its value is built when it closes, wanted or not.
    fn element_validates(position: usize) -> bool;
    /// Element `position`'s draft, for its frame.
    fn element_draft(position: usize, draft: &mut Self::Draft) -> Option<&mut dyn Any>;
    /// A field settled inside element `position`, as the tuple's field.
    fn element_wrap(position: usize, child: &mut dyn Any) -> Option<Self::Field>;
}

impl<S: Tuple> TupleFrame<S> {
    fn new() -> Self {
        TupleFrame {
            position: 0,
            index: 0,
            open: false,
            member: Member::default(),
            outbox: None,
        }
    }

    /// The open element settled (or was rejected).
    fn element_done(&mut self, field: Result<S::Field, Rejected>, out: &mut Out) {
        self.open = false;
        self.position += 1;
        // The next element, past the tuple's size too, begins with a fresh member.
        self.member = Member::default();
        match field {
            Ok(field) => {
                self.outbox = Some(field);
                out.emit();
            }
            Err(rejected) => out.reject_member(rejected),
        }
    }
}

impl<S: Tuple> Frame for TupleFrame<S> {
    fn event(&mut self, event: &Event<'_>, draft: &mut dyn Any, out: &mut Out) -> FrameFlow {
        let Some(draft) = draft.downcast_mut::<S::Draft>() else {
            return FrameFlow::More;
        };
        if !self.open {
            // The tuple's own `]` (not one inside an element past its size).
            if let (Event::EndArray(raw), 0) = (event, self.member.level()) {
                out.closed = Some(raw.span());
                if self.position < S::LEN {
                    let message = format_args!(
                        "invalid length {}, expected a tuple of size {}",
                        self.position,
                        S::LEN
                    );
                    out.reject_own(Rejected::custom(message, *raw));
                    return FrameFlow::Done(false);
                }
                return FrameFlow::Done(true);
            }
            if self.position >= S::LEN {
                // An element past the tuple's size: serde rejects the tuple. It is followed
                // to its end and left out of the draft.
                if self.member.level() == 0 && !self.member.begun {
                    self.index = self.position.max(self.index + 1);
                    self.member.begun = true;
                }
                if let Some(raw) = self.member.track(event) {
                    self.member = Member::default();
                    let message =
                        format_args!("trailing element: expected a tuple of size {}", S::LEN);
                    out.reject_member(Rejected::custom(message, raw));
                }
                return FrameFlow::More;
            }
            self.open = true;
            self.index = self.position;
            self.member = Member::default();
        }
        match S::element(self.position, &mut self.member, event, draft) {
            Flow::More => FrameFlow::More,
            Flow::Push(frame) => FrameFlow::Push(frame),
            Flow::Done(field) => {
                self.element_done(field, out);
                FrameFlow::More
            }
        }
    }

    fn child_done(
        &mut self,
        draft: &mut dyn Any,
        ok: bool,
        span: std::ops::Range<usize>,
        out: &mut Out,
    ) {
        let position = self.position;
        match draft.downcast_mut::<S::Draft>() {
            Some(draft) if ok && (out.events || S::element_validates(position)) => {
                let field = S::element_closed(position, draft).map_err(|r| r.within(span));
                self.element_done(field, out);
            }
            _ => {
                self.open = false;
                self.position += 1;
                self.member = Member::default();
            }
        }
    }

    fn child_draft<'d>(&mut self, draft: &'d mut dyn Any) -> Option<&'d mut dyn Any> {
        S::element_draft(self.position, draft.downcast_mut::<S::Draft>()?)
    }

    fn wrap(&mut self, child: &mut dyn Any) -> bool {
        match S::element_wrap(self.position, child) {
            Some(field) => {
                self.outbox = Some(field);
                true
            }
            None => false,
        }
    }

    fn outbox(&mut self) -> &mut dyn Any {
        &mut self.outbox
    }

    fn path<'s>(&'s self, steps: &mut Vec<Step<'s>>) {
        steps.push(Step::Index(self.index));
    }
}

/// An element a tuple's draft lacks (it was rejected): the tuple has no value.
fn element<V>(value: Option<Result<V, Rejected>>) -> Result<V, Rejected> {
    value.unwrap_or_else(|| Err(Rejected::unplaced("a tuple element is missing")))
}

/// Tuples of two to five elements stream as arrays, element by element: the draft is a
/// tuple of `Option`s (`None` until an element begins), and each element settles on its
/// own as `TupleItem::AtN(Item::Element(N, value))`.
macro_rules! tuples {
    ($( $len:literal => ($($idx:tt $T:ident $at:ident),+); )*) => {$(
        impl<$($T: StreamingModel),+> StreamingModel for ($($T,)+) {
            type Value = ($($T::Value,)+);
            type Draft = TupleDraft<($(Option<$T::Draft>,)+)>;
            type Field = TupleItem<$(Item<$T::Value, $T::Field>),+>;
            type Name = Infallible;

            const SHAPE: super::Shape = super::Shape::Array;
            const LIMITS: super::Limits = {
                super::Limits::LEAF $(.with($T::LIMITS))+
                .unsupported(
                    "a tuple's schema needs `prefixItems`, which strict structured outputs do \
                     not support; use a struct with named fields",
                )
            };

            fn schema(generator: &mut SchemaGen) -> Schema {
                let items = vec![$($T::schema(generator)),+];
                Schema::object([
                    ("type", Schema::from("array")),
                    ("prefixItems", Schema::from(items)),
                    ("items", Schema::from(false)),
                    ("minItems", Schema::from($len as u64)),
                    ("maxItems", Schema::from($len as u64)),
                ])
            }

            fn step(
                member: &mut Member,
                event: &Event<'_>,
                slot: &mut dyn Slot<Self::Draft>,
            ) -> Flow<Self::Value> {
                if member.level() == 0 && matches!(event, Event::BeginArray) {
                    slot.set(Default::default());
                    return Flow::Push(Box::new(TupleFrame::<Self>::new()));
                }
                member.follow(event)
            }

            fn frame_draft(draft: &mut Self::Draft) -> Option<&mut dyn Any> {
                Some(draft)
            }

            fn to_value(draft: &Self::Draft) -> Result<Self::Value, Rejected> {
                Ok(($(element(draft.$idx.as_ref().map($T::to_value))?,)+))
            }

            fn into_value(draft: Self::Draft) -> Result<Self::Value, Rejected> {
                let elements = draft.elements;
                Ok(($(element(elements.$idx.map($T::into_value))?,)+))
            }
        }

        impl<$($T: Serialize),+> Serialize for TupleDraft<($(Option<$T>,)+)> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeSeq;
                let mut seq = serializer.serialize_seq(None)?;
                $(
                    match &self.elements.$idx {
                        Some(element) => seq.serialize_element(element)?,
                        None => return seq.end(),
                    }
                )+
                seq.end()
            }
        }

        impl<$($T: StreamingModel),+> Tuple for ($($T,)+) {
            const LEN: usize = $len;

            fn element(
                position: usize,
                member: &mut Member,
                event: &Event<'_>,
                draft: &mut Self::Draft,
            ) -> Flow<Self::Field> {
                match position {
                    $($idx => $T::step(member, event, &mut draft.$idx)
                        .map(|v| TupleItem::$at(Item::Element($idx, v))),)+
                    _ => Flow::More,
                }
            }

            fn element_closed(position: usize, draft: &Self::Draft) -> Result<Self::Field, Rejected> {
                match position {
                    $($idx => {
                        let value = element(draft.$idx.as_ref().map($T::to_value))?;
                        Ok(TupleItem::$at(Item::Element($idx, value)))
                    })+
                    _ => Err(Rejected::unplaced("no such tuple element")),
                }
            }

            fn element_validates(position: usize) -> bool {
                match position {
                    $($idx => $T::VALIDATES,)+
                    _ => false,
                }
            }

            fn element_draft(position: usize, draft: &mut Self::Draft) -> Option<&mut dyn Any> {
                match position {
                    $($idx => draft.$idx.as_mut().and_then($T::frame_draft),)+
                    _ => None,
                }
            }

            fn element_wrap(position: usize, child: &mut dyn Any) -> Option<Self::Field> {
                match position {
                    $($idx => child
                        .downcast_mut::<Option<$T::Field>>()
                        .and_then(Option::take)
                        .map(|f| TupleItem::$at(Item::Inner($idx, f))),)+
                    _ => None,
                }
            }
        }
    )*};
}

tuples! {
    2 => (0 A At0, 1 B At1);
    3 => (0 A At0, 1 B At1, 2 C At2);
    4 => (0 A At0, 1 B At1, 2 C At2, 3 D At3);
    5 => (0 A At0, 1 B At1, 2 C At2, 3 D At3, 4 E At4);
}
