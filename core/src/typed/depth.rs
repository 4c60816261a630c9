//! Following one value of any shape to its end without looking inside.

use super::{Event, Step, from_raw};
use crate::sink::Raw;
use serde::de::DeserializeOwned;

/// Tracks nesting inside one value: skipped values, atomic values, and values whose shape
/// does not match their type (serde rejects those when they settle).
#[derive(Debug, Default, Clone, Copy)]
pub struct Depth(u32);

impl Depth {
    /// Containers and strings open inside the value (0 before it begins or once done).
    pub fn level(&self) -> u32 {
        self.0
    }

    /// Feeds one event of the value; returns its clean text once the value is complete.
    pub fn track<'a>(&mut self, event: &Event<'a>) -> Option<Raw<'a>> {
        match event {
            Event::BeginObject | Event::BeginArray | Event::BeginString => {
                self.0 += 1;
                None
            }
            Event::EndObject(raw) | Event::EndArray(raw) | Event::EndString(raw) => {
                self.0 = self.0.saturating_sub(1);
                (self.0 == 0).then_some(*raw)
            }
            Event::Number(_, raw) | Event::Bool(_, raw) | Event::Null(raw) => {
                (self.0 == 0).then_some(*raw)
            }
            Event::Key(..) | Event::Fragment(_) => None,
        }
    }

    /// Follows a value to its end and deserializes it then: for a value whose shape does
    /// not match its type, serde says why.
    pub fn follow<V: DeserializeOwned>(&mut self, event: &Event<'_>) -> Step<V> {
        match self.track(event) {
            Some(raw) => Step::Done(from_raw(raw)),
            None => Step::More,
        }
    }
}

/// A fresh builder for a container's next element, reusing its allocation.
pub(crate) fn fresh_element<B: Default>(element: &mut Option<Box<B>>) {
    match element {
        Some(builder) => **builder = B::default(),
        None => *element = Some(Box::default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_nesting_to_the_end() {
        let raw = Raw::new(b"[1]", 0..3);
        let mut d = Depth::default();
        assert!(d.track(&Event::BeginArray).is_none());
        assert!(d.track(&Event::BeginString).is_none());
        assert!(d.track(&Event::EndString(raw)).is_none());
        assert!(d.track(&Event::Number("1", raw)).is_none());
        assert!(d.track(&Event::EndArray(raw)).is_some());
        let mut d = Depth::default();
        assert!(d.track(&Event::Null(raw)).is_some());
    }
}
