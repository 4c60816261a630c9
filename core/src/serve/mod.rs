//! Drafts served to a browser: a typed update stream as an
//! [axum](https://docs.rs/axum) server-sent events response. Behind the `axum` feature.
//!
//! [`sse`] turns the updates of a stream ([`Updates`](crate::Updates) with drafts, or any
//! stream of `Result<Update<T>, UpdateError<T, E>>`) into these events, each with a JSON
//! payload:
//!
//! | event | data | when |
//! |-------|------|------|
//! | `draft` | the draft | after a chunk that changed it |
//! | `field` | `{"field": key, "value": V}` | a top-level field settled (`V` never changes) |
//! | `done` | the strict value | last, on success |
//! | `error` | `{"kind", "message", "draft", "missing"}` | last, on failure: the last draft and the required fields not complete (never written, or cut inside) |
//!
//! and keeps the connection alive with comments (`: keep-alive`, every 15 seconds unless
//! [`DraftSse::keep_alive`] says otherwise) while the model writes nothing: a preamble,
//! a long pause. The response says `Cache-Control: no-cache` and `X-Accel-Buffering: no`,
//! so that proxies (nginx) pass each event on as it comes instead of buffering the body.
//! Dropping the response (the client went away) drops the update stream and its source.
//!
//! ```ignore
//! use axum::{Router, response::IntoResponse, routing::{get, post}};
//!
//! async fn review(/* … */) -> impl IntoResponse {
//!     let body = /* the provider's text deltas: a Stream of Result<impl AsRef<[u8]>, E> */;
//!     settled::serve::sse(Review::stream().updates(body).with_drafts())
//! }
//!
//! let app = Router::new()
//!     .route("/review", post(review))
//!     .route("/settled.js", get(|| async { settled::serve::client_js() }));
//! ```
//!
//! (`examples/web/server/mod.rs` in the repository is this, running:
//! `cargo run -p settled-web-examples --example sse_server`.)
//!
//! # In the page
//!
//! `EventSource` only sends GET requests; a request with a body reads the events with
//! `fetch`. [`CLIENT_JS`] is this script, to serve or copy; the example's page uses it:
//!
//! ```js
#![doc = include_str!("client.js")]
//! ```
//!
//! and the page around it (`examples/web/server/index.html`, whose markup gives each field
//! an element `#key` with a `.value` inside): one request at a time, a second one aborting
//! the first; each field's state moving only forward; a "thinking" status until the value
//! begins; the final value taken from `done`; an error shown with the last draft:
//!
//! ```js
//! // `/?autostart` starts a request on load; `pace=MS` asks the server for that pause per token.
//! const FIELDS = ['verdict', 'reasons', 'score'];
//! const button = document.getElementById('go');
//! const statusLine = document.getElementById('status');
//! const params = new URLSearchParams(location.search);
//! let current = null; // the AbortController of the request in flight
//!
//! function setStatus(text, kind) {
//!   statusLine.textContent = text;
//!   statusLine.className = kind;
//! }
//! function render(key, value) {
//!   const el = document.getElementById(key).querySelector('.value');
//!   if (key === 'reasons') {
//!     el.replaceChildren(...(Array.isArray(value) ? value : []).map(reason => {
//!       const li = document.createElement('li');
//!       li.textContent = reason;
//!       return li;
//!     }));
//!   } else {
//!     el.textContent = value === undefined || value === null ? '' : String(value);
//!   }
//! }
//! // A field's state only moves forward (`advance`): a draft after it settled leaves it settled.
//! function show(key, state, value) {
//!   const el = document.getElementById(key);
//!   if (!el) return;
//!   const next = advance(el.dataset.state, state);
//!   el.dataset.state = next;
//!   el.className = 'field ' + next;
//!   render(key, value);
//! }
//! function reset() {
//!   for (const key of FIELDS) {
//!     const el = document.getElementById(key);
//!     el.dataset.state = 'pending';
//!     el.className = 'field pending';
//!     render(key, undefined);
//!   }
//!   // Until the value begins, the model is writing its preamble (or thinking).
//!   setStatus('The model is thinking…', 'thinking');
//! }
//! function start() {
//!   if (current) current.abort(); // a second request cancels the first
//!   const controller = current = new AbortController();
//!   reset();
//!   button.textContent = 'Restart';
//!   let ended = false;
//!   // Events of a request that was replaced are ignored.
//!   const mine = handler => payload => { if (current === controller) handler(payload); };
//!   const began = () => { if (statusLine.className === 'thinking') setStatus('Streaming…', 'streaming'); };
//!   const pace = params.get('pace');
//!   const url = '/review' + (pace ? '?pace=' + encodeURIComponent(pace) : '');
//!   streamDrafts(url, { method: 'POST', signal: controller.signal }, {
//!     draft: mine(draft => {
//!       began();
//!       for (const key of FIELDS) if (key in draft) show(key, 'streaming', draft[key]);
//!     }),
//!     // Only the page's own fields: another key must not reach another element.
//!     field: mine(({ field, value }) => {
//!       began();
//!       if (FIELDS.includes(field)) show(field, 'settled', value);
//!     }),
//!     // The final value is `done`'s, whatever the drafts showed.
//!     done: mine(value => {
//!       ended = true;
//!       for (const key of FIELDS) show(key, 'settled', value[key]);
//!       setStatus('Done', 'done');
//!     }),
//!     // The error, and the last draft: what had arrived stays on the page.
//!     error: mine(({ kind, message, draft }) => {
//!       ended = true;
//!       if (draft) for (const key of FIELDS) if (key in draft) show(key, 'streaming', draft[key]);
//!       setStatus(`Error (${kind}): ${message}`, 'error');
//!     }),
//!   }).then(
//!     () => { if (!ended && current === controller) setStatus('Error: the stream ended without a value', 'error'); },
//!     e => { if (e.name !== 'AbortError' && current === controller) setStatus('Error: ' + e.message, 'error'); },
//!   ).finally(() => {
//!     if (current === controller) {
//!       current = null;
//!       button.textContent = 'Ask the model';
//!     }
//!   });
//! }
//! button.onclick = start;
//! if (params.has('autostart')) start();
//! ```

use crate::stream::{Update, UpdateError};
use crate::typed::{FieldName, StreamingModel};
use axum::http::HeaderValue;
use axum::http::header::{CACHE_CONTROL, HeaderName};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_core::Stream as AsyncStream;
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::convert::Infallible;
use std::fmt;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

/// The page's side: reads the events of [`sse`] with `fetch` (`streamDrafts`) and keeps
/// field states moving forward (`advance`). Shown in full in the [module docs](self).
pub const CLIENT_JS: &str = include_str!("client.js");

/// [`CLIENT_JS`] as a response (`Content-Type: text/javascript`), for a route such as
/// `/settled.js`.
pub fn client_js() -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/javascript; charset=utf-8",
        )],
        CLIENT_JS,
    )
        .into_response()
}

/// How often a comment keeps an idle connection open by default.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Serves `updates` as server-sent events: `draft`, `field`, `done` and `error` (see the
/// [module docs](self)). Ask the update stream for drafts
/// ([`Updates::with_drafts`](crate::Updates::with_drafts)): the live draft and the
/// `field` events come from them (without, only `field` and `done` are sent, at the end).
pub fn sse<T, S, E>(updates: S) -> DraftSse<T, S>
where
    T: StreamingModel,
    T::Value: Serialize,
    S: AsyncStream<Item = Result<Update<T>, UpdateError<T, E>>> + Send + 'static,
    E: fmt::Display,
{
    DraftSse {
        events: events(updates),
        keep_alive: KEEP_ALIVE,
    }
}

/// The events of [`sse`] as a stream, for a response of your own (`axum::response::Sse`
/// with other settings, or events mixed with others).
pub fn events<T, S, E>(updates: S) -> DraftEvents<T, S>
where
    T: StreamingModel,
    T::Value: Serialize,
    S: AsyncStream<Item = Result<Update<T>, UpdateError<T, E>>> + Send + 'static,
    E: fmt::Display,
{
    DraftEvents {
        updates: Box::pin(updates),
        out: VecDeque::new(),
        draft: None,
        settled: Vec::new(),
        ended: false,
        model: PhantomData,
    }
}

/// The response of [`sse`]: `text/event-stream`, `Cache-Control: no-cache`,
/// `X-Accel-Buffering: no`, keep-alive comments.
#[must_use = "a response does nothing until returned from a handler"]
pub struct DraftSse<T, S> {
    events: DraftEvents<T, S>,
    keep_alive: Duration,
}

impl<T, S> DraftSse<T, S> {
    /// Sends a keep-alive comment after `every` without an event (default 15 s).
    pub fn keep_alive(mut self, every: Duration) -> Self {
        self.keep_alive = every;
        self
    }
}

impl<T, S> fmt::Debug for DraftSse<T, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DraftSse")
            .field("keep_alive", &self.keep_alive)
            .finish_non_exhaustive()
    }
}

impl<T, S, E> IntoResponse for DraftSse<T, S>
where
    T: StreamingModel,
    T::Value: Serialize,
    S: AsyncStream<Item = Result<Update<T>, UpdateError<T, E>>> + Send + 'static,
    E: fmt::Display,
{
    fn into_response(self) -> Response {
        let keep_alive = KeepAlive::new()
            .interval(self.keep_alive)
            .text("keep-alive");
        let mut response = Sse::new(self.events).keep_alive(keep_alive).into_response();
        let headers = response.headers_mut();
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        headers.insert(
            HeaderName::from_static("x-accel-buffering"),
            HeaderValue::from_static("no"),
        );
        response
    }
}

/// The events of [`sse`], one update at a time; ends after `done` or `error`.
pub struct DraftEvents<T, S> {
    updates: Pin<Box<S>>,
    out: VecDeque<Event>,
    /// The last draft sent, as sent: its keys in the model's field order (a `Value`'s map
    /// would sort them, unless an application turned on serde_json's `preserve_order`).
    draft: Option<String>,
    /// The keys whose `field` event was sent.
    settled: Vec<&'static str>,
    ended: bool,
    model: PhantomData<fn() -> T>,
}

impl<T, S> fmt::Debug for DraftEvents<T, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DraftEvents")
            .field("draft", &self.draft)
            .field("settled", &self.settled)
            .field("ended", &self.ended)
            .finish_non_exhaustive()
    }
}

fn event(name: &'static str, data: &Value) -> Event {
    event_text(name, data.to_string())
}

fn event_text(name: &'static str, data: String) -> Event {
    Event::default().event(name).data(data)
}

impl<T: StreamingModel, S> DraftEvents<T, S> {
    /// A `field` event for each field of `names` not announced yet, its value from `value`.
    fn settle(&mut self, names: impl IntoIterator<Item = T::Name>, value: &Value) {
        for name in names {
            let key = name.key();
            if self.settled.contains(&key) {
                continue;
            }
            if let Some(v) = value.get(key) {
                self.settled.push(key);
                let payload = json!({ "field": key, "value": v });
                self.out.push_back(event("field", &payload));
            }
        }
    }

    fn draft(&mut self, draft: &T::Draft) {
        let names = T::settled(Some(draft));
        if names.iter().any(|n| !self.settled.contains(&n.key())) {
            if let Ok(value) = serde_json::to_value(draft) {
                self.settle(names, &value);
            }
        }
        let Ok(text) = serde_json::to_string(draft) else {
            return; // a draft serde_json cannot write: the next one, or the value, will do
        };
        if self.draft.as_ref() != Some(&text) {
            self.out.push_back(event_text("draft", text.clone()));
            self.draft = Some(text);
        }
    }

    /// The `error` event: `draft` is JSON text (the last draft, in field order).
    fn error(&mut self, kind: &str, message: String, draft: Option<String>, missing: Vec<&str>) {
        let head = json!({ "kind": kind, "message": message }).to_string();
        let missing = json!(missing).to_string();
        let draft = draft.unwrap_or_else(|| "null".to_owned());
        // `{"kind":…,"message":…` then the draft and the missing keys, in that order.
        let head = head.strip_suffix('}').unwrap_or(&head);
        let payload = format!("{head},\"draft\":{draft},\"missing\":{missing}}}");
        self.out.push_back(event_text("error", payload));
        self.ended = true;
    }
}

impl<T, S, E> AsyncStream for DraftEvents<T, S>
where
    T: StreamingModel,
    T::Value: Serialize,
    S: AsyncStream<Item = Result<Update<T>, UpdateError<T, E>>>,
    E: fmt::Display,
{
    type Item = Result<Event, Infallible>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if let Some(event) = this.out.pop_front() {
                return Poll::Ready(Some(Ok(event)));
            }
            if this.ended {
                return Poll::Ready(None);
            }
            let update = match this.updates.as_mut().poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(update) => update,
            };
            match update {
                // Which field settled is read off the draft that follows.
                Some(Ok(Update::Field(_))) => {}
                Some(Ok(Update::Draft(draft))) => this.draft(&draft),
                Some(Ok(Update::Done(value))) => {
                    match serde_json::to_value(&value)
                        .and_then(|v| serde_json::to_string(&value).map(|text| (v, text)))
                    {
                        Ok((tree, text)) => {
                            this.settle(T::Name::all().iter().copied(), &tree);
                            this.out.push_back(event_text("done", text));
                            this.ended = true;
                        }
                        Err(e) => this.error("serialize", e.to_string(), None, Vec::new()),
                    }
                }
                Some(Err(UpdateError::Stream(e))) => {
                    let draft = e.draft().and_then(|d| serde_json::to_string(d).ok());
                    let missing = e.missing_keys();
                    let message = e.to_string();
                    this.error(e.kind().as_str(), message, draft, missing);
                }
                Some(Err(UpdateError::Source(e))) => {
                    let draft = this.draft.take();
                    this.error("source", e.to_string(), draft, Vec::new());
                }
                Some(Err(refused @ UpdateError::Refused(_))) => {
                    let draft = this.draft.take();
                    this.error("refused", refused.to_string(), draft, Vec::new());
                }
                None => {
                    let draft = this.draft.take();
                    let message = "the update stream ended without a value".to_string();
                    this.error("ended", message, draft, Vec::new());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TypedStream;
    use std::future::Future;
    use std::task::Waker;

    struct Iter<I>(I);

    impl<I: Iterator + Unpin> AsyncStream for Iter<I> {
        type Item = I::Item;
        fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<I::Item>> {
            Poll::Ready(self.0.next())
        }
    }

    /// The events' names and data, as a client reads them off the response body.
    fn drain<S>(events: S) -> Vec<(String, Value)>
    where
        S: AsyncStream<Item = Result<Event, Infallible>> + Send + 'static,
    {
        // No keep-alive here: its timer needs a runtime, and every source here is ready.
        let body = Sse::new(events).into_response().into_body();
        let mut bytes = Box::pin(axum::body::to_bytes(body, usize::MAX));
        let mut cx = Context::from_waker(Waker::noop());
        let Poll::Ready(Ok(bytes)) = bytes.as_mut().poll(&mut cx) else {
            panic!("the body is ready");
        };
        let mut parser = crate::provider::sse::SseParser::new();
        parser
            .feed(&bytes)
            .into_iter()
            .map(|e| {
                (
                    e.event.unwrap_or_default(),
                    serde_json::from_str(&e.data).unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn drafts_fields_and_the_value_of_a_map_root() {
        // A map root has no named fields: drafts and the value only.
        type Root = std::collections::BTreeMap<String, Vec<u32>>;
        let chunks = ["{\"a\": [1, ", "2], ", " ", "\"b\": [3]}"];
        let source = Iter(chunks.into_iter().map(Ok::<_, String>));
        let updates = TypedStream::<Root>::new().updates(source).with_drafts();
        let all = drain(events(updates));
        let names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
        // The whitespace chunk changed nothing: no draft for it.
        assert_eq!(names, ["draft", "draft", "draft", "done"], "{all:?}");
        assert_eq!(all[0].1, json!({"a": [1]}));
        assert_eq!(all[3].1, json!({"a": [1, 2], "b": [3]}));
    }

    #[test]
    fn a_cut_ends_with_an_error_event_and_the_last_draft() {
        let source = Iter(["{\"a\": [1, 2"].into_iter().map(Ok::<_, String>));
        let updates = TypedStream::<Value>::new().updates(source).with_drafts();
        let all = drain(events(updates));
        let (name, error) = all.last().unwrap();
        assert_eq!(name, "error");
        assert_eq!(error["kind"], "truncated");
        assert_eq!(error["draft"], json!({"a": [1]}));

        let source = Iter([Ok("{\"a\": [1, 2"), Err("reset")].into_iter());
        let updates = TypedStream::<Value>::new().updates(source).with_drafts();
        let all = drain(events(updates));
        let (_, error) = all.last().unwrap();
        assert_eq!(error["kind"], "source");
        assert_eq!(error["draft"], json!({"a": [1]}), "the last draft sent");
    }
}
