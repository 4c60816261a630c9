//! Two OpenAI tool calls in one streamed response, recorded in the wire format (token by
//! token, arguments interleaved): each call's arguments stream into their own typed
//! `Review`, fields reported as they settle.
//!
//! ```sh
//! cargo run --example openai_tool_call
//! ```

use settled::provider::{Decoder, Delta, Provider, ToolStreams};
use settled_examples::models::{Review, ReviewField};

const WIRE: &[u8] = include_bytes!("recorded/openai_tools.sse");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut decoder = Decoder::new(Provider::OpenAiChat);
    let mut tools = ToolStreams::<Review>::new();
    let mut finish = None;
    // Network reads arrive in arbitrary pieces; 32 bytes at a time here.
    for piece in WIRE.chunks(32) {
        for delta in decoder.feed(piece)? {
            if let Delta::Finish(reason) = &delta {
                finish = Some(reason.clone());
            }
            if let Delta::ToolStart {
                index,
                name: Some(name),
                ..
            } = &delta
            {
                println!("tool call {index}: {name}");
            }
            for (index, field) in tools.feed(&delta)? {
                match field {
                    ReviewField::Verdict(v) => println!("  call {index}: verdict {v:?}"),
                    ReviewField::ReasonsItem(i, r) => println!("  call {index}: reason {i}: {r}"),
                    ReviewField::Score(s) => println!("  call {index}: score {s}"),
                    _ => {}
                }
            }
        }
    }
    for (index, result) in tools.finish(finish.as_ref()) {
        println!("call {index} done: {:?}", result?);
    }
    Ok(())
}
