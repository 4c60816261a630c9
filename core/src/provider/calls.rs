//! The tool calls a decoder has seen begin, and which of them have argument text yet.

use super::{Channel, Delta};
use std::collections::BTreeSet;

/// Tool calls by the index the provider gives them (a content block, an output item, a
/// `tool_calls` entry).
#[derive(Debug, Default)]
pub(super) struct Calls {
    /// Began as a tool call of the caller's (not a provider's own server tool).
    started: BTreeSet<usize>,
    /// Has had argument text.
    argued: BTreeSet<usize>,
}

impl Calls {
    /// Call `index` began.
    pub(super) fn start(&mut self, index: usize) {
        self.started.insert(index);
    }

    /// Call `index` began as a tool call of the caller's.
    pub(super) fn is_started(&self, index: usize) -> bool {
        self.started.contains(&index)
    }

    /// Call `index` has had argument text.
    pub(super) fn has_arguments(&self, index: usize) -> bool {
        self.argued.contains(&index)
    }

    /// Argument text for call `index`.
    pub(super) fn arguments(&mut self, index: usize, text: String, deltas: &mut Vec<Delta>) {
        self.argued.insert(index);
        deltas.push(Delta::Text {
            channel: Channel::Tool(index),
            text,
        });
    }

    /// Call `index` ended: with no argument text, its arguments are `{}` (a tool without
    /// parameters, whose arguments stream as nothing or as `""`).
    pub(super) fn end(&mut self, index: usize, deltas: &mut Vec<Delta>) {
        if self.is_started(index) && !self.has_arguments(index) {
            self.arguments(index, "{}".to_owned(), deltas);
        }
    }

    /// Every call ended, the response complete (not cut short).
    pub(super) fn end_all(&mut self, deltas: &mut Vec<Delta>) {
        let started: Vec<usize> = self.started.iter().copied().collect();
        for index in started {
            self.end(index, deltas);
        }
    }
}
