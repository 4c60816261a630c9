//! After the root: strict mode allows whitespace only; lenient mode reads on as prose and
//! notices a second JSON value (models sometimes print an example before the answer).

use super::state::State;
use super::tables::is_ws;
use super::{Scanner, Step, stop};
use crate::error::{ErrorKind, Reason};
use crate::options::SecondRoot;
use crate::sink::Sink;
use std::fmt;

/// How many warnings a stream keeps: the first ones, in input order.
pub const MAX_WARNINGS: usize = 64;

/// Something the scanner tolerated but the caller may want to know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// What happened.
    pub kind: WarningKind,
    /// Input offset where it began.
    pub offset: u64,
}

/// The kinds of [`Warning`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum WarningKind {
    /// A second JSON value followed the root; the first was kept.
    SecondValueIgnored,
    /// A second JSON value followed the root and replaced it.
    SecondValueReplaced,
    /// The input ended inside a second JSON value that had replaced a complete one: the
    /// complete value was kept.
    SecondValueCut,
    /// A second JSON value that had replaced a complete one turned out not to be JSON
    /// (or nested past the depth cap): the complete value was kept, and the rest of the
    /// input ignored.
    SecondValueInvalid,
    /// An object repeated a key: the first value was kept (schema-less streams; typed
    /// streams reject a duplicate, as serde does for a struct's fields).
    DuplicateKey,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            WarningKind::SecondValueIgnored => write!(
                f,
                "a second JSON value began at byte {}; the first one was kept",
                self.offset
            ),
            WarningKind::SecondValueReplaced => write!(
                f,
                "a second JSON value began at byte {}; it replaced the first one",
                self.offset
            ),
            WarningKind::SecondValueCut => write!(
                f,
                "the input ended inside the JSON value that began at byte {}; the complete \
                 value before it was kept",
                self.offset
            ),
            WarningKind::SecondValueInvalid => write!(
                f,
                "the JSON value that began at byte {} is not valid JSON (or nests past the \
                 depth limit); the complete value before it was kept",
                self.offset
            ),
            WarningKind::DuplicateKey => write!(
                f,
                "the key at byte {} repeats a key of its object; the first value was kept",
                self.offset
            ),
        }
    }
}

impl Scanner {
    /// Records something tolerated: the first [`MAX_WARNINGS`] of them in input order (a
    /// runaway loop that repeats a key millions of times must not keep a warning per
    /// repeat). A warning may be recorded after a later one (a chunk's duplicate keys
    /// after its second value): it takes its place by offset, so the list does not
    /// depend on how the input was split.
    pub(crate) fn warn(&mut self, kind: WarningKind, offset: u64) {
        let at = self.warnings.partition_point(|w| w.offset <= offset);
        if at >= MAX_WARNINGS {
            return;
        }
        if self.warnings.len() >= MAX_WARNINGS {
            self.warnings.pop();
        }
        self.warnings.insert(at, Warning { kind, offset });
    }

    /// Keep-last: the first root was replaced. The duplicate keys noted in it are set
    /// aside with it (they come back if it does; the sink sets aside those not yet noted).
    fn set_duplicates_aside(&mut self) -> Vec<Warning> {
        let start = self.second_offset;
        let (aside, kept) = std::mem::take(&mut self.warnings)
            .into_iter()
            .partition(|w| w.kind == WarningKind::DuplicateKey && w.offset < start);
        self.warnings = kept;
        aside
    }

    /// The root that replaced the first was refused or cut, and the first is back: the
    /// duplicate keys noted in the one dropped go with it, and the first's come back,
    /// however the input was split.
    pub(super) fn bring_duplicates_back(&mut self, duplicates: Vec<Warning>) {
        let start = self.second_offset;
        self.warnings
            .retain(|w| w.kind != WarningKind::DuplicateKey || w.offset < start);
        for w in duplicates {
            self.warn(w.kind, w.offset);
        }
    }

    /// After the root value.
    pub(super) fn after_root(&mut self, b: &[u8], i: usize) -> Step {
        if self.options.strict {
            let rest = b.get(i..).unwrap_or_default();
            return match rest.iter().position(|&c| !is_ws(c)) {
                Some(k) => Err(stop(Reason::TrailingCharacters, i + k)),
                None => Ok(b.len()),
            };
        }
        if self.ignore_rest {
            return Ok(b.len());
        }
        // Read on as prose: a bracket there may start a second value, a comment right
        // after it names none.
        self.preamble.prose_seen = true;
        self.root_trail = true;
        self.state = State::Prose;
        Ok(i)
    }

    /// A second root begins at `i`: always tentative; muted when only the first is kept.
    pub(super) fn begin_second_root(&mut self, i: usize) {
        self.second_start = self.end();
        self.second_offset = self.fed + i as u64;
        let p = &self.preamble;
        self.second_fenced = p.fenced && !p.prose_seen && p.fence_tag_len > 0;
        self.preamble.prose_seen = true;
        self.root_trail = false;
        self.muted = self.options.second_root == SecondRoot::KeepFirst;
    }

    /// A second root that replaced a complete one failed on bad syntax or depth: the
    /// complete one is restored (true), as when the input ends inside the second.
    pub(super) fn replaced_by_invalid<S: Sink>(&mut self, reason: Reason, sink: &mut S) -> bool {
        let kind = reason.kind();
        matches!(kind, ErrorKind::Invalid | ErrorKind::TooDeep)
            && self.previous.is_some()
            && self.restore_previous(sink, WarningKind::SecondValueInvalid)
    }

    /// An error in a root that may still be prose drops the root instead of failing.
    pub(super) fn droppable(&self, reason: Reason) -> bool {
        let kind = reason.kind();
        if self.done && (self.tentative || self.muted) {
            return kind != ErrorKind::TooLarge;
        }
        // A false start may also nest past the depth cap ("[[wikilinks]]" at depth 1): it
        // is read on (`deep_candidate`) until it shows that it is not JSON. Whitespace past
        // the stall guard is no false start: dropped, the root would leave its inner values
        // to be read as the answer (`{"a":` then a whitespace loop, then `{"b": 1}`).
        self.tentative && kind == ErrorKind::Invalid
    }

    /// The tentative first root failed at its first value, after a key and its colon, or
    /// it is an array or an object where the reply begins, or it failed at its first
    /// object's first key and a `:` or `=` led it or it began its line (`Output:\n{name:
    /// "x"}`, `Per [2]: {'a': 1}`: meant as the answer, in a syntax JSON is not; see
    /// `Scanner::refused_root`).
    /// Some(true) for all but the first kind: a weaker sign, which an empty container held
    /// in prose outranks (`Answer: []` after or before `{name: string}` is `[]`, and so is
    /// `[NOTE] none found.\n[]`).
    #[cold]
    pub(super) fn refusable(&self) -> Option<bool> {
        // A `/` that opens no comment there fails where the value would go on.
        let at = match self.state {
            State::CommentSlash => self.after_comment,
            state => state,
        };
        let first_key = at == State::KeyStart
            && (self.citation_led || self.line_led)
            && self
                .stack
                .last()
                .is_some_and(|frame| frame.object && !frame.has_member && !frame.after_comma);
        let strong = self.key_pending
            && matches!(
                at,
                State::ValueStart | State::Number | State::Literal | State::AfterValue
            );
        let weak = self.bare_array || self.bare_object || first_key;
        match (self.done, strong, weak) {
            (true, _, _) | (false, false, false) => None,
            (false, strong, _) => Some(!strong),
        }
    }

    /// The error of a root refused (see `refused_root`) is the reading's if no other
    /// value comes: a weak refusal's only if no empty container is held too.
    pub(super) fn refusal_stands(&self) -> bool {
        self.refused_root.is_some() && !(self.refused_weak && self.empty_root.is_some())
    }

    /// A root read in prose (a first or a second one) and not yet confirmed nested past
    /// the depth cap: it is read on muted, the cap raised, until it shows whether it is
    /// JSON (see `Scanner::deep`).
    pub(super) fn deep_candidate(&self, reason: Reason) -> bool {
        self.tentative && self.deep.is_none() && reason.kind() == ErrorKind::TooDeep
    }

    /// A second root was confirmed. Keep-last: forget the first and go on with this one
    /// (returns true: send the held-back containers). Keep-first: note it (the rest of the
    /// step is muted; [`Scanner::keep_first`] then stops looking).
    pub(super) fn second_confirmed_here<S: Sink>(&mut self, sink: &mut S) -> bool {
        if self.muted {
            self.second_confirmed = true;
            return false;
        }
        sink.reset();
        let duplicates = self.set_duplicates_aside();
        // Nothing is released after the first root completes: the second starts inside
        // the window.
        let cut = self.second_start;
        let at = cut.saturating_sub(self.window.base).min(self.clean.len());
        let second = self.clean.split_off(at);
        let first = std::mem::replace(&mut self.clean, second);
        let window = std::mem::replace(&mut self.window, super::Window::START);
        self.anchors.clear();
        self.previous = Some(super::Previous {
            clean: first,
            window,
            root_offset: self.root_offset,
            root_position: self.root_position,
            duplicates,
        });
        for frame in &mut self.stack {
            frame.start = frame.start.saturating_sub(cut);
            frame.comma_at = frame.comma_at.saturating_sub(cut);
        }
        self.scalar_start = self.scalar_start.saturating_sub(cut);
        self.key_start = self.key_start.saturating_sub(cut);
        self.key_end = self.key_end.saturating_sub(cut);
        if let Some((start, end)) = &mut self.scalar_pending {
            *start = start.saturating_sub(cut);
            *end = end.saturating_sub(cut);
        }
        if let Some((start, _)) = &mut self.held_run {
            *start = start.saturating_sub(cut);
        }
        self.root_offset = self.second_offset;
        self.root_position = self.second_position;
        self.done = false;
        self.warn(WarningKind::SecondValueReplaced, self.second_offset);
        true
    }

    /// The byte cap was reached after the root completed: a second root being checked is
    /// dropped (a confirmed one, under keep-last, gives the complete one back), and the
    /// rest of the input is ignored. False when no complete value is at hand (the cap is
    /// then the stream's ending).
    pub(super) fn complete_at_cap<S: Sink>(&mut self, sink: &mut S) -> bool {
        if self.previous.is_some() {
            let restored = self.restore_previous(sink, WarningKind::SecondValueCut);
            self.ignore_rest |= restored;
            return restored;
        }
        // Nothing past the cap is read to tell whether the possible citation was the
        // answer: after the answer, it is prose and the answer stands; before it, it is
        // held in prose as any citation is, and so no value (below).
        if self.state == State::AfterCitation {
            if self.done && self.end_citation(sink) {
                self.ignore_rest = true;
                return self.done;
            }
            if !self.done {
                self.set_citation_aside();
            }
        }
        if !self.done {
            // Nothing held in prose is the value at the cap: an empty container or a
            // citation there is a false start that reading on may have replaced (`Sure: []
            // and the answer: {"a": 1}`), as a provider's cut does not make it the answer
            // either, so the reading is too large. A root refused at its first value still
            // gives its own error (see `Scanner::refused_root`); one refused at its first
            // key does not: an empty container or a citation after it, which the cap may
            // have kept from coming, would be the value (`Output:\n{name: "x"}\nSee [1].`).
            if self.refusal_stands() && !self.refused_weak {
                let _ = self.fall_back_on_empty_root(sink);
            }
            return false;
        }
        if self.tentative || self.muted {
            self.drop_root();
        }
        self.ignore_rest = true;
        self.state = State::AfterRoot;
        true
    }

    /// Keep-first: a second value was confirmed; drop it and ignore the rest of the input.
    pub(super) fn keep_first(&mut self) {
        self.warn(WarningKind::SecondValueIgnored, self.second_offset);
        self.truncate_clean(self.second_start);
        self.stack.clear();
        self.tentative = false;
        self.key_pending = false;
        self.scalar_pending = None;
        self.held_run = None;
        self.muted = false;
        self.second_confirmed = false;
        self.ignore_rest = true;
        self.state = State::AfterRoot;
    }
}
