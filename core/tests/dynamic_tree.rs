//! The schema-less tree past the sizes its arena and key index change at: a wide object
//! (its key index), values past a block of the arena (their place and pointer).

use settled::{DynamicStream, WarningKind};

/// The stream's value after `input` fed in `size`-byte chunks, with the pointers of
/// everything that settled, in order, and the count of duplicate keys.
fn stream(input: &str, size: usize) -> (String, Vec<String>, usize) {
    let mut stream = DynamicStream::new();
    let mut settled = Vec::new();
    for chunk in input.as_bytes().chunks(size) {
        stream.feed(chunk).unwrap();
        settled.extend(stream.settled().map(|(at, _)| at.to_string()));
    }
    // (The root is a container: nothing more settles at the end.)
    let duplicates = stream
        .warnings()
        .iter()
        .filter(|w| w.kind == WarningKind::DuplicateKey)
        .count();
    (stream.finish().unwrap().to_json(), settled, duplicates)
}

#[test]
fn a_wide_object_keeps_the_first_value_of_each_key() {
    // Wider than the linear search: the index takes over at the 33rd member, with the
    // members before it.
    let mut input: Vec<String> = (0..40).map(|i| format!("\"k{i}\": {i}")).collect();
    input.extend(["\"k0\": -1", "\"k32\": -1", "\"k39\": [-1]", "\"k40\": 40"].map(String::from));
    let input = format!("{{{}}}", input.join(", "));
    let expected: Vec<String> = (0..=40).map(|i| format!("\"k{i}\":{i}")).collect();
    let expected = format!("{{{}}}", expected.join(","));
    for size in [1, 7, input.len()] {
        let (json, settled, duplicates) = stream(&input, size);
        assert_eq!(json, expected, "{size}-byte chunks");
        assert_eq!(duplicates, 3, "{size}-byte chunks");
        assert_eq!(
            settled.len(),
            42,
            "{size}-byte chunks: 41 members and the object"
        );
        assert_eq!(settled.get(40).map(String::as_str), Some("/k40"));
    }
}

#[test]
fn values_past_a_block_of_the_arena_keep_their_place_and_pointer() {
    let items: Vec<String> = (0..10_000).map(|i| format!("[{i}, \"s{i}\"]")).collect();
    let input = format!(
        "{{\"items\": [{}], \"after\": {{\"x\": true}}}}",
        items.join(",")
    );
    let value: serde_json::Value = serde_json::from_str(&input).unwrap();
    for size in [7, 4096] {
        let (json, settled, _) = stream(&input, size);
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&json).unwrap(),
            value
        );
        // Each element: its number, its string, itself.
        assert_eq!(
            settled.get(3 * 4095 + 1).map(String::as_str),
            Some("/items/4095/1")
        );
        assert_eq!(
            settled.get(3 * 9999 + 2).map(String::as_str),
            Some("/items/9999")
        );
        assert_eq!(
            settled.iter().rev().take(4).collect::<Vec<_>>(),
            ["", "/after", "/after/x", "/items"]
        );
    }
    let mut stream = DynamicStream::new();
    stream.feed(input.as_bytes()).unwrap();
    let root = stream.draft().unwrap();
    let last = root
        .get("items")
        .and_then(|items| items.index(9999))
        .unwrap();
    assert_eq!(last.to_json(), "[9999,\"s9999\"]");
    assert_eq!(root.get("after").unwrap().to_json(), "{\"x\":true}");
}
