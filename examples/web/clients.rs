//! settled with the clients a Rust application already has: async-openai (OpenAI's chat
//! completions, typed), and reqwest (the raw path for any provider: the body's bytes into
//! settled's provider decoder). These functions are the README's "Using it with your
//! provider" forms, compiled here; the `async_openai` and `reqwest` examples run them
//! against a local replay of recorded provider streams, and the tests check them
//! (`tests/clients.rs`, `tests/readme.rs` keeps the README's copies identical).

use async_openai::Client;
use async_openai::config::OpenAIConfig;
use async_openai::types::chat::{
    ChatCompletionRequestUserMessage, ChatCompletionTool, ChatCompletionTools,
    CreateChatCompletionRequestArgs, FunctionObject, ResponseFormat,
};
use futures::{Stream, StreamExt};
use settled::Update;
use settled::openai_client::ChatUpdates;
use settled::provider::{Channel, DecodeError, Decoder, Delta, FinishWith, Provider};
use settled::schema::Schema;
use settled_examples::models::{Review, ReviewDraft};
use std::error::Error;

// README: async-openai
/// Streams a review with async-openai: `response_format` from `Review`'s strict schema,
/// the message's text deltas into a typed stream, the draft rendered as it grows.
pub async fn review_with_async_openai(
    client: &Client<OpenAIConfig>,
    diff: &str,
    mut render: impl FnMut(&ReviewDraft),
) -> Result<Review, Box<dyn Error>> {
    // async-openai takes the schema as a `serde_json::Value`, whose objects keep their
    // key order (the order the model writes the fields in) only with serde_json's
    // `preserve_order` feature; without it, properties are sorted by name.
    let format = settled::schema::openai_response_format::<Review>("review").to_value();
    let request = CreateChatCompletionRequestArgs::default()
        .model("gpt-4o-2024-08-06")
        .messages([ChatCompletionRequestUserMessage::from(diff).into()])
        .response_format(serde_json::from_value::<ResponseFormat>(format)?)
        .build()?;
    let chunks = client.chat().create_stream(request).await?;

    let mut updates = ChatUpdates::content(Review::stream(), chunks).with_drafts();
    while let Some(update) = updates.next().await {
        match update? {
            Update::Draft(draft) => render(&draft),
            Update::Field(field) => println!("settled: {field:?}"),
            Update::Done(review) => return Ok(review), // a `length` finish: `Truncated`
        }
    }
    Err("the stream ended without a value".into())
}
// README: end

// README: async-openai tool call
/// The same as a tool call: `Review`'s strict schema as the tool's parameters, the call's
/// arguments streamed into a typed stream.
pub async fn review_call_with_async_openai(
    client: &Client<OpenAIConfig>,
    diff: &str,
    mut render: impl FnMut(&ReviewDraft),
) -> Result<Review, Box<dyn Error>> {
    let tool = ChatCompletionTools::Function(ChatCompletionTool {
        function: FunctionObject {
            name: "submit_review".into(),
            description: Some("Submit the review".into()),
            parameters: Some(settled::schema::openai_strict::<Review>().to_value()),
            strict: Some(true),
        },
    });
    let request = CreateChatCompletionRequestArgs::default()
        .model("gpt-4o-2024-08-06")
        .messages([ChatCompletionRequestUserMessage::from(diff).into()])
        .tools(vec![tool])
        .build()?;
    let chunks = client.chat().create_stream(request).await?;

    // Tool call 0's arguments; several calls: `settled::openai_client::ChunkDeltas` into
    // `settled::provider::ToolStreams`.
    let mut updates = ChatUpdates::tool_call(Review::stream(), 0, chunks).with_drafts();
    while let Some(update) = updates.next().await {
        match update? {
            Update::Draft(draft) => render(&draft),
            Update::Field(_) => {}
            Update::Done(review) => return Ok(review),
        }
    }
    Err("the stream ended without a value".into())
}
// README: end

// README: reqwest
/// Streams a review over plain HTTP with reqwest: the body's bytes into settled's decoder
/// for the provider's wire format, the text into a typed stream, ended the way the
/// provider ended it. Any provider: `Provider::Anthropic` reads Anthropic's Messages.
pub async fn review_with_reqwest(
    http: &reqwest::Client,
    url: &str,
    diff: &str,
    mut render: impl FnMut(&ReviewDraft),
) -> Result<Review, Box<dyn Error>> {
    // The request as a `Schema`: JSON whose objects keep their key order when serialized.
    let request = Schema::object([
        ("model", Schema::from("gpt-4o-2024-08-06")),
        ("stream", Schema::from(true)),
        (
            "messages",
            vec![Schema::object([("role", "user"), ("content", diff)])].into(),
        ),
        (
            "response_format",
            settled::schema::openai_response_format::<Review>("review"),
        ),
    ]);
    let response = http
        .post(url)
        .json(&request)
        .send()
        .await?
        .error_for_status()?;

    let mut body = response.bytes_stream();
    let mut decoder = Decoder::new(Provider::OpenAiChat);
    let (mut stream, mut finish) = (Review::stream(), None);
    loop {
        let (deltas, end) = match body.next().await {
            Some(Ok(bytes)) => (decoder.feed(&bytes)?, false),
            // The body's end, or the connection dropped: what the decoder still held (an
            // event the body ended inside is dropped), then judge what arrived (a cut
            // value is `Truncated`).
            Some(Err(dropped)) => {
                eprintln!("the connection dropped: {dropped}");
                (decoder.finish()?, true)
            }
            None => (decoder.finish()?, true),
        };
        for delta in deltas {
            match delta {
                Delta::Text {
                    channel: Channel::Text,
                    text,
                } => {
                    for field in stream.feed(text.as_bytes())? {
                        println!("settled: {field:?}");
                    }
                    render(stream.draft());
                }
                Delta::Finish(reason) => finish = Some(reason),
                _ => {}
            }
        }
        if end {
            break;
        }
    }
    // `finish_reason: length` with the value incomplete: `Truncated`, naming `length`,
    // with the last draft (`StreamError::draft`).
    Ok(stream.finish_with(finish.as_ref())?)
}
// README: end

/// The same body as a `Stream` of the text it carries, for the async adapter
/// (`Review::stream().updates(text_deltas(body, provider))`). A dropped connection ends
/// the text: the adapter then judges what arrived (a cut value is `Truncated`, with the
/// last draft). The adapter does not see the finish reason, so its truncation error does
/// not name `length`; the loop of [`review_with_reqwest`] does.
pub fn text_deltas<S, B, E>(
    body: S,
    provider: Provider,
) -> impl Stream<Item = Result<String, DecodeError>> + Unpin
where
    S: Stream<Item = Result<B, E>> + Unpin,
    B: AsRef<[u8]>,
    E: std::fmt::Display,
{
    let decoder = Decoder::new(provider);
    Box::pin(futures::stream::unfold(
        Some((body, decoder)),
        |state| async move {
            let (mut body, mut decoder) = state?;
            loop {
                let bytes = match body.next().await {
                    Some(Ok(bytes)) => bytes,
                    Some(Err(dropped)) => {
                        eprintln!("the connection dropped: {dropped}");
                        return None;
                    }
                    None => return None,
                };
                let deltas = match decoder.feed(bytes.as_ref()) {
                    Ok(deltas) => deltas,
                    Err(e) => return Some((Err(e), None)),
                };
                let text: String = deltas
                    .into_iter()
                    .filter_map(|delta| match delta {
                        Delta::Text {
                            channel: Channel::Text,
                            text,
                        } => Some(text),
                        _ => None,
                    })
                    .collect();
                if !text.is_empty() {
                    return Some((Ok(text), Some((body, decoder))));
                }
            }
        },
    ))
}
