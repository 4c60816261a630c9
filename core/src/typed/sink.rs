//! The typed sink: scanner events to the builder of the value they belong to, through an
//! explicit stack of frames (no recursion, no chain of closures: an event costs one call
//! plus a walk to its draft).

use super::StreamingModel;
use super::protocol::{Adopt, Event, Flow, Frame, FrameFlow, Member, Out, Rejected};
use super::replay::Recording;
use crate::path::{Path, Step};
use crate::sink::{Raw, Sink};
use std::any::Any;
use std::sync::Arc;

/// A value serde rejected, with its path from the root.
#[derive(Debug)]
pub(crate) struct Rejection {
    pub(crate) path: Path,
    pub(crate) rejected: Rejected,
}

/// Drives the builders of `T` and collects what settles.
pub(crate) struct TypedSink<T: StreamingModel> {
    /// The root's draft: the only copy of what has arrived.
    pub(crate) slot: Option<T::Draft>,
    root: Member,
    /// Frames of the open containers, outermost first.
    stack: Vec<Box<dyn Frame>>,
    /// What settled since the last drain, as the root's fields.
    pub(crate) fields: Vec<T::Field>,
    /// The first value serde rejected, if any: only the first is kept (see `reject`).
    pub(crate) rejections: Vec<Rejection>,
    /// The root settled: accepted or not.
    pub(crate) done: Option<bool>,
    /// Stop at the first rejection: nothing after it reaches the draft, the fields or the
    /// callbacks, and the scanner stops there.
    fail_fast: bool,
    /// The complete root a second one replaced (keep-last), until that one settles: its
    /// draft, whether serde accepted it, its rejections and its text's span (so that
    /// input ending inside the second gives the first back with its own verdict).
    previous: Option<Previous<T::Draft>>,
    /// Fields are wanted (`feed`, callbacks); without them (`push`), containers' values
    /// are not built for events and nothing is wrapped.
    pub(crate) events: bool,
    /// The root container's clean text, once it closed (where a rejection of the whole
    /// value points).
    root_span: std::ops::Range<usize>,
    /// Recordings being replayed, innermost last, each with the index of its next event.
    replaying: Vec<(Arc<Recording>, usize)>,
    /// Bytes kept for replays now (kept, and not yet replayed or dropped), and the most
    /// they may take: members before a late tag inside members before a late tag are kept
    /// once per level, so nesting could otherwise multiply the memory a document takes.
    recorded: usize,
    replay_budget: usize,
    /// Events read (string fragments not counted: how many there are depends on the
    /// chunking), events replayed, and the deepest the frames have nested. A value kept
    /// inside kept values is replayed once per level it nests in (serde too reads it
    /// again once per untagged level), and the levels are frames (of the JSON's nesting
    /// or of enums inside enums): replays may send at most [`REPLAY_FACTOR`] plus that
    /// many times the events read (plus [`REPLAY_SLACK`]). Nesting never exhausts that
    /// budget; it stops a replay that would not end.
    live: u64,
    replayed: u64,
    levels: u64,
    /// The frames below this level hold a value that was rejected (without fail-fast):
    /// none of them settles, so no event reports a container without its refused member.
    tainted: usize,
}

/// A complete root set aside for the one that replaced it (see `TypedSink::previous`).
struct Previous<D> {
    draft: D,
    ok: bool,
    rejections: Vec<Rejection>,
    span: std::ops::Range<usize>,
}

/// How many times the events read the replays may send on top of once per level.
const REPLAY_FACTOR: u64 = 64;
/// The most levels the replay budget counts (a replay that nests without end is stopped).
const MAX_REPLAY_LEVELS: u64 = 4096;
/// Replayed events allowed on top of that, whatever the document.
const REPLAY_SLACK: u64 = 1 << 16;

impl<T: StreamingModel> TypedSink<T> {
    /// A sink whose replays may keep `replay_budget` bytes in all.
    pub(crate) fn new(fail_fast: bool, replay_budget: usize) -> Self {
        TypedSink {
            slot: None,
            root: Member::default(),
            stack: Vec::new(),
            fields: Vec::new(),
            rejections: Vec::new(),
            done: None,
            fail_fast,
            previous: None,
            events: true,
            root_span: 0..0,
            replaying: Vec::new(),
            recorded: 0,
            replay_budget,
            live: 0,
            levels: 0,
            replayed: 0,
            tainted: 0,
        }
    }

    /// The draft of the frame at `level`, reached from the root through its ancestors.
    fn draft_at<'d>(
        slot: &'d mut Option<T::Draft>,
        frames: &mut [Box<dyn Frame>],
    ) -> Option<&'d mut dyn Any> {
        let mut draft = T::frame_draft(slot.as_mut()?)?;
        for frame in frames {
            draft = frame.child_draft(draft)?;
        }
        Some(draft)
    }

    /// One event from the scanner, then whatever it asked to replay (a replayed event may
    /// ask for more: a loop, not recursion).
    fn event(&mut self, event: Event<'_>) {
        self.dispatch(event, None);
        while let Some((recording, next)) = self.replaying.last_mut() {
            let recording = Arc::clone(recording);
            let index = *next;
            *next += 1;
            match recording.event(index) {
                Some(event) => {
                    let origin = recording.origin(index).or_else(|| {
                        (index < recording.kept()).then(|| (Arc::clone(&recording), index))
                    });
                    self.dispatch(event, origin);
                }
                None => {
                    self.replaying.pop();
                    self.recorded = self.recorded.saturating_sub(recording.charged());
                }
            }
        }
    }

    fn dispatch(&mut self, event: Event<'_>, origin: Option<super::replay::Origin>) {
        if self.done.is_some() || self.halted() {
            self.replaying.clear();
            return;
        }
        match origin {
            None => {
                if !matches!(event, Event::Fragment(_)) {
                    self.live += 1;
                }
            }
            Some(_) => {
                self.replayed += 1;
                let levels = (self.stack.len() as u64).min(MAX_REPLAY_LEVELS);
                self.levels = self.levels.max(levels);
                let allowed = self
                    .live
                    .saturating_mul(REPLAY_FACTOR + self.levels)
                    .saturating_add(REPLAY_SLACK);
                if self.replayed > allowed {
                    let level = self.stack.len().saturating_sub(1);
                    self.over_budget(level, &event);
                    return;
                }
            }
        }
        let Some(top) = self.stack.len().checked_sub(1) else {
            self.root_event(&event);
            return;
        };
        let mut out = Out {
            events: self.events,
            origin,
            ..Out::default()
        };
        let flow = {
            let (below, above) = self.stack.split_at_mut(top);
            match (Self::draft_at(&mut self.slot, below), above.first_mut()) {
                (Some(draft), Some(frame)) => frame.event(&event, draft, &mut out),
                // A frame whose draft begins late (an enum's) sees `()` until then.
                (None, Some(frame)) => frame.event(&event, &mut (), &mut out),
                _ => FrameFlow::More,
            }
        };
        self.recorded = self.recorded.saturating_sub(out.released);
        if out.recorded > 0 {
            self.recorded = self.recorded.saturating_add(out.recorded);
            if self.recorded > self.replay_budget {
                self.over_budget(top, &event);
                return;
            }
        }
        if let Some(draft) = out.place.take() {
            self.place(top, draft);
        }
        if let Some(recording) = out.replay.take() {
            if recording.len() > 0 {
                self.replaying.push((recording, 0));
            }
        }
        self.record(&mut out, top);
        match flow {
            FrameFlow::More => {}
            FrameFlow::Push(frame) => self.stack.push(frame),
            FrameFlow::Done(ok) => {
                self.propagate(&mut out, top);
                self.closed(ok, out.closed.take().unwrap_or(0..0));
                return;
            }
        }
        self.propagate(&mut out, top);
    }

    /// The members kept for replays outgrew their budget: the value at `level` is refused
    /// there, and the stream stops.
    fn over_budget(&mut self, level: usize, event: &Event<'_>) {
        let mut steps: Vec<Step<'_>> = Vec::new();
        for frame in self.stack.iter().take(level) {
            frame.path(&mut steps);
        }
        let mut path = Path::default();
        for step in steps {
            path.push(step);
        }
        let span = match *event {
            Event::EndObject(raw)
            | Event::EndArray(raw)
            | Event::EndString(raw)
            | Event::Number(_, raw)
            | Event::Bool(_, raw)
            | Event::Null(raw)
            | Event::Key(_, raw) => raw.span(),
            _ => 0..0,
        };
        let message = "values kept to be replayed (members written before a late tag, \
                       untagged values) took more than the stream's budget (their text kept \
                       at most 8 times the byte cap; the events read sent again at most once \
                       per level they nest in, plus 64 times); write tags before the members \
                       they select";
        self.reject(Rejection {
            path,
            rejected: Rejected {
                error: serde::de::Error::custom(message),
                span,
            },
        });
        self.replaying.clear();
        self.recorded = 0;
        self.replayed = 0;
        self.settle_root(false);
    }

    /// Hands the draft of the frame at `level` to the step that owns its slot (its
    /// parent's member, or the root); a parent whose own draft begins with it passes one
    /// on in turn.
    fn place(&mut self, mut level: usize, draft: Box<dyn Any + Send>) {
        let mut draft = Some(draft);
        while let Some(placing) = draft.take() {
            let adopt = Adopt::new(placing);
            let event = Event::Place(&adopt);
            let Some(parent) = level.checked_sub(1) else {
                let _ = T::step(&mut self.root, &event, &mut self.slot);
                return;
            };
            let mut out = Out {
                events: self.events,
                ..Out::default()
            };
            let (below, above) = self.stack.split_at_mut(parent);
            if let Some(frame) = above.first_mut() {
                let _ = match Self::draft_at(&mut self.slot, below) {
                    Some(d) => frame.event(&event, d, &mut out),
                    None => frame.event(&event, &mut (), &mut out),
                };
            }
            draft = out.place.take();
            level = parent;
        }
    }

    /// An event of the root value itself (before its container opens, or a scalar root).
    fn root_event(&mut self, event: &Event<'_>) {
        match T::step(&mut self.root, event, &mut self.slot) {
            Flow::More => {}
            Flow::Push(frame) => self.stack.push(frame),
            Flow::Done(Ok(_)) => self.settle_root(true),
            Flow::Done(Err(rejected)) => {
                self.reject(Rejection {
                    path: Path::default(),
                    rejected,
                });
                self.settle_root(false);
            }
        }
    }

    /// Keeps a rejection if it is the first: only the first is reported (by `finish`, or
    /// by `feed` under fail-fast), and a runaway list of refused values without fail-fast
    /// must not keep one each (memory bounded by the byte cap).
    fn reject(&mut self, rejection: Rejection) {
        if self.rejections.is_empty() {
            self.rejections.push(rejection);
        }
    }

    fn settle_root(&mut self, ok: bool) {
        self.done = Some(ok);
        self.previous = None;
    }

    /// The frame on top closed (`ok` if accepted): its parent settles it.
    fn closed(&mut self, mut ok: bool, span: std::ops::Range<usize>) {
        let level = self.stack.len().saturating_sub(1);
        if level < self.tainted {
            ok = false;
            self.tainted = level;
        }
        self.stack.pop();
        let Some(parent) = self.stack.len().checked_sub(1) else {
            self.root_span = span;
            self.settle_root(ok);
            return;
        };
        let mut out = Out {
            events: self.events,
            ..Out::default()
        };
        {
            let (below, above) = self.stack.split_at_mut(parent);
            if let (Some(draft), Some(frame)) =
                (Self::draft_at(&mut self.slot, below), above.first_mut())
            {
                frame.child_done(draft, ok, span, &mut out);
            }
        }
        self.record(&mut out, parent);
        self.propagate(&mut out, parent);
    }

    /// Gives the rejections of the frame at `level` their paths from the root.
    #[inline]
    fn record(&mut self, out: &mut Out, level: usize) {
        if !out.rejected.is_empty() {
            self.record_rejections(out, level);
        }
    }

    #[cold]
    fn record_rejections(&mut self, out: &mut Out, level: usize) {
        // The frame at `level` and its ancestors hold the refused value.
        self.tainted = self.tainted.max(level + 1);
        for (rejected, member) in out.rejected.drain(..) {
            if !self.rejections.is_empty() {
                // Only the first is kept (see `reject`): no path to find for the others.
                continue;
            }
            let mut steps: Vec<Step<'_>> = Vec::new();
            let upto = if member { level + 1 } else { level };
            for frame in self.stack.iter().take(upto) {
                frame.path(&mut steps);
            }
            let mut path = Path::default();
            for step in steps {
                path.push(step);
            }
            self.reject(Rejection { path, rejected });
        }
    }

    /// A field settled at `level`: each ancestor wraps it as its own, down to the root's
    /// fields (the depth is the cost, once per settled value).
    #[inline]
    fn propagate(&mut self, out: &mut Out, level: usize) {
        // Nobody wants the field (`push`): it stays in its frame's outbox, overwritten by
        // the next.
        if std::mem::take(&mut out.emitted) && self.events {
            self.wrap_up(level);
        }
    }

    /// Wraps the field the frame at `level` emitted as each ancestor's, into the root's
    /// fields.
    fn wrap_up(&mut self, level: usize) {
        for l in (1..=level).rev() {
            let (below, above) = self.stack.split_at_mut(l);
            let (Some(parent), Some(child)) = (below.last_mut(), above.first_mut()) else {
                return;
            };
            if !parent.wrap(child.outbox()) {
                return;
            }
        }
        let field = self
            .stack
            .first_mut()
            .and_then(|root| root.outbox().downcast_mut::<Option<T::Field>>())
            .and_then(Option::take);
        if let Some(field) = field {
            self.fields.push(field);
        }
    }

    /// The root is complete and accepted: its value, taken apart from the draft.
    pub(crate) fn take_value(&mut self) -> Option<Result<T::Value, Rejected>> {
        match self.done {
            Some(true) => {
                let span = self.root_span.clone();
                let value = self.slot.take().map(T::into_value);
                value.map(|v| v.map_err(|r| r.within(span)))
            }
            _ => None,
        }
    }
}

impl<T: StreamingModel> Sink for TypedSink<T> {
    fn begin_object(&mut self) {
        self.event(Event::BeginObject);
    }
    fn end_object(&mut self, raw: Raw<'_>) {
        self.event(Event::EndObject(raw));
    }
    fn begin_array(&mut self) {
        self.event(Event::BeginArray);
    }
    fn end_array(&mut self, raw: Raw<'_>) {
        self.event(Event::EndArray(raw));
    }
    fn key(&mut self, key: &str, raw: Raw<'_>) {
        self.event(Event::Key(key, raw));
    }
    fn begin_string(&mut self) {
        self.event(Event::BeginString);
    }
    fn string_fragment(&mut self, fragment: &str) {
        self.event(Event::Fragment(fragment));
    }
    fn end_string(&mut self, raw: Raw<'_>) {
        self.event(Event::EndString(raw));
    }
    fn number(&mut self, text: &str, raw: Raw<'_>) {
        self.event(Event::Number(text, raw));
    }
    fn bool(&mut self, value: bool, raw: Raw<'_>) {
        self.event(Event::Bool(value, raw));
    }
    fn null(&mut self, raw: Raw<'_>) {
        self.event(Event::Null(raw));
    }
    fn halted(&self) -> bool {
        self.fail_fast && !self.rejections.is_empty()
    }
    fn reset(&mut self) {
        let slot = self.slot.take();
        if let (Some(ok), Some(draft)) = (self.done, slot) {
            self.previous = Some(Previous {
                draft,
                ok,
                rejections: std::mem::take(&mut self.rejections),
                span: self.root_span.clone(),
            });
        }
        self.root = Member::default();
        self.stack.clear();
        self.replaying.clear();
        self.recorded = 0;
        self.rejections.clear();
        self.done = None;
    }
    fn released_depth(&self) -> usize {
        // After a rejection the text stays: its error is made from it later.
        if !self.rejections.is_empty() || !self.replaying.is_empty() {
            return 0;
        }
        self.stack.iter().take_while(|f| !f.keeps_text()).count()
    }
    fn restore(&mut self) {
        if let Some(previous) = self.previous.take() {
            self.slot = Some(previous.draft);
            self.stack.clear();
            self.replaying.clear();
            self.tainted = 0;
            self.rejections = previous.rejections;
            self.root_span = previous.span;
            self.done = Some(previous.ok);
        }
    }
}
