//! A repair loop: stream an attempt; if it fails, send the error's feedback back to the
//! model and try again, at most `MAX_ATTEMPTS` times. Every failed raw response is kept.
//!
//! The "model" here is two recorded responses: the first writes a verdict outside the
//! enum (`"maybe"`), which fails the stream as soon as that field settles; the second is
//! valid.
//!
//! ```sh
//! cargo run --example repair
//! ```

use settled_examples::models::Review;
use settled_examples::token_chunks;

const MAX_ATTEMPTS: usize = 2;

/// Stands in for a model call: the conversation so far in, a streamed reply out.
fn model_reply(conversation: &[String]) -> &'static str {
    match conversation.len() {
        1 => include_str!("recorded/review_attempt1.txt"),
        _ => include_str!("recorded/review_attempt2.txt"),
    }
}

/// One attempt: stream the reply; on failure return the feedback and what was read.
fn attempt(reply: &str) -> Result<Review, (String, usize)> {
    let mut stream = Review::stream();
    let mut read = 0;
    for chunk in token_chunks(reply) {
        read += chunk.len();
        if let Err(error) = stream.feed(chunk.as_bytes()) {
            // Fail fast: stop reading (a real client would cancel the request here).
            return Err((error.feedback(), read));
        }
    }
    stream.finish().map_err(|error| (error.feedback(), read))
}

fn main() {
    let mut conversation = vec![
        "Review this change. Reply with JSON: verdict (ship|hold), reasons, score.".to_string(),
    ];
    let mut failed_responses: Vec<String> = Vec::new();
    for number in 1..=MAX_ATTEMPTS {
        let reply = model_reply(&conversation);
        match attempt(reply) {
            Ok(review) => {
                println!("attempt {number}: ok -> {review:?}");
                println!(
                    "kept {} failed response(s) for inspection",
                    failed_responses.len()
                );
                return;
            }
            Err((feedback, read)) => {
                println!(
                    "attempt {number}: failed after {read} of {} bytes",
                    reply.len()
                );
                println!("  feedback to the model: {feedback}");
                failed_responses.push(reply.to_string());
                conversation.push(reply.to_string());
                conversation.push(feedback);
            }
        }
    }
    println!("giving up after {MAX_ATTEMPTS} attempts; failed responses:");
    for response in &failed_responses {
        println!("---\n{response}");
    }
    std::process::exit(1);
}
