//! What a decoder keeps between events: the tool calls begun and which of them have
//! argument text yet, and a refusal's text.

use super::{Channel, Delta, FinishReason};
use std::collections::{BTreeMap, BTreeSet};

/// Tool calls by the index the provider gives them (a content block, an output item, a
/// `tool_calls` entry).
#[derive(Debug, Default)]
pub(crate) struct Calls {
    /// Began as a tool call of the caller's (not a provider's own server tool).
    started: BTreeSet<usize>,
    /// Has had argument text.
    argued: BTreeSet<usize>,
    /// Began and has had no argument text yet: the calls a later block or the response's
    /// end completes (each visited once, however many blocks and ends come).
    pending: BTreeSet<usize>,
    /// Arguments sent whole with the call's start (a server that streams none), read if no
    /// argument text comes.
    whole: BTreeMap<usize, String>,
    /// Each id seen, and its call's index.
    ids: BTreeMap<String, usize>,
    /// The calls that have an id.
    with_id: BTreeSet<usize>,
    /// The call of the last tool call chunk.
    last: Option<usize>,
    /// The call each index the provider gave stands for now: that index, unless a call
    /// with another id came at an index whose call has one (some servers give every call
    /// index 0), or the index's number was already a call's.
    given: BTreeMap<usize, usize>,
    /// Every call number handed out, and the index the provider gave it (if any).
    numbers: BTreeMap<usize, Option<usize>>,
    /// The tool name each call was given.
    names: BTreeMap<usize, String>,
    /// Once a provider gave the largest index there is: no number below this one is free
    /// (numbers are never given back, so the search for a free one goes on from here).
    free_from: usize,
}

impl Calls {
    /// The index of the call a tool call chunk belongs to. With an `index`: the call of
    /// its id if that call came at the same index, else the call the index stands for (a
    /// new call when the chunk brings another id, or another name, to an index whose call
    /// has one: some OpenAI-compatible servers give every call index 0; two indexes are
    /// two calls, even with the same id). Without one (some servers send each call whole,
    /// with its id and no index): the call of its id if known; for a new id, the call open
    /// if it has no id yet (its name came first) and the next call if it has; no id
    /// continues the last call, unless it names another tool than that call's.
    pub(super) fn call_of(
        &mut self,
        index: Option<usize>,
        id: Option<&str>,
        name: Option<&str>,
    ) -> usize {
        let known = id.and_then(|id| self.ids.get(id).copied());
        // The chunk names another tool than call `n` has, without an id: another call. (A
        // name sent again is the same call; one tool called twice with its name before its
        // id, or a name streamed in pieces, cannot be told apart from that.)
        let renamed = |calls: &Self, n: usize| {
            known.is_none()
                && name.is_some_and(|name| calls.names.get(&n).is_some_and(|had| had != name))
        };
        let n = match (index, known) {
            (Some(given), Some(n)) if self.numbers.get(&n) == Some(&Some(given)) => n,
            (Some(given), _) => match self.given.get(&given).copied() {
                Some(n) if renamed(self, n) => self.next(),
                Some(n) if id.is_none() || !self.with_id.contains(&n) => n,
                Some(_) => self.next(),
                None if self.numbers.contains_key(&given) => self.next(),
                None => given,
            },
            (None, Some(n)) => n,
            (None, None) => match (self.last, id) {
                (Some(n), _) if renamed(self, n) => self.next(),
                (last, None) => last.unwrap_or(0),
                (Some(n), Some(_)) if !self.with_id.contains(&n) => n,
                _ => self.next(),
            },
        };
        if let Some(given) = index {
            self.given.insert(given, n);
        }
        if let Some(id) = id {
            self.ids.entry(id.to_owned()).or_insert(n);
            self.with_id.insert(n);
        }
        if let Some(name) = name {
            self.names.entry(n).or_insert_with(|| name.to_owned());
        }
        self.numbers.entry(n).or_insert(index);
        self.last = Some(n);
        n
    }

    /// One entry of an OpenAI chunk's `tool_calls` (its `index`, `id`, function name and
    /// arguments, each `None` when absent or empty): its call begins when it brings an id
    /// or a name, and its arguments extend it.
    pub(crate) fn openai_call(
        &mut self,
        given: Option<usize>,
        id: Option<String>,
        name: Option<String>,
        arguments: Option<String>,
        deltas: &mut Vec<Delta>,
    ) {
        let n = self.call_of(given, id.as_deref(), name.as_deref());
        if id.is_some() || name.is_some() {
            self.start(n, &serde_json::Value::Null, || None);
            deltas.push(Delta::ToolStart { index: n, id, name });
        }
        if let Some(arguments) = arguments {
            self.arguments(n, arguments, deltas);
        }
    }

    /// A call number none has had: past every one handed out, or (when a provider gave
    /// the largest index there is) the lowest free one.
    fn next(&mut self) -> usize {
        let past = |last: Option<&usize>| last.map_or(Some(0), |m| m.checked_add(1));
        match (
            past(self.numbers.keys().next_back()),
            past(self.started.last()),
        ) {
            (Some(a), Some(b)) => a.max(b),
            _ => {
                let free = (self.free_from..usize::MAX)
                    .find(|n| !self.numbers.contains_key(n) && !self.started.contains(n))
                    .unwrap_or(0);
                self.free_from = free;
                free
            }
        }
    }

    /// Call `index` began, with `whole` arguments if its start carried any (an object
    /// with members, or a non-empty string).
    /// `source` gives an object's text as the provider wrote it (see `source_text`).
    pub(super) fn start(
        &mut self,
        index: usize,
        whole: &serde_json::Value,
        source: impl FnOnce() -> Option<String>,
    ) {
        self.started.insert(index);
        if !self.has_arguments(index) {
            self.pending.insert(index);
        }
        let whole = match whole {
            serde_json::Value::Object(members) if !members.is_empty() => {
                source().unwrap_or_else(|| whole.to_string())
            }
            serde_json::Value::String(text) if !text.trim().is_empty() => text.clone(),
            _ => return,
        };
        self.whole.insert(index, whole);
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
        self.pending.remove(&index);
        deltas.push(Delta::Text {
            channel: Channel::Tool(index),
            text,
        });
    }

    /// Call `index` ended: with no argument text, its arguments are those its start
    /// carried, or `{}` (a tool without parameters, whose arguments stream as nothing or
    /// as `""`).
    pub(super) fn end(&mut self, index: usize, deltas: &mut Vec<Delta>) {
        if self.is_started(index) && !self.has_arguments(index) {
            let whole = self.whole.remove(&index);
            self.arguments(index, whole.unwrap_or_else(|| "{}".to_owned()), deltas);
        }
    }

    /// A later content block began at `index`: the calls before it are complete.
    pub(super) fn end_before(&mut self, index: usize, deltas: &mut Vec<Delta>) {
        let later = self.pending.split_off(&index);
        for call in std::mem::replace(&mut self.pending, later) {
            self.end(call, deltas);
        }
    }

    /// The response ended for `reason`: at a natural end (a stop, a tool call) every call
    /// is complete; a cut, a filter or a refusal leaves the calls without arguments as
    /// they are (a truncation, not a call without parameters), but for those whose start
    /// carried their arguments whole (nothing of them was left to cut).
    pub(crate) fn end_all(&mut self, reason: &FinishReason, deltas: &mut Vec<Delta>) {
        if !matches!(reason, FinishReason::Stop | FinishReason::ToolCalls) {
            return self.end_whole(deltas);
        }
        for index in std::mem::take(&mut self.pending) {
            self.end(index, deltas);
        }
    }

    /// The response ended without a natural end: only the calls whose start carried
    /// their arguments whole are complete; the others stay as they are (a truncation).
    pub(super) fn end_whole(&mut self, deltas: &mut Vec<Delta>) {
        for index in std::mem::take(&mut self.pending) {
            if let Some(whole) = self.whole.remove(&index) {
                self.arguments(index, whole, deltas);
            }
        }
    }
}

/// The most bytes of a refusal's text kept for its error message.
const REFUSAL_LIMIT: usize = 4096;

/// The text of a refusal (OpenAI's `refusal` deltas: the model declined to answer in the
/// requested format), for the error the response ends with.
#[derive(Debug, Default)]
pub(crate) struct Refusal {
    text: String,
}

impl Refusal {
    /// More of the refusal's text.
    pub(crate) fn push(&mut self, more: &str) {
        if self.text.ends_with('…') && self.text.len() >= REFUSAL_LIMIT {
            return;
        }
        for c in more.chars() {
            if self.text.len() + c.len_utf8() > REFUSAL_LIMIT {
                self.text.push('…');
                return;
            }
            self.text.push(c);
        }
    }

    /// The whole refusal, sent at its end: kept if no part of it came before.
    pub(super) fn whole(&mut self, text: &str) {
        if self.text.is_empty() {
            self.push(text);
        }
    }

    /// The refusal's text, if the model sent one.
    #[cfg(feature = "async-openai")]
    pub(crate) fn text(&self) -> Option<&str> {
        Some(self.text.as_str()).filter(|t| !t.is_empty())
    }

    /// The response ends: a refusal is its error.
    pub(super) fn end(&self) -> Result<(), super::DecodeError> {
        if self.text.is_empty() {
            return Ok(());
        }
        Err(super::error(format!("the model refused: {}", self.text)))
    }
}
