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
