//! What a decoder keeps between events: the tool calls begun and which of them have
//! argument text yet, and a refusal's text.

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

/// The most bytes of a refusal's text kept for its error message.
const REFUSAL_LIMIT: usize = 4096;

/// The text of a refusal (OpenAI's `refusal` deltas: the model declined to answer in the
/// requested format), for the error the response ends with.
#[derive(Debug, Default)]
pub(super) struct Refusal {
    text: String,
}

impl Refusal {
    /// More of the refusal's text.
    pub(super) fn push(&mut self, more: &str) {
        for c in more.chars() {
            if self.text.len() + c.len_utf8() > REFUSAL_LIMIT {
                break;
            }
            self.text.push(c);
        }
    }

    /// The response ends: a refusal is its error.
    pub(super) fn end(&self) -> Result<(), super::DecodeError> {
        if self.text.is_empty() {
            return Ok(());
        }
        Err(super::error(format!("the model refused: {}", self.text)))
    }
}
