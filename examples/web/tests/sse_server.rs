//! The SSE server example over real HTTP: start it on 127.0.0.1 with an ephemeral port,
//! POST /review, read the events.

use settled::provider::sse::{SseEvent, SseParser};
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

async fn request(addr: std::net::SocketAddr, request: &str) -> (String, Vec<u8>) {
    let mut socket = tokio::net::TcpStream::connect(addr).await.unwrap();
    socket.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), socket.read_to_end(&mut raw))
        .await
        .expect("the server answers in time")
        .unwrap();
    split_response(&raw)
}

#[tokio::test]
async fn review_events_arrive_over_http() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(settled_web_examples::server::serve_paced(
        listener,
        Duration::ZERO,
    ));

    let (head, page) = request(
        addr,
        "GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(String::from_utf8_lossy(&page).contains("fetch('/review'"));

    let (head, body) = request(
        addr,
        "POST /review HTTP/1.1\r\nHost: test\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{head}"
    );
    let mut parser = SseParser::new();
    let events: Vec<SseEvent> = parser.feed(&body);
    assert!(!parser.finish(), "every event is terminated");
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e.event.as_deref().unwrap_or(""))
        .collect();
    assert!(
        kinds.iter().filter(|k| **k == "draft").count() > 50,
        "a draft per token"
    );
    let fields: Vec<serde_json::Value> = events
        .iter()
        .filter(|e| e.event.as_deref() == Some("field"))
        .map(|e| serde_json::from_str(&e.data).unwrap())
        .collect();
    assert_eq!(
        fields[0],
        serde_json::json!({"field": "verdict", "value": "ship"})
    );
    assert_eq!(fields.len(), 6, "verdict, three reasons, reasons, score");
    let done = events.last().unwrap();
    assert_eq!(done.event.as_deref(), Some("done"));
    let review: serde_json::Value = serde_json::from_str(&done.data).unwrap();
    assert_eq!(review["score"], 8);
    // Drafts only grow: each draft's reasons extend the previous draft's.
    let mut last_len = 0;
    for e in events
        .iter()
        .filter(|e| e.event.as_deref() == Some("draft"))
    {
        let draft: serde_json::Value = serde_json::from_str(&e.data).unwrap();
        let len = draft["reasons"].as_array().map_or(0, Vec::len);
        assert!(len >= last_len);
        last_len = len;
    }
}
