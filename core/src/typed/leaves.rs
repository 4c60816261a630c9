//! std types serde reads from one JSON value (paths, addresses, non-zero integers,
//! durations): each appears in the draft once settled, as the value serde read.

use super::StreamingModel;
use super::protocol::{Event, Flow, Member, Rejected, Slot, atomic_step};
use crate::json_schema::{Schema, SchemaGen};
use std::convert::Infallible;

/// Implements [`StreamingModel`] for types that settle whole: the draft is the value
/// itself, set once serde accepts it. `$schema` is the type's JSON Schema; `=> "why"`
/// after it, why strict structured outputs cannot describe the type.
macro_rules! settled_leaves {
    ($($(#[$cfg:meta])* $t:ty => $schema:expr $(=> $unsupported:expr)?),* $(,)?) => {$(
        $(#[$cfg])*
        impl StreamingModel for $t {
            type Value = $t;
            type Draft = $t;
            type Field = Infallible;
            type Name = Infallible;
            $(const LIMITS: crate::typed::Limits = crate::typed::Limits::LEAF.unsupported($unsupported);)?

            fn schema(_: &mut SchemaGen) -> Schema {
                $schema
            }

            fn step(member: &mut Member, event: &Event<'_>, slot: &mut dyn Slot<$t>) -> Flow<$t> {
                atomic_step(member, event, slot)
            }

            fn to_value(draft: &$t) -> Result<$t, Rejected> {
                Ok(draft.clone())
            }

            fn into_value(draft: $t) -> Result<$t, Rejected> {
                Ok(draft)
            }
        }
    )*};
}

/// `{"type": "string"}`, with a `format` if there is one.
pub(crate) fn string(format: Option<&str>) -> Schema {
    let mut schema = Schema::object([("type", "string")]);
    if let (Some(format), Schema::Object(o)) = (format, &mut schema) {
        o.insert("format", format);
    }
    schema
}

/// `{"type": "string", "pattern": pattern}`: a shape no JSON Schema `format` names.
#[cfg(feature = "chrono")]
fn patterned(pattern: &str) -> Schema {
    Schema::object([("type", "string"), ("pattern", pattern)])
}

/// A positive integer's schema.
fn positive(max: Option<u64>) -> Schema {
    let mut schema = Schema::object([("type", Schema::from("integer")), ("minimum", 1u8.into())]);
    if let (Some(max), Schema::Object(o)) = (max, &mut schema) {
        o.insert("maximum", max);
    }
    schema
}

/// A non-zero integer's schema: `not: {const: 0}` within its range.
fn nonzero(min: i64, max: Option<u64>) -> Schema {
    let mut schema = Schema::object([
        ("type", Schema::from("integer")),
        ("minimum", min.into()),
        ("not", Schema::object([("const", 0u8)])),
    ]);
    if let (Some(max), Schema::Object(o)) = (max, &mut schema) {
        o.insert("maximum", max);
    }
    schema
}

/// serde's `Duration`: `{"secs": u64, "nanos": u32}`.
fn duration() -> Schema {
    let integer = |max: Option<u64>| {
        let mut s = Schema::object([("type", Schema::from("integer")), ("minimum", 0u8.into())]);
        if let (Some(max), Schema::Object(o)) = (max, &mut s) {
            o.insert("maximum", max);
        }
        s
    };
    Schema::object([
        ("type", Schema::from("object")),
        (
            "properties",
            Schema::object([
                ("secs", integer(None)),
                ("nanos", integer(Some(999_999_999))),
            ]),
        ),
        (
            "required",
            Schema::from(vec![Schema::from("secs"), "nanos".into()]),
        ),
        ("additionalProperties", false.into()),
    ])
}

mod std_types {
    use super::*;

    /// Why strict structured outputs cannot describe a signed non-zero integer.
    const NONZERO: &str = "strict structured outputs cannot exclude 0 from a range that holds \
                           negative numbers (no `not`); use an unsigned `NonZero`, or check the \
                           value after `finish`";
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
    use std::num::{
        NonZeroI8, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroU8, NonZeroU16, NonZeroU32,
        NonZeroU64, NonZeroUsize,
    };
    use std::path::PathBuf;
    use std::time::{Duration, SystemTime};

    settled_leaves!(
        PathBuf => string(None),
        IpAddr => Schema::object([(
            "anyOf",
            Schema::from(vec![string(Some("ipv4")), string(Some("ipv6"))]),
        )]),
        Ipv4Addr => string(Some("ipv4")),
        Ipv6Addr => string(Some("ipv6")),
        SocketAddr => string(None),
        SocketAddrV4 => string(None),
        SocketAddrV6 => string(None),
        NonZeroU8 => positive(Some(u8::MAX.into())),
        NonZeroU16 => positive(Some(u16::MAX.into())),
        NonZeroU32 => positive(Some(u32::MAX.into())),
        NonZeroU64 => positive(None),
        NonZeroUsize => positive(None),
        NonZeroI8 => nonzero(i8::MIN.into(), Some(i8::MAX as u64)) => NONZERO,
        NonZeroI16 => nonzero(i16::MIN.into(), Some(i16::MAX as u64)) => NONZERO,
        NonZeroI32 => nonzero(i32::MIN.into(), Some(i32::MAX as u64)) => NONZERO,
        NonZeroI64 => nonzero(i64::MIN, None) => NONZERO,
        Duration => duration(),
        SystemTime => Schema::object([
            ("type", Schema::from("object")),
            (
                "properties",
                Schema::object([
                    ("secs_since_epoch", Schema::object([("type", Schema::from("integer")), ("minimum", 0u8.into())])),
                    ("nanos_since_epoch", Schema::object([("type", Schema::from("integer")), ("minimum", 0u8.into())])),
                ]),
            ),
            (
                "required",
                Schema::from(vec![Schema::from("secs_since_epoch"), "nanos_since_epoch".into()]),
            ),
            ("additionalProperties", false.into()),
        ]),
        () => Schema::object([("type", "null")]),
    );
}

/// The schema of what `value` serializes to with the crate's serde impl as built: the
/// representation of some types depends on the crate's features (`time` writes dates as
/// strings only with `serde-human-readable`, which another crate in the build may turn
/// on).
#[cfg(feature = "time")]
fn as_serialized<V: serde::Serialize>(value: V, format: Option<&str>) -> Schema {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(_)) => string(format),
        Ok(serde_json::Value::Array(items)) => Schema::object([
            ("type", Schema::from("array")),
            ("items", Schema::object([("type", "integer")])),
            ("minItems", Schema::from(items.len() as u64)),
            ("maxItems", Schema::from(items.len() as u64)),
        ]),
        _ => Schema::Object(crate::json_schema::Object::new()),
    }
}

#[cfg(feature = "chrono")]
mod chrono_types {
    use super::*;
    use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Utc};

    settled_leaves!(
        DateTime<Utc> => string(Some("date-time")),
        DateTime<FixedOffset> => string(Some("date-time")),
        NaiveDate => string(Some("date")),
        // No format names a date and time without an offset, or a time without one (RFC
        // 3339's `time` has it): the shapes chrono reads, as patterns.
        NaiveDateTime => patterned(r"^[+-]?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$"),
        NaiveTime => patterned(r"^\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?$"),
    );
}

#[cfg(feature = "time")]
mod time_types {
    use super::*;
    use time::{Date, OffsetDateTime, PrimitiveDateTime, Time};

    settled_leaves!(
        OffsetDateTime => as_serialized(OffsetDateTime::UNIX_EPOCH, None),
        PrimitiveDateTime => as_serialized(PrimitiveDateTime::MIN, None),
        Date => as_serialized(Date::MIN, None),
        Time => as_serialized(Time::MIDNIGHT, None),
    );
}

#[cfg(feature = "uuid")]
settled_leaves!(uuid::Uuid => string(Some("uuid")));

#[cfg(feature = "url")]
settled_leaves!(url::Url => string(Some("uri")));

#[cfg(feature = "rust_decimal")]
settled_leaves!(
    // serde reads a decimal from a string or a number and writes a string: a string keeps
    // every digit the model wrote.
    rust_decimal::Decimal => Schema::object([
        ("type", Schema::from("string")),
        ("pattern", Schema::from("^-?[0-9]+(\\.[0-9]+)?$")),
    ]),
);
