//! Events kept to be sent again: the members of an object that arrive before the tag that
//! says which variant they belong to, and an untagged value until serde has chosen its
//! variant. A recording holds each event's own data and, once per member, the member's
//! clean text, so that replayed leaves are deserialized from the same bytes as live ones.

use super::protocol::Event;
use crate::sink::Raw;
use std::ops::Range;

/// One kept event, owned.
#[derive(Debug, Clone)]
enum Kept {
    BeginObject,
    EndObject(Range<usize>),
    BeginArray,
    EndArray(Range<usize>),
    Key(String, Range<usize>),
    BeginString,
    Fragment(String),
    EndString(Range<usize>),
    Number(String, Range<usize>),
    Bool(bool, Range<usize>),
    Null(Range<usize>),
    /// The end of a value that has no bracket of its own in the recording (an untagged
    /// value's frame closes on it).
    Seal(Range<usize>),
}

/// Events kept in order, and the clean text they cover.
#[derive(Debug, Default)]
pub(crate) struct Recording {
    /// The bytes it holds, as charged to the replay budget.
    charged: usize,
    events: Vec<Kept>,
    /// Clean text, in pieces: where each piece starts in the clean buffer, and its bytes.
    text: Vec<(usize, Vec<u8>)>,
}

impl Recording {
    /// Keeps `event` (its text comes with the member that holds it, see
    /// [`Recording::keep_text`]); returns the bytes it took.
    pub(crate) fn keep(&mut self, event: &Event<'_>) -> usize {
        let kept = match *event {
            Event::BeginObject => Kept::BeginObject,
            Event::EndObject(raw) => Kept::EndObject(raw.span()),
            Event::BeginArray => Kept::BeginArray,
            Event::EndArray(raw) => Kept::EndArray(raw.span()),
            Event::Key(key, raw) => Kept::Key(key.to_owned(), raw.span()),
            Event::BeginString => Kept::BeginString,
            Event::Fragment(text) => {
                // One fragment per string is enough to replay it.
                if let Some(Kept::Fragment(last)) = self.events.last_mut() {
                    last.push_str(text);
                    self.charged += text.len();
                    return text.len();
                }
                Kept::Fragment(text.to_owned())
            }
            Event::EndString(raw) => Kept::EndString(raw.span()),
            Event::Number(text, raw) => Kept::Number(text.to_owned(), raw.span()),
            Event::Bool(value, raw) => Kept::Bool(value, raw.span()),
            Event::Null(raw) => Kept::Null(raw.span()),
            Event::Seal(raw) => Kept::Seal(raw.span()),
            Event::Place(_) => return 0,
        };
        let size = match &kept {
            Kept::Key(text, _) | Kept::Fragment(text) | Kept::Number(text, _) => text.len(),
            _ => 0,
        };
        self.events.push(kept);
        let size = size + std::mem::size_of::<Kept>();
        self.charged += size;
        size
    }

    /// The bytes charged to the replay budget for it.
    pub(crate) fn charged(&self) -> usize {
        self.charged
    }

    /// Keeps the clean text of a member (or a key) that just completed: every kept event
    /// inside it finds its text here. Returns the bytes it took.
    pub(crate) fn keep_text(&mut self, raw: Raw<'_>) -> usize {
        let bytes = raw.bytes();
        if !bytes.is_empty() {
            self.text.push((raw.span().start, bytes.to_vec()));
        }
        self.charged += bytes.len();
        bytes.len()
    }

    /// Ends the recording with a seal over `span`.
    pub(crate) fn seal(&mut self, span: Range<usize>) {
        self.events.push(Kept::Seal(span));
    }

    pub(crate) fn len(&self) -> usize {
        self.events.len()
    }

    /// The text of `span`, from the piece that holds it.
    fn raw(&self, span: &Range<usize>) -> Raw<'_> {
        let at = self.text.partition_point(|(start, _)| *start <= span.start);
        let piece = at.checked_sub(1).and_then(|i| self.text.get(i));
        let text = piece.and_then(|(start, bytes)| {
            let from = span.start.checked_sub(*start)?;
            bytes.get(from..from.checked_add(span.len())?)
        });
        Raw::with_text(text.unwrap_or_default(), span.clone())
    }

    /// Kept event `index`, as it was sent.
    pub(crate) fn event(&self, index: usize) -> Option<Event<'_>> {
        Some(match self.events.get(index)? {
            Kept::BeginObject => Event::BeginObject,
            Kept::EndObject(span) => Event::EndObject(self.raw(span)),
            Kept::BeginArray => Event::BeginArray,
            Kept::EndArray(span) => Event::EndArray(self.raw(span)),
            Kept::Key(key, span) => Event::Key(key, self.raw(span)),
            Kept::BeginString => Event::BeginString,
            Kept::Fragment(text) => Event::Fragment(text),
            Kept::EndString(span) => Event::EndString(self.raw(span)),
            Kept::Number(text, span) => Event::Number(text, self.raw(span)),
            Kept::Bool(value, span) => Event::Bool(*value, self.raw(span)),
            Kept::Null(span) => Event::Null(self.raw(span)),
            Kept::Seal(span) => Event::Seal(self.raw(span)),
        })
    }
}
