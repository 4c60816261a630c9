//! The SSE server example over real HTTP: start it on 127.0.0.1 with an ephemeral port,
//! POST /review, read the events (`settled::serve::sse`): their order and payloads, the
//! headers that keep proxies from buffering, keep-alive comments, a cut reply's error
//! event, and clients that come and go.

use axum::Router;
use serde_json::{Value, json};
use settled::provider::sse::{SseEvent, SseParser};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Decodes an HTTP/1.1 response: its status line and its body (chunked or not).
fn split_response(raw: &[u8]) -> (String, Vec<u8>) {
    let at = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("headers end");
    let head = String::from_utf8_lossy(&raw[..at]).to_string();
    let mut body = &raw[at + 4..];
    if !head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        return (head, body.to_vec());
    }
    let mut out = Vec::new();
    loop {
        let line_end = body
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("chunk size line");
        let size =
            usize::from_str_radix(std::str::from_utf8(&body[..line_end]).unwrap().trim(), 16)
                .unwrap();
        body = &body[line_end + 2..];
        if size == 0 {
            break;
        }
        out.extend_from_slice(&body[..size]);
        body = &body[size + 2..];
    }
    (head, out)
}

async fn request(addr: SocketAddr, request: &str) -> (String, Vec<u8>) {
    let mut socket = tokio::net::TcpStream::connect(addr).await.unwrap();
    socket.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), socket.read_to_end(&mut raw))
        .await
        .expect("the server answers in time")
        .unwrap();
    split_response(&raw)
}

async fn start(app: Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

fn post(path: &str) -> String {
    format!("POST {path} HTTP/1.1\r\nHost: test\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
}

/// The events of a response body; every one terminated.
fn events(body: &[u8]) -> Vec<SseEvent> {
    let mut parser = SseParser::new();
    let events = parser.feed(body);
    assert!(!parser.finish(), "every event is terminated");
    events
}

fn data(event: &SseEvent) -> Value {
    serde_json::from_str(&event.data).unwrap()
}

#[tokio::test]
async fn review_events_arrive_over_http() {
    let addr = start(settled_web_examples::server::app(Duration::ZERO)).await;

    let (head, page) = request(
        addr,
        "GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(String::from_utf8_lossy(&page).contains("<script src=\"/settled.js\">"));
    let (head, script) = request(
        addr,
        "GET /settled.js HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: text/javascript"),
        "{head}"
    );
    assert_eq!(script, settled::serve::CLIENT_JS.as_bytes());

    let (head, body) = request(addr, &post("/review")).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let headers = head.to_ascii_lowercase();
    for header in [
        "content-type: text/event-stream",
        "cache-control: no-cache",
        "x-accel-buffering: no",
    ] {
        assert!(headers.contains(header), "{header}: {head}");
    }
    let events = events(&body);
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e.event.as_deref().unwrap_or(""))
        .collect();
    assert!(
        kinds.iter().filter(|k| **k == "draft").count() > 30,
        "a draft per token that changed it"
    );
    let fields: Vec<Value> = events
        .iter()
        .filter(|e| e.event.as_deref() == Some("field"))
        .map(data)
        .collect();
    assert_eq!(fields[0], json!({"field": "verdict", "value": "ship"}));
    let names: Vec<&str> = fields
        .iter()
        .map(|f| f["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["verdict", "reasons", "score"],
        "each top-level field once"
    );
    let done = events.last().unwrap();
    assert_eq!(done.event.as_deref(), Some("done"));
    let review = data(done);
    assert_eq!(review["score"], 8);
    // In the model's field order, not sorted (as a `Value`'s map would be): the value and
    // each draft.
    let order = |text: &str| {
        let at = |key: &str| text.find(&format!("\"{key}\":"));
        (at("verdict"), at("reasons"), at("score"))
    };
    assert!(matches!(order(&done.data), (Some(v), Some(r), Some(s)) if v < r && r < s));
    let last_draft = events
        .iter()
        .rev()
        .find(|e| e.event.as_deref() == Some("draft"))
        .unwrap();
    assert!(matches!(order(&last_draft.data), (Some(v), Some(r), _) if v < r));
    assert_eq!(
        fields[1]["value"], review["reasons"],
        "a field's value is final"
    );
    // Drafts only extend, and no two in a row are the same.
    let drafts: Vec<Value> = events
        .iter()
        .filter(|e| e.event.as_deref() == Some("draft"))
        .map(data)
        .collect();
    for pair in drafts.windows(2) {
        assert_ne!(pair[0], pair[1]);
        let (a, b) = (&pair[0]["reasons"], &pair[1]["reasons"]);
        let (a, b) = (
            a.as_array().map_or(0, Vec::len),
            b.as_array().map_or(0, Vec::len),
        );
        assert!(b >= a);
    }
    // The settled field comes before the draft of the same chunk.
    let verdict_at = kinds.iter().position(|k| *k == "field").unwrap();
    assert!(data(&events[verdict_at + 1]).get("verdict").is_some());
}

#[tokio::test]
async fn keep_alive_comments_while_the_model_writes_its_preamble() {
    let app = settled_web_examples::server::api(Duration::from_millis(4), Duration::from_millis(1));
    let addr = start(app).await;
    let (_, body) = request(addr, &post("/review")).await;
    let text = String::from_utf8_lossy(&body);
    let first_draft = text.find("event: draft").unwrap();
    assert!(text[..first_draft].contains(": keep-alive\n"), "{text}");
    assert_eq!(events(&body).last().unwrap().event.as_deref(), Some("done"));
}

#[tokio::test]
async fn a_cut_reply_ends_with_an_error_event_and_the_last_draft() {
    let addr = start(settled_web_examples::server::app(Duration::ZERO)).await;
    let (_, body) = request(addr, &post("/review?ending=cut")).await;
    let events = events(&body);
    let last = events.last().unwrap();
    assert_eq!(last.event.as_deref(), Some("error"));
    let error = data(last);
    assert_eq!(error["kind"], "truncated");
    assert_eq!(error["draft"]["verdict"], "ship");
    assert_eq!(error["draft"]["reasons"][1], "Escapes su");
    assert_eq!(error["missing"], json!(["reasons", "score"]));
    assert!(!error["message"].as_str().unwrap().is_empty());
    // The draft before it is the same as the error's.
    let draft = events
        .iter()
        .rev()
        .find(|e| e.event.as_deref() == Some("draft"))
        .unwrap();
    assert_eq!(data(draft), error["draft"]);
    // Its draft in the model's field order, as the drafts are sent.
    let text = &last.data;
    assert!(
        text.find("\"verdict\":") < text.find("\"reasons\":"),
        "{text}"
    );
    assert!(text.starts_with("{\"kind\":\"truncated\""), "{text}");
}

#[tokio::test]
async fn clients_that_leave_mid_stream_do_not_disturb_the_others() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = start(settled_web_examples::server::app(Duration::from_millis(2))).await;
    // Five clients read the start of the stream and hang up.
    for _ in 0..5 {
        let mut socket = tokio::net::TcpStream::connect(addr).await.unwrap();
        socket.write_all(post("/review").as_bytes()).await.unwrap();
        let mut start = [0u8; 512];
        let n = socket.read(&mut start).await.unwrap();
        assert!(n > 0);
    }
    // Three at once are each served in full.
    let review = post("/review");
    let all = futures::future::join_all((0..3).map(|_| request(addr, &review))).await;
    for (head, body) in all {
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        let events = events(&body);
        assert_eq!(data(events.last().unwrap())["score"], 8);
    }
}
