//! Several tool calls in one response, each with its own typed stream.

use super::{Channel, Delta, FinishReason, FinishWith};
use crate::{FeedError, StreamError, StreamingModel, TypedStream};
use std::collections::BTreeMap;

/// Several tool calls in one response, each streamed into its own [`TypedStream`]: feed
/// every [`Delta`]; tool-argument text goes to the stream of its call.
///
/// ```
/// use serde::Deserialize;
/// use settled::StreamingModel;
/// use settled::provider::{Channel, Delta, FinishReason, ToolStreams};
///
/// #[derive(Debug, Deserialize, StreamingModel)]
/// struct Args { city: String }
///
/// let mut tools = ToolStreams::<Args>::new();
/// let text = |i, t: &str| Delta::Text { channel: Channel::Tool(i), text: t.into() };
/// for delta in [text(0, "{\"city\": \"Par"), text(1, "{\"city\": \"Oslo\"}"), text(0, "is\"}")] {
///     tools.feed(&delta)?;
/// }
/// let done = tools.finish(Some(&FinishReason::ToolCalls));
/// assert_eq!(done[0].1.as_ref().unwrap().city, "Paris");
/// assert_eq!(done[1].1.as_ref().unwrap().city, "Oslo");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ToolStreams<T: StreamingModel> {
    calls: BTreeMap<usize, ToolCall<T>>,
}

/// One tool call: its name and id as sent, and its arguments' stream.
pub struct ToolCall<T: StreamingModel> {
    /// The tool's name, if the provider sent it.
    pub name: Option<String>,
    /// The call id, if the provider sent it.
    pub id: Option<String>,
    /// The arguments, streaming.
    pub stream: TypedStream<T>,
}

/// How one tool call ended.
pub type ToolResult<T> = Result<<T as StreamingModel>::Value, StreamError<T>>;

impl<T: StreamingModel> ToolStreams<T> {
    /// No calls yet.
    pub fn new() -> Self {
        ToolStreams {
            calls: BTreeMap::new(),
        }
    }

    fn call(&mut self, index: usize) -> &mut ToolCall<T> {
        self.calls.entry(index).or_insert_with(|| ToolCall {
            name: None,
            id: None,
            stream: TypedStream::new(),
        })
    }

    /// Routes one delta; returns the fields that settled in that call, with its index.
    ///
    /// # Errors
    ///
    /// The call's stream failed; the error carries the fields that settled before it.
    pub fn feed(&mut self, delta: &Delta) -> Result<Vec<(usize, T::Field)>, FeedError<T>> {
        match delta {
            Delta::ToolStart { index, id, name } => {
                let call = self.call(*index);
                call.id = id.clone().or(call.id.take());
                call.name = name.clone().or(call.name.take());
                Ok(Vec::new())
            }
            Delta::Text {
                channel: Channel::Tool(index),
                text,
            } => {
                let index = *index;
                let fields = self.call(index).stream.feed(text.as_bytes())?;
                Ok(fields.map(|f| (index, f)).collect())
            }
            _ => Ok(Vec::new()),
        }
    }

    /// The calls so far, by index.
    pub fn calls(&self) -> impl Iterator<Item = (usize, &ToolCall<T>)> {
        self.calls.iter().map(|(i, c)| (*i, c))
    }

    /// Ends every call the way the provider ended the response. At a natural end (a stop,
    /// a tool call), a call that had no argument text has the arguments `{}` (a tool
    /// without parameters, whose arguments stream as nothing or as `""`); after a cut, a
    /// filter or no finish reason it is a truncation.
    pub fn finish(self, reason: Option<&FinishReason>) -> Vec<(usize, ToolResult<T>)> {
        let natural = matches!(reason, Some(FinishReason::Stop | FinishReason::ToolCalls));
        // What cut a call that had no argument text, when the reason names no cause.
        let cause = match reason {
            None => "no finish reason",
            Some(_) => "an unknown finish reason",
        };
        self.calls
            .into_iter()
            .map(|(i, mut call)| {
                let empty = call.stream.position().offset == 0;
                if natural && empty {
                    // An error here is the one `finish` returns.
                    let _ = call.stream.feed(b"{}");
                }
                let cut = !natural && empty && reason.and_then(FinishReason::stop_cause).is_none();
                let result = match cut {
                    true => call.stream.finish_cut(cause),
                    false => call.stream.finish_with(reason),
                };
                (i, result)
            })
            .collect()
    }
}

impl<T: StreamingModel> Default for ToolStreams<T> {
    fn default() -> Self {
        Self::new()
    }
}
