//! The SSE server of the `sse_server` example: `POST /review` streams a recorded model
//! response through `Review::stream()` and answers with `settled::serve::sse` (server-sent
//! events `draft`, `field`, `done` and `error`); `/` serves a page that fills the fields in
//! live, and `/settled.js` the page's reader (`settled::serve::CLIENT_JS`).
//!
//! `POST /review` takes two query parameters: `pace=MS`, the pause between tokens (at
//! most 1000; the server's own pace otherwise), and `ending=cut`, a reply that stops in
//! the middle of the value as at a token limit (the stream then ends with an `error` event
//! of kind `truncated` and the last draft).

use axum::Router;
use axum::extract::RawQuery;
use axum::response::{Html, IntoResponse};
use axum::routing::{get, post};
use futures::stream::{self, Stream, StreamExt};
use settled_examples::models::Review;
use settled_examples::{REVIEW_RESPONSE, delay, token_chunks};
use std::convert::Infallible;
use std::time::Duration;

/// The page: the review's fields, filled in live.
pub const PAGE: &str = include_str!("index.html");

/// The routes: `/` (the page), `/settled.js` and `POST /review` (the event stream), the
/// recorded response paced at `pause` per token.
pub fn app(pause: Duration) -> Router {
    api(pause, settled::serve::KEEP_ALIVE).route("/", get(page))
}

/// `/settled.js` and `POST /review` without the page, keep-alive comments after
/// `keep_alive` without an event.
pub fn api(pause: Duration, keep_alive: Duration) -> Router {
    Router::new()
        .route("/settled.js", get(|| async { settled::serve::client_js() }))
        .route(
            "/review",
            post(move |RawQuery(query): RawQuery| review(pause, keep_alive, query)),
        )
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
    Html(PAGE)
}

/// The recorded response in token-sized chunks, paced like a model.
fn model_tokens(
    text: &'static str,
    pause: Duration,
) -> impl Stream<Item = Result<&'static str, Infallible>> {
    stream::iter(token_chunks(text)).then(move |chunk| async move {
        if !pause.is_zero() {
            tokio::time::sleep(pause).await;
        }
        Ok(chunk)
    })
}

/// The query's `pace` (ms) and `ending`.
fn options(query: Option<&str>) -> (Option<Duration>, bool) {
    let mut pace = None;
    let mut cut = false;
    for pair in query.unwrap_or_default().split('&') {
        match pair.split_once('=') {
            Some(("pace", ms)) => {
                pace = ms
                    .parse::<u64>()
                    .ok()
                    .map(|ms| Duration::from_millis(ms.min(1000)));
            }
            Some(("ending", "cut")) => cut = true,
            _ => {}
        }
    }
    (pace, cut)
}

/// The recorded response up to the middle of its second reason.
fn cut_response() -> &'static str {
    let at = REVIEW_RESPONSE
        .find("Escapes such")
        .map_or(REVIEW_RESPONSE.len() / 2, |at| at + 10);
    &REVIEW_RESPONSE[..at]
}

async fn review(pause: Duration, keep_alive: Duration, query: Option<String>) -> impl IntoResponse {
    let (pace, cut) = options(query.as_deref());
    let text = if cut { cut_response() } else { REVIEW_RESPONSE };
    let tokens = Box::pin(model_tokens(text, pace.unwrap_or(pause)));
    settled::serve::sse(Review::stream().updates(tokens).with_drafts()).keep_alive(keep_alive)
}
