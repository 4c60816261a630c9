//! Server-sent events framing, push-based: feed bytes as they arrive, get complete events.
//!
//! A small module rather than a crate: the framing is a dozen rules of the WHATWG
//! specification, and settled needs it push-based over arbitrary chunks in sync code (the
//! SSE crates are async stream adapters).
//!
//! ```
//! use settled::provider::sse::SseParser;
//!
//! let mut parser = SseParser::new();
//! let mut events = parser.feed(b": keep-alive\nevent: delta\ndata: {\"a\":\n");
//! assert!(events.is_empty());
//! events.extend(parser.feed(b"data: 1}\n\ndata: [DONE]\n\n"));
//! assert_eq!(events[0].event.as_deref(), Some("delta"));
//! assert_eq!(events[0].data, "{\"a\":\n1}");
//! assert_eq!(events[1].data, "[DONE]");
//! ```

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The `event:` field, if any.
    pub event: Option<String>,
    /// The `data:` lines, joined with `\n`.
    pub data: String,
    /// The last `id:` field, if any: it stays the events' id until another comes, and is
    /// shared by them (a long id is not copied into every later event).
    pub id: Option<std::sync::Arc<str>>,
}

/// Incremental SSE parser. Lines may be split anywhere, including inside a UTF-8
/// character or between `\r` and `\n`.
#[derive(Debug, Default)]
pub struct SseParser {
    line: Vec<u8>,
    /// The previous byte was `\r`: a following `\n` belongs to the same line end.
    after_cr: bool,
    event: Option<String>,
    data: Option<String>,
    id: Option<std::sync::Arc<str>>,
    /// A line has ended: a byte-order mark is no longer the stream's first.
    past_first_line: bool,
    /// The most bytes one event may hold (its lines and data); `None`: no limit.
    limit: Option<usize>,
    /// An event grew past the limit: its bytes stopped being kept.
    over: bool,
    /// A line was a comment or a `data`, `event`, `id` or `retry` field.
    framed: bool,
}

impl SseParser {
    /// A parser at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// A parser that keeps at most `limit` bytes of one event (a body that never ends a
    /// line cannot take memory without bound); past it, [`SseParser::over_limit`].
    pub fn with_limit(limit: usize) -> Self {
        SseParser {
            limit: Some(limit),
            ..Self::default()
        }
    }

    /// An event grew past the limit (the parser keeps nothing more of it).
    pub fn over_limit(&self) -> bool {
        self.over
    }

    /// The most bytes one event may hold, if limited.
    pub fn limit(&self) -> Option<usize> {
        self.limit
    }

    /// A line of the stream so far was a comment or one of the fields the event-stream
    /// format defines (`data`, `event`, `id`, `retry`): the body is an event stream. A body
    /// without one (a JSON error object, an HTML page) is something else, though the
    /// format's rules read it as lines to ignore. [`SseParser::finish`] counts the line
    /// the body ended inside.
    ///
    /// ```
    /// use settled::provider::sse::SseParser;
    ///
    /// let mut parser = SseParser::new();
    /// parser.feed(b"{\"error\": {\"message\": \"Rate limit reached\"}}\n");
    /// assert!(!parser.is_event_stream());
    /// parser.feed(b": keep-alive\n");
    /// assert!(parser.is_event_stream());
    /// ```
    pub fn is_event_stream(&self) -> bool {
        self.framed
    }

    /// Bytes held for the event being read.
    fn held(&self) -> usize {
        self.line.len() + self.data.as_ref().map_or(0, String::len)
    }

    /// Feeds bytes; returns the events completed by them.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        for &b in bytes {
            match b {
                b'\n' if self.after_cr => self.after_cr = false,
                b'\n' | b'\r' => {
                    self.after_cr = b == b'\r';
                    let mut line = std::mem::take(&mut self.line);
                    // The stream's first line may start with a byte-order mark, which
                    // the event-stream rules say to ignore.
                    if !std::mem::replace(&mut self.past_first_line, true) {
                        if let Some(rest) = line.strip_prefix("\u{feff}".as_bytes()) {
                            line = rest.to_vec();
                        }
                    }
                    if let Some(event) = self.line_done(&line) {
                        events.push(event);
                    }
                }
                _ => {
                    self.after_cr = false;
                    if self.limit.is_some_and(|limit| self.held() >= limit) {
                        self.over = true;
                        return events;
                    }
                    self.line.push(b);
                }
            }
        }
        events
    }

    /// Ends the stream. An event not yet terminated by a blank line is discarded, as the
    /// WHATWG event-stream rules say (the body ended inside it: a dropped connection);
    /// returns true when there was one.
    pub fn finish(&mut self) -> bool {
        let line = std::mem::take(&mut self.line);
        self.framed |= is_framing(&line);
        let pending = !line.is_empty() || self.data.is_some();
        self.data = None;
        self.event = None;
        self.after_cr = false;
        self.past_first_line = false;
        pending
    }

    fn line_done(&mut self, line: &[u8]) -> Option<SseEvent> {
        if line.is_empty() {
            return self.dispatch();
        }
        self.framed |= is_framing(line);
        if line.first() == Some(&b':') {
            return None; // a comment
        }
        let text = String::from_utf8_lossy(line);
        let (field, value) = match text.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (text.as_ref(), ""),
        };
        match field {
            "data" => match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_owned()),
            },
            "event" => self.event = Some(value.to_owned()),
            "id" => self.id = Some(value.into()),
            _ => {}
        }
        None
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        let data = self.data.take();
        let event = self.event.take();
        data.map(|data| SseEvent {
            event,
            data,
            id: self.id.clone(),
        })
    }
}

/// A comment, or a field the event-stream format defines (a line without a colon is a
/// field with an empty value).
fn is_framing(line: &[u8]) -> bool {
    let line = line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line);
    let field = line.split(|&b| b == b':').next().unwrap_or_default();
    line.first() == Some(&b':') || matches!(field, b"data" | b"event" | b"id" | b"retry")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], chunk: usize) -> Vec<SseEvent> {
        let mut parser = SseParser::new();
        let events: Vec<SseEvent> = input.chunks(chunk).flat_map(|c| parser.feed(c)).collect();
        assert_eq!(parser.finish(), !input.ends_with(b"\n\n"));
        events
    }

    #[test]
    fn framing_rules_at_every_chunking() {
        let input = "id: 7\r\nevent: a\r\ndata: one\r\ndata:two\r\n\r\n: comment {\n\ndata\ndata: é\n\nevent: only\n\ndata: last";
        for chunk in 1..=input.len() {
            let events = all(input.as_bytes(), chunk);
            assert_eq!(
                events.len(),
                2,
                "chunk {chunk}: the unfinished last event is dropped"
            );
            assert_eq!(events[0].event.as_deref(), Some("a"));
            assert_eq!(events[0].id.as_deref(), Some("7"));
            assert_eq!(events[0].data, "one\ntwo");
            assert_eq!(events[1].data, "\né", "an empty data line counts");
        }
    }

    #[test]
    fn a_leading_byte_order_mark_is_ignored_once() {
        let input = "\u{feff}data: one\n\n\u{feff}data: two\n\n";
        for chunk in 1..=input.len() {
            let events = all(input.as_bytes(), chunk);
            assert_eq!(events.len(), 1, "chunk {chunk}: {events:?}");
            assert_eq!(events[0].data, "one", "chunk {chunk}");
        }
    }
}
