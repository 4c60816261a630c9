//! A model's fields at the end: the settled ones taken from the draft, the others as serde
//! has them (a default, `None` for an `Option`, or a "missing field" error).

use super::StreamingModel;
use super::protocol::Rejected;
use serde::de::{Deserialize, Deserializer, Visitor};

/// What serde makes of a field that never came: the same deserializer serde's derive
/// uses, so `Option<T>` (and any type that reads a missing value as none) is `None` and
/// anything else is serde's "missing field" error.
struct Missing(&'static str);

impl<'de> Deserializer<'de> for Missing {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(serde::de::Error::missing_field(self.0))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

/// serde's value for the field `name` that never came.
pub fn missing<V: for<'de> Deserialize<'de>>(name: &'static str) -> Result<V, serde_json::Error> {
    V::deserialize(Missing(name))
}

/// serde requires the field `name` of type `V` (a missing value is an error, unlike an
/// `Option`'s): decided by `V`'s `Deserialize`, not by its spelling.
pub fn is_required<V: for<'de> Deserialize<'de>>(name: &'static str) -> bool {
    missing::<V>(name).is_err()
}

/// Name `index` of `names` (a derived field-name enum's key, by its discriminant).
pub fn nth(names: &[&'static str], index: usize) -> &'static str {
    names.get(index).copied().unwrap_or_default()
}

/// A field serde reads unless it has a default: its index in the draft's field set, its
/// key, and serde's verdict when it never came ([`missing_ok`] or [`missing_refused`]).
pub type Required = (
    usize,
    &'static str,
    fn(&'static str) -> Result<(), serde_json::Error>,
);

/// serde's verdict on field `name` of type `V` that never came: fine for an `Option`, an
/// error for the rest.
pub fn missing_ok<V: for<'de> Deserialize<'de>>(
    name: &'static str,
) -> Result<(), serde_json::Error> {
    missing::<V>(name).map(drop)
}

/// The verdict on a field read by a function of the user's that never came: serde
/// requires it (whatever its type) unless it has a default.
pub fn missing_refused(name: &'static str) -> Result<(), serde_json::Error> {
    Err(serde::de::Error::missing_field(name))
}

/// [`StreamingModel::missing_keys`](super::StreamingModel::missing_keys) of a model that
/// flattens structs: each missing field's key, or, for a flattened field, what `flat`
/// gives (its struct's own missing keys).
pub fn missing_keys_with<T: super::StreamingModel>(
    draft: Option<&T::Draft>,
    flat: impl Fn(T::Name) -> Option<Vec<&'static str>>,
) -> Vec<&'static str> {
    let mut keys = Vec::new();
    for name in T::missing(draft) {
        match flat(name) {
            Some(inner) => keys.extend(inner),
            None => keys.push(super::FieldName::key(name)),
        }
    }
    keys
}

/// Field `index` of model `T` is required: it has no default and serde's verdict on it
/// missing is an error (a derived `XFieldName::is_required`).
pub fn required<T: super::object::Object>(index: usize) -> bool
where
    T::Draft: Default,
{
    T::REQUIRED
        .iter()
        .find(|(i, ..)| *i == index)
        .is_some_and(|(_, name, verdict)| verdict(name).is_err())
}

/// At an object's end: serde's verdict on each required field that never settled, in
/// field order.
pub fn require_all(
    settled: super::object::FieldSet,
    fields: &[Required],
) -> Result<(), serde_json::Error> {
    fields
        .iter()
        .filter(|(index, ..)| !settled.contains(*index))
        .try_for_each(|(_, name, verdict)| verdict(name))
}

fn rejected(error: serde_json::Error) -> Rejected {
    Rejected { error, span: 0..0 }
}

/// A field of the final value: its draft taken apart if it settled, else serde's value for
/// a missing field.
pub fn take<F: StreamingModel>(
    draft: Option<F::Draft>,
    settled: bool,
    name: &'static str,
) -> Result<F::Value, Rejected> {
    match draft {
        Some(draft) if settled => F::into_value(draft),
        _ => missing(name).map_err(rejected),
    }
}

/// A field with a default (`#[serde(default)]`, skipped fields): its draft taken apart if
/// it settled, else the default.
pub fn take_or<F: StreamingModel>(
    draft: Option<F::Draft>,
    settled: bool,
    default: impl FnOnce() -> F::Value,
) -> Result<F::Value, Rejected> {
    match draft {
        Some(draft) if settled => F::into_value(draft),
        _ => Ok(default()),
    }
}

/// A field read by a function of the user's: its draft taken apart if it settled, else
/// serde's "missing field".
pub fn take_present<F: StreamingModel>(
    draft: Option<F::Draft>,
    settled: bool,
    name: &'static str,
) -> Result<F::Value, Rejected> {
    match draft {
        Some(draft) if settled => F::into_value(draft),
        _ => Err(rejected(serde::de::Error::missing_field(name))),
    }
}

/// [`take_present`], copying the draft (for an event).
pub fn take_ref_present<F: StreamingModel>(
    draft: &Option<F::Draft>,
    settled: bool,
    name: &'static str,
) -> Result<F::Value, Rejected> {
    match draft {
        Some(draft) if settled => F::to_value(draft),
        _ => Err(rejected(serde::de::Error::missing_field(name))),
    }
}

/// [`take`], copying the draft (for an event).
pub fn take_ref<F: StreamingModel>(
    draft: &Option<F::Draft>,
    settled: bool,
    name: &'static str,
) -> Result<F::Value, Rejected> {
    match draft {
        Some(draft) if settled => F::to_value(draft),
        _ => missing(name).map_err(rejected),
    }
}

/// [`take_or`], copying the draft (for an event).
pub fn take_ref_or<F: StreamingModel>(
    draft: &Option<F::Draft>,
    settled: bool,
    default: impl FnOnce() -> F::Value,
) -> Result<F::Value, Rejected> {
    match draft {
        Some(draft) if settled => F::to_value(draft),
        _ => Ok(default()),
    }
}

/// A draft serialized as a map, one call per field and no early return: the first error
/// is kept and the entries after it are skipped.
pub struct DraftMap<S: serde::Serializer>(Result<S::SerializeMap, S::Error>);

impl<S: serde::Serializer> DraftMap<S> {
    /// Starts the map.
    pub fn new(serializer: S) -> Self {
        DraftMap(serializer.serialize_map(None))
    }

    /// The entry `key` if the field's draft is present.
    pub fn entry<T: serde::Serialize>(self, key: &'static str, value: &Option<T>) -> Self {
        use serde::ser::SerializeMap;
        match (self.0, value) {
            (Ok(mut map), Some(value)) => DraftMap(map.serialize_entry(key, value).map(|()| map)),
            (map, _) => DraftMap(map),
        }
    }

    /// The members of a flattened struct's draft, written into this map as they are (in
    /// field order, numbers unchanged: not through a `serde_json::Value`).
    pub fn flatten<T: serde::Serialize>(self, value: &Option<T>) -> Self {
        match (self.0, value) {
            (Ok(mut map), Some(value)) => {
                DraftMap(value.serialize(Entries(&mut map)).map(|()| map))
            }
            (map, _) => DraftMap(map),
        }
    }

    /// Ends the map.
    pub fn end(self) -> Result<S::Ok, S::Error> {
        self.0.and_then(serde::ser::SerializeMap::end)
    }
}

/// A derived draft's `Debug`: its name, then what it serializes to (the JSON a browser
/// gets: absent fields left out, `null` for a field the model wrote as null), pretty
/// under `{:#?}`.
pub fn debug_draft<D: serde::Serialize>(
    name: &str,
    draft: &D,
    f: &mut std::fmt::Formatter<'_>,
) -> std::fmt::Result {
    let json = match f.alternate() {
        true => serde_json::to_string_pretty(draft),
        false => serde_json::to_string(draft),
    };
    match json {
        Ok(json) => write!(f, "{name} {json}"),
        Err(error) => write!(f, "{name} <{error}>"),
    }
}

/// A serializer that takes a map (a draft serializes as one) and writes its entries into
/// the parent's map; anything else is an error.
struct Entries<'m, M>(&'m mut M);

macro_rules! not_a_map {
    ($($method:ident($($arg:ty),*) -> $ret:ty),* $(,)?) => {$(
        fn $method(self, $(_: $arg),*) -> Result<$ret, Self::Error> {
            Err(serde::ser::Error::custom("a flattened draft serializes as a map"))
        }
    )*};
}

impl<'m, M: serde::ser::SerializeMap> serde::Serializer for Entries<'m, M> {
    type Ok = ();
    type Error = M::Error;
    type SerializeSeq = serde::ser::Impossible<(), M::Error>;
    type SerializeTuple = serde::ser::Impossible<(), M::Error>;
    type SerializeTupleStruct = serde::ser::Impossible<(), M::Error>;
    type SerializeTupleVariant = serde::ser::Impossible<(), M::Error>;
    type SerializeMap = Self;
    type SerializeStruct = serde::ser::Impossible<(), M::Error>;
    type SerializeStructVariant = serde::ser::Impossible<(), M::Error>;

    not_a_map!(
        serialize_bool(bool) -> (),
        serialize_i8(i8) -> (),
        serialize_i16(i16) -> (),
        serialize_i32(i32) -> (),
        serialize_i64(i64) -> (),
        serialize_u8(u8) -> (),
        serialize_u16(u16) -> (),
        serialize_u32(u32) -> (),
        serialize_u64(u64) -> (),
        serialize_f32(f32) -> (),
        serialize_f64(f64) -> (),
        serialize_char(char) -> (),
        serialize_str(&str) -> (),
        serialize_bytes(&[u8]) -> (),
        serialize_none() -> (),
        serialize_unit() -> (),
        serialize_unit_struct(&'static str) -> (),
        serialize_unit_variant(&'static str, u32, &'static str) -> (),
        serialize_seq(Option<usize>) -> Self::SerializeSeq,
        serialize_tuple(usize) -> Self::SerializeTuple,
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct,
        serialize_tuple_variant(&'static str, u32, &'static str, usize)
            -> Self::SerializeTupleVariant,
        serialize_struct(&'static str, usize) -> Self::SerializeStruct,
        serialize_struct_variant(&'static str, u32, &'static str, usize)
            -> Self::SerializeStructVariant,
    );

    fn serialize_some<T: serde::Serialize + ?Sized>(self, value: &T) -> Result<(), M::Error> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: serde::Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), M::Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: serde::Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), M::Error> {
        Err(serde::ser::Error::custom(
            "a flattened draft serializes as a map",
        ))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, M::Error> {
        Ok(self)
    }
}

impl<'m, M: serde::ser::SerializeMap> serde::ser::SerializeMap for Entries<'m, M> {
    type Ok = ();
    type Error = M::Error;

    fn serialize_key<T: serde::Serialize + ?Sized>(&mut self, key: &T) -> Result<(), M::Error> {
        self.0.serialize_key(key)
    }
    fn serialize_value<T: serde::Serialize + ?Sized>(&mut self, value: &T) -> Result<(), M::Error> {
        self.0.serialize_value(value)
    }
    fn end(self) -> Result<(), M::Error> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_is_none_for_options_and_an_error_otherwise() {
        assert_eq!(missing::<Option<u8>>("x").unwrap(), None);
        let err = missing::<u8>("score").unwrap_err();
        assert_eq!(err.to_string(), "missing field `score`");
    }
}
