//! Helpers shared by the integration tests.

use serde_json::Value;
use settled::schema::Schema;

/// `prev` may be shown before `next`: strings grow by appending, containers gain members,
/// scalars never change, nothing disappears or changes type.
pub(crate) fn extends(prev: &Value, next: &Value) -> bool {
    match (prev, next) {
        (Value::String(a), Value::String(b)) => b.starts_with(a.as_str()),
        (Value::Array(a), Value::Array(b)) => {
            a.len() <= b.len() && a.iter().zip(b).all(|(x, y)| extends(x, y))
        }
        (Value::Object(a), Value::Object(b)) => a
            .iter()
            .all(|(k, x)| b.get(k).is_some_and(|y| extends(x, y))),
        (a, b) => a == b,
    }
}

/// Splits `bytes` into chunks of the given sizes, cycling through them.
pub(crate) fn chunk<'a>(bytes: &'a [u8], sizes: &[usize]) -> Vec<&'a [u8]> {
    let mut chunks = Vec::new();
    let mut at = 0;
    let mut k = 0;
    while at < bytes.len() {
        let n = sizes
            .get(k % sizes.len().max(1))
            .copied()
            .unwrap_or(1)
            .max(1);
        let end = (at + n).min(bytes.len());
        chunks.push(&bytes[at..end]);
        at = end;
        k += 1;
    }
    chunks
}

/// Every object in the strict profile is closed and lists every property as required, in
/// property order.
#[allow(dead_code)]
pub(crate) fn assert_strict(schema: &Schema, at: &str) {
    match schema {
        Schema::Object(map) => {
            if let Some(Schema::Object(properties)) = map.get("properties") {
                assert_eq!(
                    map.get("additionalProperties"),
                    Some(&Schema::Bool(false)),
                    "{at}"
                );
                let required: Vec<&str> = map
                    .get("required")
                    .and_then(Schema::as_array)
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap())
                    .collect();
                let keys: Vec<&str> = properties.keys().collect();
                assert_eq!(required, keys, "{at}");
            }
            for forbidden in ["minLength", "maxLength", "$schema", "title", "default"] {
                assert!(!map.contains_key(forbidden), "{forbidden} at {at}");
            }
            for (k, v) in map.iter() {
                match (k, v) {
                    // Maps of schemas: their keys are names, not keywords.
                    ("properties" | "$defs", Schema::Object(children)) => {
                        for (name, child) in children.iter() {
                            assert_strict(child, &format!("{at}/{k}/{name}"));
                        }
                    }
                    _ => assert_strict(v, &format!("{at}/{k}")),
                }
            }
        }
        Schema::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                assert_strict(v, &format!("{at}/{i}"));
            }
        }
        _ => {}
    }
}

/// Chunk sizes for property tests: 1-byte, 7-byte, or a random plan of sizes below 20.
#[allow(dead_code)]
pub(crate) fn chunk_sizes() -> impl proptest::strategy::Strategy<Value = Vec<usize>> {
    use proptest::prelude::*;
    prop_oneof![
        Just(vec![1]),
        Just(vec![7]),
        prop::collection::vec(1usize..20, 1..12),
    ]
}
