//! async-openai's client and reqwest, end to end over HTTP against a local server on
//! 127.0.0.1 (an ephemeral port) that replays the recorded OpenAI streams event by event:
//! a complete answer, a tool call, a token-limit finish and a connection dropped in the
//! middle of an event.

use async_openai::Client;
use async_openai::config::OpenAIConfig;
use async_openai::error::OpenAIError;
use async_openai::types::chat::{
    ChatCompletionRequestUserMessage, CreateChatCompletionRequestArgs,
};
use futures::StreamExt;
use serde_json::Value;
use settled::openai_client::{self, ChatUpdates};
use settled::provider::{Decoder, Delta, Provider, ToolStreams};
use settled::{ErrorKind, StreamError, Update, UpdateError};
use settled_examples::REVIEW_RESPONSE;
use settled_examples::models::{Review, ReviewDraft, Verdict};
use settled_web_examples::clients::{
    review_call_with_async_openai, review_with_async_openai, review_with_reqwest, text_deltas,
};
use settled_web_examples::replay::{
    OPENAI_REVIEW, OPENAI_REVIEW_CUT, OPENAI_TOOLS, Recording, Replay,
};

const DIFF: &str = "Review this diff: fn main() {}";
/// The event a dropped connection stops in: inside the first reason's text.
const DROP_IN: usize = 60;

/// The review the recordings hold.
fn expected() -> Review {
    let json =
        &REVIEW_RESPONSE[REVIEW_RESPONSE.find('{').unwrap()..=REVIEW_RESPONSE.rfind('}').unwrap()];
    serde_json::from_str(json).unwrap()
}

fn client(replay: &Replay) -> Client<OpenAIConfig> {
    Client::with_config(
        OpenAIConfig::new()
            .with_api_base(replay.api_base())
            .with_api_key("sk-test"),
    )
}

fn request(replay: &Replay) -> Value {
    let requests = replay.requests();
    assert_eq!(requests.len(), 1, "one request: {requests:?}");
    serde_json::from_str(&requests[0]).unwrap()
}

/// The draft of the text that arrived in whole events before event `n`.
fn draft_before_event(wire: &'static [u8], n: usize) -> ReviewDraft {
    let events = Recording::new(wire).events();
    let mut decoder = Decoder::new(Provider::OpenAiChat);
    let mut stream = Review::stream();
    for delta in decoder.feed(events[..n].concat().as_bytes()).unwrap() {
        if let Delta::Text { text, .. } = delta {
            stream.feed(text.as_bytes()).unwrap();
        }
    }
    stream.draft().clone()
}

/// Drafts only extend: each reason grows by appending, and reasons are only added.
fn assert_drafts_extend(drafts: &[ReviewDraft]) {
    for pair in drafts.windows(2) {
        let (before, after) = (
            pair[0].reasons.clone().unwrap_or_default(),
            pair[1].reasons.clone().unwrap_or_default(),
        );
        assert!(after.len() >= before.len(), "{pair:?}");
        for (b, a) in before.iter().zip(&after) {
            assert!(a.starts_with(b.as_str()), "{b:?} then {a:?}");
        }
        if pair[0].verdict.is_some() {
            assert_eq!(pair[0].verdict, pair[1].verdict);
        }
    }
}

#[tokio::test]
async fn async_openai_streams_a_response_format_answer_into_a_typed_stream() {
    let replay = Replay::start(Recording::new(OPENAI_REVIEW)).await.unwrap();
    let mut drafts = Vec::new();
    let review = review_with_async_openai(&client(&replay), DIFF, |d| drafts.push(d.clone()))
        .await
        .unwrap();
    assert_eq!(review, expected());

    // The request: streamed, `response_format` from the model's strict schema.
    let sent = request(&replay);
    assert_eq!(sent["stream"], true);
    assert_eq!(sent["messages"][0]["content"], DIFF);
    let format = settled::schema::openai_response_format::<Review>("review").to_value();
    assert_eq!(sent["response_format"], format);
    assert_eq!(sent["response_format"]["json_schema"]["strict"], true);

    // Live: a draft per chunk once the value began, a reason streaming before it is whole.
    assert!(drafts.len() > 40, "{} drafts", drafts.len());
    assert_drafts_extend(&drafts);
    let first_reason = &expected().reasons[0];
    assert!(drafts.iter().any(|d| {
        d.reasons.as_ref().and_then(|r| r.first()).is_some_and(|r| {
            !r.is_empty() && r.len() < first_reason.len() && first_reason.starts_with(r.as_str())
        })
    }));
}

#[tokio::test]
async fn async_openai_streams_a_tool_calls_arguments() {
    let replay = Replay::start(Recording::new(OPENAI_TOOLS)).await.unwrap();
    let mut drafts = Vec::new();
    let review = review_call_with_async_openai(&client(&replay), DIFF, |d| drafts.push(d.clone()))
        .await
        .unwrap();
    assert_eq!((review.verdict, review.score), (Verdict::Ship, 9));
    assert!(drafts.len() > 10);
    assert_drafts_extend(&drafts);
    let sent = request(&replay);
    let function = &sent["tools"][0]["function"];
    assert_eq!(function["name"], "submit_review");
    assert_eq!(function["strict"], true);
    assert_eq!(
        function["parameters"],
        settled::schema::openai_strict::<Review>().to_value()
    );

    // Both calls of the response over one async-openai stream: its chunks as settled's
    // deltas, each call's arguments in their own typed stream.
    let replay = Replay::start(Recording::new(OPENAI_TOOLS)).await.unwrap();
    let request = CreateChatCompletionRequestArgs::default()
        .model("gpt-4o-2024-08-06")
        .messages([ChatCompletionRequestUserMessage::from(DIFF).into()])
        .build()
        .unwrap();
    let mut chunks = client(&replay).chat().create_stream(request).await.unwrap();
    let (mut tools, mut finish, mut verdicts) = (ToolStreams::<Review>::new(), None, Vec::new());
    let mut deltas = openai_client::ChunkDeltas::new();
    while let Some(chunk) = chunks.next().await {
        for delta in deltas.read(&chunk.unwrap()) {
            if let Delta::Finish(reason) = &delta {
                finish = Some(reason.clone());
            }
            for (index, field) in tools.feed(&delta).unwrap() {
                if let settled_examples::models::ReviewField::Verdict(v) = field {
                    verdicts.push((index, v));
                }
            }
        }
    }
    assert_eq!(verdicts, [(0, Verdict::Ship), (1, Verdict::Hold)]);
    let names: Vec<_> = tools.calls().map(|(_, c)| c.name.clone()).collect();
    assert_eq!(
        names,
        [Some("submit_review".into()), Some("submit_review".into())]
    );
    let done = tools.finish(finish.as_ref());
    assert_eq!(
        done[1].1.as_ref().unwrap().reasons,
        ["Docs missing for the derive"]
    );
}

#[tokio::test]
async fn async_openai_a_token_limit_finish_is_truncated_naming_it_with_the_last_draft() {
    let replay = Replay::start(Recording::new(OPENAI_REVIEW_CUT))
        .await
        .unwrap();
    let err = review_with_async_openai(&client(&replay), DIFF, |_| {})
        .await
        .unwrap_err();
    let Ok(err) = err.downcast::<UpdateError<Review, OpenAIError>>() else {
        panic!("an update error");
    };
    let UpdateError::Stream(err) = *err else {
        panic!("settled's error, not the source's: {err}");
    };
    assert_eq!(err.kind(), ErrorKind::Truncated);
    assert!(err.to_string().contains("`length`"), "{err}");
    let draft = err.draft().expect("the last draft");
    assert_eq!(draft.verdict, Some(Verdict::Ship));
    assert_eq!(draft.reasons.as_ref().map(Vec::len), Some(2));
    assert!(draft.score.is_none());
}

#[tokio::test]
async fn async_openai_a_dropped_connection_is_the_sources_error_and_keeps_the_draft() {
    let replay = Replay::start(Recording::new(OPENAI_REVIEW).drop_in_event(DROP_IN))
        .await
        .unwrap();
    let request = CreateChatCompletionRequestArgs::default()
        .model("gpt-4o-2024-08-06")
        .messages([ChatCompletionRequestUserMessage::from(DIFF).into()])
        .build()
        .unwrap();
    let chunks = client(&replay).chat().create_stream(request).await.unwrap();
    let mut updates = ChatUpdates::content(Review::stream(), chunks);
    let mut last = None;
    while let Some(update) = updates.next().await {
        last = Some(update);
    }
    assert!(
        matches!(last, Some(Err(UpdateError::Source(_)))),
        "{last:?}"
    );
    assert_eq!(
        updates.draft(),
        Some(&draft_before_event(OPENAI_REVIEW, DROP_IN))
    );
}

#[tokio::test]
async fn reqwest_reads_a_complete_answer_and_sends_the_schema_in_order() {
    let replay = Replay::start(Recording::new(OPENAI_REVIEW)).await.unwrap();
    let mut drafts = Vec::new();
    let review = review_with_reqwest(&reqwest::Client::new(), &replay.url(), DIFF, |d| {
        drafts.push(d.clone())
    })
    .await
    .unwrap();
    assert_eq!(review, expected());
    assert_drafts_extend(&drafts);
    assert!(
        drafts
            .iter()
            .any(|d| d.reasons.is_some() && d.score.is_none())
    );

    // A `Schema` keeps its key order on the wire: the properties in the model's order.
    let raw = &replay.requests()[0];
    let at = |key: &str| raw.find(&format!("\"{key}\":{{")).unwrap();
    assert!(
        at("verdict") < at("reasons") && at("reasons") < at("score"),
        "{raw}"
    );
    let sent: Value = serde_json::from_str(raw).unwrap();
    let format = settled::schema::openai_response_format::<Review>("review").to_value();
    assert_eq!(sent["response_format"], format);
}

/// The error a reqwest read ended with: settled's, with the last draft.
fn stream_error(err: Box<dyn std::error::Error>) -> StreamError<Review> {
    match err.downcast::<StreamError<Review>>() {
        Ok(err) => *err,
        Err(other) => panic!("not settled's error: {other}"),
    }
}

#[tokio::test]
async fn reqwest_a_token_limit_finish_is_truncated_naming_it_with_the_last_draft() {
    let replay = Replay::start(Recording::new(OPENAI_REVIEW_CUT))
        .await
        .unwrap();
    let err = review_with_reqwest(&reqwest::Client::new(), &replay.url(), DIFF, |_| {})
        .await
        .unwrap_err();
    let err = stream_error(err);
    assert_eq!(err.kind(), ErrorKind::Truncated);
    assert!(err.to_string().contains("`length`"), "{err}");
    let draft = err.draft().expect("the last draft");
    assert_eq!(draft.verdict, Some(Verdict::Ship));
    assert_eq!(draft.reasons.as_ref().unwrap()[1], "Esc");
    let missing: Vec<&str> = err
        .missing()
        .iter()
        .map(|n| settled::FieldName::key(*n))
        .collect();
    assert!(missing.contains(&"score"), "{missing:?}");
}

#[tokio::test]
async fn reqwest_a_connection_dropped_mid_event_is_truncated_with_the_last_draft() {
    let replay = Replay::start(Recording::new(OPENAI_REVIEW).drop_in_event(DROP_IN))
        .await
        .unwrap();
    let err = review_with_reqwest(&reqwest::Client::new(), &replay.url(), DIFF, |_| {})
        .await
        .unwrap_err();
    let err = stream_error(err);
    assert_eq!(err.kind(), ErrorKind::Truncated);
    assert!(!err.to_string().contains("`length`"), "{err}");
    // The last draft is what the whole events before the cut one carried.
    let before = draft_before_event(OPENAI_REVIEW, DROP_IN);
    assert!(before.reasons.is_some(), "the cut falls inside the value");
    assert_eq!(err.draft(), Some(&before));
}

#[tokio::test]
async fn reqwest_through_the_async_adapter() {
    let http = reqwest::Client::new();
    for (recording, complete) in [
        (Recording::new(OPENAI_REVIEW), true),
        (Recording::new(OPENAI_REVIEW_CUT), false),
        (Recording::new(OPENAI_REVIEW).drop_in_event(DROP_IN), false),
    ] {
        let replay = Replay::start(recording).await.unwrap();
        let response = http.post(replay.url()).body("{}").send().await.unwrap();
        let text = text_deltas(response.bytes_stream(), Provider::OpenAiChat);
        let all: Vec<_> = Review::stream().updates(text).with_drafts().collect().await;
        let drafts: Vec<ReviewDraft> = all
            .iter()
            .filter_map(|u| match u {
                Ok(Update::Draft(d)) => Some(d.clone()),
                _ => None,
            })
            .collect();
        assert_drafts_extend(&drafts);
        match all.last() {
            Some(Ok(Update::Done(review))) if complete => assert_eq!(review, &expected()),
            Some(Err(UpdateError::Stream(err))) if !complete => {
                assert_eq!(err.kind(), ErrorKind::Truncated);
                assert_eq!(err.draft(), drafts.last(), "the last draft");
            }
            other => panic!("{other:?}"),
        }
    }
}
