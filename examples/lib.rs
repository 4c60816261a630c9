//! Shared by the examples: the example models, recorded model responses, and a replay
//! that feeds them in token-sized chunks.

pub mod models;

use std::time::Duration;

/// A recorded response of the review model: prose, a fence, the JSON, a closing remark.
pub const REVIEW_RESPONSE: &str = include_str!("recorded/review.txt");

/// A recorded response of the meeting model, with a `<think>` block first.
pub const MEETING_RESPONSE: &str = include_str!("recorded/meeting_report.txt");

/// A recorded agent step: a `<think>` block, then a fence holding a search (its tag
/// written last) and a long reply.
pub const AGENT_STEP_RESPONSE: &str = include_str!("recorded/agent_step.txt");

/// Splits `text` into token-sized chunks the way a tokenizer roughly does: a word with its
/// leading space, a run of punctuation, or a run of whitespace, at most 6 bytes each.
pub fn token_chunks(text: &str) -> Vec<&str> {
    #[derive(PartialEq, Clone, Copy)]
    enum Class {
        Word,
        Space,
        Punct,
    }
    let class = |c: char| {
        if c.is_alphanumeric() {
            Class::Word
        } else if c.is_whitespace() {
            Class::Space
        } else {
            Class::Punct
        }
    };
    let mut chunks = Vec::new();
    let mut start = 0;
    let mut prev: Option<Class> = None;
    for (i, c) in text.char_indices() {
        let cls = class(c);
        let joins_space = prev == Some(Class::Space) && cls == Class::Word && i - start == 1;
        let boundary = match prev {
            None => false,
            Some(p) => (p != cls && !joins_space) || i - start >= 6,
        };
        if boundary {
            chunks.push(&text[start..i]);
            start = i;
        }
        prev = Some(cls);
    }
    if start < text.len() {
        chunks.push(&text[start..]);
    }
    chunks
}

/// The delay between chunks: `SETTLED_DELAY_MS` (default 20 ms; 0 in tests).
pub fn delay() -> Duration {
    let ms = std::env::var("SETTLED_DELAY_MS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    Duration::from_millis(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_chunks_cover_the_text() {
        for text in [
            REVIEW_RESPONSE,
            MEETING_RESPONSE,
            AGENT_STEP_RESPONSE,
            "a  b\"c\\d 漢字🚀",
        ] {
            let chunks = token_chunks(text);
            assert_eq!(chunks.concat(), text);
            assert!(chunks.len() > text.len() / 8);
        }
    }
}
