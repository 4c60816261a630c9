//! The derive, end to end: drafts, settled fields, callbacks.
// Models here are streamed, not read field by field.
#![allow(dead_code)]

use serde::{Deserialize, Serialize};
use settled::{FieldState, StreamingModel};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, StreamingModel)]
#[serde(rename_all = "snake_case")]
enum Verdict {
    Ship,
    Hold,
}

/// A code review.
#[derive(Debug, Clone, PartialEq, Deserialize, StreamingModel)]
struct Review {
    /// Ship or hold.
    verdict: Verdict,
    reasons: Vec<String>,
    score: u8,
}

#[test]
fn a_field_is_pending_then_streaming_then_settled() {
    use FieldState::{Pending, Settled, Streaming};
    let mut stream = Review::stream();
    let states = |stream: &settled::TypedStream<Review>| {
        let draft = stream.draft();
        [
            draft.state(ReviewFieldName::Verdict),
            draft.state(ReviewFieldName::Reasons),
            draft.state(ReviewFieldName::Score),
        ]
    };
    assert_eq!(states(&stream), [Pending; 3]);
    // The key alone: nothing of the value yet.
    stream.feed(br#"{"verdict": "#).unwrap();
    assert_eq!(states(&stream), [Pending; 3]);
    // A unit enum being written shows only once settled.
    stream.feed(br#""sh"#).unwrap();
    assert_eq!(states(&stream), [Pending; 3]);
    assert_eq!(stream.draft().verdict, None);
    stream.feed(br#"ip", "reasons": ["a"#).unwrap();
    assert_eq!(states(&stream), [Settled, Streaming, Pending]);
    // A number is read whole: it settles at the byte after it.
    stream.feed(br#""], "score": 1"#).unwrap();
    assert_eq!(states(&stream), [Settled, Settled, Pending]);
    stream.feed(b"0}").unwrap();
    assert_eq!(states(&stream), [Settled; 3]);
    assert_eq!(stream.finish().unwrap().score, 10);
}

#[test]
fn review_streams_field_by_field() {
    let mut stream = Review::stream();
    let chunks = [
        "Sure! ```json\n{\"verdict\": \"sh",
        "ip\", \"reasons\": [\"fast\", \"sm",
        "all\"], \"score\": 9",
        "}\n```",
    ];
    let mut seen = Vec::new();
    for chunk in chunks {
        for field in stream.feed(chunk.as_bytes()).unwrap() {
            seen.push(format!("{field:?}"));
        }
        let _ = stream.draft();
    }
    assert_eq!(
        stream.draft().reasons.as_deref(),
        Some(&["fast".to_string(), "small".to_string()][..])
    );
    assert_eq!(
        stream.draft().state(ReviewFieldName::Score),
        FieldState::Settled
    );
    let review = stream.finish().unwrap();
    assert_eq!(review.score, 9);
    assert_eq!(
        seen,
        [
            "Verdict(Ship)",
            "ReasonsItem(0, \"fast\")",
            "ReasonsItem(1, \"small\")",
            "Reasons([\"fast\", \"small\"])",
            "Score(9)"
        ]
    );
}

/// Fields named as the JSON names them (`userID`), the lint allowed where the user wrote
/// it: nothing the derive generates from those names trips it again (review: the draft's
/// fields did, an error under `-D warnings` the user could not allow).
#[deny(non_snake_case, non_camel_case_types)]
pub mod named_as_the_json {
    use serde::Deserialize;
    use settled::StreamingModel;

    #[derive(Debug, Deserialize, StreamingModel)]
    #[allow(non_snake_case)]
    pub struct User {
        pub userID: String,
        pub Tags: Vec<String>,
        pub home_URL: Option<String>,
        pub inner: Inner,
    }

    #[derive(Debug, Deserialize, StreamingModel)]
    #[allow(non_snake_case)]
    pub struct Inner {
        pub eTag: u32,
    }

    #[derive(Debug, Deserialize, StreamingModel)]
    #[serde(tag = "kind")]
    #[allow(non_snake_case)]
    pub enum Event {
        Login { userID: String },
        Logout { userID: String, atMs: u64 },
    }
}

#[test]
fn fields_named_as_the_json_names_them_stream() {
    use named_as_the_json::{Event, User};
    let mut stream = User::stream();
    stream
        .feed(br#"{"userID": "u1", "Tags": ["a"], "home_URL": null, "inner": {"eTag": 7}}"#)
        .unwrap();
    assert_eq!(stream.draft().userID.as_deref(), Some("u1"));
    let user = stream.finish().unwrap();
    assert_eq!((user.userID.as_str(), user.inner.eTag), ("u1", 7));
    let mut stream = Event::stream();
    stream
        .feed(br#"{"kind": "Logout", "userID": "u2", "atMs": 5}"#)
        .unwrap();
    assert!(matches!(
        stream.finish().unwrap(),
        Event::Logout { atMs: 5, .. }
    ));
}

/// Raw identifiers (`r#Match`) name variants as serde names them: without the `r#`.
#[derive(Debug, PartialEq, Deserialize, StreamingModel)]
enum RawOp {
    r#Match { r#in: u8 },
    r#Type(u8),
    r#Unit,
}

#[test]
fn raw_identifier_variants_stream_and_are_named_without_r_hash() {
    for (text, want) in [
        (r#"{"Match": {"in": 1}}"#, RawOp::r#Match { r#in: 1 }),
        (r#"{"Type": 2}"#, RawOp::r#Type(2)),
        (r#""Unit""#, RawOp::r#Unit),
    ] {
        let mut stream = RawOp::stream();
        for byte in text.as_bytes() {
            stream.feed(std::slice::from_ref(byte)).unwrap();
        }
        assert_eq!(stream.finish().unwrap(), want, "{text}");
    }
    // The struct variant's draft is named from the variant's name, not its raw spelling.
    let _: Option<RawOpMatchDraft> = None;
    // The stream's message is serde's (which spells the variant as written, `r#Match`).
    let text = r#"{"Match": 5}"#;
    let serde = serde_json::from_str::<RawOp>(text).unwrap_err().to_string();
    let mut stream = RawOp::stream();
    let message = match stream.feed(text.as_bytes()) {
        Err(e) => e.error().to_string(),
        Ok(_) => stream.finish().unwrap_err().to_string(),
    };
    let serde = serde.split(" at line").next().unwrap();
    assert!(message.contains(serde), "{message} / {serde}");
    // A draft's `Debug` names the variant as `#[derive(Debug)]` does.
    let mut stream = RawOp::stream();
    stream.feed(br#"{"Type": 3}"#).unwrap();
    assert_eq!(format!("{:?}", stream.current()), "Some(Type(3))");
}
