//! Provider decoders on recorded streams (o200k_base token chunks, the providers' exact
//! wire format), tool-call demultiplexing, and the async update stream.
// Models here are streamed, not read field by field.
#![allow(dead_code)]

use settled::ErrorKind;
use settled::provider::FinishWith;
use settled::provider::{Channel, Decoder, Delta, FinishReason, Provider, ToolStreams};
use settled::{Update, UpdateError};
use settled_examples::models::{Review, ReviewField, Verdict};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/../examples/recorded/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Decodes `bytes` fed in `chunk`-byte pieces.
fn decode(provider: Provider, bytes: &[u8], chunk: usize) -> Vec<Delta> {
    let mut decoder = Decoder::new(provider);
    let mut deltas: Vec<Delta> = bytes
        .chunks(chunk)
        .flat_map(|c| decoder.feed(c).unwrap())
        .collect();
    deltas.extend(decoder.finish().unwrap());
    deltas
}

fn text_of(deltas: &[Delta], channel: Channel) -> String {
    deltas
        .iter()
        .filter_map(|d| match d {
            Delta::Text { channel: c, text } if *c == channel => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn finish_of(deltas: &[Delta]) -> Option<&FinishReason> {
    deltas.iter().rev().find_map(|d| match d {
        Delta::Finish(r) => Some(r),
        _ => None,
    })
}

const REVIEW: &str = include_str!("../../examples/recorded/review.txt");

#[test]
fn each_decoder_recovers_the_text_at_any_chunking() {
    for (provider, name, reason) in [
        (
            Provider::OpenAiChat,
            "openai_review.sse",
            FinishReason::Stop,
        ),
        (
            Provider::OpenAiResponses,
            "openai_responses_review.sse",
            FinishReason::Stop,
        ),
        (
            Provider::Anthropic,
            "anthropic_review.sse",
            FinishReason::Stop,
        ),
    ] {
        let wire = fixture(name);
        assert!(
            wire.windows(13).any(|w| w == b": keep-alive\n"),
            "{name} holds an SSE comment"
        );
        for chunk in [1, 7, 64, wire.len()] {
            let deltas = decode(provider, &wire, chunk);
            assert_eq!(text_of(&deltas, Channel::Text), REVIEW, "{name} at {chunk}");
            assert_eq!(finish_of(&deltas), Some(&reason), "{name}");
            let texts = deltas
                .iter()
                .filter(|d| matches!(d, Delta::Text { .. }))
                .count();
            assert!(texts > 60, "{name}: token-sized deltas, got {texts}");
        }
    }
}

#[test]
fn a_token_limit_cut_is_a_truncation_that_names_its_cause() {
    for (provider, name, wire_reason) in [
        (Provider::OpenAiChat, "openai_review_cut.sse", "length"),
        (
            Provider::OpenAiResponses,
            "openai_responses_cut.sse",
            "max_output_tokens",
        ),
        (Provider::Anthropic, "anthropic_tool_cut.sse", "max_tokens"),
    ] {
        let deltas = decode(provider, &fixture(name), 5);
        let reason = finish_of(&deltas).expect("a finish reason").clone();
        assert!(reason.is_truncation(), "{name}");
        let channel = if name.contains("tool") {
            Channel::Tool(0)
        } else {
            Channel::Text
        };
        let mut stream = Review::stream();
        stream.feed(text_of(&deltas, channel).as_bytes()).unwrap();
        let err = stream.finish_with(Some(&reason)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Truncated, "{name}");
        assert!(err.to_string().contains(wire_reason), "{name}: {err}");
        assert!(err.draft().is_some(), "the draft is kept");
    }
}

#[test]
fn two_interleaved_tool_calls_each_get_their_own_stream() {
    let deltas = decode(Provider::OpenAiChat, &fixture("openai_tools.sse"), 3);
    let starts: Vec<_> = deltas
        .iter()
        .filter_map(|d| match d {
            Delta::ToolStart { index, id, name } => Some((*index, id.clone(), name.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(starts.len(), 2);
    assert_eq!(
        starts[1],
        (1, Some("call_1".into()), Some("submit_review".into()))
    );
    let mut tools = ToolStreams::<Review>::new();
    let mut settled = Vec::new();
    for delta in &deltas {
        for (index, field) in tools.feed(delta).unwrap() {
            if let ReviewField::Verdict(v) = field {
                settled.push((index, v));
            }
        }
    }
    assert_eq!(settled, [(0, Verdict::Ship), (1, Verdict::Hold)]);
    let results = tools.finish(finish_of(&deltas));
    assert_eq!(results[0].1.as_ref().unwrap().score, 9);
    assert_eq!(
        results[1].1.as_ref().unwrap().reasons,
        ["Docs missing for the derive"]
    );
}

#[test]
fn anthropic_tool_use_streams_its_input() {
    let deltas = decode(Provider::Anthropic, &fixture("anthropic_tool.sse"), 11);
    assert!(deltas.iter().any(
        |d| matches!(d, Delta::ToolStart { index: 0, name: Some(n), .. } if n == "submit_review")
    ));
    let json = text_of(&deltas, Channel::Tool(0));
    assert_eq!(
        json,
        include_str!("../../examples/recorded/review_args_a.json")
    );
    assert_eq!(finish_of(&deltas), Some(&FinishReason::ToolCalls));
}

/// A tool without parameters: its arguments stream as nothing, or as `""`, and are `{}`.
#[test]
fn a_tool_call_without_arguments_has_the_arguments_of_an_empty_object() {
    #[derive(Debug, PartialEq, serde::Deserialize, settled::StreamingModel)]
    struct Now {}
    let anthropic = concat!(
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"now\",\"input\":{}}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\"}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"}}\n\n",
    );
    let responses = concat!(
        "data: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"type\":\"function_call\",\"call_id\":\"c1\",\"name\":\"now\",\"arguments\":\"\"}}\n\n",
        "data: {\"type\":\"response.function_call_arguments.done\",\"output_index\":0,\"arguments\":\"{}\"}\n\n",
        "data: {\"type\":\"response.completed\",\"response\":{}}\n\n",
    );
    let chat = concat!(
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"now\",\"arguments\":\"\"}}]}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n",
        "data: [DONE]\n\n",
    );
    for (provider, body) in [
        (Provider::Anthropic, anthropic),
        (Provider::OpenAiResponses, responses),
        (Provider::OpenAiChat, chat),
    ] {
        for chunk in [1, 7, body.len()] {
            let deltas = decode(provider, body.as_bytes(), chunk);
            assert_eq!(text_of(&deltas, Channel::Tool(0)), "{}", "{provider:?}");
            let mut tools = ToolStreams::<Now>::new();
            for delta in &deltas {
                tools.feed(delta).unwrap();
            }
            let results = tools.finish(finish_of(&deltas));
            assert_eq!(results.len(), 1, "{provider:?}");
            assert_eq!(results[0].1.as_ref().ok(), Some(&Now {}), "{provider:?}");
        }
    }
    // Arguments that arrive only whole, in the `.done` event, are read from it.
    let whole = responses.replace(
        r#""arguments":"{}""#,
        r#""arguments":"{\"city\": \"Oslo\"}""#,
    );
    assert_ne!(whole, responses);
    let deltas = decode(Provider::OpenAiResponses, whole.as_bytes(), 5);
    assert_eq!(text_of(&deltas, Channel::Tool(0)), r#"{"city": "Oslo"}"#);
    // A token-limit cut, a filter or a refusal before any argument came is no empty
    // object: the call stays without arguments (a truncation).
    for (provider, body, natural) in [
        (
            Provider::OpenAiChat,
            chat,
            r#""finish_reason":"tool_calls""#,
        ),
        (
            Provider::Anthropic,
            anthropic,
            r#""stop_reason":"tool_use""#,
        ),
    ] {
        for ending in ["length", "max_tokens", "content_filter", "refusal"] {
            let key = natural.split(':').next().unwrap();
            let cut = body.replace(natural, &format!(r#"{key}:"{ending}""#));
            assert_ne!(cut, body);
            let deltas = decode(provider, cut.as_bytes(), 5);
            assert_eq!(
                text_of(&deltas, Channel::Tool(0)),
                "",
                "{provider:?} {ending}"
            );
        }
    }
    // Arguments sent whole with the call's start (a server that streams none) are read.
    let whole = anthropic.replace(r#""input":{}"#, r#""input":{"city":"Oslo"}"#);
    assert_ne!(whole, anthropic);
    let deltas = decode(Provider::Anthropic, whole.as_bytes(), 4);
    assert_eq!(text_of(&deltas, Channel::Tool(0)), r#"{"city":"Oslo"}"#);
    // Byte for byte as the provider wrote them: numbers digit for digit, members in their
    // order, spacing, escapes and a repeated key (read as the same arguments streamed
    // are); a `serde_json::Value` rounded the long number, wrote `1.1`, sorted the keys
    // and kept one `zeta`. A number past serde_json's range no longer fails the event.
    let exact = r#"{"zeta":"first", "id" : 12345678901234567890123,"price":1.10,"a":[-0.0,1e400],"s":"\u00e9\ud83d\ude80","zeta":2}"#;
    let whole = anthropic.replace(r#""input":{}"#, &format!(r#""input":{exact}"#));
    let deltas = decode(Provider::Anthropic, whole.as_bytes(), 4);
    assert_eq!(text_of(&deltas, Channel::Tool(0)), exact);
    // Whatever whitespace the event holds (no stall guard applies to it), and the last of
    // a repeated `input`, as serde reads it, also beside a number past its range.
    let spaced = whole.replace(r#""input":"#, &format!(r#"{}"input":"#, " ".repeat(17_000)));
    let deltas = decode(Provider::Anthropic, spaced.as_bytes(), 4096);
    assert_eq!(text_of(&deltas, Channel::Tool(0)), exact);
    let repeated = anthropic.replace(r#""input":{}"#, r#""input":{},"input":{"n":1e400}"#);
    let deltas = decode(Provider::Anthropic, repeated.as_bytes(), 4);
    assert_eq!(text_of(&deltas, Channel::Tool(0)), r#"{"n":1e400}"#);
    // A call followed by another block is whole, even if the message is cut later: only
    // the last call is the cut one.
    let two = concat!(
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t0\",\"name\":\"now\",\"input\":{}}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\"}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"now\",\"input\":{}}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\\\": 4\"}}\n\n",
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"}}\n\n",
    );
    for chunk in [1, 7, two.len()] {
        let deltas = decode(Provider::Anthropic, two.as_bytes(), chunk);
        assert_eq!(text_of(&deltas, Channel::Tool(0)), "{}");
        assert_eq!(text_of(&deltas, Channel::Tool(1)), r#"{"a": 4"#);
        let mut tools = ToolStreams::<Now>::new();
        for delta in &deltas {
            tools.feed(delta).unwrap();
        }
        let results = tools.finish(finish_of(&deltas));
        assert_eq!(results[0].1.as_ref().ok(), Some(&Now {}));
        let cut = results[1].1.as_ref().unwrap_err();
        assert_eq!(cut.kind(), settled::ErrorKind::Truncated);
    }
}

/// Anthropic's context window filling up is a cut like a token limit; an error event
/// whose `error` is a bare string is quoted.
#[test]
fn a_full_context_window_is_a_cut_and_a_string_error_is_quoted() {
    let reason = "model_context_window_exceeded";
    let body = format!(
        "event: content_block_start\ndata: {{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{{\"type\":\"text\",\"text\":\"\"}}}}\n\n\
         event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{{\"type\":\"text_delta\",\"text\":\"{{\\\"a\\\": [1\"}}}}\n\n\
         event: message_delta\ndata: {{\"type\":\"message_delta\",\"delta\":{{\"stop_reason\":\"{reason}\"}}}}\n\n"
    );
    let deltas = decode(Provider::Anthropic, body.as_bytes(), 3);
    let finish = finish_of(&deltas).unwrap();
    assert!(finish.is_truncation());
    assert_eq!(finish.wire_name(), reason);
    let mut stream = settled::DynamicStream::new();
    stream
        .feed(text_of(&deltas, Channel::Text).as_bytes())
        .unwrap();
    let err = stream.finish_with(Some(finish)).unwrap_err();
    assert_eq!(err.kind(), settled::ErrorKind::Truncated);
    assert!(err.to_string().contains(reason), "{err}");
    // A filter or a refusal that stopped the response is named too.
    for (wire, stopped_for) in [
        ("refusal", FinishReason::Refusal),
        ("content_filter", FinishReason::ContentFilter),
    ] {
        let stopped = body.replace(reason, wire);
        let deltas = decode(Provider::Anthropic, stopped.as_bytes(), 5);
        assert_eq!(finish_of(&deltas), Some(&stopped_for));
        let mut stream = settled::DynamicStream::new();
        stream
            .feed(text_of(&deltas, Channel::Text).as_bytes())
            .unwrap();
        let err = stream.finish_with(Some(&stopped_for)).unwrap_err();
        assert_eq!(err.kind(), settled::ErrorKind::Truncated);
        assert!(err.to_string().contains(&format!("`{wire}`")), "{err}");
    }
    let mut decoder = Decoder::new(Provider::OpenAiChat);
    let err = decoder
        .feed(b"data: {\"error\": \"upstream timed out\"}\n\n")
        .unwrap_err();
    assert!(err.message.contains("upstream timed out"), "{err}");
}

/// A refusal (OpenAI's structured outputs) ends the response with an error quoting it,
/// not with "no JSON".
#[test]
fn a_refusal_is_an_error_that_quotes_it() {
    let chat = concat!(
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"refusal\":\"I can't \"}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"refusal\":\"help with that.\"}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
    );
    let responses = concat!(
        "data: {\"type\":\"response.refusal.delta\",\"delta\":\"I can't \"}\n\n",
        "data: {\"type\":\"response.refusal.delta\",\"delta\":\"help with that.\"}\n\n",
        "data: {\"type\":\"response.completed\",\"response\":{}}\n\n",
    );
    for (provider, body) in [
        (Provider::OpenAiChat, chat),
        (Provider::OpenAiResponses, responses),
    ] {
        for chunk in [1, 9, body.len()] {
            let mut decoder = Decoder::new(provider);
            let mut error = None;
            for piece in body.as_bytes().chunks(chunk) {
                if let Err(e) = decoder.feed(piece) {
                    error = Some(e);
                    break;
                }
            }
            let error = error.or_else(|| decoder.finish().err()).expect("an error");
            assert_eq!(error.message, "the model refused: I can't help with that.");
        }
        // Cut before its end: the refusal is the error still.
        let cut = &body.as_bytes()[..body.len() / 2];
        let mut decoder = Decoder::new(provider);
        let _ = decoder.feed(cut);
        let error = decoder.finish().unwrap_err();
        assert!(
            error.message.starts_with("the model refused: I can't"),
            "{error}"
        );
    }
}

/// A provider's own tool (Anthropic's `server_tool_use`, a web search) is no call of the
/// caller's: its input is not routed as tool arguments.
#[test]
fn a_server_tool_is_not_a_tool_call() {
    let body = concat!(
        "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"server_tool_use\",\"id\":\"s1\",\"name\":\"web_search\",\"input\":{}}}\n\n",
        "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"query\\\": \\\"rust\\\"}\"}}\n\n",
        "data: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
        "data: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"answer\",\"input\":{}}}\n\n",
        "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"q\\\": 1}\"}}\n\n",
        "data: {\"type\":\"content_block_stop\",\"index\":1}\n\n",
    );
    let deltas = decode(Provider::Anthropic, body.as_bytes(), 3);
    assert_eq!(text_of(&deltas, Channel::Tool(0)), "");
    assert_eq!(text_of(&deltas, Channel::Tool(1)), r#"{"q": 1}"#);
}

#[test]
fn multi_line_data_and_errors() {
    // A data field split over two lines is one JSON document joined by a newline.
    let wire =
        b"data: {\"choices\": [{\"index\": 0,\ndata: \"delta\": {\"content\": \"hi\"}}]}\n\n";
    let deltas = decode(Provider::OpenAiChat, wire, 4);
    assert_eq!(text_of(&deltas, Channel::Text), "hi");
    let mut decoder = Decoder::new(Provider::Anthropic);
    let err = decoder
        .feed(b"event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n")
        .unwrap_err();
    assert!(err.message.contains("Overloaded"));
    let mut decoder = Decoder::new(Provider::OpenAiChat);
    assert!(decoder.feed(b"data: {not json}\n\n").is_err());
    let mut decoder = Decoder::new(Provider::OpenAiResponses);
    let err = decoder
        .feed(b"event: error\ndata: {\"type\": \"error\", \"code\": \"rate_limit\", \"message\": \"Rate limit reached\"}\n\n")
        .unwrap_err();
    assert!(err.message.contains("Rate limit reached"), "{err}");
    // A text block may start with text of its own.
    let deltas = decode(
        Provider::Anthropic,
        b"event: content_block_start\ndata: {\"type\": \"content_block_start\", \"index\": 0, \"content_block\": {\"type\": \"text\", \"text\": \"{\\\"a\\\"\"}}\n\n",
        3,
    );
    assert_eq!(text_of(&deltas, Channel::Text), "{\"a\"");
}

#[test]
fn a_null_error_field_is_no_error_and_an_endless_event_is_refused_at_the_limit() {
    // Some servers send `"error": null` on every chunk.
    let wire = b"data: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"{}\"}}], \"error\": null}\n\n";
    for chunk in [1, 7, wire.len()] {
        assert_eq!(
            text_of(&decode(Provider::OpenAiChat, wire, chunk), Channel::Text),
            "{}"
        );
    }
    // A body that never ends a line is refused once one event passes the limit, and the
    // deltas of the events before it come first.
    let mut body =
        b"data: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"{\"}}]}\n\n".to_vec();
    body.extend(b"data: ");
    body.extend(std::iter::repeat_n(b'x', 10_000));
    for chunk in [1, 100, body.len()] {
        let mut decoder = Decoder::with_limit(Provider::OpenAiChat, 1000);
        let mut text = String::new();
        let mut failed = None;
        for piece in body.chunks(chunk) {
            match decoder.feed(piece) {
                Ok(deltas) => text.push_str(&text_of(&deltas, Channel::Text)),
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        assert_eq!(text, "{", "chunk {chunk}");
        // Deltas first: the error comes with the next call when they share one.
        let failed = failed.or_else(|| decoder.finish().err()).expect("refused");
        assert!(failed.message.contains("limit of 1000 bytes"), "{failed}");
        assert!(decoder.feed(b"\n\n").is_err(), "stays failed");
    }
}

#[test]
fn the_update_stream_yields_fields_drafts_and_the_value() {
    let deltas = decode(Provider::OpenAiChat, &fixture("openai_review.sse"), 64);
    let chunks: Vec<Result<String, std::io::Error>> = deltas
        .into_iter()
        .filter_map(|d| match d {
            Delta::Text { text, .. } => Some(Ok(text)),
            _ => None,
        })
        .collect();
    // A draft per chunk from the one where the value begins (none for the preamble).
    let first = chunks
        .iter()
        .position(|c| c.as_ref().is_ok_and(|t| t.contains('{')))
        .unwrap();
    let n = chunks.len() - first;
    let source = futures::stream::iter(chunks);
    let all: Vec<_> =
        futures::executor::block_on_stream(Review::stream().updates(source).with_drafts())
            .collect();
    let drafts = all
        .iter()
        .filter(|u| matches!(u, Ok(Update::Draft(_))))
        .count();
    assert_eq!(drafts, n, "one draft per chunk once the value began");
    assert!(
        all.iter()
            .any(|u| matches!(u, Ok(Update::Field(ReviewField::Verdict(Verdict::Ship)))))
    );
    assert!(matches!(all.last(), Some(Ok(Update::Done(r))) if r.score == 8));

    // A failing source ends the stream with its error; a bad value with settled's.
    let failing = futures::stream::iter(vec![
        Ok("{\"verdict\": ".to_string()),
        Err("connection reset"),
    ]);
    let all: Vec<_> =
        futures::executor::block_on_stream(Review::stream().updates(failing.clone())).collect();
    assert!(matches!(
        all.last(),
        Some(Err(UpdateError::Source("connection reset")))
    ));
    // What had arrived stays: the draft, and the stream to finish (a truncation that
    // names the missing fields).
    let mut updates = Review::stream().updates(failing);
    let mut blocking = futures::executor::block_on_stream(&mut updates);
    assert!(matches!(blocking.next(), Some(Err(UpdateError::Source(_)))));
    assert!(blocking.next().is_none());
    assert!(updates.draft().is_some());
    let stream = updates.into_stream().unwrap();
    let err = stream.finish().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Truncated);
    assert!(!err.missing().is_empty());
    let doomed = futures::stream::iter(vec![Ok::<_, std::io::Error>(
        b"{\"verdict\": \"maybe\", ".to_vec(),
    )]);
    let all: Vec<_> =
        futures::executor::block_on_stream(Review::stream().updates(doomed)).collect();
    match all.last() {
        Some(Err(UpdateError::Stream(e))) => assert_eq!(e.kind(), ErrorKind::Validation),
        other => panic!("{other:?}"),
    }
}

/// Fields that settled in the chunk that then failed are delivered before the error, in
/// the async adapter as in `feed` (the update stream used to yield the error only).
#[test]
fn fields_settled_before_an_error_in_the_same_chunk_are_updates() {
    let chunk = br#"{"score": 7, "reasons": ["ok"], "verdict": "maybe"}"#.to_vec();
    let source = futures::stream::iter(vec![Ok::<_, std::io::Error>(chunk)]);
    let all: Vec<_> =
        futures::executor::block_on_stream(Review::stream().updates(source)).collect();
    let score = all
        .iter()
        .position(|u| matches!(u, Ok(Update::Field(ReviewField::Score(7)))));
    let error = all.iter().position(
        |u| matches!(u, Err(UpdateError::Stream(e)) if e.kind() == ErrorKind::Validation),
    );
    assert!(
        matches!((score, error), (Some(s), Some(e)) if s < e),
        "{all:?}"
    );
    assert_eq!(error, Some(all.len() - 1));
}

/// A character cut between two events in UTF-16 halves (a relay that re-chunks text in
/// code units) is joined, for each provider's text and tool arguments, at every chunking;
/// a half that has no other is U+FFFD and the rest of its event is still read.
#[test]
fn a_character_split_in_utf16_halves_across_events_is_joined() {
    let openai = concat!(
        r#"data: {"choices":[{"index":0,"delta":{"content":"{\"a\": \"x\ud83d"}}]}"#,
        "\n\n",
        r#"data: {"choices":[{"index":0,"delta":{"content":"\uDE80\"}"}}]}"#,
        "\n\n",
        r#"data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#,
        "\n\ndata: [DONE]\n\n",
    );
    let anthropic = concat!(
        "event: content_block_start\n",
        r#"data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#,
        "\n\nevent: content_block_delta\n",
        r#"data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\": \"\ud834"}}"#,
        "\n\nevent: ping\n",
        r#"data: {"type":"ping"}"#,
        "\n\nevent: content_block_delta\n",
        r#"data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\udd1e\"}"}}"#,
        "\n\nevent: content_block_stop\n",
        r#"data: {"type":"content_block_stop","index":0}"#,
        "\n\n",
    );
    for (provider, wire, channel, text) in [
        (
            Provider::OpenAiChat,
            openai,
            Channel::Text,
            "{\"a\": \"x🚀\"}",
        ),
        (
            Provider::Anthropic,
            anthropic,
            Channel::Tool(0),
            "{\"a\": \"𝄞\"}",
        ),
    ] {
        for chunk in [1, 7, wire.len()] {
            let deltas = decode(provider, wire.as_bytes(), chunk);
            assert_eq!(text_of(&deltas, channel), text, "{provider:?} at {chunk}");
        }
    }
    // Another call's delta between the halves does not take the first half.
    let parallel = concat!(
        r#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{\"a\":\"x\ud83d"}}]}}]}"#,
        "\n\n",
        r#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"g","arguments":"\ude80"}}]}}]}"#,
        "\n\n",
        r#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\ude80y\"}"}}]}}]}"#,
        "\n\ndata: [DONE]\n\n",
    );
    let deltas = decode(Provider::OpenAiChat, parallel.as_bytes(), 7);
    assert_eq!(text_of(&deltas, Channel::Tool(0)), "{\"a\":\"x🚀y\"}");
    assert_eq!(text_of(&deltas, Channel::Tool(1)), "\u{FFFD}");
    // A lone half inside a string, or one the next delta does not continue: the
    // replacement character, the event still read.
    let lone = concat!(
        r#"data: {"choices":[{"index":0,"delta":{"content":"[\"\ud83dx\ud83d"}}]}"#,
        "\n\n",
        r#"data: {"choices":[{"index":0,"delta":{"content":"y\"]"}}]}"#,
        "\n\ndata: [DONE]\n\n",
    );
    for chunk in [1, lone.len()] {
        let deltas = decode(Provider::OpenAiChat, lone.as_bytes(), chunk);
        assert_eq!(text_of(&deltas, Channel::Text), "[\"\u{FFFD}x\u{FFFD}y\"]");
    }
}

/// UTF-16 halves outside the text channels are joined or U+FFFD, never shown as the
/// decoder's markers: a refusal split between events; a tool's input sent whole keeps
/// the escape as written.
#[test]
fn utf16_halves_outside_the_text_are_not_leaked() {
    let refusal = concat!(
        r#"data: {"choices":[{"index":0,"delta":{"refusal":"No \ud83d"},"finish_reason":null}]}"#,
        "\n\n",
        r#"data: {"choices":[{"index":0,"delta":{"refusal":"\ude80 way \ud83d"},"finish_reason":null}]}"#,
        "\n\n",
        r#"data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#,
        "\n\ndata: [DONE]\n\n",
    );
    let mut decoder = Decoder::new(Provider::OpenAiChat);
    let fed = decoder.feed(refusal.as_bytes());
    let error = match fed {
        Err(e) => e,
        Ok(_) => decoder.finish().unwrap_err(),
    };
    assert!(
        error.message.ends_with("No 🚀 way \u{FFFD}"),
        "{}",
        error.message
    );
    let whole = concat!(
        "event: content_block_start\n",
        r#"data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{"q":"a\ud83d"}}}"#,
        "\n\nevent: content_block_stop\n",
        r#"data: {"type":"content_block_stop","index":0}"#,
        "\n\nevent: message_delta\n",
        r#"data: {"type":"message_delta","delta":{"stop_reason":"tool_use"}}"#,
        "\n\n",
    );
    let deltas = decode(Provider::Anthropic, whole.as_bytes(), whole.len());
    // The input sent whole is its text as written: the lone half's escape, as streamed
    // arguments keep it (serde refuses it in a string; a marker never shows).
    assert_eq!(text_of(&deltas, Channel::Tool(0)), r#"{"q":"a\ud83d"}"#);
}

/// A body that ends (a dropped connection, no finish reason) still joins or replaces the
/// halves it holds: a tool's input sent whole with a lone half (its escape, as written), a
/// text whose last delta
/// ended with a first half (review: the decoder's markers reached the value, and the
/// half was lost).
#[test]
fn utf16_halves_at_the_end_of_a_body_are_not_leaked() {
    let whole = concat!(
        "event: content_block_start\n",
        r#"data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{"a":"x\ud83d"}}}"#,
        "\n\n",
    );
    for chunk in [1, 7, whole.len()] {
        let deltas = decode(Provider::Anthropic, whole.as_bytes(), chunk);
        assert_eq!(text_of(&deltas, Channel::Tool(0)), r#"{"a":"x\ud83d"}"#);
    }
    let cut = concat!(
        r#"data: {"choices":[{"index":0,"delta":{"content":"{\"a\": \"x\ud83d"}}]}"#,
        "\n\n",
    );
    let deltas = decode(Provider::OpenAiChat, cut.as_bytes(), 5);
    assert_eq!(text_of(&deltas, Channel::Text), "{\"a\": \"x\u{FFFD}");
    let cut_call = concat!(
        r#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":3,"id":"c","function":{"name":"f","arguments":"[\"\ud83d"}}]}}]}"#,
        "\n\n",
    );
    let deltas = decode(Provider::OpenAiChat, cut_call.as_bytes(), 5);
    assert_eq!(text_of(&deltas, Channel::Tool(3)), "[\"\u{FFFD}");
}

/// A tool call at the largest index there is, then another call at it with a new id: a
/// call of its own, numbered below (review: the next number overflowed, a panic in a
/// debug build and, wrapped to 0, another call's text spliced into call 0's).
#[test]
fn a_call_at_the_largest_index_does_not_overflow() {
    let call = |index: &str, id: Option<&str>, arguments: &str| {
        let id = id.map_or(String::new(), |id| format!(r#""id":"{id}","#));
        let arguments = serde_json::to_string(arguments).unwrap();
        format!(
            r#"data: {{"choices":[{{"index":0,"delta":{{"tool_calls":[{{"index":{index},{id}"function":{{"name":"f","arguments":{arguments}}}}}]}}}}]}}"#
        ) + "\n\n"
    };
    let max = u64::MAX.to_string();
    let body = [
        call("0", Some("a"), "{\"x\": 1"),
        call(&max, Some("b"), "{\"y\": 2}"),
        call(&max, Some("c"), "{\"z\": 3}"),
        call("0", None, "}"),
        r#"data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#.to_owned()
            + "\n\n",
    ]
    .concat();
    for chunk in [1, 9, body.len()] {
        let deltas = decode(Provider::OpenAiChat, body.as_bytes(), chunk);
        assert_eq!(text_of(&deltas, Channel::Tool(0)), "{\"x\": 1}");
        let max = usize::MAX;
        assert_eq!(text_of(&deltas, Channel::Tool(max)), "{\"y\": 2}");
        let others: Vec<String> = deltas
            .iter()
            .filter_map(|d| match d {
                Delta::Text {
                    channel: Channel::Tool(n),
                    text,
                } if *n != 0 && *n != max => Some(text.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(others.concat(), "{\"z\": 3}");
    }
}

/// Some OpenAI-compatible servers send each tool call whole, with its id and no index: a
/// new id is the next call (their arguments were run together as one document), and a
/// call's later chunks without an id continue it.
#[test]
fn tool_calls_sent_without_an_index_are_told_apart_by_their_ids() {
    let body = concat!(
        r#"data: {"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{\"q\":"}}]}}]}"#,
        "\n\n",
        r#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"1}"}}]}}]}"#,
        "\n\n",
        r#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"id":"b","type":"function","function":{"name":"g","arguments":"{\"r\":2}"}}]}}]}"#,
        "\n\n",
        r#"data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
        "\n\ndata: [DONE]\n\n",
    );
    // A call's later chunks without an index continue it, whether its first chunk had
    // an index, or a name before its id (review: each lost its arguments to a new call).
    let chunk = |call: &str| {
        format!(r#"data: {{"choices":[{{"index":0,"delta":{{"tool_calls":[{call}]}}}}]}}"#) + "\n\n"
    };
    let end = r#"data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#;
    for first in [
        r#"{"index":0,"id":"a","function":{"name":"f","arguments":""}}"#,
        r#"{"function":{"name":"f"}}"#,
    ] {
        let later = [
            r#"{"id":"a","function":{"arguments":"{\"q\":"}}"#,
            r#"{"function":{"arguments":"1}"}}"#,
        ];
        let body = chunk(first) + &chunk(later[0]) + &chunk(later[1]) + end + "\n\n";
        let deltas = decode(Provider::OpenAiChat, body.as_bytes(), body.len());
        assert_eq!(text_of(&deltas, Channel::Tool(0)), r#"{"q":1}"#, "{body}");
        assert_eq!(text_of(&deltas, Channel::Tool(1)), "", "{body}");
    }
    // Calls sent chunk by chunk in turns, each chunk with its id.
    let turns = [
        ("a", "{\\\"q\\\":"),
        ("b", "{\\\"r\\\":"),
        ("a", "1}"),
        ("b", "2}"),
    ]
    .map(|(id, args)| {
        chunk(&format!(
            r#"{{"id":"{id}","function":{{"arguments":"{args}"}}}}"#
        ))
    })
    .concat()
        + end
        + "\n\n";
    let deltas = decode(Provider::OpenAiChat, turns.as_bytes(), 5);
    assert_eq!(text_of(&deltas, Channel::Tool(0)), r#"{"q":1}"#, "{turns}");
    assert_eq!(text_of(&deltas, Channel::Tool(1)), r#"{"r":2}"#);
    for chunk in [1, 7, body.len()] {
        let deltas = decode(Provider::OpenAiChat, body.as_bytes(), chunk);
        assert_eq!(text_of(&deltas, Channel::Tool(0)), r#"{"q":1}"#);
        assert_eq!(text_of(&deltas, Channel::Tool(1)), r#"{"r":2}"#);
        let names: Vec<_> = deltas
            .iter()
            .filter_map(|d| match d {
                Delta::ToolStart { index, name, .. } => Some((*index, name.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(
            names,
            [(0, Some("f".to_owned())), (1, Some("g".to_owned()))]
        );
    }
}

/// The deprecated `functions` parameter (still served by Chat Completions, Azure and
/// compatible servers): one call in `delta.function_call`, no index, ended by
/// `finish_reason: "function_call"`. Its arguments are the call's (review: none was read,
/// and the stream ended in `no_structure`).
#[test]
fn a_legacy_function_call_is_the_first_tool_call() {
    let body = concat!(
        r#"data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":null,"function_call":{"name":"get_weather","arguments":""}},"logprobs":null,"finish_reason":null}]}"#,
        "\n\n",
        r#"data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"function_call":{"arguments":"{\"city\":"}},"finish_reason":null}]}"#,
        "\n\n",
        r#"data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"function_call":{"arguments":"\"Paris\"}"}},"finish_reason":null}]}"#,
        "\n\n",
        r#"data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"function_call"}]}"#,
        "\n\ndata: [DONE]\n\n",
    );
    for size in [1, 7, body.len()] {
        let deltas = decode(Provider::OpenAiChat, body.as_bytes(), size);
        assert_eq!(text_of(&deltas, Channel::Tool(0)), r#"{"city":"Paris"}"#);
        assert!(deltas.iter().any(|d| matches!(
            d,
            Delta::ToolStart { index: 0, name: Some(n), .. } if n == "get_weather"
        )));
        assert_eq!(finish_of(&deltas), Some(&FinishReason::ToolCalls));
    }
}

/// Some OpenAI-compatible servers (Ollama) give every tool call `index: 0`: a new id at an
/// index whose call has one is a new call (review: the second call's id and name took the
/// first one's arguments, and its own were dropped).
#[test]
fn a_new_id_at_a_used_index_is_a_new_call() {
    let call = |id: &str, name: &str, path: &str| {
        format!(
            r#"data: {{"choices":[{{"index":0,"delta":{{"tool_calls":[{{"index":0,"id":"{id}","type":"function","function":{{"name":"{name}","arguments":"{{\"path\":\"{path}\"}}"}}}}]}}}}]}}"#
        ) + "\n\n"
    };
    let more = r#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":" "}}]}}]}"#;
    let end = r#"data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#;
    // A later chunk at index 0 without an id continues the latest call there; a call at
    // index 1 after them does not take the number the second call was given.
    let third = r#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_c","function":{"name":"list","arguments":"{\"path\":\"c\"}"}}]}}]}"#;
    let body = call("call_a", "read_file", "a")
        + &call("call_b", "delete_file", "b")
        + more
        + "\n\n"
        + third
        + "\n\n"
        + end
        + "\n\ndata: [DONE]\n\n";
    for chunk in [1, 7, body.len()] {
        let deltas = decode(Provider::OpenAiChat, body.as_bytes(), chunk);
        assert_eq!(text_of(&deltas, Channel::Tool(0)), r#"{"path":"a"}"#);
        assert_eq!(text_of(&deltas, Channel::Tool(1)), r#"{"path":"b"} "#);
        assert_eq!(text_of(&deltas, Channel::Tool(2)), r#"{"path":"c"}"#);
        let starts: Vec<_> = deltas
            .iter()
            .filter_map(|d| match d {
                Delta::ToolStart { index, id, name } => {
                    Some((*index, id.clone().unwrap_or_default(), name.clone()))
                }
                _ => None,
            })
            .collect();
        assert_eq!(
            starts,
            [
                (0, "call_a".to_owned(), Some("read_file".to_owned())),
                (1, "call_b".to_owned(), Some("delete_file".to_owned())),
                (2, "call_c".to_owned(), Some("list".to_owned())),
            ]
        );
    }
}

/// Calls at index 0 told apart by their ids and names (a second review: interleaved calls
/// that repeat their ids were split into a call per chunk, and a second name given before
/// its id renamed the first call).
#[test]
fn calls_at_one_index_are_told_apart_by_ids_and_names() {
    let chunk = |call: &str| {
        format!(r#"data: {{"choices":[{{"index":0,"delta":{{"tool_calls":[{call}]}}}}]}}"#) + "\n\n"
    };
    let end = r#"data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#
        .to_owned()
        + "\n\n";
    let interleaved = [
        r#"{"index":0,"id":"a","function":{"name":"f","arguments":"{\"q\":"}}"#,
        r#"{"index":0,"id":"b","function":{"name":"g","arguments":"{\"r\":"}}"#,
        r#"{"index":0,"id":"a","function":{"arguments":"1}"}}"#,
        r#"{"index":0,"id":"b","function":{"arguments":"2}"}}"#,
    ]
    .map(chunk)
    .concat()
        + &end;
    let names_first = [
        r#"{"index":0,"function":{"name":"f"}}"#,
        r#"{"index":0,"id":"a","function":{"arguments":"{\"q\":1}"}}"#,
        r#"{"index":0,"function":{"name":"g"}}"#,
        r#"{"index":0,"id":"b","function":{"arguments":"{\"r\":2}"}}"#,
    ]
    .map(chunk)
    .concat()
        + &end;
    // A server that repeats the name with every chunk of one call.
    let repeated = [
        r#"{"index":0,"id":"a","function":{"name":"f","arguments":"{\"q\":"}}"#,
        r#"{"index":0,"function":{"name":"f","arguments":"1}"}}"#,
    ]
    .map(chunk)
    .concat()
        + &end;
    // A name sent again, alone or with empty arguments, after the arguments: one call (a
    // fourth review).
    let name_again = [
        r#"{"index":0,"id":"a","function":{"name":"f","arguments":"{\"q\":1}"}}"#,
        r#"{"index":0,"function":{"name":"f"}}"#,
        r#"{"index":0,"function":{"name":"f","arguments":""}}"#,
    ]
    .map(chunk)
    .concat()
        + &end;
    // Calls without ids, each whole at index 0, the first without parameters: two calls
    // (a fourth review: the first was lost).
    let no_ids = [
        r#"{"index":0,"function":{"name":"get_time","arguments":""}}"#,
        r#"{"index":0,"function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}"#,
    ]
    .map(chunk)
    .concat()
        + &end;
    for (body, calls) in [
        (&name_again, &[(0, "f", r#"{"q":1}"#)][..]),
        (
            &no_ids,
            &[
                (0, "get_time", "{}"),
                (1, "get_weather", r#"{"city":"Paris"}"#),
            ][..],
        ),
        (
            &interleaved,
            &[(0, "f", r#"{"q":1}"#), (1, "g", r#"{"r":2}"#)][..],
        ),
        (
            &names_first,
            &[(0, "f", r#"{"q":1}"#), (1, "g", r#"{"r":2}"#)][..],
        ),
        (&repeated, &[(0, "f", r#"{"q":1}"#)][..]),
    ] {
        for size in [1, 7, body.len()] {
            let deltas = decode(Provider::OpenAiChat, body.as_bytes(), size);
            let mut tools = ToolStreams::<serde_json::Value>::new();
            for delta in &deltas {
                tools.feed(delta).unwrap();
            }
            let named: Vec<_> = tools
                .calls()
                .map(|(i, call)| (i, call.name.clone().unwrap_or_default()))
                .collect();
            let expected: Vec<_> = calls.iter().map(|(i, n, _)| (*i, n.to_string())).collect();
            assert_eq!(named, expected, "{body}");
            for (i, _, text) in calls {
                assert_eq!(text_of(&deltas, Channel::Tool(*i)), *text, "{body}");
            }
        }
    }
}

/// Two indexes are two calls, even when a server gives them the same id (a Gemini adapter
/// used the tool's name as the id; review: the second call's arguments went into the
/// first call's and the second call was lost).
#[test]
fn two_indexes_with_one_id_are_two_calls() {
    let chunk = |call: &str| {
        format!(r#"data: {{"choices":[{{"index":0,"delta":{{"tool_calls":[{call}]}}}}]}}"#) + "\n\n"
    };
    let body = [
        r#"{"index":0,"id":"call_0","function":{"name":"f","arguments":""}}"#,
        r#"{"index":0,"function":{"arguments":"{\"a\":1}"}}"#,
        r#"{"index":1,"id":"call_0","function":{"name":"g","arguments":""}}"#,
        r#"{"index":1,"function":{"arguments":"{\"b\":2}"}}"#,
        r#"{"index":0,"id":"call_0","function":{"arguments":" "}}"#,
    ]
    .map(chunk)
    .concat()
        + r#"data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#
        + "\n\n";
    for size in [1, 7, body.len()] {
        let deltas = decode(Provider::OpenAiChat, body.as_bytes(), size);
        // The id repeated at its own index continues that call.
        assert_eq!(text_of(&deltas, Channel::Tool(0)), r#"{"a":1} "#);
        assert_eq!(text_of(&deltas, Channel::Tool(1)), r#"{"b":2}"#);
    }
}

/// Arguments sent whole with a call's start are complete whatever ends the response: a
/// token limit after them, or no finish reason at all (review: they were dropped, and the
/// call was `Truncated` with nothing read).
#[test]
fn arguments_sent_whole_survive_a_cut_after_them() {
    let anthropic = |stop: &str| {
        [
            r#"{"type":"message_start","message":{"id":"m","content":[]}}"#,
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_0","name":"f","input":{"path":"a"}}}"#,
            r#"{"type":"content_block_stop","index":0}"#,
            r#"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"g","input":{}}}"#,
            stop,
        ]
        .map(|data| format!("data: {data}\n\n"))
        .concat()
    };
    let cut = r#"{"type":"message_delta","delta":{"stop_reason":"max_tokens"}}"#;
    let responses = [
        r#"{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":"c","name":"f","arguments":""}}"#,
        r#"{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","call_id":"c","name":"f","arguments":"{\"path\":\"a\"}"}}"#,
        r#"{"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","call_id":"d","name":"g","arguments":""}}"#,
        r#"{"type":"response.incomplete","response":{"incomplete_details":{"reason":"max_output_tokens"}}}"#,
    ]
    .map(|data| format!("data: {data}\n\n"))
    .concat();
    for (provider, body) in [
        (Provider::Anthropic, anthropic(cut)),
        (Provider::Anthropic, anthropic(r#"{"type":"ping"}"#)),
        (Provider::OpenAiResponses, responses),
    ] {
        for chunk in [1, 7, body.len()] {
            let deltas = decode(provider, body.as_bytes(), chunk);
            assert_eq!(
                text_of(&deltas, Channel::Tool(0)),
                r#"{"path":"a"}"#,
                "{body}"
            );
            // The call cut before any of its arguments stays cut.
            assert_eq!(text_of(&deltas, Channel::Tool(1)), "", "{body}");
            let mut tools = ToolStreams::<serde_json::Value>::new();
            for delta in &deltas {
                tools.feed(delta).unwrap();
            }
            let done = tools.finish(finish_of(&deltas));
            assert_eq!(
                done[0].1.as_ref().ok(),
                Some(&serde_json::json!({"path": "a"}))
            );
            assert_eq!(
                done[1].1.as_ref().err().map(|e| e.kind()),
                Some(ErrorKind::Truncated),
                "{body}"
            );
        }
    }
}

/// A review: an Anthropic tool input sent whole with its start kept a lone surrogate
/// escape as U+FFFD (the event is marked to be read, and its text was taken from the
/// marked copy), where the same input streamed keeps the escape: the two read alike now.
#[test]
fn a_whole_tool_input_keeps_a_lone_surrogate_escape_as_streamed_input_does() {
    let whole = concat!(
        "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"f\",\"input\":{\"q\":\"\\ud83d x\",\"r\":\"\\uDC00\\ud83d\\ude00\"}}}\n\n",
        "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"}}\n\n",
    );
    let streamed = concat!(
        "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"f\",\"input\":{}}}\n\n",
        "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"q\\\":\\\"\\\\ud83d x\\\",\\\"r\\\":\\\"\\\\udc00\\\\ud83d\\\\ude00\\\"}\"}}\n\n",
        "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"}}\n\n",
    );
    let expected = r#"{"q":"\ud83d x","r":"\udc00\ud83d\ude00"}"#;
    for (name, body) in [("streamed", streamed), ("whole", whole)] {
        for chunk in [1, 7, body.len()] {
            let deltas = decode(Provider::Anthropic, body.as_bytes(), chunk);
            assert_eq!(
                text_of(&deltas, Channel::Tool(0)),
                expected,
                "{name}, {chunk}"
            );
        }
    }
}

/// A review: an event that is not JSON made an error quoting the whole event (10 MB here,
/// up to the event limit), kept and cloned by every later call; it quotes its start now.
#[test]
fn an_error_quotes_the_start_of_a_long_event_only() {
    let body = format!("data: {{\"choices\": {}\n\n", "é".repeat(5_000_000));
    let mut decoder = Decoder::new(Provider::OpenAiChat);
    let error = decoder.feed(body.as_bytes()).unwrap_err();
    assert!(error.message.len() < 1_000, "{} bytes", error.message.len());
    assert!(
        error.message.starts_with("an event's data is not JSON"),
        "{}",
        error.message
    );
    assert!(
        error.message.contains("{\"choices\": éé"),
        "{}",
        error.message
    );
    assert!(error.message.ends_with('…'), "{}", error.message);
    // A provider's own error message, however long, is quoted as far as 2,000 characters.
    let long = "x".repeat(100_000);
    let body = format!("data: {{\"type\":\"error\",\"error\":{{\"message\":\"{long}\"}}}}\n\n");
    let mut decoder = Decoder::new(Provider::Anthropic);
    let error = decoder.feed(body.as_bytes()).unwrap_err();
    assert!(error.message.len() < 2_100, "{} bytes", error.message.len());
    assert!(
        error.message.starts_with("the provider sent an error: xxx"),
        "{}",
        error.message
    );
}

/// A review: an `id:` line stays the id of every later event, and is shared by them, not
/// copied into each.
#[test]
fn an_event_id_is_shared_by_the_events_after_it() {
    let mut parser = settled::provider::sse::SseParser::new();
    let body = format!(
        "id: {}\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\n",
        "x".repeat(1000)
    );
    let events = parser.feed(body.as_bytes());
    assert_eq!(events.len(), 3);
    let (a, b) = (events[0].id.clone().unwrap(), events[1].id.clone().unwrap());
    assert_eq!(a.len(), 1000);
    assert!(std::sync::Arc::ptr_eq(&a, &b));
    assert_eq!(events[2].id.as_deref(), Some("2"));
}
