//! The events the scanner emits, received by a [`Sink`].

use std::ops::Range;

/// The clean JSON text of one value that has just settled, and where it sits in the
/// scanner's clean buffer.
///
/// The text has no prose, comments or trailing commas: it is valid JSON on its own, so a
/// typed sink can hand it to serde unchanged.
#[derive(Debug, Clone, Copy)]
pub struct Raw<'a> {
    text: &'a [u8],
    start: usize,
    end: usize,
}

impl<'a> Raw<'a> {
    /// `text`, the value at `span` of the clean text (empty when that text was released;
    /// a replayed event's text is kept elsewhere).
    pub(crate) fn with_text(text: &'a [u8], span: Range<usize>) -> Self {
        Raw {
            text,
            start: span.start,
            end: span.end,
        }
    }

    /// A span whose text is not at hand (a container built from its members).
    pub(crate) fn span_only(span: Range<usize>) -> Raw<'static> {
        Raw {
            text: &[],
            start: span.start,
            end: span.end,
        }
    }

    /// The value's JSON text.
    pub fn bytes(&self) -> &'a [u8] {
        self.text
    }

    /// The value's span in the clean buffer.
    pub fn span(&self) -> Range<usize> {
        self.start..self.end
    }
}

/// Receives scanner events. Every method has an empty default, so a sink implements only
/// what it needs; the scanner is generic over the sink, so calls are static and inlined.
///
/// Order: a member's [`Sink::key`] comes when the key closes, before its value begins; a
/// sink that shows values holds the key until then (a key appears only once its value has
/// begun). Scalars arrive whole ([`Sink::number`], [`Sink::bool`], [`Sink::null`])
/// once complete; strings arrive as `begin_string`, any number of fragments, `end_string`.
/// Every `end_*` and scalar event is the moment that value settles.
///
/// ```
/// use settled::{Options, Raw, Scanner, Sink};
///
/// #[derive(Default)]
/// struct Count(usize);
/// impl Sink for Count {
///     fn number(&mut self, _text: &str, _raw: Raw<'_>) { self.0 += 1 }
/// }
///
/// let mut scanner = Scanner::new(Options::default());
/// let mut count = Count::default();
/// scanner.feed(b"Sure: {\"a\": [1, 2", &mut count)?;
/// scanner.feed(b"0, 3]}", &mut count)?;
/// scanner.finish(&mut count)?;
/// assert_eq!(count.0, 3);
/// # Ok::<(), settled::Error>(())
/// ```
#[allow(unused_variables)]
pub trait Sink {
    /// An object began (`{`).
    fn begin_object(&mut self) {}
    /// The open object closed (`}`); it is settled.
    fn end_object(&mut self, raw: Raw<'_>) {}
    /// An array began (`[`).
    fn begin_array(&mut self) {}
    /// The open array closed (`]`); it is settled.
    fn end_array(&mut self, raw: Raw<'_>) {}
    /// The key of the member whose value begins with the next value event (escapes
    /// decoded), as soon as it closes; `raw` is the key's own JSON text.
    fn key(&mut self, key: &str, raw: Raw<'_>) {}
    /// A string value began.
    fn begin_string(&mut self) {}
    /// More characters of the open string (escapes decoded). Never splits a character.
    fn string_fragment(&mut self, fragment: &str) {}
    /// The open string closed; it is settled.
    fn end_string(&mut self, raw: Raw<'_>) {}
    /// A complete number, as its exact source text.
    fn number(&mut self, text: &str, raw: Raw<'_>) {}
    /// A complete `true` or `false`.
    fn bool(&mut self, value: bool, raw: Raw<'_>) {}
    /// A complete `null`.
    fn null(&mut self, raw: Raw<'_>) {}
    /// The sink has seen enough (a typed stream failing fast): the scanner stops before
    /// the next token and leaves the rest of the chunk unread.
    fn halted(&self) -> bool {
        false
    }
    /// A second root replaced the first ([`SecondRoot::KeepLast`](crate::SecondRoot)):
    /// set the value read so far aside; the new root's events follow. Once the new root
    /// settles, the old value may be dropped.
    fn reset(&mut self) {}
    /// The input ended inside the root that replaced the value set aside by
    /// [`Sink::reset`]: bring that complete value back (the scanner then reports success
    /// with a warning rather than a truncation).
    fn restore(&mut self) {}
    /// How many of the outermost open containers the sink needs no more text of (`0`, the
    /// default: all of it). After each chunk the scanner releases the clean text before
    /// the next open container, or before the open scalar when there is none: a sink that
    /// builds its values from the events keeps memory to what is still open. A released
    /// value's [`Raw`] has an empty text (its span stays), and
    /// [`Scanner::clean`](crate::Scanner::clean) holds only the text after it.
    fn released_depth(&self) -> usize {
        0
    }
}

/// A sink that ignores every event: the scanner alone, for validation and benchmarks.
#[derive(Debug, Default, Clone, Copy)]
pub struct IgnoreSink;

impl Sink for IgnoreSink {}
