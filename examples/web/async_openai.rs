//! async-openai's own client streams a chat completion (`response_format` from `Review`'s
//! strict schema), then a tool call, and settled types each as it arrives. The client's
//! API base is a local server on 127.0.0.1 that replays recorded OpenAI streams, so this
//! runs without a key or a network.
//!
//! ```sh
//! cargo run -p settled-web-examples --example async_openai
//! ```

use async_openai::Client;
use async_openai::config::OpenAIConfig;
use settled_web_examples::clients::{review_call_with_async_openai, review_with_async_openai};
use settled_web_examples::replay::{OPENAI_REVIEW, OPENAI_TOOLS, Recording, Replay};
use std::time::Duration;

const DIFF: &str = "Review this diff: …";

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pause = Duration::from_millis(15);
    let openai = Replay::start(Recording::new(OPENAI_REVIEW).pause(pause)).await?;
    // For OpenAI itself: `Client::new()` (OPENAI_API_KEY) and async-openai's `rustls` feature.
    let client = Client::with_config(
        OpenAIConfig::new()
            .with_api_base(openai.api_base())
            .with_api_key("sk-local-replay"),
    );
    let review = review_with_async_openai(&client, DIFF, |draft| {
        println!(
            "draft: {}",
            serde_json::to_string(draft).unwrap_or_default()
        );
    })
    .await?;
    println!("review: {review:?}\n");

    let openai = Replay::start(Recording::new(OPENAI_TOOLS).pause(pause)).await?;
    let client = Client::with_config(
        OpenAIConfig::new()
            .with_api_base(openai.api_base())
            .with_api_key("sk-local-replay"),
    );
    let review = review_call_with_async_openai(&client, DIFF, |draft| {
        println!(
            "tool call 0 draft: {}",
            serde_json::to_string(draft).unwrap_or_default()
        );
    })
    .await?;
    println!("tool call 0: {review:?}");
    Ok(())
}
