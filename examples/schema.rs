//! Prints a ready-to-send OpenAI Chat Completions request body that asks for a `Review`
//! with strict structured outputs, streamed. The schema comes from the same type the
//! stream is parsed into.
//!
//! ```sh
//! cargo run --example schema > body.json
//! curl https://api.openai.com/v1/chat/completions -H "Authorization: Bearer $OPENAI_API_KEY" \
//!      -H "Content-Type: application/json" -d @body.json
//! ```

use serde_json::json;
use settled_examples::models::Review;

fn main() -> Result<(), serde_json::Error> {
    let body = json!({
        "model": "gpt-4o-2024-08-06",
        "stream": true,
        "messages": [
            { "role": "system", "content": "You review code changes. Answer with the JSON object only." },
            { "role": "user", "content": "Review this change: the parser now streams drafts per chunk." }
        ],
        "response_format": settled::schema::openai_response_format::<Review>("review"),
    });
    println!("{}", serde_json::to_string_pretty(&body)?);
    Ok(())
}
