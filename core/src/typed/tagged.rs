//! The drafts of internally tagged newtype variants, written as serde reads them: an
//! `Option` payload beside the tag (or the tag alone), and a payload that may hold the
//! enum itself written without wrapping the serializer once more per level.

use serde::ser::{Error as _, SerializeMap, SerializeSeq};
use serde::{Deserialize, Serialize};

/// Writes the draft of an internally tagged newtype variant as serde reads that variant:
/// an `Option` in its payload (however it is spelled: an alias, a type parameter,
/// `Option<Box<T>>`, `Option<Option<T>>`, a newtype around one) as its content, beside the
/// tag, or the tag alone while it is `None`. serde's internal tagging refuses to write an
/// `Option` payload itself, so the derived `Serialize` of such a draft would fail.
pub fn tagged_newtype<S, D>(draft: &D, serializer: S) -> Result<S::Ok, S::Error>
where
    S: serde::Serializer,
    D: serde::Serialize + ?Sized,
{
    draft.serialize(NoneAsUnit(serializer))
}

/// `value`, serialized through [`NoneAsUnit`].
struct Unwrapped<'a, T: ?Sized>(&'a T);

impl<T: serde::Serialize + ?Sized> serde::Serialize for Unwrapped<'_, T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(NoneAsUnit(serializer))
    }
}

/// A serializer that writes `None` as a unit and `Some(v)` as `v` (down through newtypes),
/// and hands everything else to the serializer it wraps.
struct NoneAsUnit<S>(S);

/// Methods of [`NoneAsUnit`] that hand their arguments on unchanged.
macro_rules! hand_on {
    ($($method:ident($($arg:ident: $ty:ty),*) -> $out:ty;)*) => {
        $(fn $method(self, $($arg: $ty),*) -> Result<$out, Self::Error> {
            self.0.$method($($arg),*)
        })*
    };
}

impl<S: serde::Serializer> serde::Serializer for NoneAsUnit<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = S::SerializeSeq;
    type SerializeTuple = S::SerializeTuple;
    type SerializeTupleStruct = S::SerializeTupleStruct;
    type SerializeTupleVariant = S::SerializeTupleVariant;
    type SerializeMap = S::SerializeMap;
    type SerializeStruct = S::SerializeStruct;
    type SerializeStructVariant = S::SerializeStructVariant;

    hand_on! {
        serialize_bool(v: bool) -> S::Ok;
        serialize_i8(v: i8) -> S::Ok;
        serialize_i16(v: i16) -> S::Ok;
        serialize_i32(v: i32) -> S::Ok;
        serialize_i64(v: i64) -> S::Ok;
        serialize_i128(v: i128) -> S::Ok;
        serialize_u8(v: u8) -> S::Ok;
        serialize_u16(v: u16) -> S::Ok;
        serialize_u32(v: u32) -> S::Ok;
        serialize_u64(v: u64) -> S::Ok;
        serialize_u128(v: u128) -> S::Ok;
        serialize_f32(v: f32) -> S::Ok;
        serialize_f64(v: f64) -> S::Ok;
        serialize_char(v: char) -> S::Ok;
        serialize_str(v: &str) -> S::Ok;
        serialize_bytes(v: &[u8]) -> S::Ok;
        serialize_unit() -> S::Ok;
        serialize_unit_struct(name: &'static str) -> S::Ok;
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str) -> S::Ok;
        serialize_seq(len: Option<usize>) -> S::SerializeSeq;
        serialize_tuple(len: usize) -> S::SerializeTuple;
        serialize_tuple_struct(name: &'static str, len: usize) -> S::SerializeTupleStruct;
        serialize_tuple_variant(
            name: &'static str,
            index: u32,
            variant: &'static str,
            len: usize
        ) -> S::SerializeTupleVariant;
        serialize_map(len: Option<usize>) -> S::SerializeMap;
        serialize_struct(name: &'static str, len: usize) -> S::SerializeStruct;
        serialize_struct_variant(
            name: &'static str,
            index: u32,
            variant: &'static str,
            len: usize
        ) -> S::SerializeStructVariant;
    }

    fn serialize_none(self) -> Result<S::Ok, S::Error> {
        self.0.serialize_unit()
    }

    fn serialize_some<T: serde::Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<T: serde::Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0.serialize_newtype_struct(name, &Unwrapped(value))
    }

    fn serialize_newtype_variant<T: serde::Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0
            .serialize_newtype_variant(name, index, variant, value)
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// [`tagged_newtype`] for a payload that may lead back to the enum (through a `Box`):
/// serde's tagging wraps the serializer once per internally tagged newtype level, so such
/// an enum's `Serialize` would need a serializer type nested without end, and does not
/// compile (serde's own derive fails so: serde-rs/serde#3100). The payload is written to
/// JSON first and read back into an ordered tree (`Ordered`), its members in their order,
/// which is written beside the tag: the serializer's type stops growing there. Slower than
/// [`tagged_newtype`]; only such variants pay for it.
pub fn tagged_newtype_erased<S, D>(draft: &D, serializer: S) -> Result<S::Ok, S::Error>
where
    S: serde::Serializer,
    D: serde::Serialize + ?Sized,
{
    let text = serde_json::to_vec(&Unwrapped(draft)).map_err(S::Error::custom)?;
    let tree: Ordered = serde_json::from_slice(&text).map_err(S::Error::custom)?;
    tree.serialize(serializer)
}

/// A JSON value with its object members in the order written (`serde_json::Value` sorts
/// them, unless a feature of serde_json that would change its users' types is on).
enum Ordered {
    Null,
    Bool(bool),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Text(String),
    List(Vec<Ordered>),
    Members(Vec<(String, Ordered)>),
}

impl Serialize for Ordered {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            // A unit, as `None` is written beside a tag (the tag alone).
            Ordered::Null => serializer.serialize_unit(),
            Ordered::Bool(b) => serializer.serialize_bool(*b),
            Ordered::Unsigned(n) => serializer.serialize_u64(*n),
            Ordered::Signed(n) => serializer.serialize_i64(*n),
            Ordered::Float(n) => serializer.serialize_f64(*n),
            Ordered::Text(s) => serializer.serialize_str(s),
            Ordered::List(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Ordered::Members(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, value) in members {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(OrderedVisitor)
    }
}

struct OrderedVisitor;

impl<'de> serde::de::Visitor<'de> for OrderedVisitor {
    type Value = Ordered;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Ordered, E> {
        Ok(Ordered::Null)
    }
    fn visit_none<E>(self) -> Result<Ordered, E> {
        Ok(Ordered::Null)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Ordered, D::Error> {
        Ordered::deserialize(d)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Ordered, E> {
        Ok(Ordered::Bool(b))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Ordered, E> {
        Ok(Ordered::Unsigned(n))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Ordered, E> {
        Ok(Ordered::Signed(n))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Ordered, E> {
        Ok(Ordered::Float(n))
    }
    fn visit_str<E>(self, s: &str) -> Result<Ordered, E> {
        Ok(Ordered::Text(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Ordered, E> {
        Ok(Ordered::Text(s))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Ordered, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Ordered::List(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
        let mut members = Vec::new();
        while let Some(entry) = map.next_entry()? {
            members.push(entry);
        }
        Ok(Ordered::Members(members))
    }
}
