//! The keys a map's key type is read from, as a schema for `propertyNames`, found by asking
//! serde (a key type need not stream): integers with their type's range, booleans, one
//! character, a unit enum's names.

use crate::json_schema::Schema;
use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde::forward_to_deserialize_any;
use std::any::TypeId;
use std::cell::Cell;

/// The schema of the keys `K` reads; `None` for strings and for what these probes do not
/// cover (a key type with a deserializer of its own).
pub(super) fn key_names<K: DeserializeOwned + 'static>() -> Option<Schema> {
    let reads = |key: &str| reads::<K>(key);
    let pattern =
        |p: String| Schema::object([("type", Schema::from("string")), ("pattern", p.into())]);
    if TypeId::of::<K>() == TypeId::of::<String>() || reads("two words") {
        return None;
    }
    let integer = reads("0") || (reads("1") && reads("7"));
    if integer && !reads("x") && !reads("0.5") {
        let signed = reads("-1");
        // Zero if it reads (not for `NonZeroU32`); serde_json reads `-0` as a float, but
        // as zero for a 128-bit integer.
        let mut ways = match (reads("0"), reads("-0")) {
            (true, true) => vec!["-?0".to_owned()],
            (true, false) => vec!["0".to_owned()],
            _ => Vec::new(),
        };
        match largest(&reads, signed) {
            Some(max) => {
                ways.push(up_to(max));
                if signed {
                    ways.push(format!("-({})", up_to(max.saturating_add(1))));
                }
            }
            None if signed => ways.push("-?[1-9][0-9]*".to_owned()),
            None => ways.push("[1-9][0-9]*".to_owned()),
        }
        return Some(pattern(format!("^({})$", ways.join("|"))));
    }
    if reads("true") && reads("false") && !reads("x") {
        let names = vec![Schema::from("true"), Schema::from("false")];
        return Some(Schema::object([("enum", names)]));
    }
    if reads("x") && reads("é") && !reads("xy") {
        return Some(Schema::object([
            ("type", Schema::from("string")),
            ("minLength", 1u8.into()),
            ("maxLength", 1u8.into()),
        ]));
    }
    let names: Vec<Schema> = variant_names::<K>()?
        .iter()
        .filter(|name| reads(name))
        .map(|name| Schema::from(*name))
        .collect();
    (!names.is_empty())
        .then(|| Schema::object([("type", Schema::from("string")), ("enum", names.into())]))
}

/// serde reads `key` as a `K` (as the key of a JSON object: as the stream checks keys).
fn reads<K: DeserializeOwned>(key: &str) -> bool {
    let Ok(key) = serde_json::to_string(key) else {
        return false;
    };
    serde_json::from_str::<super::containers::FirstKey<K>>(&format!("{{{key}:0}}")).is_ok()
}

/// The largest key of an integer type, found at the bounds of Rust's integer types (the
/// largest that reads, the next that does not; for a signed type, its least too): `None`
/// for a type with bounds of its own.
fn largest(reads: &dyn Fn(&str) -> bool, signed: bool) -> Option<u128> {
    let bounds: [u128; 5] = if signed {
        [
            i8::MAX as u128,
            i16::MAX as u128,
            i32::MAX as u128,
            i64::MAX as u128,
            i128::MAX as u128,
        ]
    } else {
        [
            u8::MAX.into(),
            u16::MAX.into(),
            u32::MAX.into(),
            u64::MAX.into(),
            u128::MAX,
        ]
    };
    // One past a bound, as text (one past `u128::MAX` does not fit a `u128`).
    let next = |n: u128| match n.checked_add(1) {
        Some(next) => next.to_string(),
        None => "340282366920938463463374607431768211456".to_owned(),
    };
    let max = bounds
        .into_iter()
        .find(|&max| reads(&max.to_string()) && !reads(&next(max)))?;
    let least_holds =
        !signed || (reads(&format!("-{}", next(max))) && !reads(&format!("-{}", next(max + 1))));
    least_holds.then_some(max)
}

/// A regular expression for the decimal numbers from 1 to `max` (no sign, no leading
/// zero): shorter numbers, then those as long as `max` that share a prefix with it and
/// have a smaller next digit, then `max` itself.
fn up_to(max: u128) -> String {
    let digits = max.to_string();
    let width = digits.len();
    let mut ways = Vec::new();
    match width {
        0 | 1 => {}
        2 => ways.push("[1-9]".to_owned()),
        _ => ways.push(format!("[1-9][0-9]{{0,{}}}", width - 2)),
    }
    for (at, digit) in digits.bytes().enumerate() {
        let low = if at == 0 { b'1' } else { b'0' };
        if digit > low {
            let high = digit - 1;
            let class = if high == low {
                char::from(low).to_string()
            } else {
                format!("[{}-{}]", char::from(low), char::from(high))
            };
            let rest = match width - at - 1 {
                0 => String::new(),
                1 => "[0-9]".to_owned(),
                n => format!("[0-9]{{{n}}}"),
            };
            ways.push(format!("{}{class}{rest}", &digits[..at]));
        }
    }
    ways.push(digits);
    ways.join("|")
}

/// The names serde's derive reads a unit enum's variants from: the list it hands to
/// `deserialize_enum` (renamed, without skipped variants); `None` for a type that asks for
/// something else.
fn variant_names<K: DeserializeOwned>() -> Option<&'static [&'static str]> {
    let seen = Cell::new(None);
    let _ = K::deserialize(Probe(&seen));
    seen.get()
}

/// A deserializer that only notes the variants an enum asks for, and fails.
struct Probe<'a>(&'a Cell<Option<&'static [&'static str]>>);

impl<'de> Deserializer<'de> for Probe<'_> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("a probe for an enum's names"))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.set(Some(variants));
        Err(de::Error::custom("a probe for an enum's names"))
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}
