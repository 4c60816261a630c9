//! `Option<T>` and `Box<T>`: a value of `T`, nullable or boxed.

use super::StreamingModel;
use super::protocol::{Event, Flow, Member, Rejected, Slot};
use crate::json_schema::{Schema, SchemaGen};
use std::any::Any;
use std::convert::Infallible;
use std::sync::Arc;

/// `null` shows as `Some(None)`; absent stays `None`.
impl<T: StreamingModel> StreamingModel for Option<T> {
    type Value = Option<T::Value>;
    type Draft = Option<T::Draft>;
    type Field = T::Field;
    type Name = Infallible;

    const LIMITS: super::Limits = T::LIMITS;
    const SHAPE: super::Shape = T::SHAPE;
    const NULLABLE: bool = true;
    const ELEMENT: super::Shape = T::ELEMENT;
    const VALIDATES: bool = T::VALIDATES;

    fn schema(generator: &mut SchemaGen) -> Schema {
        let mut schema = T::schema(generator);
        crate::json_schema::make_nullable(&mut schema);
        schema
    }

    /// `T`'s in place, or `null`: where a model's members are written beside others (an
    /// internally tagged variant's content), they are `T`'s own.
    fn root_schema(generator: &mut SchemaGen) -> Schema {
        let mut schema = T::root_schema(generator);
        crate::json_schema::make_nullable(&mut schema);
        schema
    }

    fn step(
        member: &mut Member,
        event: &Event<'_>,
        slot: &mut dyn Slot<Self::Draft>,
    ) -> Flow<Self::Value> {
        if !member.begun {
            member.begun = true;
            if let Event::Null(_) = event {
                slot.set(None);
                return Flow::Done(Ok(None));
            }
        }
        T::step(member, event, &mut SomeSlot(slot)).map(Some)
    }

    fn frame_draft(draft: &mut Self::Draft) -> Option<&mut dyn Any> {
        draft.as_mut().and_then(T::frame_draft)
    }

    fn to_value(draft: &Self::Draft) -> Result<Self::Value, Rejected> {
        draft.as_ref().map(T::to_value).transpose()
    }

    fn into_value(draft: Self::Draft) -> Result<Self::Value, Rejected> {
        draft.map(T::into_value).transpose()
    }
}

/// The draft of an `Option<T>`'s value seen as a slot of `T`'s draft.
struct SomeSlot<'s, D>(&'s mut dyn Slot<Option<D>>);

impl<D> Slot<D> for SomeSlot<'_, D> {
    fn get(&mut self) -> Option<&mut D> {
        self.0.get().and_then(Option::as_mut)
    }
    fn set(&mut self, draft: D) {
        self.0.set(Some(draft));
    }
}

/// Pointers that stream as their contents, with a boxed draft (so that a model recursive
/// through them has a finite draft). `Rc` cannot: a stream and its events are `Send`; use
/// `Arc`. serde reads an `Arc` with its `rc` feature, which a model holding one has turned
/// on already.
macro_rules! pointers {
    ($($(#[$doc:meta])* $ptr:ident $(where [$($bound:tt)+])?;)*) => {$(
        $(#[$doc])*
        impl<T: StreamingModel> StreamingModel for $ptr<T>
        $(where $($bound)+)?
        {
            type Value = $ptr<T::Value>;
            type Draft = Box<T::Draft>;
            type Field = T::Field;
            type Name = Infallible;

            const LIMITS: super::Limits = T::LIMITS;
            const SHAPE: super::Shape = T::SHAPE;
            const NULLABLE: bool = T::NULLABLE;
            const ELEMENT: super::Shape = T::ELEMENT;
            const VALIDATES: bool = T::VALIDATES;

            fn schema(generator: &mut SchemaGen) -> Schema {
                T::schema(generator)
            }

            fn root_schema(generator: &mut SchemaGen) -> Schema {
                T::root_schema(generator)
            }

            fn step(
                member: &mut Member,
                event: &Event<'_>,
                slot: &mut dyn Slot<Self::Draft>,
            ) -> Flow<Self::Value> {
                T::step(member, event, &mut BoxSlot(slot)).map($ptr::new)
            }

            fn frame_draft(draft: &mut Self::Draft) -> Option<&mut dyn Any> {
                T::frame_draft(draft)
            }

            fn to_value(draft: &Self::Draft) -> Result<Self::Value, Rejected> {
                T::to_value(draft).map($ptr::new)
            }

            fn into_value(draft: Self::Draft) -> Result<Self::Value, Rejected> {
                T::into_value(*draft).map($ptr::new)
            }
        }
    )*};
}

pointers! {
    /// A box streams as its contents.
    Box;
    /// An `Arc` streams as its contents.
    Arc where [T::Value: Sync, Arc<T::Value>: serde::de::DeserializeOwned];
}

/// The draft of a `Box<T>` seen as a slot of `T`'s draft.
struct BoxSlot<'s, D>(&'s mut dyn Slot<Box<D>>);

impl<D> Slot<D> for BoxSlot<'_, D> {
    fn get(&mut self) -> Option<&mut D> {
        self.0.get().map(|b| &mut **b)
    }
    fn set(&mut self, draft: D) {
        self.0.set(Box::new(draft));
    }
}
