//! [`Schema`]: JSON whose objects keep their keys in the order they were written.
//!
//! Key order in a schema is semantic: a model under constrained decoding writes properties
//! in schema order. `serde_json::Value` sorts keys unless an application turns on
//! `serde_json/preserve_order` (a feature that would change every `Map` in the
//! application), so schemas have a type of their own that serializes in order.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use std::fmt;

/// A JSON Schema document (or any part of one): JSON with object keys in insertion order.
///
/// It serializes in order with any serde serializer, prints as compact JSON with
/// `Display` (`{:#}` for pretty JSON), indexes like `serde_json::Value`, and compares with
/// one. [`Schema::to_value`] converts it to a `serde_json::Value`, whose key order is then
/// `serde_json`'s (sorted unless the application enables `preserve_order`): keep the
/// `Schema` itself in a request body that must list properties in order.
///
/// ```
/// use serde::Deserialize;
/// use settled::StreamingModel;
///
/// #[derive(Debug, Deserialize, StreamingModel)]
/// struct Step { title: String, done: bool, after: Vec<u32> }
///
/// let schema = Step::json_schema();
/// let keys: Vec<&str> = schema["properties"].keys().collect();
/// assert_eq!(keys, ["title", "done", "after"]);
/// assert!(schema.to_string().contains(r#""properties":{"title":"#));
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Schema {
    /// `null` (also what indexing a missing key returns).
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(serde_json::Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Schema>),
    /// An object, keys in insertion order.
    Object(Object),
}

/// The members of a [`Schema`] object, in insertion order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object(Vec<(String, Schema)>);

static NULL: Schema = Schema::Null;

impl Object {
    /// An empty object.
    pub fn new() -> Self {
        Object(Vec::new())
    }

    /// Sets `key`: a key already present keeps its position and takes the new value.
    pub fn insert(&mut self, key: impl Into<String>, value: impl Into<Schema>) {
        let key = key.into();
        let value = value.into();
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.0.push((key, value)),
        }
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Schema> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The value of `key`, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Schema> {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Removes `key`, keeping the order of the others.
    pub fn remove(&mut self, key: &str) -> Option<Schema> {
        let at = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.remove(at).1)
    }

    /// `key` is present.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(k, _)| k.as_str())
    }

    /// The members, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Schema)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The members, in order, values mutably.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&str, &mut Schema)> {
        self.0.iter_mut().map(|(k, v)| (k.as_str(), v))
    }

    /// Keeps the members for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(&str, &Schema) -> bool) {
        self.0.retain(|(k, v)| keep(k, v));
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// No members.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl IntoIterator for Object {
    type Item = (String, Schema);
    type IntoIter = std::vec::IntoIter<(String, Schema)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<K: Into<String>, V: Into<Schema>> FromIterator<(K, V)> for Object {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut object = Object::new();
        for (k, v) in iter {
            object.insert(k, v);
        }
        object
    }
}

impl Schema {
    /// An object of `members`, in order.
    pub fn object<K: Into<String>, V: Into<Schema>>(
        members: impl IntoIterator<Item = (K, V)>,
    ) -> Schema {
        Schema::Object(members.into_iter().collect())
    }

    /// The value of `key` in an object.
    pub fn get(&self, key: &str) -> Option<&Schema> {
        self.as_object().and_then(|o| o.get(key))
    }

    /// The members of an object.
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Schema::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The members of an object, mutably.
    pub fn as_object_mut(&mut self) -> Option<&mut Object> {
        match self {
            Schema::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The elements of an array.
    pub fn as_array(&self) -> Option<&[Schema]> {
        match self {
            Schema::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The text of a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Schema::String(s) => Some(s),
            _ => None,
        }
    }

    /// An object's keys, in order (none for other values).
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.as_object().into_iter().flat_map(Object::keys)
    }

    /// The same JSON as a `serde_json::Value` (object key order is then `serde_json`'s).
    pub fn to_value(&self) -> serde_json::Value {
        use serde_json::Value;
        match self {
            Schema::Null => Value::Null,
            Schema::Bool(b) => Value::Bool(*b),
            Schema::Number(n) => Value::Number(n.clone()),
            Schema::String(s) => Value::String(s.clone()),
            Schema::Array(items) => Value::Array(items.iter().map(Schema::to_value).collect()),
            Schema::Object(o) => Value::Object(
                o.iter()
                    .map(|(k, v)| (k.to_owned(), v.to_value()))
                    .collect(),
            ),
        }
    }
}

impl std::ops::Index<&str> for Schema {
    type Output = Schema;
    /// The value of `key`, or `null` when absent (as `serde_json::Value` indexes).
    fn index(&self, key: &str) -> &Schema {
        self.get(key).unwrap_or(&NULL)
    }
}

impl std::ops::Index<usize> for Schema {
    type Output = Schema;
    /// Element `index` of an array, or `null`.
    fn index(&self, index: usize) -> &Schema {
        self.as_array().and_then(|a| a.get(index)).unwrap_or(&NULL)
    }
}

impl PartialEq<serde_json::Value> for Schema {
    fn eq(&self, other: &serde_json::Value) -> bool {
        use serde_json::Value;
        match (self, other) {
            (Schema::Null, Value::Null) => true,
            (Schema::Bool(a), Value::Bool(b)) => a == b,
            (Schema::Number(a), Value::Number(b)) => a == b,
            (Schema::String(a), Value::String(b)) => a == b,
            (Schema::Array(a), Value::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
            }
            (Schema::Object(a), Value::Object(b)) => {
                a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| v == w))
            }
            _ => false,
        }
    }
}

impl PartialEq<str> for Schema {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<&str> for Schema {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl PartialEq<bool> for Schema {
    fn eq(&self, other: &bool) -> bool {
        matches!(self, Schema::Bool(b) if b == other)
    }
}

macro_rules! compare_numbers {
    ($($t:ty => $as:ident),*) => {$(
        impl PartialEq<$t> for Schema {
            fn eq(&self, other: &$t) -> bool {
                matches!(self, Schema::Number(n) if n.$as() == Some((*other).into()))
            }
        }
    )*};
}

compare_numbers!(i32 => as_i64, i64 => as_i64, u32 => as_u64, u64 => as_u64, f64 => as_f64);

impl From<serde_json::Value> for Schema {
    fn from(value: serde_json::Value) -> Self {
        use serde_json::Value;
        match value {
            Value::Null => Schema::Null,
            Value::Bool(b) => Schema::Bool(b),
            Value::Number(n) => Schema::Number(n),
            Value::String(s) => Schema::String(s),
            Value::Array(items) => Schema::Array(items.into_iter().map(Schema::from).collect()),
            Value::Object(map) => Schema::object(map),
        }
    }
}

impl From<&str> for Schema {
    fn from(s: &str) -> Self {
        Schema::String(s.to_owned())
    }
}

impl From<String> for Schema {
    fn from(s: String) -> Self {
        Schema::String(s)
    }
}

impl From<bool> for Schema {
    fn from(b: bool) -> Self {
        Schema::Bool(b)
    }
}

impl From<Object> for Schema {
    fn from(o: Object) -> Self {
        Schema::Object(o)
    }
}

impl From<Vec<Schema>> for Schema {
    fn from(items: Vec<Schema>) -> Self {
        Schema::Array(items)
    }
}

macro_rules! numbers {
    ($($t:ty),*) => {$(
        impl From<$t> for Schema {
            fn from(n: $t) -> Self {
                Schema::Number(n.into())
            }
        }
    )*};
}

numbers!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

impl From<f64> for Schema {
    /// A finite float as a number (an integral one without a fraction); `null` otherwise.
    fn from(n: f64) -> Self {
        #[allow(clippy::cast_possible_truncation)]
        if n.fract() == 0.0 && n.abs() < 9.0e15 {
            return Schema::Number((n as i64).into());
        }
        serde_json::Number::from_f64(n).map_or(Schema::Null, Schema::Number)
    }
}

impl Serialize for Schema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Schema::Null => serializer.serialize_unit(),
            Schema::Bool(b) => serializer.serialize_bool(*b),
            Schema::Number(n) => n.serialize(serializer),
            Schema::String(s) => serializer.serialize_str(s),
            Schema::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Schema::Object(o) => o.serialize(serializer),
        }
    }
}

impl Serialize for Object {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl fmt::Display for Schema {
    /// Compact JSON; `{:#}` pretty-prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = if f.alternate() {
            serde_json::to_string_pretty(self)
        } else {
            serde_json::to_string(self)
        };
        f.write_str(&text.map_err(|_| fmt::Error)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keeps_insertion_order_and_replaces_in_place() {
        let mut o = Object::new();
        o.insert("z", 1u8);
        o.insert("a", 2u8);
        o.insert("z", 3u8);
        let s = Schema::Object(o);
        assert_eq!(s.to_string(), r#"{"z":3,"a":2}"#);
        assert_eq!(s, json!({"a": 2, "z": 3}));
        assert_eq!(s["missing"], Schema::Null);
    }

    #[test]
    fn floats_print_as_json_numbers() {
        assert_eq!(Schema::from(10.0).to_string(), "10");
        assert_eq!(Schema::from(0.01).to_string(), "0.01");
        assert_eq!(Schema::from(f64::NAN), Schema::Null);
    }
}
