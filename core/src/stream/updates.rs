//! Async: a `Stream` of byte chunks (an HTTP body, a provider's deltas) becomes a `Stream`
//! of updates. Behind the `futures` feature.
//!
//! ```
//! use futures_core::Stream;
//! use serde::Deserialize;
//! use settled::{StreamingModel, Update};
//!
//! #[derive(Debug, Deserialize, StreamingModel)]
//! struct Answer { title: String, score: u8 }
//!
//! # fn drain<S: Stream + Unpin>(mut s: S) -> Vec<S::Item> {
//! #     use std::task::{Context, Poll, Waker};
//! #     let mut cx = Context::from_waker(Waker::noop());
//! #     let mut out = Vec::new();
//! #     while let Poll::Ready(Some(item)) = std::pin::Pin::new(&mut s).poll_next(&mut cx) { out.push(item); }
//! #     out
//! # }
//! # struct Iter<I>(I);
//! # impl<I: Iterator + Unpin> Stream for Iter<I> {
//! #     type Item = I::Item;
//! #     fn poll_next(mut self: std::pin::Pin<&mut Self>, _: &mut std::task::Context<'_>) -> std::task::Poll<Option<I::Item>> {
//! #         std::task::Poll::Ready(self.0.next())
//! #     }
//! # }
//! let chunks = Iter(["{\"title\": \"Hi\"", ", \"score\": 7}"].into_iter().map(Ok::<_, std::io::Error>));
//! let all = drain(Answer::stream().updates(chunks));
//! assert!(matches!(all[0], Ok(Update::Field(AnswerField::Title(_)))));
//! assert!(matches!(all.last(), Some(Ok(Update::Done(Answer { score: 7, .. })))));
//! ```

use super::outcome::StreamError;
use super::typed::TypedStream;
use crate::typed::StreamingModel;
use futures_core::Stream as AsyncStream;
use std::collections::VecDeque;
use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

/// What an update stream yields.
pub enum Update<T: StreamingModel> {
    /// A field settled.
    Field(T::Field),
    /// The draft after an input chunk (opt-in with [`Updates::with_drafts`]: it clones).
    Draft(T::Draft),
    /// The strict value; the last item.
    Done(T::Value),
}

impl<T: StreamingModel> fmt::Debug for Update<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Update::Field(x) => f.debug_tuple("Field").field(x).finish(),
            Update::Draft(x) => f.debug_tuple("Draft").field(x).finish(),
            Update::Done(x) => f.debug_tuple("Done").field(x).finish(),
        }
    }
}

/// Why an update stream ended without a value: the source failed, or the stream did.
pub enum UpdateError<T: StreamingModel, E> {
    /// The chunk source yielded an error.
    Source(E),
    /// settled's error, with the last draft.
    Stream(StreamError<T>),
    /// The model refused to answer in the requested format (OpenAI's `refusal`): its
    /// words (at most 4 KiB, with an ellipsis when cut). A refused response is no answer,
    /// whatever content came with it.
    Refused(String),
}

impl<T: StreamingModel, E: fmt::Debug> fmt::Debug for UpdateError<T, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UpdateError::Source(e) => f.debug_tuple("Source").field(e).finish(),
            UpdateError::Stream(e) => f.debug_tuple("Stream").field(e).finish(),
            UpdateError::Refused(text) => f.debug_tuple("Refused").field(text).finish(),
        }
    }
}

impl<T: StreamingModel, E: fmt::Display> fmt::Display for UpdateError<T, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UpdateError::Source(e) => write!(f, "the chunk source failed: {e}"),
            UpdateError::Stream(e) => e.fmt(f),
            UpdateError::Refused(text) => write!(f, "the model refused: {text}"),
        }
    }
}

impl<T: StreamingModel, E: fmt::Debug + fmt::Display> std::error::Error for UpdateError<T, E> {}

/// The update stream of [`TypedStream::updates`]. Dropping it drops the source and the
/// draft: it is cancel-safe.
pub struct Updates<T: StreamingModel, S> {
    source: S,
    stream: Option<TypedStream<T>>,
    pending: VecDeque<Update<T>>,
    /// The stream's error, yielded once the fields before it are.
    failed: Option<StreamError<T>>,
    /// The source failed: nothing more is read; the stream is kept for its draft.
    interrupted: bool,
    drafts: bool,
}

// Nothing inside is pinned structurally: only the source is polled, through `Unpin`.
impl<T: StreamingModel, S: Unpin> Unpin for Updates<T, S> {}

impl<T: StreamingModel> TypedStream<T> {
    /// Streams `T` out of `source`, a `Stream` of byte chunks (an HTTP body): fields as
    /// they settle, drafts if asked for ([`Updates::with_drafts`]), and the strict value
    /// last. The fields that settled in a chunk are yielded before the error it ends with.
    /// An error from the source ends the updates with [`UpdateError::Source`]; what had
    /// arrived stays readable ([`Updates::draft`], [`Updates::into_stream`]).
    pub fn updates<S>(self, source: S) -> Updates<T, S> {
        Updates {
            source,
            stream: Some(self),
            pending: VecDeque::new(),
            failed: None,
            interrupted: false,
            drafts: false,
        }
    }
}

impl<T: StreamingModel, S> Updates<T, S> {
    /// Also yield [`Update::Draft`], at most once per input chunk (it clones the draft).
    pub fn with_drafts(mut self) -> Self {
        self.drafts = true;
        self
    }

    /// The draft so far, while the value streams and after the source failed (what had
    /// arrived when the connection dropped); `None` before the value begins and once the
    /// stream has ended.
    pub fn draft(&self) -> Option<&T::Draft> {
        self.stream.as_ref().and_then(TypedStream::current)
    }

    /// The typed stream, after the source failed (or before the end): to finish it, which
    /// gives [`ErrorKind::Truncated`](crate::ErrorKind::Truncated) with the draft and the
    /// missing fields, or to read on from another source. `None` once it has ended.
    pub fn into_stream(self) -> Option<TypedStream<T>> {
        self.stream
    }
}

impl<T, S, B, E> AsyncStream for Updates<T, S>
where
    T: StreamingModel,
    S: AsyncStream<Item = Result<B, E>> + Unpin,
    B: AsRef<[u8]>,
{
    type Item = Result<Update<T>, UpdateError<T, E>>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if let Some(update) = this.pending.pop_front() {
                return Poll::Ready(Some(Ok(update)));
            }
            if let Some(failed) = this.failed.take() {
                return Poll::Ready(Some(Err(UpdateError::Stream(failed))));
            }
            if this.interrupted {
                return Poll::Ready(None);
            }
            let Some(stream) = this.stream.as_mut() else {
                return Poll::Ready(None);
            };
            let next = match Pin::new(&mut this.source).poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(next) => next,
            };
            match next {
                Some(Ok(chunk)) => match stream.feed(chunk.as_ref()) {
                    Ok(fields) => {
                        this.pending.extend(fields.map(Update::Field));
                        if let Some(draft) = stream.current().filter(|_| this.drafts) {
                            this.pending.push_back(Update::Draft(draft.clone()));
                        }
                    }
                    Err(failed) => {
                        // What settled before the error is delivered, then the error.
                        let error = failed.error().clone();
                        this.pending
                            .extend(failed.into_fields().into_iter().map(Update::Field));
                        this.failed = Some(stream.failure(error));
                        this.stream = None;
                    }
                },
                Some(Err(e)) => {
                    this.interrupted = true;
                    return Poll::Ready(Some(Err(UpdateError::Source(e))));
                }
                None => {
                    let Some(stream) = this.stream.take() else {
                        return Poll::Ready(None);
                    };
                    return Poll::Ready(Some(match stream.finish() {
                        Ok(value) => Ok(Update::Done(value)),
                        Err(e) => Err(UpdateError::Stream(e)),
                    }));
                }
            }
        }
    }
}
