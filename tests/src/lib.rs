//! Integration, property and end-to-end tests for settled live in `tests/`; this library
//! only holds the README's snippets, compiled and run as doctests.

#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

pub mod fuzz;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// JSON read as the schema-less stream reads it: like `serde_json::Value`, but a duplicate
/// key keeps its first value (serde_json keeps the last). For differential tests against
/// serde_json.
#[derive(Debug, Clone, PartialEq)]
pub struct FirstWins(pub Value);

impl FirstWins {
    /// Parses `bytes` with serde_json, first value of a duplicate key kept.
    pub fn parse(bytes: &[u8]) -> serde_json::Result<Value> {
        serde_json::from_slice::<FirstWins>(bytes).map(|v| v.0)
    }
}

impl<'de> Deserialize<'de> for FirstWins {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_any(FirstWinsVisitor)
            .map(FirstWins)
    }
}

struct FirstWinsVisitor;

impl<'de> Visitor<'de> for FirstWinsVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(FirstWins(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut members = Map::new();
        while let Some((key, FirstWins(value))) = map.next_entry::<String, FirstWins>()? {
            members.entry(key).or_insert(value);
        }
        Ok(Value::Object(members))
    }
}
