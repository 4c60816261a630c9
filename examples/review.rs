//! Streams a recorded review response in token-sized chunks: the draft fills in on one
//! line while each field is printed the moment it settles.
//!
//! ```sh
//! cargo run --example review            # SETTLED_DELAY_MS=0 to skip the pacing
//! ```

use settled_examples::models::{Review, ReviewCallbacks, ReviewField};
use settled_examples::{REVIEW_RESPONSE, delay, token_chunks};
use std::io::{IsTerminal, Write};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let live = std::io::stdout().is_terminal();
    let mut stream = Review::stream();
    // A per-field callback: fired inside `feed`, in settling order.
    stream.on_score(|score| println!("\n  (callback) score settled: {score}/10"));

    for chunk in token_chunks(REVIEW_RESPONSE) {
        for field in stream.feed(chunk.as_bytes())? {
            if live {
                print!("\r\x1b[2K");
            }
            match field {
                ReviewField::Verdict(verdict) => println!("settled verdict: {verdict:?}"),
                ReviewField::ReasonsItem(i, reason) => println!("settled reason #{i}: {reason}"),
                ReviewField::Reasons(all) => println!("settled reasons: {} in all", all.len()),
                ReviewField::Score(score) => println!("settled score: {score}"),
            }
        }
        if live {
            print!("\r\x1b[2Kdraft: {}", serde_json::to_string(stream.draft())?);
            std::io::stdout().flush()?;
            std::thread::sleep(delay());
        }
    }
    let review = stream.finish()?;
    if live {
        println!();
    }
    println!("final: {review:?}");
    Ok(())
}
