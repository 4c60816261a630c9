//! The SSE server of the `sse_server` example: `POST /review` streams a recorded model
//! response through `Review::stream()` and answers with server-sent events `draft`, `field`,
//! `done` and `error`; `/` serves a page that fills the fields in live.

use axum::Router;
use axum::response::sse::{Event, Sse};
use axum::response::{Html, IntoResponse};
use axum::routing::{get, post};
use futures::stream::{self, Stream, StreamExt};
use serde_json::json;
use settled::{Update, UpdateError};
use settled_examples::models::{Review, ReviewField};
use settled_examples::{REVIEW_RESPONSE, delay, token_chunks};
use std::convert::Infallible;
use std::time::Duration;

/// The routes: `/` (the page) and `POST /review` (the event stream), the recorded
/// response paced at `pause` per token.
pub fn app(pause: Duration) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/review", post(move || review(pause)))
}

/// Serves [`app`] on `listener`, paced by `SETTLED_DELAY_MS`, until the process ends.
pub async fn serve(listener: tokio::net::TcpListener) -> std::io::Result<()> {
    serve_paced(listener, delay()).await
}

/// Serves [`app`] on `listener` with `pause` between tokens.
pub async fn serve_paced(
    listener: tokio::net::TcpListener,
    pause: Duration,
) -> std::io::Result<()> {
    axum::serve(listener, app(pause)).await
}

async fn page() -> impl IntoResponse {
    Html(include_str!("index.html"))
}

/// The recorded response in token-sized chunks, paced like a model.
fn model_tokens(pause: Duration) -> impl Stream<Item = Result<&'static str, Infallible>> {
    stream::iter(token_chunks(REVIEW_RESPONSE)).then(move |chunk| async move {
        if !pause.is_zero() {
            tokio::time::sleep(pause).await;
        }
        Ok(chunk)
    })
}

async fn review(pause: Duration) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    // A draft only when it changed: prose and whitespace tokens send nothing.
    let mut last_draft = String::new();
    let events = Review::stream()
        .updates(Box::pin(model_tokens(pause)))
        .with_drafts()
        .filter(move |update| {
            let changed = match update {
                Ok(Update::Draft(draft)) => {
                    let json = serde_json::to_string(draft).unwrap_or_default();
                    let changed = json != last_draft;
                    last_draft = json;
                    changed
                }
                _ => true,
            };
            std::future::ready(changed)
        })
        .map(|update| Ok(event(update)));
    Sse::new(events)
}

/// One server-sent event per update.
fn event(update: Result<Update<Review>, UpdateError<Review, Infallible>>) -> Event {
    match update {
        Ok(Update::Draft(draft)) => Event::default().event("draft").json_data(draft),
        Ok(Update::Field(field)) => Event::default().event("field").json_data(field_json(field)),
        Ok(Update::Done(review)) => Event::default().event("done").json_data(review),
        Err(e) => Event::default()
            .event("error")
            .json_data(json!({ "message": e.to_string() })),
    }
    .unwrap_or_else(|_| Event::default().event("error").data("cannot serialize"))
}

fn field_json(field: ReviewField) -> serde_json::Value {
    match field {
        ReviewField::Verdict(v) => json!({ "field": "verdict", "value": v }),
        ReviewField::ReasonsItem(i, r) => json!({ "field": "reasons", "index": i, "value": r }),
        ReviewField::Reasons(all) => json!({ "field": "reasons", "value": all }),
        ReviewField::Score(s) => json!({ "field": "score", "value": s }),
    }
}
