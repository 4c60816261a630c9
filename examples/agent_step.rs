//! An agent step with a discriminated union: the actions are `#[serde(tag = "type")]`
//! enums. Streams a recorded, token-chunked response: the search is dispatched the moment
//! it settles (its tag comes last here: the members before it are kept and shown once it
//! arrives), and the reply's text is printed as it grows.
//!
//! ```sh
//! cargo run --example agent_step        # SETTLED_DELAY_MS=0 to skip the pacing
//! ```

use settled_examples::models::{Action, ActionDraft, AgentStep, AgentStepField};
use settled_examples::{AGENT_STEP_RESPONSE, delay, token_chunks};
use std::io::Write;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut stream = AgentStep::stream();
    // How much of each reply has been printed.
    let mut printed: Vec<usize> = Vec::new();
    for chunk in token_chunks(AGENT_STEP_RESPONSE) {
        for field in stream.feed(chunk.as_bytes())? {
            match field {
                AgentStepField::Thought(thought) => println!("thought: {thought}"),
                AgentStepField::ActionsItem(i, Action::Search { query, top_k }) => {
                    println!("action #{i}: search {query:?} (top {top_k}) -> dispatched");
                }
                AgentStepField::ActionsItem(i, Action::Reply { text }) => {
                    println!("\naction #{i}: reply complete ({} bytes)", text.len());
                }
                _ => {}
            }
        }
        // The reply's text grows in the draft: print what is new.
        let actions = stream.draft().actions.as_deref().unwrap_or_default();
        printed.resize(actions.len(), 0);
        for (action, done) in actions.iter().zip(printed.iter_mut()) {
            if let ActionDraft::Reply(reply) = action {
                let text = reply.text.as_deref().unwrap_or_default();
                if *done == 0 && !text.is_empty() {
                    print!("reply: ");
                }
                print!("{}", text.get(*done..).unwrap_or_default());
                *done = text.len();
            }
        }
        std::io::stdout().flush()?;
        std::thread::sleep(delay());
    }
    let step = stream.finish()?;
    println!(
        "final: {} action(s), the first: {:?}",
        step.actions.len(),
        step.actions.first()
    );
    Ok(())
}
