//! The routing shared by every derived struct builder: which field an event belongs to.

use super::{Depth, Event, Rejected};
use crate::sink::Raw;

/// The state of a field in a draft, for UIs that render each field's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldState {
    /// Nothing has arrived for the field yet.
    Pending,
    /// The field's value has begun (a partial string, a growing vector).
    Streaming,
    /// The field's value is final.
    Settled,
}

/// Which fields of a draft have settled (up to 128 fields, checked by the derive).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct FieldSet(u128);

impl FieldSet {
    /// Marks field `index` settled.
    pub fn insert(&mut self, index: usize) {
        if index < 128 {
            self.0 |= 1 << index;
        }
    }

    /// Field `index` is streaming again (a repeated key).
    pub fn remove(&mut self, index: usize) {
        if index < 128 {
            self.0 &= !(1 << index);
        }
    }

    /// Field `index` has settled.
    pub fn contains(&self, index: usize) -> bool {
        index < 128 && self.0 & (1 << index) != 0
    }

    /// The state of field `index` whose draft is present (`begun`) or not.
    pub fn state(&self, index: usize, begun: bool) -> FieldState {
        if self.contains(index) {
            FieldState::Settled
        } else if begun {
            FieldState::Streaming
        } else {
            FieldState::Pending
        }
    }
}

/// Where a struct builder sends an event.
#[derive(Debug)]
pub enum Route<'a> {
    /// The object began: create the draft.
    Begin,
    /// Nothing to do (a key, or an event of a skipped member).
    Skip,
    /// The event belongs to field `index`; `fresh` when it begins the field's value (reset
    /// the field's builder first).
    Field {
        /// The field's position in the struct.
        index: usize,
        /// The event begins the field's value.
        fresh: bool,
    },
    /// The object (or a value of the wrong shape) is complete.
    Done(Raw<'a>),
    /// serde's verdict is certain at this key (a duplicate field, an unknown field under
    /// `deny_unknown_fields`): the member's value is skipped.
    Reject(Rejected),
}

/// A struct's keys as serde reads them.
#[derive(Debug)]
pub struct Keys {
    /// The field index of a key (its name or an alias).
    pub index_of: fn(&str) -> Option<usize>,
    /// Each field's name, by index.
    pub names: &'static [&'static str],
    /// Under `deny_unknown_fields`: every key serde accepts (names and aliases), for its
    /// "unknown field" message.
    pub deny_unknown: Option<&'static [&'static str]>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Phase {
    #[default]
    Start,
    Open,
    /// A known key was read; its value begins with the next event.
    Keyed(usize),
    Field(usize),
    /// Skipping the value of an unknown or skipped key.
    Unknown,
    /// The value is not an object: follow it to its end.
    Mismatch,
}

/// Routes a struct's events: the derive generates the per-field dispatch around it.
#[derive(Debug, Default, Clone)]
pub struct ObjectState {
    phase: Phase,
    skip: Depth,
    key: String,
    /// Fields whose key has been read.
    seen: FieldSet,
}

impl ObjectState {
    /// Decides where `event` goes. `keys` maps a key to a field index (serde's names and
    /// aliases); unknown keys are skipped, or rejected under `deny_unknown_fields`, and a
    /// field's second key is rejected, as serde rejects it.
    pub fn route<'a>(&mut self, event: &Event<'a>, keys: &Keys) -> Route<'a> {
        match (self.phase, event) {
            (Phase::Start, Event::BeginObject) => {
                self.phase = Phase::Open;
                Route::Begin
            }
            (Phase::Start | Phase::Mismatch, _) => {
                self.phase = Phase::Mismatch;
                match self.skip.track(event) {
                    Some(raw) => Route::Done(raw),
                    None => Route::Skip,
                }
            }
            (Phase::Open, Event::Key(key, raw)) => {
                self.key.clear();
                self.key.push_str(key);
                self.phase = Phase::Unknown;
                match (keys.index_of)(key) {
                    Some(index) if self.seen.contains(index) => {
                        let name = keys.names.get(index).copied().unwrap_or(key);
                        Route::Reject(Rejected::custom(
                            format_args!("duplicate field `{name}`"),
                            *raw,
                        ))
                    }
                    Some(index) => {
                        self.seen.insert(index);
                        self.phase = Phase::Keyed(index);
                        Route::Skip
                    }
                    None => match keys.deny_unknown {
                        Some(known) => Route::Reject(Rejected {
                            error: serde::de::Error::unknown_field(key, known),
                            span: raw.span(),
                        }),
                        None => Route::Skip,
                    },
                }
            }
            (Phase::Open, Event::EndObject(raw)) => Route::Done(*raw),
            (Phase::Keyed(index), _) => {
                self.phase = Phase::Field(index);
                Route::Field { index, fresh: true }
            }
            (Phase::Field(index), _) => Route::Field {
                index,
                fresh: false,
            },
            (Phase::Unknown, _) => {
                if self.skip.track(event).is_some() {
                    self.phase = Phase::Open;
                }
                Route::Skip
            }
            // Keys always precede member values; anything else here cannot come from the
            // scanner.
            (Phase::Open, _) => Route::Skip,
        }
    }

    /// The field's value settled: back to reading keys.
    pub fn field_done(&mut self) {
        self.phase = Phase::Open;
    }

    /// The key of the member being read, as the model wrote it (a name or an alias).
    pub fn key(&self) -> &str {
        &self.key
    }
}
