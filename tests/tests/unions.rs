//! Enums with data, streamed in serde's four representations.

use serde::Deserialize;
use settled::StreamingModel;

/// An agent's next step.
#[derive(Debug, Clone, PartialEq, Deserialize, StreamingModel)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Answer the user.
    Reply {
        text: String,
    },
    /// Search the web.
    Search {
        query: String,
        top_k: u32,
    },
    Stop,
}

#[derive(Debug, Clone, PartialEq, Deserialize, StreamingModel)]
pub struct Step {
    thought: String,
    action: Action,
}

fn run<T: StreamingModel>(
    doc: &str,
    chunk: usize,
) -> (Result<T::Value, settled::Error>, Vec<String>) {
    let mut stream = settled::TypedStream::<T>::new();
    let mut seen = Vec::new();
    for piece in doc.as_bytes().chunks(chunk) {
        match stream.feed(piece) {
            Ok(fields) => seen.extend(fields.map(|f| format!("{f:?}"))),
            Err(e) => return (Err(e.error().clone()), seen),
        }
    }
    (stream.finish().map_err(|e| e.error().clone()), seen)
}

#[test]
fn internally_tagged_tag_first() {
    let doc = r#"{"thought": "hm", "action": {"type": "reply", "text": "Hello"}}"#;
    for chunk in [1, 7, 100] {
        let (value, seen) = run::<Step>(doc, chunk);
        assert_eq!(
            value.unwrap(),
            Step {
                thought: "hm".into(),
                action: Action::Reply {
                    text: "Hello".into()
                }
            }
        );
        println!("{seen:?}");
    }
}

#[test]
fn internally_tagged_tag_last() {
    let doc = r#"{"thought": "hm", "action": {"query": "rust", "top_k": 3, "type": "search"}}"#;
    for chunk in [1, 7, 100] {
        let (value, seen) = run::<Step>(doc, chunk);
        assert_eq!(
            value.unwrap(),
            Step {
                thought: "hm".into(),
                action: Action::Search {
                    query: "rust".into(),
                    top_k: 3
                }
            }
        );
        println!("{seen:?}");
    }
}
