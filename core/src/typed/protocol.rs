//! The builder protocol: how scanner events reach the builder of the value they belong to.
//!
//! The typed sink keeps an explicit stack of frames, one per open container of a typed
//! value; an event goes straight to the innermost frame (no chain of contexts), and a
//! frame handles its members' leaves itself. Drafts stay in one tree owned by the sink;
//! a frame reaches its own draft through its ancestors (`child_draft`), so no draft is
//! ever moved out and back.

use crate::path::Step;
use crate::sink::Raw;
use serde::de::DeserializeOwned;
use std::any::Any;

/// One scanner event, as a typed builder receives it.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    /// `{`
    BeginObject,
    /// `}`: the object closes; its clean text.
    EndObject(Raw<'a>),
    /// `[`
    BeginArray,
    /// `]`: the array closes; its clean text.
    EndArray(Raw<'a>),
    /// The key of the member whose value begins with the next value event (sent as soon
    /// as the key closes), and the key's own text.
    Key(&'a str, Raw<'a>),
    /// A string value began.
    BeginString,
    /// More characters of the open string.
    Fragment(&'a str),
    /// The string closes.
    EndString(Raw<'a>),
    /// A complete number (its source text).
    Number(&'a str, Raw<'a>),
    /// A complete boolean.
    Bool(bool, Raw<'a>),
    /// A complete `null`.
    Null(Raw<'a>),
    /// Not from the scanner: the draft of a value whose draft begins after its first
    /// event (an enum's, once its variant is known), for the step that owns its slot.
    Place(&'a Adopt),
    /// Not from the scanner: a replayed value without brackets of its own ends here.
    Seal(Raw<'a>),
}

/// A draft on its way to the slot of the value it belongs to (see [`Event::Place`]).
pub struct Adopt(std::cell::Cell<Option<Box<dyn Any + Send>>>);

impl Adopt {
    pub(crate) fn new(draft: Box<dyn Any + Send>) -> Self {
        Adopt(std::cell::Cell::new(Some(draft)))
    }

    /// The draft, if it is a `D` and still here.
    pub fn take<D: 'static>(&self) -> Option<D> {
        let draft = self.0.take()?;
        draft.downcast::<D>().ok().map(|d| *d)
    }
}

impl std::fmt::Debug for Adopt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Adopt")
    }
}

/// Where a value's draft lives: an `Option` field of its parent's draft, the last element
/// of a vector, a map entry, behind a box. Builders update it in place through this.
pub trait Slot<D> {
    /// The draft, if the value has begun.
    fn get(&mut self) -> Option<&mut D>;
    /// Puts (or replaces) the draft.
    fn set(&mut self, draft: D);
}

impl<D> Slot<D> for Option<D> {
    fn get(&mut self) -> Option<&mut D> {
        self.as_mut()
    }
    fn set(&mut self, draft: D) {
        *self = Some(draft);
    }
}

/// The state of the one open member of a container (or of the root value) between events:
/// how deep inside a value that settles whole the events are.
#[derive(Debug, Default, Clone, Copy)]
pub struct Member {
    depth: u32,
    /// The member's first event has been seen (`Option` decides on it).
    pub(crate) begun: bool,
}

impl Member {
    /// Containers and strings open inside the value (0 before it begins or once done).
    pub fn level(&self) -> u32 {
        self.depth
    }

    /// Feeds one event of a value followed whole; returns its clean text once complete.
    pub fn track<'a>(&mut self, event: &Event<'a>) -> Option<Raw<'a>> {
        match event {
            Event::BeginObject | Event::BeginArray | Event::BeginString => {
                self.depth += 1;
                None
            }
            Event::EndObject(raw) | Event::EndArray(raw) | Event::EndString(raw) => {
                self.depth = self.depth.saturating_sub(1);
                (self.depth == 0).then_some(*raw)
            }
            Event::Number(_, raw) | Event::Bool(_, raw) | Event::Null(raw) => {
                (self.depth == 0).then_some(*raw)
            }
            Event::Key(..) | Event::Fragment(_) | Event::Place(_) | Event::Seal(_) => None,
        }
    }

    /// Follows a value to its end and deserializes it then: for a value whose shape does
    /// not match its type, serde says why.
    pub fn follow<V: DeserializeOwned>(&mut self, event: &Event<'_>) -> Flow<V> {
        match self.track(event) {
            Some(raw) => Flow::Done(from_raw(raw)),
            None => Flow::More,
        }
    }
}

/// What a builder reports after an event of its value.
pub enum Flow<V> {
    /// The value continues.
    More,
    /// The value is a container: this frame receives the events inside it, until it
    /// closes; then the parent settles the value from its draft.
    Push(Box<dyn Frame>),
    /// The value settled: the strict value, or serde's reason for rejecting it.
    Done(Result<V, Rejected>),
}

impl<V> Flow<V> {
    /// The same flow with the settled value mapped.
    pub fn map<W>(self, f: impl FnOnce(V) -> W) -> Flow<W> {
        match self {
            Flow::More => Flow::More,
            Flow::Push(frame) => Flow::Push(frame),
            Flow::Done(result) => Flow::Done(result.map(f)),
        }
    }
}

/// serde rejected a value (or a key): its error, and where the value sits in the clean
/// buffer.
#[derive(Debug)]
pub struct Rejected {
    /// serde's error (positions relative to the value's own text).
    pub error: serde_json::Error,
    /// The value's span in the clean buffer.
    pub span: std::ops::Range<usize>,
}

impl Rejected {
    /// serde's `message` about the value (or key) at `raw`.
    pub fn custom(message: impl std::fmt::Display, raw: Raw<'_>) -> Self {
        Rejected {
            error: serde::de::Error::custom(message),
            span: raw.span(),
        }
    }

    /// A map key read twice: serde would keep the last value, but the first has settled
    /// (and been shown and reported), and a settled value never changes.
    pub fn duplicate_key(key: &str, raw: Raw<'_>) -> Self {
        Rejected::custom(
            format_args!("duplicate key `{key}`: its first value has settled"),
            raw,
        )
    }

    /// serde's `message` about a value whose place the caller knows (see
    /// [`Rejected::within`]).
    pub fn unplaced(message: impl std::fmt::Display) -> Self {
        Rejected {
            error: serde::de::Error::custom(message),
            span: 0..0,
        }
    }

    /// Places a rejection made without its value's span (by `to_value`) at `span`.
    pub fn within(mut self, span: std::ops::Range<usize>) -> Self {
        if self.span.is_empty() {
            self.span = span;
        }
        self
    }
}

/// Deserializes a settled value from its clean text.
pub fn from_raw<V: DeserializeOwned>(raw: Raw<'_>) -> Result<V, Rejected> {
    serde_json::from_slice(raw.bytes()).map_err(|error| Rejected {
        error: integer_of_a_float(error, raw.bytes()),
        span: raw.span(),
    })
}

/// serde_json reads a `u128` or `i128` from a number's digits and leaves its fraction or
/// exponent behind: read alone, `1.0` is "trailing characters". Said as serde says it for
/// the other integers.
fn integer_of_a_float(error: serde_json::Error, text: &[u8]) -> serde_json::Error {
    let number = text
        .first()
        .is_some_and(|&b| b == b'-' || b.is_ascii_digit())
        && text.iter().any(|&b| matches!(b, b'.' | b'e' | b'E'));
    if !number || !error.to_string().starts_with("trailing characters") {
        return error;
    }
    let shown = format!("floating point `{}`", String::from_utf8_lossy(text));
    serde::de::Error::invalid_type(serde::de::Unexpected::Other(&shown), &"an integer")
}

/// The builder of a value that appears only when settled: follow it to its end, then
/// deserialize it; the draft takes the value only if serde accepts it.
pub fn atomic_step<T: DeserializeOwned + Clone>(
    member: &mut Member,
    event: &Event<'_>,
    slot: &mut dyn Slot<T>,
) -> Flow<T> {
    match member.track(event) {
        None => Flow::More,
        Some(raw) => {
            let value = from_raw::<T>(raw);
            if let Ok(v) = &value {
                slot.set(v.clone());
            }
            Flow::Done(value)
        }
    }
}

/// What a frame's events produce besides its draft: rejections (their paths are filled in
/// from the stack by the sink) and the notice that its outbox holds a field.
#[derive(Debug, Default)]
pub struct Out {
    /// Rejections at this frame: `true` for one of its members (the path includes the
    /// member), `false` for the container itself.
    pub(crate) rejected: Vec<(Rejected, bool)>,
    /// The frame put a field in its outbox.
    pub(crate) emitted: bool,
    /// The span of the container that just closed (for its parent's checks).
    pub(crate) closed: Option<std::ops::Range<usize>>,
    /// Fields are wanted: a container's value is built for its event (else only its
    /// constraint needs it).
    pub(crate) events: bool,
    /// A draft for this frame's own slot (its value's draft begins late).
    pub(crate) place: Option<Box<dyn Any + Send>>,
    /// Events to send again, in order, once this one is handled.
    pub(crate) replay: Option<std::sync::Arc<super::replay::Recording>>,
    /// Bytes this event had kept for a replay.
    pub(crate) recorded: usize,
    /// Bytes kept for a replay that were dropped unreplayed.
    pub(crate) released: usize,
    /// The event is being replayed from this recording (at this index).
    pub(crate) origin: Option<super::replay::Origin>,
}

impl Out {
    /// A member of this frame's container was rejected.
    pub fn reject_member(&mut self, rejected: Rejected) {
        self.rejected.push((rejected, true));
    }

    /// This frame's container itself was rejected (a missing field at its close).
    pub fn reject_own(&mut self, rejected: Rejected) {
        self.rejected.push((rejected, false));
    }

    /// The frame's outbox holds a field to report.
    pub fn emit(&mut self) {
        self.emitted = true;
    }
}

/// What a frame reports after an event.
pub enum FrameFlow {
    /// The container continues.
    More,
    /// A member's value is a container: its frame goes on top.
    Push(Box<dyn Frame>),
    /// The container closed (`false`: it was rejected).
    Done(bool),
}

/// The builder of one open container of a typed value, type-erased so that frames of any
/// types share one stack. Drafts are passed in as `dyn Any` and downcast to the frame's
/// own draft type (a type id compare).
pub trait Frame: Any + Send {
    /// An event at this container's level: a key, a member's event, the closing bracket.
    fn event(&mut self, event: &Event<'_>, draft: &mut dyn Any, out: &mut Out) -> FrameFlow;

    /// The open member's frame (pushed by this frame) closed; `ok` if it was accepted.
    /// `span` is the member's clean text.
    fn child_done(
        &mut self,
        draft: &mut dyn Any,
        ok: bool,
        span: std::ops::Range<usize>,
        out: &mut Out,
    );

    /// The open member's draft, for its frame.
    fn child_draft<'d>(&mut self, draft: &'d mut dyn Any) -> Option<&'d mut dyn Any>;

    /// Takes the field in `child`, the open member's frame's outbox, wraps it as one of this
    /// frame's fields and puts it in this frame's outbox; false if there was none.
    fn wrap(&mut self, child: &mut dyn Any) -> bool;

    /// This frame's outbox: an `Option` of its type's field.
    fn outbox(&mut self) -> &mut dyn Any;

    /// The path from this container to the open member (or the member last rejected).
    fn path<'s>(&'s self, steps: &mut Vec<Step<'s>>);

    /// The frame will read its container's clean text when it closes (an untagged enum
    /// hands it to serde): the scanner keeps it until then. Other frames build their
    /// values from the events, and the text of what they hold may be released.
    fn keeps_text(&self) -> bool {
        false
    }
}
