//! What the derive's generated code names. Not public API: may change in any release.

pub use crate::typed::{Depth, Keys, ObjectState, Route, atomic_step};
pub use serde;
pub use serde_json;
pub use std::convert::Infallible;

/// What `min_items`/`max_items`/`min_length`/`max_length` measure: elements of a vector,
/// characters of a string (absent optional values are not measured).
pub trait Length {
    /// The measure, if there is a value.
    fn length(&self) -> Option<usize>;
}

impl Length for String {
    fn length(&self) -> Option<usize> {
        Some(self.chars().count())
    }
}

impl<T> Length for Vec<T> {
    fn length(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<T: Length> Length for Option<T> {
    fn length(&self) -> Option<usize> {
        self.as_ref().and_then(Length::length)
    }
}

impl<T: Length> Length for Box<T> {
    fn length(&self) -> Option<usize> {
        (**self).length()
    }
}

/// What `minimum`/`maximum` compare.
pub trait Number {
    /// The value as `f64`, if there is one.
    fn number(&self) -> Option<f64>;
}

macro_rules! numbers {
    ($($t:ty),*) => {$(
        impl Number for $t {
            #[allow(clippy::cast_precision_loss, clippy::cast_lossless)]
            fn number(&self) -> Option<f64> {
                Some(*self as f64)
            }
        }
    )*};
}

numbers!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64
);

impl<T: Number> Number for Option<T> {
    fn number(&self) -> Option<f64> {
        self.as_ref().and_then(Number::number)
    }
}

impl<T: Number> Number for Box<T> {
    fn number(&self) -> Option<f64> {
        (**self).number()
    }
}

/// The schema of an atomic field's type: its `Streamable` schema when it has one, else
/// any value. Chosen by trait at the field's concrete type (autoref specialization):
/// `(&&SchemaOf::<T>::new()).schema(generator)`.
pub struct SchemaOf<T: ?Sized>(std::marker::PhantomData<fn() -> Box<T>>);

impl<T: ?Sized> SchemaOf<T> {
    /// The probe.
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        SchemaOf(std::marker::PhantomData)
    }
}

/// `T` describes itself.
pub trait SchemaOfStreamable {
    /// `T`'s schema.
    fn schema(&self, generator: &mut crate::schema::SchemaGen) -> crate::schema::Schema;
}

impl<T: crate::Streamable> SchemaOfStreamable for &SchemaOf<T> {
    fn schema(&self, generator: &mut crate::schema::SchemaGen) -> crate::schema::Schema {
        T::schema(generator)
    }
}

/// `T` has no schema of its own: any value.
pub trait SchemaOfAnything {
    /// `{}`.
    fn schema(&self, generator: &mut crate::schema::SchemaGen) -> crate::schema::Schema;
}

impl<T: ?Sized> SchemaOfAnything for SchemaOf<T> {
    fn schema(&self, _: &mut crate::schema::SchemaGen) -> crate::schema::Schema {
        crate::schema::Schema::Object(crate::schema::Object::new())
    }
}
