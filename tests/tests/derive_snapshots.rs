//! insta snapshots of what the example models report as they stream: the settled fields in
//! order, and the draft at each of those moments, at 1-byte and token-sized chunks.
// Models here are streamed, not read field by field.
#![allow(dead_code)]

use settled::{StreamingModel, TypedStream};
use settled_examples::models::{MeetingReport, Review};
use settled_examples::{MEETING_RESPONSE, REVIEW_RESPONSE, token_chunks};
use std::fmt::Write;

/// Feeds `chunks`; logs every chunk that settled something (its index, its text, the
/// fields, then the draft as JSON). With `every_draft`, logs the draft after every chunk.
fn log<T>(chunks: &[&str], every_draft: bool) -> String
where
    T: StreamingModel<Value = T> + std::fmt::Debug,
    T::Draft: Default + serde::Serialize,
{
    let mut stream = TypedStream::<T>::new();
    let mut out = String::new();
    let mut last_draft = String::new();
    for (i, chunk) in chunks.iter().enumerate() {
        let fields: Vec<String> = stream
            .feed(chunk.as_bytes())
            .expect("the recorded response streams")
            .map(|f| format!("{f:?}"))
            .collect();
        let draft = serde_json::to_string(stream.draft()).unwrap();
        if fields.is_empty() && !(every_draft && draft != last_draft) {
            continue;
        }
        writeln!(out, "#{i} {chunk:?}").unwrap();
        for field in &fields {
            writeln!(out, "  settled {field}").unwrap();
        }
        if draft != last_draft {
            writeln!(out, "  draft {draft}").unwrap();
            last_draft = draft;
        }
    }
    let value = stream.finish().expect("the recorded response is valid");
    writeln!(out, "finish {value:?}").unwrap();
    out
}

fn bytes(text: &str) -> Vec<&str> {
    // 1-byte chunks as &str: split at every byte that starts a character, and feed the
    // bytes of multi-byte characters one at a time through a separate path below.
    text.char_indices()
        .map(|(i, c)| &text[i..i + c.len_utf8()])
        .collect()
}

/// Like [`log`], but truly one byte per chunk (characters split across chunks).
fn log_bytes<T>(text: &str) -> String
where
    T: StreamingModel<Value = T> + std::fmt::Debug,
    T::Draft: Default + serde::Serialize,
{
    let mut stream = TypedStream::<T>::new();
    let mut out = String::new();
    for (i, byte) in text.as_bytes().iter().enumerate() {
        let fields: Vec<String> = stream
            .feed(std::slice::from_ref(byte))
            .expect("the recorded response streams")
            .map(|f| format!("{f:?}"))
            .collect();
        if fields.is_empty() {
            continue;
        }
        writeln!(out, "byte {i}").unwrap();
        for field in &fields {
            writeln!(out, "  settled {field}").unwrap();
        }
        let draft = serde_json::to_string(stream.draft()).unwrap();
        writeln!(out, "  draft {draft}").unwrap();
    }
    let value = stream.finish().expect("the recorded response is valid");
    writeln!(out, "finish {value:?}").unwrap();
    out
}

#[test]
fn review_token_chunks() {
    insta::assert_snapshot!(log::<Review>(&token_chunks(REVIEW_RESPONSE), true));
}

#[test]
fn review_one_byte_chunks() {
    insta::assert_snapshot!(log_bytes::<Review>(REVIEW_RESPONSE));
}

#[test]
fn meeting_token_chunks() {
    insta::assert_snapshot!(log::<MeetingReport>(&token_chunks(MEETING_RESPONSE), false));
}

#[test]
fn meeting_one_byte_chunks() {
    insta::assert_snapshot!(log_bytes::<MeetingReport>(MEETING_RESPONSE));
}

#[test]
fn char_chunks_match_token_chunks() {
    // Same settled sequence whatever the chunking.
    let by_char = log::<Review>(&bytes(REVIEW_RESPONSE), false);
    let by_token = log::<Review>(&token_chunks(REVIEW_RESPONSE), false);
    let strip = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with("  settled") || l.starts_with("finish"))
            .map(String::from)
            .collect()
    };
    assert_eq!(strip(&by_char), strip(&by_token));
}
