//! The typed sink: scanner events into a [`Streamable`] type's builder.

use super::{Ctx, Event, Rejected, Rejection, Step, Streamable};
use crate::sink::{Raw, Sink};

/// Drives the root builder of `T` and collects what settles.
pub(crate) struct TypedSink<T: Streamable> {
    builder: T::Builder,
    pub(crate) slot: Option<T::Draft>,
    pub(crate) fields: Vec<T::Field>,
    pub(crate) rejections: Vec<Rejection>,
    /// The root settled: serde's verdict on it.
    pub(crate) done: Option<Result<T::Value, Rejected>>,
    /// Stop at the first rejection: nothing after it reaches the draft, the fields or the
    /// callbacks, and the scanner stops there.
    fail_fast: bool,
    /// The complete value a second root replaced (keep-last), until that one settles.
    previous: Option<Kept<T>>,
}

/// A complete root set aside by a second one: its draft and its strict value.
struct Kept<T: Streamable> {
    draft: Option<T::Draft>,
    value: T::Value,
}

impl<T: Streamable> TypedSink<T> {
    pub(crate) fn new(fail_fast: bool) -> Self {
        TypedSink {
            builder: T::Builder::default(),
            slot: None,
            fields: Vec::new(),
            rejections: Vec::new(),
            done: None,
            fail_fast,
            previous: None,
        }
    }

    #[inline]
    fn event(&mut self, event: Event<'_>) {
        if self.done.is_some() || self.halted() {
            return;
        }
        let fields = &mut self.fields;
        let mut emit = |field| fields.push(field);
        let mut ctx = Ctx::new(&mut emit, &mut self.rejections);
        if let Step::Done(value) = T::step(&mut self.builder, &mut self.slot, event, &mut ctx) {
            self.done = Some(value);
            self.previous = None;
        }
    }
}

impl<T: Streamable> Sink for TypedSink<T> {
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
        self.builder = T::Builder::default();
        let slot = self.slot.take();
        if let Some(Ok(value)) = self.done.take() {
            self.previous = Some(Kept { draft: slot, value });
        }
        self.rejections.clear();
    }
    fn restore(&mut self) {
        if let Some(kept) = self.previous.take() {
            self.slot = kept.draft;
            self.done = Some(Ok(kept.value));
            self.rejections.clear();
        }
    }
}
