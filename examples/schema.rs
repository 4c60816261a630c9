//! Prints a ready-to-send OpenAI Chat Completions request body that asks for a `Review`
//! with strict structured outputs, streamed. The schema comes from the same type the
//! stream is parsed into.
//!
//! ```sh
//! cargo run --example schema > body.json
//! curl https://api.openai.com/v1/chat/completions -H "Authorization: Bearer $OPENAI_API_KEY" \
//!      -H "Content-Type: application/json" -d @body.json
//! ```

use serde::Serialize;
use settled::schema::{Schema, openai_response_format};
use settled_examples::models::Review;

/// The request body. `Schema` keeps the schema's property order (the order the model
/// writes the fields in) through serialization; converting it to a `serde_json::Value`
/// would sort the keys unless `serde_json/preserve_order` is on.
#[derive(Serialize)]
struct Request<'a> {
    model: &'a str,
    stream: bool,
    messages: [Message<'a>; 2],
    response_format: Schema,
}

#[derive(Serialize)]
struct Message<'a> {
    role: &'a str,
    content: &'a str,
}

fn main() -> Result<(), serde_json::Error> {
    let body = Request {
        model: "gpt-4o-2024-08-06",
        stream: true,
        messages: [
            Message {
                role: "system",
                content: "You review code changes. Answer with the JSON object only.",
            },
            Message {
                role: "user",
                content: "Review this change: the parser now streams drafts per chunk.",
            },
        ],
        response_format: openai_response_format::<Review>("review"),
    };
    println!("{}", serde_json::to_string_pretty(&body)?);
    Ok(())
}
