//! Events kept to be sent again: the members of an object that arrive before the tag that
//! says which variant they belong to, and an untagged value until serde has chosen its
//! variant. A recording holds each event's own data and, once per member, the member's
//! clean text, so that replayed leaves are deserialized from the same bytes as live ones.
//!
//! A value kept while another recording is being replayed (a late tag inside members
//! kept for a late tag) is kept as a range of that recording's events, not copied: nesting
//! costs replay time, not memory.

use super::protocol::Event;
use crate::sink::Raw;
use std::ops::Range;
use std::sync::Arc;

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
}

impl Kept {
    /// The bytes of text it stands for, as charged to the replay budget: its own text
    /// (a key's with its quotes, a string's decoded fragments, a number's digits), one byte
    /// for a bracket or a quote. A document kept whole is charged about its length, so
    /// only values kept more than once (a range of a recording copied to go on after it)
    /// can outgrow a budget measured in multiples of the byte cap.
    fn size(&self) -> usize {
        match self {
            Kept::Key(_, span) => span.len().max(2),
            Kept::Fragment(text) | Kept::Number(text, _) => text.len().max(1),
            Kept::Bool(true, _) | Kept::Null(_) => 4,
            Kept::Bool(false, _) => 5,
            Kept::BeginObject
            | Kept::EndObject(_)
            | Kept::BeginArray
            | Kept::EndArray(_)
            | Kept::BeginString
            | Kept::EndString(_) => 1,
        }
    }
}

/// Where a replayed event comes from: a recording that owns its events, and the event's
/// index there.
pub(crate) type Origin = (Arc<Recording>, usize);

/// Events kept in order, and the clean text they cover.
#[derive(Debug, Default)]
pub(crate) struct Recording {
    /// The text it holds, as charged to the replay budget (nothing for a range of another
    /// recording).
    charged: usize,
    events: Vec<Kept>,
    /// Clean text, in pieces: where each piece starts in the clean buffer, and its bytes.
    text: Vec<(usize, Vec<u8>)>,
    /// Instead of `events` and `text`: a range of another recording's events.
    shared: Option<(Arc<Recording>, Range<usize>)>,
    /// The end of a value that has no bracket of its own in the recording: an untagged
    /// value's frame closes on it.
    seal: Option<Range<usize>>,
}

impl Recording {
    /// Keeps `event`, which comes from `origin` if it is being replayed (its text comes
    /// with the member that holds it, see [`Recording::keep_text`]); returns the bytes it
    /// took.
    pub(crate) fn keep(&mut self, event: &Event<'_>, origin: Option<&Origin>) -> usize {
        if let Event::Seal(_) | Event::Place(_) = event {
            return 0;
        }
        if let Some((source, index)) = origin {
            if self.share(source, *index) {
                return 0;
            }
        }
        self.own();
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
            Event::Seal(_) | Event::Place(_) => return 0,
        };
        let size = kept.size();
        self.events.push(kept);
        self.charged += size;
        size
    }

    /// Keeps event `index` of `source` as the next one by extending a range of it, when
    /// that is what this recording holds (or it holds nothing yet, or only the bracket
    /// just before that event); false if the event must be copied.
    fn share(&mut self, source: &Arc<Recording>, index: usize) -> bool {
        match &mut self.shared {
            Some((shared, range)) if Arc::ptr_eq(shared, source) && range.end == index => {
                range.end += 1;
                true
            }
            Some(_) => false,
            None if self.events.is_empty() => {
                self.shared = Some((Arc::clone(source), index..index + 1));
                true
            }
            None => {
                // An untagged value keeps its opening bracket before its frame sees a
                // replayed event: the same bracket, just before it in the source.
                let before = index.checked_sub(1);
                let same = matches!(
                    (
                        self.events.as_slice(),
                        before.and_then(|i| source.events.get(i)),
                    ),
                    ([Kept::BeginObject], Some(Kept::BeginObject))
                        | ([Kept::BeginArray], Some(Kept::BeginArray))
                );
                match (same, before) {
                    (true, Some(before)) => {
                        self.events.clear();
                        self.charged = 0;
                        self.shared = Some((Arc::clone(source), before..index + 1));
                        true
                    }
                    _ => false,
                }
            }
        }
    }

    /// Turns a range of another recording into owned events (and that recording's text),
    /// to keep events from elsewhere after them.
    fn own(&mut self) {
        let Some((source, range)) = self.shared.take() else {
            return;
        };
        for index in range {
            if let Some(kept) = source.events.get(index) {
                self.charged += kept.size();
                self.events.push(kept.clone());
            }
        }
        self.text = source.text.clone();
        let text: usize = self.text.iter().map(|(_, bytes)| bytes.len()).sum();
        self.charged += text;
    }

    /// Keeps the clean text of a member (or a key) that just completed: every kept event
    /// inside it finds its text here. Returns the bytes it took.
    pub(crate) fn keep_text(&mut self, raw: Raw<'_>) -> usize {
        if self.shared.is_some() {
            // The source holds it.
            return 0;
        }
        let bytes = raw.bytes();
        if !bytes.is_empty() {
            self.text.push((raw.span().start, bytes.to_vec()));
        }
        self.charged += bytes.len();
        bytes.len()
    }

    /// Ends the recording with a seal over `span`.
    pub(crate) fn seal(&mut self, span: Range<usize>) {
        self.seal = Some(span);
    }

    /// The bytes charged to the replay budget for it.
    pub(crate) fn charged(&self) -> usize {
        self.charged
    }

    /// The kept events before the seal.
    pub(crate) fn kept(&self) -> usize {
        match &self.shared {
            Some((_, range)) => range.len(),
            None => self.events.len(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.kept() + usize::from(self.seal.is_some())
    }

    /// Where event `index` comes from: the recording that owns it, and its index there
    /// (`None`: this one owns it, or it is the seal).
    pub(crate) fn origin(&self, index: usize) -> Option<Origin> {
        match &self.shared {
            Some((source, range)) if index < range.len() => {
                Some((Arc::clone(source), range.start + index))
            }
            _ => None,
        }
    }

    /// The text of `span`, from the piece that holds it.
    fn raw(&self, span: &Range<usize>) -> Raw<'_> {
        if let Some((source, _)) = &self.shared {
            return source.raw(span);
        }
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
        if index >= self.kept() {
            return match (&self.seal, index == self.kept()) {
                (Some(span), true) => Some(Event::Seal(self.raw(span))),
                _ => None,
            };
        }
        if let Some((source, range)) = &self.shared {
            return source.event(range.start.checked_add(index)?);
        }
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
        })
    }
}
