//! [async-openai](https://docs.rs/async-openai)'s streamed chat completions, typed: its
//! stream of chunks in, [`Update`]s out. Behind the `async-openai` feature (async-openai
//! 0.43; settled uses its chat completion types only, not its client).
//!
//! ```ignore
//! use async_openai::{Client, config::OpenAIConfig, types::chat::*};
//! use futures::StreamExt;
//! use settled::openai_client::ChatUpdates;
//! use settled::{StreamingModel, Update};
//!
//! // `response_format` from the model's strict schema. async-openai takes the schema as a
//! // `serde_json::Value`: its objects keep their key order only with serde_json's
//! // `preserve_order` feature (without it the properties are sorted by name).
//! let format = settled::schema::openai_response_format::<Review>("review");
//! let request = CreateChatCompletionRequestArgs::default()
//!     .model("gpt-4o-2024-08-06")
//!     .messages([ChatCompletionRequestUserMessage::from("Review this diff: …").into()])
//!     .response_format(serde_json::from_value::<ResponseFormat>(format.to_value())?)
//!     .build()?;
//! let chunks = Client::new().chat().create_stream(request).await?;
//!
//! let mut updates = ChatUpdates::content(Review::stream(), chunks).with_drafts();
//! while let Some(update) = updates.next().await {
//!     match update? {
//!         Update::Draft(draft) => render(&draft),
//!         Update::Field(field) => println!("settled: {field:?}"),
//!         Update::Done(review) => println!("{review:?}"),
//!     }
//! }
//! ```
//!
//! A tool call's arguments stream the same way, [`ChatUpdates::tool_call`]; several calls
//! in one response go to [`ToolStreams`](crate::provider::ToolStreams) through
//! [`ChunkDeltas`]. The `examples/web` package of the repository runs both against a local
//! server that replays recorded OpenAI streams (`cargo run -p settled-web-examples
//! --example async_openai`).

use crate::provider::{Channel, Delta, FinishReason, FinishWith};
use crate::stream::{StreamError, TypedStream, Update, UpdateError};
use crate::typed::StreamingModel;
use async_openai::types::chat::{CreateChatCompletionStreamResponse, FinishReason as Reason};
use futures_core::Stream as AsyncStream;
use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll};

/// Reads async-openai chunks as settled's provider [`Delta`]s, the first choice's, as
/// [`Decoder`](crate::provider::Decoder) reads OpenAI's wire format: the message's text,
/// tool calls beginning and their arguments, the finish reason. It keeps what the chunks
/// before said about the tool calls, so that each call's chunks reach its own
/// [`Channel::Tool`]: some OpenAI-compatible servers give every call index 0 and tell
/// them apart only by their ids. At a natural finish (`stop`, `tool_calls`), a call whose
/// arguments never came has `{}` (a tool without parameters).
///
/// ```
/// use async_openai::types::chat::CreateChatCompletionStreamResponse;
/// use settled::openai_client::ChunkDeltas;
/// use settled::provider::{Channel, Delta, FinishReason};
///
/// let chunk: CreateChatCompletionStreamResponse = serde_json::from_str(r#"{
///     "id": "c", "object": "chat.completion.chunk", "created": 0, "model": "m",
///     "choices": [{"index": 0, "delta": {"content": "{\"a\": 1"}, "finish_reason": "length"}]
/// }"#)?;
/// let mut deltas = ChunkDeltas::new();
/// assert_eq!(deltas.read(&chunk), [
///     Delta::Text { channel: Channel::Text, text: "{\"a\": 1".into() },
///     Delta::Finish(FinishReason::Length),
/// ]);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct ChunkDeltas {
    calls: crate::provider::calls::Calls,
}

impl ChunkDeltas {
    /// Ready for a response's first chunk.
    pub fn new() -> Self {
        Self::default()
    }

    /// What `chunk` carries, in order. (The deprecated `function_call` delta is not read.)
    pub fn read(&mut self, chunk: &CreateChatCompletionStreamResponse) -> Vec<Delta> {
        let mut deltas = Vec::new();
        let some = |text: Option<&String>| text.filter(|t| !t.is_empty()).cloned();
        for choice in chunk.choices.iter().filter(|c| c.index == 0) {
            let delta = &choice.delta;
            if let Some(text) = some(delta.content.as_ref()) {
                deltas.push(Delta::Text {
                    channel: Channel::Text,
                    text,
                });
            }
            for call in delta.tool_calls.iter().flatten() {
                let function = call.function.as_ref();
                self.calls.openai_call(
                    Some(usize::try_from(call.index).unwrap_or(usize::MAX)),
                    some(call.id.as_ref()),
                    some(function.and_then(|f| f.name.as_ref())),
                    some(function.and_then(|f| f.arguments.as_ref())),
                    &mut deltas,
                );
            }
            if let Some(reason) = &choice.finish_reason {
                let reason = finish_reason(reason);
                self.calls.end_all(&reason, &mut deltas);
                deltas.push(Delta::Finish(reason));
            }
        }
        deltas
    }
}

/// async-openai's finish reason as settled's: `length` is a truncation.
pub fn finish_reason(reason: &Reason) -> FinishReason {
    match reason {
        Reason::Stop => FinishReason::Stop,
        Reason::Length => FinishReason::Length,
        Reason::ToolCalls | Reason::FunctionCall => FinishReason::ToolCalls,
        Reason::ContentFilter => FinishReason::ContentFilter,
    }
}

/// The typed updates of one text of an async-openai chat completion stream (the message's
/// content, or one tool call's arguments): fields as they settle, drafts if asked for, and
/// the strict value last, as [`Updates`](crate::Updates) yields them. The finish reason
/// ends the value: a reply cut at the token limit (`finish_reason: length`) is
/// [`ErrorKind::Truncated`](crate::ErrorKind::Truncated) naming `length`, with the last
/// draft.
///
/// An error from async-openai's stream (a dropped connection) ends the updates with
/// [`UpdateError::Source`]; [`ChatUpdates::draft`] still holds what had arrived. Dropping
/// the updates drops async-openai's stream, which cancels the request.
pub struct ChatUpdates<T: StreamingModel, S> {
    chunks: S,
    channel: Channel,
    stream: Option<TypedStream<T>>,
    finish: Option<FinishReason>,
    pending: VecDeque<Update<T>>,
    failed: Option<StreamError<T>>,
    /// The source failed: nothing more is read, the stream is kept for its draft.
    interrupted: bool,
    drafts: bool,
    /// The model's refusal, if it sent one (`delta.refusal`).
    refusal: crate::provider::calls::Refusal,
    /// Which call each tool call chunk belongs to.
    deltas: ChunkDeltas,
    /// The tool call read began, and text of the channel came.
    started: bool,
    fed: bool,
}

// Nothing inside is pinned structurally: only the source is polled, through `Unpin`.
impl<T: StreamingModel, S: Unpin> Unpin for ChatUpdates<T, S> {}

impl<T: StreamingModel, S> ChatUpdates<T, S> {
    /// The message's text (`choices[0].delta.content`): the answer to a request with
    /// `response_format`.
    pub fn content(stream: TypedStream<T>, chunks: S) -> Self {
        Self::new(stream, chunks, Channel::Text)
    }

    /// The arguments of tool call `index` (`choices[0].delta.tool_calls[].index`); other
    /// calls are skipped.
    pub fn tool_call(stream: TypedStream<T>, index: u32, chunks: S) -> Self {
        let index = usize::try_from(index).unwrap_or(usize::MAX);
        Self::new(stream, chunks, Channel::Tool(index))
    }

    fn new(stream: TypedStream<T>, chunks: S, channel: Channel) -> Self {
        ChatUpdates {
            chunks,
            channel,
            stream: Some(stream),
            finish: None,
            pending: VecDeque::new(),
            failed: None,
            interrupted: false,
            drafts: false,
            refusal: crate::provider::calls::Refusal::default(),
            deltas: ChunkDeltas::new(),
            started: false,
            fed: false,
        }
    }

    /// Also yield [`Update::Draft`], at most once per chunk that extended the text (it
    /// clones the draft).
    pub fn with_drafts(mut self) -> Self {
        self.drafts = true;
        self
    }

    /// The finish reason, once a chunk has carried it.
    pub fn finish_reason(&self) -> Option<&FinishReason> {
        self.finish.as_ref()
    }

    /// The draft so far, while the value streams and after async-openai's stream failed
    /// (what had arrived when the connection dropped); `None` before the value begins and
    /// once it has ended.
    pub fn draft(&self) -> Option<&T::Draft> {
        self.stream.as_ref().and_then(TypedStream::current)
    }
}

impl<T, S, E> AsyncStream for ChatUpdates<T, S>
where
    T: StreamingModel,
    S: AsyncStream<Item = Result<CreateChatCompletionStreamResponse, E>> + Unpin,
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
            let next = match Pin::new(&mut this.chunks).poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(next) => next,
            };
            match next {
                Some(Ok(chunk)) => {
                    let mut extended = false;
                    for choice in chunk.choices.iter().filter(|c| c.index == 0) {
                        if let Some(refusal) = &choice.delta.refusal {
                            this.refusal.push(refusal);
                        }
                    }
                    for delta in this.deltas.read(&chunk) {
                        match delta {
                            Delta::ToolStart { index, .. }
                                if Channel::Tool(index) == this.channel =>
                            {
                                this.started = true;
                            }
                            Delta::Text { channel, text } if channel == this.channel => {
                                extended = true;
                                this.fed = true;
                                match stream.feed(text.as_bytes()) {
                                    Ok(fields) => this.pending.extend(fields.map(Update::Field)),
                                    Err(failed) => {
                                        // What settled before the error, then the error.
                                        let error = failed.error().clone();
                                        let fields = failed.into_fields();
                                        this.pending.extend(fields.into_iter().map(Update::Field));
                                        this.failed = Some(stream.failure(error));
                                        this.stream = None;
                                        break;
                                    }
                                }
                            }
                            Delta::Finish(reason) => this.finish = Some(reason),
                            _ => {}
                        }
                    }
                    if let Some(stream) = this.stream.as_ref() {
                        if let Some(draft) = stream.current().filter(|_| this.drafts && extended) {
                            this.pending.push_back(Update::Draft(draft.clone()));
                        }
                    }
                }
                Some(Err(e)) => {
                    this.interrupted = true;
                    return Poll::Ready(Some(Err(UpdateError::Source(e))));
                }
                None => {
                    let Some(mut stream) = this.stream.take() else {
                        return Poll::Ready(None);
                    };
                    let natural = matches!(
                        this.finish,
                        Some(FinishReason::Stop | FinishReason::ToolCalls)
                    );
                    if this.started && !this.fed && natural {
                        // A tool without parameters: its arguments stream as nothing.
                        let _ = stream.feed(b"{}");
                    }
                    let result = stream.finish_with(this.finish.as_ref());
                    return Poll::Ready(Some(match (this.refusal.text(), result) {
                        // The model declined: its words say more than "no JSON", and a
                        // refused response is no answer whatever came with it (as
                        // `Decoder` reads it).
                        (Some(text), _) => Err(UpdateError::Refused(text.to_owned())),
                        (None, Ok(value)) => Ok(Update::Done(value)),
                        (None, Err(e)) => Err(UpdateError::Stream(e)),
                    }));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;
    use std::task::Waker;

    /// A ready stream over `items`.
    struct Iter<I>(I);

    impl<I: Iterator + Unpin> AsyncStream for Iter<I> {
        type Item = I::Item;
        fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<I::Item>> {
            Poll::Ready(self.0.next())
        }
    }

    fn drain<S: AsyncStream + Unpin>(mut s: S) -> Vec<S::Item> {
        let mut cx = Context::from_waker(Waker::noop());
        let mut out = Vec::new();
        while let Poll::Ready(Some(item)) = Pin::new(&mut s).poll_next(&mut cx) {
            out.push(item);
        }
        out
    }

    fn chunk(delta: &str, finish: Option<&str>) -> CreateChatCompletionStreamResponse {
        let finish = finish.map_or("null".to_string(), |f| format!("\"{f}\""));
        serde_json::from_str(&format!(
            r#"{{"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "m",
                "choices": [{{"index": 0, "delta": {delta}, "finish_reason": {finish}}}]}}"#
        ))
        .unwrap()
    }

    fn content(text: &str) -> CreateChatCompletionStreamResponse {
        chunk(&serde_json::json!({ "content": text }).to_string(), None)
    }

    /// The updates of the message's text read from `chunks` into a `Value`.
    fn drain_content(
        chunks: Vec<CreateChatCompletionStreamResponse>,
    ) -> Vec<Result<Update<serde_json::Value>, UpdateError<serde_json::Value, ()>>> {
        let source = Iter(chunks.into_iter().map(Ok::<_, ()>));
        drain(ChatUpdates::content(TypedStream::new(), source))
    }

    #[test]
    fn content_and_finish_reasons() {
        let all = drain_content(vec![
            content("Here: {\"a\": [1, 2"),
            content("], \"b\": \"x\"}"),
            chunk("{}", Some("stop")),
        ]);
        match all.last() {
            Some(Ok(Update::Done(value))) => assert_eq!(value["b"], "x"),
            other => panic!("{other:?}"),
        }

        let chunks = [content("{\"a\": [1, 2"), chunk("{}", Some("length"))];
        let source = Iter(chunks.into_iter().map(Ok::<_, ()>));
        let updates = ChatUpdates::content(TypedStream::<serde_json::Value>::new(), source);
        let all = drain(updates.with_drafts());
        assert!(matches!(all[0], Ok(Update::Draft(_))));
        match all.last() {
            Some(Err(UpdateError::Stream(e))) => {
                assert_eq!(e.kind(), ErrorKind::Truncated);
                assert!(e.to_string().contains("`length`"), "{e}");
                assert!(e.draft().is_some());
            }
            other => panic!("{other:?}"),
        }
    }

    /// A refusal ends the updates with its words (not "no JSON"); a tool call without
    /// parameters has the arguments `{}` at a natural end, and none after a cut.
    #[test]
    fn a_refusal_and_a_call_without_arguments() {
        let all = drain_content(vec![
            chunk(r#"{"role": "assistant", "refusal": "I can't "}"#, None),
            chunk(r#"{"refusal": "help with that."}"#, None),
            chunk("{}", Some("stop")),
        ]);
        match all.last() {
            Some(Err(UpdateError::Refused(text))) => {
                assert_eq!(text, "I can't help with that.");
            }
            other => panic!("{other:?}"),
        }
        // A review: content that reads as an answer, then a refusal, was the answer here
        // where `Decoder` reports the refusal; both report it now.
        let all = drain_content(vec![
            chunk(r#"{"content": "{\"a\": 1}"}"#, None),
            chunk(r#"{"refusal": "I can't help with that."}"#, None),
            chunk("{}", Some("stop")),
        ]);
        match all.last() {
            Some(Err(UpdateError::Refused(text))) => {
                assert_eq!(text, "I can't help with that.");
            }
            other => panic!("{other:?}"),
        }
        let call = r#"{"tool_calls": [{"index": 0, "id": "c1", "type": "function",
            "function": {"name": "now", "arguments": ""}}]}"#;
        for (finish, done) in [("tool_calls", true), ("length", false)] {
            let chunks = [chunk(call, None), chunk("{}", Some(finish))];
            let source = Iter(chunks.into_iter().map(Ok::<_, ()>));
            let all = drain(ChatUpdates::tool_call(
                TypedStream::<serde_json::Value>::new(),
                0,
                source,
            ));
            match all.last() {
                Some(Ok(Update::Done(value))) if done => {
                    assert_eq!(value, &serde_json::json!({}));
                }
                Some(Err(UpdateError::Stream(e))) if !done => {
                    assert_eq!(e.kind(), ErrorKind::Truncated);
                }
                other => panic!("{finish}: {other:?}"),
            }
        }
        // The same call read with `ChunkDeltas` into `ToolStreams`.
        let mut tools = crate::provider::ToolStreams::<serde_json::Value>::new();
        let mut deltas = ChunkDeltas::new();
        for chunk in [chunk(call, None), chunk("{}", Some("tool_calls"))] {
            for delta in deltas.read(&chunk) {
                tools.feed(&delta).unwrap();
            }
        }
        let results = tools.finish(Some(&FinishReason::ToolCalls));
        assert_eq!(results[0].1.as_ref().ok(), Some(&serde_json::json!({})));
    }

    #[test]
    fn one_tool_call_of_several_and_a_failing_source() {
        let call = |i: u32, args: &str| {
            let delta =
                serde_json::json!({"tool_calls": [{"index": i, "function": {"arguments": args}}]});
            chunk(&delta.to_string(), None)
        };
        let chunks = [
            call(0, "{\"n\": "),
            call(1, "{\"n\": 2}"),
            call(0, "1}"),
            chunk("{}", Some("tool_calls")),
        ];
        let source = Iter(chunks.clone().into_iter().map(Ok::<_, ()>));
        let all = drain(ChatUpdates::tool_call(
            TypedStream::<serde_json::Value>::new(),
            1,
            source,
        ));
        assert!(matches!(all.last(), Some(Ok(Update::Done(v))) if v["n"] == 2));
        assert_eq!(
            ChunkDeltas::new().read(&chunks[0])[0],
            Delta::Text {
                channel: Channel::Tool(0),
                text: "{\"n\": ".into()
            }
        );

        let source = Iter([Ok(call(0, "{\"n\": [1, ")), Err("reset")].into_iter());
        let mut updates =
            ChatUpdates::tool_call(TypedStream::<serde_json::Value>::new(), 0, source);
        let mut cx = Context::from_waker(Waker::noop());
        let mut last = None;
        while let Poll::Ready(Some(item)) = Pin::new(&mut updates).poll_next(&mut cx) {
            last = Some(item);
        }
        assert!(matches!(last, Some(Err(UpdateError::Source("reset")))));
        let draft = updates.draft().expect("the draft outlives a failed source");
        assert_eq!(draft.to_string(), r#"{"n":[1]}"#);
    }

    /// Calls that a server gives the same index, told apart by their ids, each reach their
    /// own channel, as the wire decoder reads them (review: the second call's arguments
    /// were appended to the first's).
    #[test]
    fn calls_at_one_index_with_two_ids_are_two_calls() {
        let call = |id: Option<&str>, args: &str| {
            let mut entry = serde_json::json!({"index": 0, "function": {"arguments": args}});
            if let Some(id) = id {
                entry["id"] = id.into();
                entry["type"] = "function".into();
                entry["function"]["name"] = "weather".into();
            }
            chunk(
                &serde_json::json!({"tool_calls": [entry]}).to_string(),
                None,
            )
        };
        let chunks = [
            call(Some("call_a"), "{\"city\": "),
            call(None, "\"Paris\"}"),
            call(Some("call_b"), "{\"city\": \"Oslo\"}"),
            chunk("{}", Some("tool_calls")),
        ];
        let mut tools = crate::provider::ToolStreams::<serde_json::Value>::new();
        let mut deltas = ChunkDeltas::new();
        for chunk in &chunks {
            for delta in deltas.read(chunk) {
                tools.feed(&delta).unwrap();
            }
        }
        let results = tools.finish(Some(&FinishReason::ToolCalls));
        let values: Vec<_> = results.iter().map(|(_, r)| r.as_ref().ok()).collect();
        assert_eq!(
            values,
            [
                Some(&serde_json::json!({"city": "Paris"})),
                Some(&serde_json::json!({"city": "Oslo"}))
            ]
        );
        // `tool_call(1)` reads the second call alone.
        let source = Iter(chunks.into_iter().map(Ok::<_, ()>));
        let all = drain(ChatUpdates::tool_call(
            TypedStream::<serde_json::Value>::new(),
            1,
            source,
        ));
        assert!(
            matches!(all.last(), Some(Ok(Update::Done(v))) if v["city"] == "Oslo"),
            "{all:?}"
        );
    }
}
