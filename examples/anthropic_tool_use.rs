//! An Anthropic `tool_use` block streamed as `input_json_delta` events (recorded wire
//! format, token by token): the tool input fills a typed draft as it arrives.
//!
//! ```sh
//! cargo run --example anthropic_tool_use
//! ```

use settled::provider::FinishWith;
use settled::provider::{Channel, Decoder, Delta, Provider};
use settled_examples::models::{Review, ReviewField};

const WIRE: &[u8] = include_bytes!("recorded/anthropic_tool.sse");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut decoder = Decoder::new(Provider::Anthropic);
    let mut stream = Review::stream();
    let mut finish = None;
    let mut shown = String::new();
    for piece in WIRE.chunks(48) {
        for delta in decoder.feed(piece)? {
            match delta {
                Delta::ToolStart { name, id, .. } => println!("tool_use {name:?} ({id:?})"),
                Delta::Text {
                    channel: Channel::Tool(0),
                    text,
                } => {
                    for field in stream.feed(text.as_bytes())? {
                        if let ReviewField::ReasonsItem(i, reason) = field {
                            println!("  reason {i}: {reason}");
                        }
                    }
                    // A delta may change nothing visible (a key, a separator): print a
                    // draft only when it changed.
                    let draft = serde_json::to_string(stream.draft())?;
                    if draft != shown {
                        println!("  draft: {draft}");
                        shown = draft;
                    }
                }
                Delta::Finish(reason) => finish = Some(reason),
                Delta::Text { .. } => {}
            }
        }
    }
    let review = match finish {
        Some(reason) => stream.finish_with(Some(&reason))?,
        None => stream.finish()?,
    };
    println!("input: {review:?}");
    Ok(())
}
