//! Structs with named fields: the frame shared by every derived model, the routing of keys
//! to fields, and the per-field helpers generated code calls.

use super::StreamingModel;
use super::protocol::{Event, Flow, Frame, FrameFlow, Member, Out, Rejected, Slot};
use crate::path::Step;
use crate::sink::Raw;
use std::any::Any;

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
#[doc(hidden)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct FieldSet(u128);

impl FieldSet {
    /// Marks field `index`.
    pub fn insert(&mut self, index: usize) {
        if index < 128 {
            self.0 |= 1 << index;
        }
    }

    /// Field `index` is marked.
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

/// What the derive generates for a struct: its fields, by index. The frame of every model
/// ([`ObjectFrame`]) is generic over it.
pub trait Object: StreamingModel<Value = Self> + serde::de::DeserializeOwned
where
    Self::Draft: Default,
{
    /// The keys serde reads.
    const KEYS: Keys;

    /// Which fields of `draft` have settled.
    fn settled_mut(draft: &mut Self::Draft) -> &mut FieldSet;

    /// One event of field `index`'s value; a settled value becomes this model's field.
    fn member(
        index: usize,
        member: &mut Member,
        event: &Event<'_>,
        draft: &mut Self::Draft,
    ) -> Flow<Self::Field>;

    /// Field `index`'s frame closed: its value (built from its draft) as this model's
    /// field, or why it is rejected (a constraint).
    fn member_done(
        index: usize,
        draft: &Self::Draft,
        raw: Raw<'_>,
    ) -> Result<Self::Field, Rejected>;

    /// Field `index`'s draft, for its frame.
    fn member_draft(index: usize, draft: &mut Self::Draft) -> Option<&mut dyn Any>;

    /// A field settled inside field `index` (in its frame's outbox), as this model's field.
    fn wrap(index: usize, inner: &mut dyn Any) -> Option<Self::Field>;

    /// At the closing brace: serde's verdict on the fields that never came (a missing
    /// required field).
    fn complete(draft: &Self::Draft) -> Result<(), serde_json::Error>;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Expecting a key or the closing brace.
    Open,
    /// Inside field `index`'s value (`fresh` until its first event).
    Field { index: usize, fresh: bool },
    /// Skipping the value of an unknown or refused key.
    Skip,
}

/// The frame of a model: routes keys to fields, hands each field's events to its type.
pub struct ObjectFrame<T: Object>
where
    T::Draft: Default,
{
    phase: Phase,
    /// The key of the member being read, as the model wrote it (a name or an alias).
    key: String,
    /// Fields whose key has been read.
    seen: FieldSet,
    /// A key has been read.
    keyed: bool,
    member: Member,
    outbox: Option<T::Field>,
}

impl<T: Object> ObjectFrame<T>
where
    T::Draft: Default,
{
    fn new() -> Self {
        ObjectFrame {
            phase: Phase::Open,
            key: String::new(),
            seen: FieldSet::default(),
            keyed: false,
            member: Member::default(),
            outbox: None,
        }
    }

    /// A key closed: route it, or refuse it as serde would.
    fn key(&mut self, key: &str, raw: Raw<'_>, out: &mut Out) {
        self.key.clear();
        self.key.push_str(key);
        self.keyed = true;
        self.phase = Phase::Skip;
        self.member = Member::default();
        let keys = &T::KEYS;
        match (keys.index_of)(key) {
            Some(index) if self.seen.contains(index) => {
                let name = keys.names.get(index).copied().unwrap_or(key);
                out.reject_member(Rejected::custom(
                    format_args!("duplicate field `{name}`"),
                    raw,
                ));
            }
            Some(index) => {
                self.seen.insert(index);
                self.phase = Phase::Field { index, fresh: true };
            }
            None => {
                if let Some(known) = keys.deny_unknown {
                    out.reject_member(Rejected {
                        error: serde::de::Error::unknown_field(key, known),
                        span: raw.span(),
                    });
                }
            }
        }
    }

    /// The field's value settled (or was rejected): back to reading keys.
    fn settled(
        &mut self,
        index: usize,
        draft: &mut T::Draft,
        field: Result<T::Field, Rejected>,
        out: &mut Out,
    ) {
        self.phase = Phase::Open;
        match field {
            Ok(field) => {
                T::settled_mut(draft).insert(index);
                self.outbox = Some(field);
                out.emit();
            }
            Err(rejected) => out.reject_member(rejected),
        }
    }
}

impl<T: Object> Frame for ObjectFrame<T>
where
    T::Draft: Default,
{
    fn event(&mut self, event: &Event<'_>, draft: &mut dyn Any, out: &mut Out) -> FrameFlow {
        let Some(draft) = draft.downcast_mut::<T::Draft>() else {
            return FrameFlow::More;
        };
        match (self.phase, event) {
            (Phase::Open, Event::Key(key, raw)) => self.key(key, *raw, out),
            (Phase::Open, Event::EndObject(raw)) => {
                out.closed = Some(raw.span());
                return match T::complete(draft) {
                    Ok(()) => FrameFlow::Done(true),
                    Err(error) => {
                        // serde reports a missing field at the end of its object.
                        let end = raw.span().end.saturating_sub(1);
                        out.reject_own(Rejected {
                            error,
                            span: end..raw.span().end,
                        });
                        FrameFlow::Done(false)
                    }
                };
            }
            (Phase::Field { index, fresh }, _) => {
                if fresh {
                    self.phase = Phase::Field {
                        index,
                        fresh: false,
                    };
                }
                match T::member(index, &mut self.member, event, draft) {
                    Flow::More => {}
                    Flow::Push(frame) => return FrameFlow::Push(frame),
                    Flow::Done(field) => self.settled(index, draft, field, out),
                }
            }
            (Phase::Skip, _) => {
                if self.member.track(event).is_some() {
                    self.phase = Phase::Open;
                }
            }
            // Keys always precede member values: nothing else reaches an open object.
            (Phase::Open, _) => {}
        }
        FrameFlow::More
    }

    fn child_done(
        &mut self,
        draft: &mut dyn Any,
        ok: bool,
        span: std::ops::Range<usize>,
        out: &mut Out,
    ) {
        let (Phase::Field { index, .. }, Some(draft)) =
            (self.phase, draft.downcast_mut::<T::Draft>())
        else {
            return;
        };
        if !ok {
            self.phase = Phase::Open;
            return;
        }
        let field = T::member_done(index, draft, Raw::span_only(span));
        self.settled(index, draft, field, out);
    }

    fn child_draft<'d>(&mut self, draft: &'d mut dyn Any) -> Option<&'d mut dyn Any> {
        let Phase::Field { index, .. } = self.phase else {
            return None;
        };
        T::member_draft(index, draft.downcast_mut::<T::Draft>()?)
    }

    fn wrap(&mut self, child: &mut dyn Any) -> bool {
        let Phase::Field { index, .. } = self.phase else {
            return false;
        };
        self.outbox = T::wrap(index, child);
        self.outbox.is_some()
    }

    fn outbox(&mut self) -> &mut dyn Any {
        &mut self.outbox
    }

    fn path<'s>(&'s self, steps: &mut Vec<Step<'s>>) {
        // The member open, or the one that just settled or was refused: the last key read.
        if self.keyed {
            steps.push(Step::Key(&self.key));
        }
    }
}

/// The builder of a model's value: `{` opens its frame (and its draft); anything else is
/// followed to its end for serde to reject.
pub fn object_step<T: Object>(
    member: &mut Member,
    event: &Event<'_>,
    slot: &mut dyn Slot<T::Draft>,
) -> Flow<T>
where
    T::Draft: Default,
{
    if member.level() == 0 && matches!(event, Event::BeginObject) {
        slot.set(T::Draft::default());
        return Flow::Push(Box::new(ObjectFrame::<T>::new()));
    }
    member.follow::<<T as StreamingModel>::Value>(event)
}

/// A constraint check of a field's value (`min_items`, …): the message when broken.
pub type Constraint<V> = fn(&V) -> Result<(), String>;

/// A field's value settled (a leaf, in `event`): checks its constraint and makes it the
/// model's field.
pub fn settle_member<V, F>(
    flow: Flow<V>,
    event: &Event<'_>,
    field: fn(V) -> F,
    constraint: Option<Constraint<V>>,
) -> Flow<F> {
    match flow {
        Flow::Done(Ok(value)) => Flow::Done(
            check_constraints(&value, constraint, settle_raw(event)).map(|()| field(value)),
        ),
        other => other.map(field),
    }
}

/// The clean text of the value `event` settles.
fn settle_raw<'a>(event: &Event<'a>) -> Raw<'a> {
    match *event {
        Event::EndObject(raw)
        | Event::EndArray(raw)
        | Event::EndString(raw)
        | Event::Number(_, raw)
        | Event::Bool(_, raw)
        | Event::Null(raw)
        | Event::Key(_, raw) => raw,
        Event::BeginObject | Event::BeginArray | Event::BeginString | Event::Fragment(_) => {
            Raw::span_only(0..0)
        }
    }
}

/// A field's frame closed: its value (a copy of its draft, for the event), checked.
pub fn settle_draft<M: StreamingModel, F>(
    draft: &Option<M::Draft>,
    raw: Raw<'_>,
    field: fn(M::Value) -> F,
    constraint: Option<Constraint<M::Value>>,
) -> Result<F, Rejected> {
    let Some(draft) = draft else {
        return Err(Rejected::custom("the value has no draft", raw));
    };
    let value = M::to_value(draft)?;
    check_constraints(&value, constraint, raw)?;
    Ok(field(value))
}

/// `constraint` on `value` at `raw`.
pub fn check_constraints<V>(
    value: &V,
    constraint: Option<Constraint<V>>,
    raw: Raw<'_>,
) -> Result<(), Rejected> {
    match constraint.map(|check| check(value)) {
        Some(Err(message)) => Err(Rejected::custom(message, raw)),
        _ => Ok(()),
    }
}

/// A field settled inside a vector member (an element, or a field inside an element), as
/// the model's field.
pub fn wrap_items<E: StreamingModel, F>(
    inner: &mut dyn Any,
    element: fn(usize, E::Value) -> F,
    within: Option<fn(usize, E::Field) -> F>,
) -> Option<F> {
    let item = inner
        .downcast_mut::<Option<super::Item<E::Value, E::Field>>>()?
        .take()?;
    match item {
        super::Item::Element(i, value) => Some(element(i, value)),
        super::Item::Inner(i, field) => within.map(|w| w(i, field)),
    }
}

/// A field settled inside a member (a nested model, a map), as the model's field.
pub fn wrap_inner<M: StreamingModel, F>(
    inner: &mut dyn Any,
    within: fn(M::Field) -> F,
) -> Option<F> {
    let field = inner.downcast_mut::<Option<M::Field>>()?.take()?;
    Some(within(field))
}
