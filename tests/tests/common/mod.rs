//! Helpers shared by the integration tests.

use serde_json::Value;

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
