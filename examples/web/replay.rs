//! A local stand-in for OpenAI's streaming endpoint: `POST …/chat/completions` on
//! 127.0.0.1 answers with a recorded wire-format response (`examples/recorded/`), event by
//! event with small pauses, each event written in two pieces so that clients see events
//! split across reads. It can also drop the connection in the middle of an event.
//!
//! Written on a plain socket rather than with axum so that the bytes on the wire, and the
//! moment the socket closes, are exactly the recording's.

use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A review answered through `response_format` (text deltas), finishing with `stop`.
pub const OPENAI_REVIEW: &[u8] = include_bytes!("../recorded/openai_review.sse");
/// The same answer cut by the token limit: `finish_reason: length` inside the value.
pub const OPENAI_REVIEW_CUT: &[u8] = include_bytes!("../recorded/openai_review_cut.sse");
/// Two interleaved tool calls (`submit_review`), finishing with `tool_calls`.
pub const OPENAI_TOOLS: &[u8] = include_bytes!("../recorded/openai_tools.sse");

/// What the server answers, and how.
#[derive(Debug, Clone, Copy)]
pub struct Recording {
    wire: &'static [u8],
    pause: Duration,
    drop_in: Option<usize>,
}

impl Recording {
    /// Replays `wire`, 1 ms between events.
    pub fn new(wire: &'static [u8]) -> Self {
        Recording {
            wire,
            pause: Duration::from_millis(1),
            drop_in: None,
        }
    }

    /// The pause between events.
    pub fn pause(mut self, pause: Duration) -> Self {
        self.pause = pause;
        self
    }

    /// Closes the socket halfway through event `n` (counting from 0): the chunked body
    /// ends without its last chunk, as when a connection drops.
    pub fn drop_in_event(mut self, n: usize) -> Self {
        self.drop_in = Some(n);
        self
    }

    /// The recording's events, each with its blank line. OpenAI sends `created` in every
    /// chunk and async-openai requires it; the recordings leave it out, so it is put back.
    pub fn events(&self) -> Vec<String> {
        let text = String::from_utf8_lossy(self.wire);
        text.split_inclusive("\n\n")
            .map(|event| {
                if event.starts_with("data: {")
                    && event.contains("chat.completion.chunk")
                    && !event.contains("\"created\"")
                {
                    event.replacen("data: {", "data: {\"created\":1718000000,", 1)
                } else {
                    event.to_owned()
                }
            })
            .collect()
    }
}

/// A running replay server; stops when dropped.
#[derive(Debug)]
pub struct Replay {
    addr: SocketAddr,
    requests: Arc<Mutex<Vec<String>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Replay {
    /// Starts a server on 127.0.0.1 (an ephemeral port) answering every request with
    /// `recording`.
    pub async fn start(recording: Recording) -> io::Result<Replay> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&requests);
        let task = tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let seen = Arc::clone(&seen);
                tokio::spawn(async move {
                    // A client that went away is not the server's concern.
                    let _ = answer(socket, recording, seen).await;
                });
            }
        });
        Ok(Replay {
            addr,
            requests,
            task,
        })
    }

    /// The API base to give a client: `http://127.0.0.1:PORT/v1`.
    pub fn api_base(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// The chat completions endpoint: `http://127.0.0.1:PORT/v1/chat/completions`.
    pub fn url(&self) -> String {
        format!("{}/chat/completions", self.api_base())
    }

    /// The bodies of the requests received so far, as sent.
    pub fn requests(&self) -> Vec<String> {
        self.requests.lock().map(|r| r.clone()).unwrap_or_default()
    }
}

impl Drop for Replay {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Reads one request; answers with the recording, or 404 off the endpoint.
async fn answer(
    mut socket: TcpStream,
    recording: Recording,
    seen: Arc<Mutex<Vec<String>>>,
) -> io::Result<()> {
    let (head, body) = read_request(&mut socket).await?;
    let request_line = head.lines().next().unwrap_or_default();
    if !(request_line.starts_with("POST ") && request_line.contains("/chat/completions ")) {
        let response = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
        return socket.write_all(response.as_bytes()).await;
    }
    if let Ok(mut seen) = seen.lock() {
        seen.push(String::from_utf8_lossy(&body).into_owned());
    }
    socket
        .write_all(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\
              Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
        )
        .await?;
    for (n, event) in recording.events().iter().enumerate() {
        tokio::time::sleep(recording.pause).await;
        // Halfway in bytes: a character may be split too.
        let (first, second) = event.as_bytes().split_at(event.len() / 2);
        write_chunk(&mut socket, first).await?;
        if recording.drop_in == Some(n) {
            // Mid-event: no rest of the event, no last chunk; the socket closes.
            return socket.shutdown().await;
        }
        write_chunk(&mut socket, second).await?;
    }
    socket.write_all(b"0\r\n\r\n").await?;
    socket.shutdown().await
}

async fn write_chunk(socket: &mut TcpStream, bytes: &[u8]) -> io::Result<()> {
    if bytes.is_empty() {
        return Ok(());
    }
    let mut chunk = format!("{:x}\r\n", bytes.len()).into_bytes();
    chunk.extend_from_slice(bytes);
    chunk.extend_from_slice(b"\r\n");
    socket.write_all(&chunk).await?;
    socket.flush().await
}

/// The request head and its body (`Content-Length` bytes).
async fn read_request(socket: &mut TcpStream) -> io::Result<(String, Vec<u8>)> {
    let mut raw = Vec::new();
    let mut buffer = [0u8; 4096];
    let head_end = loop {
        if let Some(at) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let n = socket.read(&mut buffer).await?;
        if n == 0 || raw.len() > 1 << 20 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "no request head",
            ));
        }
        raw.extend_from_slice(&buffer[..n]);
    };
    let head = String::from_utf8_lossy(&raw[..head_end]).into_owned();
    let length: usize = head
        .lines()
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("content-length"))
        .and_then(|(_, value)| value.trim().parse().ok())
        .unwrap_or(0);
    let mut body = raw[head_end + 4..].to_vec();
    while body.len() < length {
        let n = socket.read(&mut buffer).await?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&buffer[..n]);
    }
    Ok((head, body))
}
