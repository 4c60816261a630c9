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
}

impl<T: Streamable> Default for TypedSink<T> {
    fn default() -> Self {
        TypedSink {
            builder: T::Builder::default(),
            slot: None,
            fields: Vec::new(),
            rejections: Vec::new(),
            done: None,
        }
    }
}

impl<T: Streamable> TypedSink<T> {
    #[inline]
    fn event(&mut self, event: Event<'_>) {
        if self.done.is_some() {
            return;
        }
        let fields = &mut self.fields;
        let mut emit = |field| fields.push(field);
        let mut ctx = Ctx::new(&mut emit, &mut self.rejections);
        if let Step::Done(value) = T::step(&mut self.builder, &mut self.slot, event, &mut ctx) {
            self.done = Some(value);
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
    fn key(&mut self, key: &str) {
        self.event(Event::Key(key));
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
    fn reset(&mut self) {
        self.builder = T::Builder::default();
        self.slot = None;
        self.rejections.clear();
        self.done = None;
    }
}
