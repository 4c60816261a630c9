//! Provider stream decoders: server-sent events in, text deltas and a finish reason out.
//! Parsing only; bring your own HTTP client.
//!
//! ```
//! use settled::provider::{Channel, Decoder, Delta, FinishReason, Provider};
//!
//! let mut decoder = Decoder::new(Provider::OpenAiChat);
//! let wire = concat!(
//!     "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"{\\\"a\\\": 1\"}}]}\n\n",
//!     "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\n",
//!     "data: [DONE]\n\n",
//! );
//! let deltas = decoder.feed(wire.as_bytes())?;
//! assert_eq!(deltas[0], Delta::Text { channel: Channel::Text, text: "{\"a\": 1".into() });
//! assert_eq!(deltas[1], Delta::Finish(FinishReason::Length));
//! assert!(FinishReason::Length.is_truncation());
//! # Ok::<(), settled::provider::DecodeError>(())
//! ```
//!
//! A body that is not an event stream at all (the JSON of an HTTP 429, an HTML error
//! page) decodes to nothing, and [`Decoder::finish`] refuses it, with the provider's
//! message when there is one.
//!
//! # Text and tool calls
//!
//! The assistant's text and each tool call's arguments come on their own [`Channel`].
//! [`ToolStreams`] reads the tool calls only: prose before a call is never part of its
//! arguments. `settled replay --sse`, which streams one document without knowing which
//! kind of reply is coming, replays one channel: text in which no JSON value has begun
//! is held back and dropped if a tool call follows (the arguments are then the document);
//! once a value has begun in the text, even an example object in prose, the text is the
//! document and a later tool call is not read, since its settled values have been
//! reported already (so too once the text fails a limit or more than 1 MiB of it is
//! held). Under `--strict` JSON inside prose is no value, so the tool call is
//! read; to read a reply's tool calls whatever its text says, use [`ToolStreams`] (or feed
//! a stream only the [`Channel::Tool`] deltas).

pub(crate) mod calls;
mod event_json;
pub mod sse;
mod surrogates;
mod tools;

use serde_json::Value;
use sse::{SseEvent, SseParser};
use std::fmt;
use std::str::FromStr;
pub use tools::{ToolCall, ToolResult, ToolStreams};

/// The wire formats settled decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    /// OpenAI Chat Completions (`choices[].delta`).
    OpenAiChat,
    /// OpenAI Responses API (`response.output_text.delta`, …).
    OpenAiResponses,
    /// Anthropic Messages (`content_block_delta`, …).
    Anthropic,
}

impl FromStr for Provider {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "openai" => Ok(Provider::OpenAiChat),
            "openai-responses" => Ok(Provider::OpenAiResponses),
            "anthropic" => Ok(Provider::Anthropic),
            other => Err(format!(
                "unknown provider `{other}`; expected openai, openai-responses or anthropic"
            )),
        }
    }
}

/// Which text a delta extends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Channel {
    /// The assistant's text.
    Text,
    /// The arguments of tool call `n` (OpenAI's tool-call index, the Responses API's
    /// output index, Anthropic's content block index).
    Tool(usize),
}

/// Why the provider ended the response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FinishReason {
    /// A natural end (`stop`, `end_turn`, `completed`).
    Stop,
    /// OpenAI Chat's token limit (`length`).
    Length,
    /// Anthropic's token limit (`max_tokens`).
    MaxTokens,
    /// The Responses API's token limit (`max_output_tokens`).
    MaxOutputTokens,
    /// Anthropic's context window filled up (`model_context_window_exceeded`): a cut like
    /// a token limit.
    ContextWindowExceeded,
    /// The model called tools.
    ToolCalls,
    /// Filtered (`content_filter`).
    ContentFilter,
    /// Anthropic's model declined to go on (`stop_reason: refusal`).
    Refusal,
    /// Anything else, as sent.
    Other(String),
}

impl FinishReason {
    /// The provider cut the response at a token limit: the value is truncated.
    pub fn is_truncation(&self) -> bool {
        matches!(
            self,
            FinishReason::Length
                | FinishReason::MaxTokens
                | FinishReason::MaxOutputTokens
                | FinishReason::ContextWindowExceeded
        )
    }

    /// For a truncation, its name on the wire: the cause a stream's `finish_cut` names.
    pub fn cut_cause(&self) -> Option<&'static str> {
        match self {
            FinishReason::Length => Some("length"),
            FinishReason::MaxTokens => Some("max_tokens"),
            FinishReason::MaxOutputTokens => Some("max_output_tokens"),
            FinishReason::ContextWindowExceeded => Some("model_context_window_exceeded"),
            _ => None,
        }
    }

    /// The provider stopped the response before its end (a token limit, a filter, a
    /// refusal): its name on the wire, which a value left incomplete is a truncation for.
    pub fn stop_cause(&self) -> Option<&'static str> {
        match self {
            FinishReason::ContentFilter => Some("content_filter"),
            FinishReason::Refusal => Some("refusal"),
            other => other.cut_cause(),
        }
    }

    /// The name on the wire.
    pub fn wire_name(&self) -> &str {
        match self {
            FinishReason::Stop => "stop",
            FinishReason::Length => "length",
            FinishReason::MaxTokens => "max_tokens",
            FinishReason::MaxOutputTokens => "max_output_tokens",
            FinishReason::ContextWindowExceeded => "model_context_window_exceeded",
            FinishReason::ToolCalls => "tool_calls",
            FinishReason::ContentFilter => "content_filter",
            FinishReason::Refusal => "refusal",
            FinishReason::Other(name) => name,
        }
    }

    fn from_wire(name: &str) -> Self {
        match name {
            "stop" | "end_turn" | "stop_sequence" | "completed" => FinishReason::Stop,
            "length" => FinishReason::Length,
            "max_tokens" => FinishReason::MaxTokens,
            "max_output_tokens" => FinishReason::MaxOutputTokens,
            "model_context_window_exceeded" => FinishReason::ContextWindowExceeded,
            "tool_calls" | "tool_use" | "function_call" => FinishReason::ToolCalls,
            "content_filter" => FinishReason::ContentFilter,
            "refusal" => FinishReason::Refusal,
            other => FinishReason::Other(other.to_owned()),
        }
    }
}

/// What a provider event carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delta {
    /// More text of a channel.
    Text {
        /// Whose text.
        channel: Channel,
        /// The fragment.
        text: String,
    },
    /// A tool call began.
    ToolStart {
        /// Its channel index: the provider's index for the call, but where a call with a
        /// new id comes at an index a call with another id already has (servers that give
        /// every call index 0), the next free one.
        index: usize,
        /// The call id, if sent.
        id: Option<String>,
        /// The tool's name, if sent.
        name: Option<String>,
    },
    /// The response ended.
    Finish(FinishReason),
}

/// A provider stream that could not be decoded, or an error event the provider sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DecodeError {}

fn error(message: impl Into<String>) -> DecodeError {
    DecodeError {
        message: surrogates::scrub(message.into()),
    }
}

/// The most bytes one event may hold in a [`Decoder::new`]: eight times the default byte
/// cap (escapes and the provider's JSON around the text), plus 64 KiB.
pub const DEFAULT_EVENT_LIMIT: usize = 8 * 64 * 1024 * 1024 + 64 * 1024;

/// Decodes one provider's SSE stream, chunk by chunk.
#[derive(Debug)]
pub struct Decoder {
    provider: Provider,
    sse: SseParser,
    done: bool,
    /// An error met after deltas of the same call: returned by the next call, so the
    /// deltas before it are delivered first, however the body was split.
    failed: Option<DecodeError>,
    /// The body's first bytes, up to [`HEAD_LIMIT`], kept until a line shows it is an event
    /// stream: if none does, the error quotes them (an HTTP error's JSON body).
    head: Vec<u8>,
    /// The body is longer than `head`.
    longer: bool,
    /// The tool calls begun, and which have had argument text.
    calls: calls::Calls,
    /// What the model wrote instead of an answer, if it refused.
    refusal: calls::Refusal,
    /// Characters split between two deltas in UTF-16 halves, put back together.
    joiner: surrogates::Joiner,
}

/// The most bytes of a body's start a [`Decoder`] keeps to explain a body that is not an
/// event stream.
const HEAD_LIMIT: usize = 64 * 1024;

impl Decoder {
    /// A decoder for `provider`'s wire format, refusing an event of more than
    /// [`DEFAULT_EVENT_LIMIT`] bytes.
    pub fn new(provider: Provider) -> Self {
        Decoder {
            provider,
            sse: SseParser::with_limit(DEFAULT_EVENT_LIMIT),
            done: false,
            failed: None,
            head: Vec::new(),
            longer: false,
            calls: calls::Calls::default(),
            refusal: calls::Refusal::default(),
            joiner: surrogates::Joiner::default(),
        }
    }

    /// A decoder that refuses an event of more than `limit` bytes (memory stays bounded
    /// whatever the body: a line that never ends is an error, not a buffer).
    pub fn with_limit(provider: Provider, limit: usize) -> Self {
        Decoder {
            sse: SseParser::with_limit(limit),
            ..Decoder::new(provider)
        }
    }

    /// Feeds raw bytes of the HTTP body; returns the deltas they complete.
    ///
    /// # Errors
    ///
    /// An event that is not the provider's JSON, the provider's own error event, or the
    /// end of a response the model refused to give (OpenAI's `refusal` text, quoted:
    /// `the model refused: …`). The deltas decoded before it in the same call are
    /// returned first, and the error by the next call (or [`Decoder::finish`]); after an
    /// error every call returns it.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<Delta>, DecodeError> {
        if let Some(error) = &self.failed {
            return Err(error.clone());
        }
        let mut deltas = Vec::new();
        let events = self.sse.feed(bytes);
        if self.sse.is_event_stream() {
            self.head = Vec::new();
        } else {
            let room = HEAD_LIMIT.saturating_sub(self.head.len());
            let keep = bytes.get(..room).unwrap_or(bytes);
            self.head.extend_from_slice(keep);
            self.longer |= keep.len() < bytes.len();
        }
        let mut failed = self.sse.over_limit().then(|| {
            error(format!(
                "an event of the stream is longer than the limit of {} bytes",
                self.sse.limit().unwrap_or(0)
            ))
        });
        for event in events {
            if let Err(error) = self.event(&event, &mut deltas) {
                failed = Some(error);
                break;
            }
        }
        if let Some(error) = failed {
            self.failed = Some(error.clone());
            if deltas.is_empty() {
                return Err(error);
            }
        }
        Ok(deltas)
    }

    /// Ends the body. An event the body ended inside (no blank line after it: a dropped
    /// connection) is discarded, as the event-stream rules say; the value it would have
    /// extended is then judged on the text so far (a cut is `Truncated`). Returns the
    /// arguments of the calls whose start carried them whole and no argument text came
    /// for, when the body ended without a finish reason (nothing of them was cut).
    ///
    /// # Errors
    ///
    /// An error [`Decoder::feed`] met but has not returned yet; or a body that is not an
    /// event stream: not empty, yet without a single comment or `data`, `event`, `id` or
    /// `retry` line (an HTTP error's JSON body, an HTML page). Its error quotes the
    /// provider's message when the body is a JSON object with an `"error"` member, and
    /// the body's start otherwise. A body with event-stream lines but no text (only
    /// keep-alive comments, say) is no error: it decodes to no deltas.
    ///
    /// ```
    /// use settled::provider::{Decoder, Provider};
    ///
    /// let mut decoder = Decoder::new(Provider::OpenAiChat);
    /// let body = br#"{"error": {"message": "Rate limit reached", "code": "rate_limit_exceeded"}}"#;
    /// assert!(decoder.feed(body)?.is_empty());
    /// let error = decoder.finish().unwrap_err();
    /// assert_eq!(
    ///     error.message,
    ///     "the body is not a server-sent event stream; the provider sent an error: Rate limit reached"
    /// );
    /// # Ok::<(), settled::provider::DecodeError>(())
    /// ```
    pub fn finish(&mut self) -> Result<Vec<Delta>, DecodeError> {
        if let Some(error) = &self.failed {
            return Err(error.clone());
        }
        if let Err(error) = self.refusal.end() {
            self.failed = Some(error.clone());
            return Err(error);
        }
        self.sse.finish();
        let head = std::mem::take(&mut self.head);
        if !self.sse.is_event_stream() && (self.longer || !trimmed(&head).is_empty()) {
            let error = not_event_stream(trimmed(&head));
            self.failed = Some(error.clone());
            return Err(error);
        }
        let mut deltas = Vec::new();
        self.calls.end_whole(&mut deltas);
        self.join_halves(&mut deltas, 0);
        // A first half still waiting for its second when the body ends has none.
        deltas.extend(self.joiner.unpaired().map(|channel| Delta::Text {
            channel,
            text: char::REPLACEMENT_CHARACTER.to_string(),
        }));
        Ok(deltas)
    }

    fn event(&mut self, event: &SseEvent, deltas: &mut Vec<Delta>) -> Result<(), DecodeError> {
        if self.done || event.data.trim() == "[DONE]" {
            self.done = true;
            return Ok(());
        }
        if event.data.trim().is_empty() {
            return Ok(());
        }
        let data = surrogates::mark(&event.data);
        let value: Value = match serde_json::from_str(&data) {
            Ok(value) => value,
            Err(e) => event_json::wide_value(&data).ok_or_else(|| {
                error(format!(
                    "an event's data is not JSON ({e}): {}",
                    excerpt(&event.data, 200)
                ))
            })?,
        };
        let calls = &mut self.calls;
        let start = deltas.len();
        let read = match self.provider {
            Provider::OpenAiChat => openai_chat(&value, calls, &mut self.refusal, deltas),
            Provider::OpenAiResponses => openai_responses(&value, calls, &mut self.refusal, deltas),
            Provider::Anthropic => anthropic(&value, &data, calls, deltas),
        };
        // Also for an event with no half of its own: a delta may carry text read from an
        // earlier event (an Anthropic tool's input sent whole at its start).
        self.join_halves(deltas, start);
        read
    }

    /// The text deltas from `start` on, with characters split in UTF-16 halves joined
    /// (a delta left empty, all of it a half held for the next, is dropped).
    fn join_halves(&mut self, deltas: &mut Vec<Delta>, start: usize) {
        let mut i = start;
        while let Some(delta) = deltas.get_mut(i) {
            if let Delta::Text { channel, text } = delta {
                let had = !text.is_empty();
                *text = self.joiner.text(*channel, std::mem::take(text));
                if had && text.is_empty() {
                    deltas.remove(i);
                    continue;
                }
            }
            i += 1;
        }
    }
}

fn index(value: &Value) -> usize {
    value
        .as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(0)
}

fn text(value: &Value) -> Option<String> {
    value.as_str().filter(|s| !s.is_empty()).map(str::to_owned)
}

fn provider_error(value: &Value) -> DecodeError {
    let message = value["error"]["message"]
        .as_str()
        .or_else(|| value["error"].as_str())
        .or_else(|| value["message"].as_str())
        .unwrap_or("unknown error");
    let message = excerpt(message, 2000);
    error(format!("the provider sent an error: {message}"))
}

/// `bytes` without the whitespace around them and a byte-order mark before them.
fn trimmed(bytes: &[u8]) -> &[u8] {
    let bytes = bytes.trim_ascii_start();
    bytes
        .strip_prefix("\u{feff}".as_bytes())
        .unwrap_or(bytes)
        .trim_ascii()
}

/// The error for a body that is not an event stream, whose (trimmed) start is `head`.
fn not_event_stream(head: &[u8]) -> DecodeError {
    const NOT_SSE: &str = "the body is not a server-sent event stream";
    let text = String::from_utf8_lossy(head);
    // The JSON body of an HTTP error, maybe after the status and headers `curl -i` prints.
    let json = serde_json::from_str::<Value>(&text).ok().or_else(|| {
        let start = text.find("\n{").map_or(0, |i| i + 1);
        serde_json::from_str(text.get(start..).unwrap_or_default()).ok()
    });
    // `"error": null` (some servers send it on every response) is no error.
    let error = json
        .as_ref()
        .and_then(|v| v.get("error"))
        .filter(|e| !e.is_null());
    if let Some(error) = error {
        let message = match error {
            Value::String(message) => message.clone(),
            _ => match error.get("message").and_then(Value::as_str) {
                Some(message) => message.to_owned(),
                None => error.to_string(),
            },
        };
        let message = excerpt(&message, 2000);
        return self::error(format!("{NOT_SSE}; the provider sent an error: {message}"));
    }
    let start: String = text.chars().take(100).collect();
    let more = if start.len() < text.len() { "…" } else { "" };
    let hint = if json.is_some() {
        " (a response to a request made without streaming?)"
    } else {
        ""
    };
    self::error(format!("{NOT_SSE}{hint}: it begins {start:?}{more}"))
}

/// The first `chars` characters of `text`, and `…` if there is more: an error quotes the
/// input it failed on without holding all of it (an event may be hundreds of MiB).
fn excerpt(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((end, _)) => format!("{}…", text.get(..end).unwrap_or_default()),
        None => text.to_owned(),
    }
}

fn openai_chat(
    value: &Value,
    calls: &mut calls::Calls,
    refusal: &mut calls::Refusal,
    deltas: &mut Vec<Delta>,
) -> Result<(), DecodeError> {
    // Some servers send `"error": null` on every chunk.
    if value.get("error").is_some_and(|e| !e.is_null()) {
        return Err(provider_error(value));
    }
    let choices = value["choices"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    for choice in choices.iter().filter(|c| index(&c["index"]) == 0) {
        let delta = &choice["delta"];
        if let Some(more) = delta["refusal"].as_str() {
            refusal.push(more);
        }
        if let Some(content) = text(&delta["content"]) {
            deltas.push(Delta::Text {
                channel: Channel::Text,
                text: content,
            });
        }
        for call in delta["tool_calls"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            calls.openai_call(
                call.get("index").filter(|n| !n.is_null()).map(index),
                text(&call["id"]),
                text(&call["function"]["name"]),
                text(&call["function"]["arguments"]),
                deltas,
            );
        }
        // The deprecated `functions` parameter: one call, without an index or an id.
        let legacy = &delta["function_call"];
        if legacy.is_object() {
            let n = calls.call_of(Some(0), None, None);
            if let Some(name) = text(&legacy["name"]) {
                calls.start(n, &Value::Null, || None);
                deltas.push(Delta::ToolStart {
                    index: n,
                    id: None,
                    name: Some(name),
                });
            }
            if let Some(arguments) = text(&legacy["arguments"]) {
                calls.arguments(n, arguments, deltas);
            }
        }
        if let Some(reason) = choice["finish_reason"].as_str() {
            refusal.end()?;
            let reason = FinishReason::from_wire(reason);
            calls.end_all(&reason, deltas);
            deltas.push(Delta::Finish(reason));
        }
    }
    Ok(())
}

fn openai_responses(
    value: &Value,
    calls: &mut calls::Calls,
    refusal: &mut calls::Refusal,
    deltas: &mut Vec<Delta>,
) -> Result<(), DecodeError> {
    match value["type"].as_str().unwrap_or_default() {
        "response.refusal.delta" => {
            if let Some(more) = value["delta"].as_str() {
                refusal.push(more);
            }
        }
        "response.refusal.done" => {
            if let Some(whole) = value["refusal"].as_str() {
                refusal.whole(whole);
            }
        }
        "response.output_text.delta" => {
            if let Some(delta) = text(&value["delta"]) {
                deltas.push(Delta::Text {
                    channel: Channel::Text,
                    text: delta,
                });
            }
        }
        "response.function_call_arguments.delta" => {
            if let Some(delta) = text(&value["delta"]) {
                calls.arguments(index(&value["output_index"]), delta, deltas);
            }
        }
        "response.function_call_arguments.done" => {
            // The whole arguments: read when no delta brought them (`{}` when empty).
            let n = index(&value["output_index"]);
            if let Some(arguments) = text(&value["arguments"]).filter(|_| calls.is_started(n)) {
                if !calls.has_arguments(n) {
                    calls.arguments(n, arguments, deltas);
                }
            }
            calls.end(n, deltas);
        }
        "response.output_item.added" if value["item"]["type"] == "function_call" => {
            calls.start(
                index(&value["output_index"]),
                &value["item"]["arguments"],
                || None,
            );
            deltas.push(Delta::ToolStart {
                index: index(&value["output_index"]),
                id: text(&value["item"]["call_id"]),
                name: text(&value["item"]["name"]),
            });
        }
        "response.output_item.done" if value["item"]["type"] == "function_call" => {
            // Its arguments whole: read if no argument event brought them.
            calls.start(
                index(&value["output_index"]),
                &value["item"]["arguments"],
                || None,
            );
        }
        "response.completed" => {
            refusal.end()?;
            calls.end_all(&FinishReason::Stop, deltas);
            deltas.push(Delta::Finish(FinishReason::Stop));
        }
        "response.incomplete" => {
            refusal.end()?;
            let reason = value["response"]["incomplete_details"]["reason"]
                .as_str()
                .unwrap_or("incomplete");
            let reason = FinishReason::from_wire(reason);
            calls.end_all(&reason, deltas);
            deltas.push(Delta::Finish(reason));
        }
        "response.failed" => return Err(provider_error(&value["response"])),
        "error" => return Err(provider_error(value)),
        _ => {}
    }
    Ok(())
}

fn anthropic(
    value: &Value,
    data: &str,
    calls: &mut calls::Calls,
    deltas: &mut Vec<Delta>,
) -> Result<(), DecodeError> {
    let kind = value["type"].as_str().unwrap_or_default();
    if kind == "content_block_start" {
        // A block begins: the tool calls before it are whole (only the last call of a
        // message can be cut), so one without argument text has none.
        calls.end_before(index(&value["index"]), deltas);
    }
    match kind {
        "content_block_start" if value["content_block"]["type"] == "text" => {
            if let Some(t) = text(&value["content_block"]["text"]) {
                deltas.push(Delta::Text {
                    channel: Channel::Text,
                    text: t,
                });
            }
        }
        "content_block_start" if value["content_block"]["type"] == "tool_use" => {
            let input = &value["content_block"]["input"];
            calls.start(index(&value["index"]), input, || {
                event_json::source_text(data, &["content_block", "input"])
                    .map(|text| surrogates::unmark_escapes(&text))
            });
            deltas.push(Delta::ToolStart {
                index: index(&value["index"]),
                id: text(&value["content_block"]["id"]),
                name: text(&value["content_block"]["name"]),
            });
        }
        "content_block_delta" => {
            let delta = &value["delta"];
            match delta["type"].as_str().unwrap_or_default() {
                "text_delta" => {
                    if let Some(t) = text(&delta["text"]) {
                        deltas.push(Delta::Text {
                            channel: Channel::Text,
                            text: t,
                        });
                    }
                }
                "input_json_delta" => {
                    // Only a block begun as `tool_use`: a provider's own tool
                    // (`server_tool_use`, a web search) is no call of the caller's.
                    let n = index(&value["index"]);
                    if let Some(t) = text(&delta["partial_json"]).filter(|_| calls.is_started(n)) {
                        calls.arguments(n, t, deltas);
                    }
                }
                _ => {}
            }
        }
        "message_delta" => {
            // The calls end with the message: its stop reason says whether they are whole.
            if let Some(reason) = value["delta"]["stop_reason"].as_str() {
                let reason = FinishReason::from_wire(reason);
                calls.end_all(&reason, deltas);
                deltas.push(Delta::Finish(reason));
            }
        }
        "error" => return Err(provider_error(value)),
        _ => {}
    }
    Ok(())
}

/// Ends a stream the way the provider ended the response: a finish reason that stopped it
/// early (a token limit, a content filter, a refusal) with the value incomplete is a
/// truncation that names it; any other ending (or none seen) is a plain `finish`.
///
/// ```
/// use settled::DynamicStream;
/// use settled::provider::{FinishReason, FinishWith};
///
/// let mut stream = DynamicStream::new();
/// stream.feed(br#"{"a": [1, 2"#)?;
/// let err = stream.finish_with(Some(&FinishReason::Length)).unwrap_err();
/// assert!(err.to_string().contains("`length`"));
/// # Ok::<(), settled::Error>(())
/// ```
pub trait FinishWith: Sized {
    /// What finishing gives.
    type Output;
    /// Ends the input as `reason` says.
    fn finish_with(self, reason: Option<&FinishReason>) -> Self::Output;
}

impl<T: crate::StreamingModel> FinishWith for crate::TypedStream<T> {
    type Output = Result<T::Value, crate::StreamError<T>>;
    fn finish_with(self, reason: Option<&FinishReason>) -> Self::Output {
        match reason.and_then(FinishReason::stop_cause) {
            Some(cause) => self.finish_cut(cause),
            None => self.finish(),
        }
    }
}

impl FinishWith for crate::DynamicStream {
    type Output = Result<crate::PartialValue, crate::DynamicError>;
    fn finish_with(self, reason: Option<&FinishReason>) -> Self::Output {
        match reason.and_then(FinishReason::stop_cause) {
            Some(cause) => self.finish_cut(cause),
            None => self.finish(),
        }
    }
}
