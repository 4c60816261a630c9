//! A body given to a provider decoder that is not a server-sent event stream (an HTTP
//! error's JSON, an HTML page, a response made without streaming) is an error that says
//! so, at every chunking; an event stream that carries no text is not.

use settled::provider::{DecodeError, Decoder, Delta, Provider};

const PROVIDERS: [Provider; 3] = [
    Provider::OpenAiChat,
    Provider::OpenAiResponses,
    Provider::Anthropic,
];

/// Decodes `body` fed `chunk` bytes at a time; the deltas, or the first error.
fn decode(provider: Provider, body: &[u8], chunk: usize) -> Result<Vec<Delta>, DecodeError> {
    let mut decoder = Decoder::new(provider);
    let mut deltas = Vec::new();
    for piece in body.chunks(chunk) {
        deltas.extend(decoder.feed(piece)?);
    }
    deltas.extend(decoder.finish()?);
    Ok(deltas)
}

/// The error every provider gives `body` at every chunking (the same at each).
fn refusal(body: &str) -> String {
    let mut message = None;
    for provider in PROVIDERS {
        for chunk in [1, 2, 7, body.len().max(1)] {
            let error = decode(provider, body.as_bytes(), chunk)
                .expect_err("a body that is not an event stream is refused");
            let first = message.get_or_insert_with(|| error.message.clone());
            assert_eq!(&error.message, first, "{provider:?}, chunk {chunk}");
        }
    }
    message.unwrap_or_default()
}

#[test]
fn an_http_error_body_is_refused_with_the_providers_message() {
    let openai = r#"{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}"#;
    let expected = "the body is not a server-sent event stream; the provider sent an error: Rate limit reached";
    assert_eq!(refusal(openai), expected);
    assert_eq!(refusal(&format!("{openai}\n")), expected);
    let anthropic = "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\r\n";
    assert!(refusal(anthropic).ends_with("the provider sent an error: Overloaded"));
    // A bare string as the error, and the status and headers `curl -i` prints before it.
    let curl =
        "HTTP/2 401\r\ncontent-type: application/json\r\n\r\n{\n  \"error\": \"Unauthorized\"\n}\n";
    assert!(refusal(curl).ends_with("the provider sent an error: Unauthorized"));
}

#[test]
fn other_bodies_are_refused_with_their_start() {
    let html = refusal("<html><body><h1>502 Bad Gateway</h1></body></html>\n");
    assert!(html.starts_with("the body is not a server-sent event stream: it begins "));
    assert!(html.contains("502 Bad Gateway"), "{html}");
    let long = refusal(&"x".repeat(1000));
    assert!(long.ends_with(&format!("{:?}…", "x".repeat(100))), "{long}");
    // A JSON body without an error: most likely a request made without streaming.
    let whole = refusal(r#"{"id": "chatcmpl-1", "choices": [{"message": {"content": "{}"}}]}"#);
    assert!(whole.contains("without streaming"), "{whole}");
    // `"error": null` is no error (some servers send it on every response).
    let null = refusal(r#"{"id": "chatcmpl-1", "choices": [], "error": null}"#);
    assert!(null.contains("without streaming"), "{null}");
    assert!(!null.contains("the provider sent an error"), "{null}");
}

#[test]
fn event_streams_without_text_are_no_error() {
    for body in [
        "",
        " \r\n\n",
        "\u{feff}",
        ": keep-alive\n\n",
        ":\n",
        "data: [DONE]\n\n",
        "data\n\n",
        "retry: 1000\n\n",
        "event: ping\ndata: {\"type\": \"ping\"}\n\n",
        // The body ended inside its first event: a cut stream, not something else.
        "data: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"{\"",
        // Headers first, as `curl -i` prints them.
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n: ok\r\n\r\n",
    ] {
        for provider in PROVIDERS {
            for chunk in [1, 3, body.len().max(1)] {
                assert_eq!(
                    decode(provider, body.as_bytes(), chunk),
                    Ok(Vec::new()),
                    "{provider:?} {body:?} chunk {chunk}"
                );
            }
        }
    }
}

#[test]
fn the_refusal_quotes_only_the_start_and_is_returned_again() {
    let mut decoder = Decoder::new(Provider::OpenAiChat);
    // Megabytes of something else: only the start is kept to quote.
    for _ in 0..64 {
        assert_eq!(decoder.feed(&[b'<'; 64 * 1024]), Ok(Vec::new()));
    }
    let error = decoder.finish().unwrap_err();
    assert!(error.message.ends_with("…"), "{error}");
    assert_eq!(decoder.finish().unwrap_err(), error);
    assert_eq!(decoder.feed(b"data: {}\n\n").unwrap_err(), error);
}
