//! reqwest reads a provider's raw stream: the body's bytes into settled's decoder for the
//! wire format, the text into a typed stream. Three endings against a local server on
//! 127.0.0.1 that replays recorded OpenAI streams: a complete answer, a token-limit finish
//! (`finish_reason: length`) and a connection that drops in the middle of an event, the
//! last two ending with a `Truncated` error that keeps the last draft.
//!
//! ```sh
//! cargo run -p settled-web-examples --example reqwest
//! ```

use settled::StreamError;
use settled_examples::models::Review;
use settled_web_examples::clients::review_with_reqwest;
use settled_web_examples::replay::{OPENAI_REVIEW, OPENAI_REVIEW_CUT, Recording, Replay};
use std::time::Duration;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pause = Duration::from_millis(10);
    let http = reqwest::Client::new();
    for (ending, recording) in [
        ("complete", Recording::new(OPENAI_REVIEW)),
        ("token limit", Recording::new(OPENAI_REVIEW_CUT)),
        ("dropped", Recording::new(OPENAI_REVIEW).drop_in_event(60)),
    ] {
        println!("--- {ending}");
        let provider = Replay::start(recording.pause(pause)).await?;
        let mut drafts = 0;
        let outcome = review_with_reqwest(&http, &provider.url(), "Review this diff: …", |_| {
            drafts += 1;
        })
        .await;
        match outcome {
            Ok(review) => println!("{drafts} drafts, then {review:?}"),
            Err(e) => match e.downcast_ref::<StreamError<Review>>() {
                Some(cut) => println!(
                    "{drafts} drafts, then {:?}: {cut}\nlast draft: {:?}",
                    cut.kind(),
                    cut.draft()
                ),
                None => return Err(e),
            },
        }
    }
    Ok(())
}
