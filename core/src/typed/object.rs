//! Structs with named fields: the frame shared by every derived model, the routing of keys
//! to fields, and the per-field helpers generated code calls.

use super::StreamingModel;
use super::missing::{Required, require_all};
use super::protocol::{Event, Flow, Frame, FrameFlow, Member, Out, Rejected, Slot, from_raw};
use crate::path::Step;
use crate::sink::Raw;
use std::any::Any;

/// The state of a field in a draft, for UIs that render each field's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldState {
    /// Nothing has arrived for the field yet.
    Pending,
    /// The field's value has begun and shows in the draft (a partial string, a growing
    /// vector; numbers, booleans and enums show only once settled).
    Streaming,
    /// The field's value is final.
    Settled,
}

/// Which fields of a draft have settled (up to 127 fields, checked by the derive), and
/// whether its object has closed (the last bit).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct FieldSet(u128);

/// The bit that says the object has closed.
const CLOSED: u128 = 1 << 127;

impl FieldSet {
    /// Marks field `index`.
    pub fn insert(&mut self, index: usize) {
        if index < 127 {
            self.0 |= 1 << index;
        }
    }

    /// Field `index` is marked.
    pub fn contains(&self, index: usize) -> bool {
        index < 127 && self.0 & (1 << index) != 0
    }

    /// The object's closing brace has been read.
    pub fn close(&mut self) {
        self.0 |= CLOSED;
    }

    /// The state of flattened field `index`: its members may come until the object
    /// closes, so it is settled only then.
    pub fn state_of_flattened(&self, index: usize, begun: &[bool]) -> FieldState {
        match self.state_of(index, begun) {
            FieldState::Settled if self.0 & CLOSED == 0 => FieldState::Streaming,
            state => state,
        }
    }

    /// The state of field `index`, given which fields' drafts are present.
    pub fn state_of(&self, index: usize, begun: &[bool]) -> FieldState {
        self.state(index, begun.get(index).copied().unwrap_or(false))
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
    /// Each field's name, by index: the key serde reads for it.
    pub names: &'static [&'static str],
    /// The other keys serde reads for a field (`alias`), with the field's index.
    pub aliases: &'static [(&'static str, usize)],
    /// A struct that flattens others finds its keys with this instead (its flattened
    /// fields' names are not keys).
    pub lookup: Option<fn(&str) -> Option<usize>>,
    /// Under `deny_unknown_fields`: every key serde accepts (names and aliases), for its
    /// "unknown field" message.
    pub deny_unknown: Option<&'static [&'static str]>,
}

impl Keys {
    /// The keys of a struct whose fields are `names`, read also as `aliases`.
    pub const fn new(
        names: &'static [&'static str],
        aliases: &'static [(&'static str, usize)],
    ) -> Self {
        Keys {
            names,
            aliases,
            lookup: None,
            deny_unknown: None,
        }
    }

    /// Under `deny_unknown_fields`, with every key serde accepts.
    pub const fn deny_unknown(self, known: &'static [&'static str]) -> Self {
        Keys {
            deny_unknown: Some(known),
            ..self
        }
    }

    /// Keys found by `lookup` (a struct that flattens others).
    pub const fn lookup(self, lookup: fn(&str) -> Option<usize>) -> Self {
        Keys {
            lookup: Some(lookup),
            ..self
        }
    }

    /// The field index of `key` (a name or an alias).
    pub fn index_of(&self, key: &str) -> Option<usize> {
        if let Some(lookup) = self.lookup {
            return lookup(key);
        }
        let alias = || {
            self.aliases
                .iter()
                .find(|(a, _)| *a == key)
                .map(|&(_, i)| i)
        };
        self.names.iter().position(|n| *n == key).or_else(alias)
    }
}

/// A struct the derive generated [`Object`] for: what a flattened field's type is checked
/// against first, so that a type that cannot be flattened gets this one error (the
/// bounds of [`Object`] would add one about its draft).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be flattened into a streamed struct",
    label = "`#[serde(flatten)]` streams a struct with named fields, a `HashMap` or a `BTreeMap`",
    note = "an enum or an `Option` cannot be flattened yet: nest it under a key of its own, flatten the struct itself (its fields that may be absent `#[serde(default)]`), or derive only `Deserialize` on the outer struct and mark fields holding it `#[settled(atomic)]`"
)]
pub trait Flattens {
    /// Named by the check.
    const FLATTENS: () = ();
}

/// What the derive generates for a struct: its fields, by index. The frame of every model
/// ([`ObjectFrame`]) is generic over it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be flattened into a streamed struct",
    label = "`#[serde(flatten)]` streams a struct with named fields, a `HashMap` or a `BTreeMap`",
    note = "an enum or an `Option` cannot be flattened yet: nest it under a key of its own, flatten the struct itself (its fields that may be absent `#[serde(default)]`), or derive only `Deserialize` on the outer struct and mark fields holding it `#[settled(atomic)]`"
)]
pub trait Object: StreamingModel<Value = Self> + serde::de::DeserializeOwned
where
    Self::Draft: Default,
{
    /// The keys serde reads.
    const KEYS: Keys;

    /// The member indices the struct uses: its fields, then the members of the structs it
    /// flattens (at most 127: a [`FieldSet`] holds 128 bits, one of them for the close).
    const WIDTH: usize = Self::KEYS.names.len();

    /// Which fields of `draft` have settled.
    fn settled_mut(draft: &mut Self::Draft) -> &mut FieldSet;

    /// Runs `op` on field `index`: one generated arm per field, calling [`field`] or
    /// [`field_items`].
    fn field<'d>(
        index: usize,
        op: Op<'_, '_>,
        draft: &'d mut Self::Draft,
    ) -> Reply<'d, Self::Field>;

    /// The fields serde reads unless they have a default, with serde's verdict when one
    /// never came.
    const REQUIRED: &'static [Required];

    /// At the closing brace: serde's verdict on the fields that never came (a missing
    /// required field).
    fn complete(draft: &Self::Draft) -> Result<(), serde_json::Error> {
        require_all(Self::field_set(draft).unwrap_or_default(), Self::REQUIRED)
    }

    /// A map flattened into the struct takes the keys no field reads.
    const REST: bool = false;

    /// serde reads the struct from an array of its fields too (not a struct that
    /// flattens, nor a variant of an enum that is not externally tagged).
    const SEQ: bool = true;

    /// What serde's messages call it: `struct Inner`, `struct variant Action::Open`.
    const EXPECTED: Option<&'static str> = None;

    /// Runs `op` on entry `key` of the flattened map (calling [`rest`]).
    fn rest<'d>(key: &str, op: Op<'_, '_>, draft: &'d mut Self::Draft) -> Reply<'d, Self::Field> {
        let _ = (key, op, draft);
        Reply::Wrapped(None)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Expecting a key or the closing brace.
    Open,
    /// Inside field `index`'s value (`fresh` until its first event).
    Field { index: usize, fresh: bool },
    /// Skipping the value of an unknown or refused key.
    Skip,
    /// Inside the value of a key the flattened map takes (the key is `key`).
    Rest,
    /// Inside an element past the fields of a struct written as an array.
    Trailing,
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
    /// A draft to hand the field table when wrapping (which reads none), made once.
    scratch: Option<T::Draft>,
    /// The keys the flattened map took, as its key type reads them.
    rest_read: std::collections::HashSet<String>,
    /// Read from an array, as serde reads a struct from a sequence (its fields in order):
    /// the index of the next element.
    positional: Option<usize>,
}

/// The key of a member the flattened map takes was read: serde's verdict on it, and no
/// key twice (its first value has settled).
fn rest_key<T: Object>(
    key: &str,
    raw: Raw<'_>,
    draft: &mut T::Draft,
    read: &mut std::collections::HashSet<String>,
) -> Result<(), Rejected>
where
    T::Draft: Default,
{
    match T::rest(key, Op::Key(raw), draft) {
        Reply::Key(Err(rejected)) => Err(rejected),
        Reply::Key(Ok(as_read)) => match read.insert(as_read) {
            true => Ok(()),
            false => Err(Rejected::duplicate_key(key, raw)),
        },
        _ => Ok(()),
    }
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
            scratch: None,
            rest_read: std::collections::HashSet::new(),
            positional: None,
        }
    }

    /// The frame of a struct written as an array of its fields.
    fn positional() -> Self {
        ObjectFrame {
            positional: Some(0),
            ..Self::new()
        }
    }

    /// Element `index` of a struct written as an array begins: it is field `index`, or
    /// one too many (serde: "trailing characters").
    fn element(&mut self, index: usize) {
        self.positional = Some(index + 1);
        self.member = Member::default();
        self.phase = match index < T::KEYS.names.len() {
            true => Phase::Field { index, fresh: true },
            false => Phase::Trailing,
        };
    }

    /// The closing bracket of a struct written as an array: serde's verdict on the fields
    /// with no element (each needs a default).
    fn close_positional(
        &mut self,
        count: usize,
        raw: Raw<'_>,
        draft: &mut T::Draft,
        out: &mut Out,
    ) -> FrameFlow {
        out.closed = Some(raw.span());
        T::settled_mut(draft).close();
        // serde names the first position with no element and no default.
        let missing = T::REQUIRED
            .iter()
            .map(|(index, _, _)| *index)
            .filter(|index| *index >= count)
            .min();
        let Some(missing) = missing else {
            return FrameFlow::Done(true);
        };
        let end = raw.span().end.saturating_sub(1);
        out.reject_own(Rejected {
            error: serde::de::Error::invalid_length(
                missing,
                &format!(
                    "{} with {}",
                    expected::<T>(),
                    counted(T::KEYS.names.len(), "element")
                )
                .as_str(),
            ),
            span: end..raw.span().end,
        });
        FrameFlow::Done(false)
    }

    /// A key closed: route it, or refuse it as serde would.
    fn key(&mut self, key: &str, raw: Raw<'_>, draft: &mut T::Draft, out: &mut Out) {
        self.key.clear();
        self.key.push_str(key);
        self.keyed = true;
        self.phase = Phase::Skip;
        self.member = Member::default();
        let keys = &T::KEYS;
        match keys.index_of(key) {
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
            // serde refuses every key a flattened map would take under
            // `deny_unknown_fields`.
            None if T::REST && keys.deny_unknown.is_none() => {
                match rest_key::<T>(key, raw, draft, &mut self.rest_read) {
                    Ok(()) => self.phase = Phase::Rest,
                    Err(rejected) => out.reject_member(rejected),
                }
            }
            None => {
                if let Some(known) = keys.deny_unknown {
                    // serde lists the keys it expects, unless the struct flattens others
                    // (their keys are theirs; the flattened field's name is no key).
                    let error = match keys.lookup {
                        Some(_) => serde::de::Error::custom(format_args!("unknown field `{key}`")),
                        None => serde::de::Error::unknown_field(key, known),
                    };
                    out.reject_member(Rejected {
                        error,
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

    /// An entry of the flattened map settled (or was rejected): back to reading keys.
    fn rest_settled(&mut self, field: Result<T::Field, Rejected>, out: &mut Out) {
        self.phase = Phase::Open;
        match field {
            Ok(field) => {
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
        if let (Phase::Open, Some(next)) = (self.phase, self.positional) {
            match event {
                Event::EndArray(raw) => return self.close_positional(next, *raw, draft, out),
                // Not a value's: nothing begins.
                Event::Seal(_) | Event::Place(_) => return FrameFlow::More,
                // Any other event begins the next element.
                _ => self.element(next),
            }
        }
        match (self.phase, event) {
            (Phase::Open, Event::Key(key, raw)) => self.key(key, *raw, draft, out),
            (Phase::Open, Event::EndObject(raw)) => {
                out.closed = Some(raw.span());
                T::settled_mut(draft).close();
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
                match T::field(index, Op::Step(&mut self.member, event), draft) {
                    Reply::Flow(Flow::Push(frame)) => return FrameFlow::Push(frame),
                    Reply::Flow(Flow::Done(field)) => self.settled(index, draft, field, out),
                    _ => {}
                }
            }
            (Phase::Skip, _) => {
                if self.member.track(event).is_some() {
                    self.phase = Phase::Open;
                }
            }
            (Phase::Trailing, _) => {
                if let Some(raw) = self.member.track(event) {
                    self.phase = Phase::Open;
                    out.reject_member(Rejected::custom(
                        format_args!(
                            "trailing characters: {} has {}",
                            expected::<T>(),
                            counted(T::KEYS.names.len(), "field")
                        ),
                        raw,
                    ));
                }
            }
            (Phase::Rest, _) => {
                match T::rest(&self.key, Op::Step(&mut self.member, event), draft) {
                    Reply::Flow(Flow::Push(frame)) => return FrameFlow::Push(frame),
                    Reply::Flow(Flow::Done(field)) => self.rest_settled(field, out),
                    _ => {}
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
        if let (Phase::Rest, Some(draft)) = (self.phase, draft.downcast_mut::<T::Draft>()) {
            self.phase = Phase::Open;
            if ok {
                let wanted = out.events;
                if let Reply::Field(field) =
                    T::rest(&self.key, Op::Closed(Raw::span_only(span), wanted), draft)
                {
                    self.rest_settled(
                        field.and_then(|f| f.ok_or_else(|| Rejected::unplaced(""))),
                        out,
                    );
                }
            }
            return;
        }
        let (Phase::Field { index, .. }, Some(draft)) =
            (self.phase, draft.downcast_mut::<T::Draft>())
        else {
            return;
        };
        if !ok {
            self.phase = Phase::Open;
            return;
        }
        let wanted = out.events;
        match T::field(index, Op::Closed(Raw::span_only(span), wanted), draft) {
            Reply::Field(Ok(Some(field))) => self.settled(index, draft, Ok(field), out),
            Reply::Field(Ok(None)) => {
                self.phase = Phase::Open;
                T::settled_mut(draft).insert(index);
            }
            Reply::Field(Err(rejected)) => self.settled(index, draft, Err(rejected), out),
            _ => {}
        }
    }

    fn child_draft<'d>(&mut self, draft: &'d mut dyn Any) -> Option<&'d mut dyn Any> {
        if self.phase == Phase::Rest {
            return match T::rest(&self.key, Op::Draft, draft.downcast_mut::<T::Draft>()?) {
                Reply::Draft(draft) => draft,
                _ => None,
            };
        }
        let Phase::Field { index, .. } = self.phase else {
            return None;
        };
        match T::field(index, Op::Draft, draft.downcast_mut::<T::Draft>()?) {
            Reply::Draft(draft) => draft,
            _ => None,
        }
    }

    fn wrap(&mut self, child: &mut dyn Any) -> bool {
        // The draft is not needed to wrap a field: any draft of the type will do.
        let unused = self.scratch.get_or_insert_with(T::Draft::default);
        if self.phase == Phase::Rest {
            self.outbox = match T::rest(&self.key, Op::Wrap(child), unused) {
                Reply::Wrapped(field) => field,
                _ => None,
            };
            return self.outbox.is_some();
        }
        let Phase::Field { index, .. } = self.phase else {
            return false;
        };
        self.outbox = match T::field(index, Op::Wrap(child), unused) {
            Reply::Wrapped(field) => field,
            _ => None,
        };
        self.outbox.is_some()
    }

    fn outbox(&mut self) -> &mut dyn Any {
        &mut self.outbox
    }

    fn path<'s>(&'s self, steps: &mut Vec<Step<'s>>) {
        // The member open, or the one that just settled or was refused: the last key read
        // (the last element begun, in an array).
        if let Some(next) = self.positional {
            if let Some(index) = next.checked_sub(1) {
                steps.push(Step::Index(index));
            }
            return;
        }
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
    // serde reads a struct from an array of its fields too (not one that flattens).
    if member.level() == 0
        && matches!(event, Event::BeginArray)
        && T::SEQ
        && T::KEYS.lookup.is_none()
        && !T::REST
    {
        slot.set(T::Draft::default());
        return Flow::Push(Box::new(ObjectFrame::<T>::positional()));
    }
    match member.track(event) {
        None => Flow::More,
        // A variant whose enum serde reads no array for (its struct would take one).
        Some(raw) if !T::SEQ && raw.bytes().first() == Some(&b'[') => {
            Flow::Done(Err(Rejected::custom(
                format_args!("invalid type: sequence, expected {}", expected::<T>()),
                raw,
            )))
        }
        Some(raw) => Flow::Done(from_raw(raw)),
    }
}

/// `1 element`, `2 elements`, as serde counts.
fn counted(count: usize, noun: &str) -> String {
    match count {
        1 => format!("1 {noun}"),
        _ => format!("{count} {noun}s"),
    }
}

/// What serde's messages call the struct: `struct Inner` (its name, not its path), or
/// what its derive says (a variant's).
fn expected<T: Object>() -> String
where
    T::Draft: Default,
{
    if let Some(expected) = T::EXPECTED {
        return expected.to_owned();
    }
    let name = std::any::type_name::<T>();
    let name = name.split('<').next().unwrap_or(name);
    format!("struct {}", name.rsplit("::").next().unwrap_or(name))
}

/// A constraint check of a field's value (`min_items`, …): the message when broken.
pub type Constraint<V> = fn(&V) -> Result<(), String>;

/// How a field settled inside element `index` of a vector field becomes the model's field.
pub type Within<E, F> = Option<fn(usize, E) -> F>;

/// A field's value settled (a leaf, in `event`): checks its constraint and makes it the
/// model's field.
fn settle_member<V, F>(
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
        | Event::Seal(raw)
        | Event::Key(_, raw) => raw,
        Event::BeginObject
        | Event::BeginArray
        | Event::BeginString
        | Event::Fragment(_)
        | Event::Place(_) => Raw::span_only(0..0),
    }
}

/// A field's frame closed: its value (a copy of its draft, for the event), checked.
fn settle_draft<M: StreamingModel, F>(
    draft: &Option<M::Draft>,
    raw: Raw<'_>,
    field: fn(M::Value) -> F,
    constraint: Option<Constraint<M::Value>>,
) -> Result<F, Rejected> {
    let Some(draft) = draft else {
        return Err(Rejected::custom("the value has no draft", raw));
    };
    let value = M::to_value(draft).map_err(|r| r.within(raw.span()))?;
    check_constraints(&value, constraint, raw)?;
    Ok(field(value))
}

/// What the object frame asks of one field.
pub enum Op<'a, 'e> {
    /// An event of the field's value.
    Step(&'a mut Member, &'a Event<'e>),
    /// The field's frame closed, over this text; `true` if its value is wanted (for an
    /// event), else it is built only to check a constraint.
    Closed(Raw<'e>, bool),
    /// The field's draft, for its frame.
    Draft,
    /// A field settled inside the field (in its frame's outbox): as the model's field.
    Wrap(&'a mut dyn Any),
    /// The key of an entry of a flattened map closed: serde's verdict on it.
    Key(Raw<'e>),
}

/// A field's answer to an [`Op`].
pub enum Reply<'d, F> {
    /// To [`Op::Step`].
    Flow(Flow<F>),
    /// To [`Op::Closed`]: the field, or `None` when it was not wanted.
    Field(Result<Option<F>, Rejected>),
    /// To [`Op::Draft`].
    Draft(Option<&'d mut dyn Any>),
    /// To [`Op::Wrap`].
    Wrapped(Option<F>),
    /// To [`Op::Key`]: the key as read, or serde's reason to refuse it.
    Key(Result<String, Rejected>),
}

impl<'d, F> Reply<'d, F> {
    /// The same reply with its field mapped (a flattened struct's, as its parent's).
    fn map<G>(self, inner: fn(F) -> G) -> Reply<'d, G> {
        match self {
            Reply::Flow(flow) => Reply::Flow(flow.map(inner)),
            Reply::Field(field) => Reply::Field(field.map(|f| f.map(inner))),
            Reply::Wrapped(field) => Reply::Wrapped(field.map(inner)),
            Reply::Draft(draft) => Reply::Draft(draft),
            Reply::Key(key) => Reply::Key(key),
        }
    }
}

/// Field of type `M` (in `slot`), reported as `settled(value)`; fields settled inside it
/// are reported as `inner(field)`.
#[inline]
pub fn field<'d, M: StreamingModel, F: 'static>(
    op: Op<'_, '_>,
    slot: &'d mut Option<M::Draft>,
    settled: fn(M::Value) -> F,
    inner: Option<fn(M::Field) -> F>,
    constraint: Option<Constraint<M::Value>>,
) -> Reply<'d, F> {
    match op {
        Op::Step(member, event) => {
            // A value that appears only once settled (a number, an atomic value) and that
            // its constraint refuses stays out of the draft, as one serde refuses does.
            let appeared = slot.is_none();
            let flow = settle_member(M::step(member, event, slot), event, settled, constraint);
            if appeared && matches!(flow, Flow::Done(Err(_))) {
                *slot = None;
            }
            Reply::Flow(flow)
        }
        Op::Closed(_, false) if constraint.is_none() && !M::VALIDATES => Reply::Field(Ok(None)),
        Op::Closed(raw, _) => {
            Reply::Field(settle_draft::<M, F>(slot, raw, settled, constraint).map(Some))
        }
        Op::Draft => Reply::Draft(slot.as_mut().and_then(M::frame_draft)),
        Op::Wrap(child) => {
            let field = child
                .downcast_mut::<Option<M::Field>>()
                .and_then(Option::take);
            Reply::Wrapped(field.and_then(|f| inner.map(|wrap| wrap(f))))
        }
        Op::Key(_) => Reply::Field(Ok(None)),
    }
}

/// Entry `key` of the map `M` flattened into the struct (in `slot`, made when its first
/// entry begins): reported as `inner(entry)`.
pub fn rest<'d, M: super::Rest, X: StreamingModel>(
    key: &str,
    op: Op<'_, '_>,
    slot: &'d mut Option<M::Draft>,
    inner: fn(M::Field) -> X::Field,
) -> Reply<'d, X::Field>
where
    M::Draft: Default,
{
    let map = slot.get_or_insert_with(M::Draft::default);
    match op {
        Op::Key(raw) => Reply::Key(if M::has(key, map) {
            Err(Rejected::duplicate_key(key, raw))
        } else {
            M::check(key, raw.bytes()).map_err(|error| Rejected {
                error,
                span: raw.span(),
            })
        }),
        Op::Step(member, event) => Reply::Flow(M::entry_step(key, member, event, map).map(inner)),
        Op::Closed(raw, _) => Reply::Field(
            M::entry_closed(key, map)
                .map(|field| Some(inner(field)))
                .map_err(|r| r.within(raw.span())),
        ),
        Op::Draft => Reply::Draft(M::entry_draft(key, map)),
        Op::Wrap(child) => Reply::Wrapped(M::entry_wrap(key, child).map(inner)),
    }
}

/// A vector field of type `M` with elements `E`: [`field`], and each element reported as
/// `item(index, value)` (fields inside an element as `inner(index, field)`), up to its
/// `max_items` (see [`items_cap`](super::constraints::items_cap)): past it, the vector
/// will be refused, so nothing in it is reported.
#[inline]
pub fn field_items<'d, M: StreamingModel, E: StreamingModel, F: 'static>(
    op: Op<'_, '_>,
    slot: &'d mut Option<M::Draft>,
    settled: fn(M::Value) -> F,
    item: fn(usize, E::Value) -> F,
    inner: Within<E::Field, F>,
    constraint: Option<Constraint<M::Value>>,
    max_items: Option<f64>,
) -> Reply<'d, F> {
    let Op::Wrap(child) = op else {
        return field::<M, F>(op, slot, settled, None, constraint);
    };
    let field = child
        .downcast_mut::<Option<super::Item<E::Value, E::Field>>>()
        .and_then(Option::take);
    #[allow(clippy::cast_precision_loss)]
    let within = |i: usize| max_items.is_none_or(|max| (i as f64) < max);
    Reply::Wrapped(match field {
        Some(super::Item::Element(i, value)) if within(i) => Some(item(i, value)),
        Some(super::Item::Inner(i, field)) if within(i) => inner.map(|wrap| wrap(i, field)),
        _ => None,
    })
}

/// Member `index` of a struct `M` flattened into its parent (`#[serde(flatten)]`): its
/// draft lives in `slot` (made when the first of its members begins), fields settled there
/// are reported as `inner(field)`, and `complete` (the parent's bit for the flattened
/// field) is set once every required member of `M` has settled.
pub fn flattened<'d, M: Object, X: StreamingModel>(
    index: usize,
    op: Op<'_, '_>,
    slot: &'d mut Option<M::Draft>,
    complete: (&mut FieldSet, usize),
    inner: fn(M::Field) -> X::Field,
) -> Reply<'d, X::Field>
where
    M::Draft: Default,
{
    let draft = slot.get_or_insert_with(M::Draft::default);
    if let Op::Draft = op {
        return match M::field(index, Op::Draft, draft) {
            Reply::Draft(d) => Reply::Draft(d),
            _ => Reply::Draft(None),
        };
    }
    let (reply, settled) = match M::field(index, op, &mut *draft) {
        Reply::Flow(Flow::Done(Ok(field))) => (Reply::Flow(Flow::Done(Ok(inner(field)))), true),
        Reply::Flow(flow) => (Reply::Flow(flow.map(inner)), false),
        Reply::Field(Ok(field)) => (Reply::Field(Ok(field.map(inner))), true),
        Reply::Field(Err(rejected)) => (Reply::Field(Err(rejected)), false),
        Reply::Wrapped(field) => (Reply::Wrapped(field.map(inner)), false),
        Reply::Draft(_) => (Reply::Draft(None), false),
        Reply::Key(key) => (Reply::Key(key), false),
    };
    if settled {
        M::settled_mut(draft).insert(index);
        if M::complete(draft).is_ok() {
            complete.0.insert(complete.1);
        }
    }
    reply
}

/// Entry `key` of the map flattened into `M`, a struct flattened into this one (the keys
/// nobody reads go to it): reported as `inner(field)`.
pub fn flattened_rest<'d, M: Object, X: StreamingModel>(
    key: &str,
    op: Op<'_, '_>,
    slot: &'d mut Option<M::Draft>,
    inner: fn(M::Field) -> X::Field,
) -> Reply<'d, X::Field>
where
    M::Draft: Default,
{
    let draft = slot.get_or_insert_with(M::Draft::default);
    M::rest(key, op, draft).map(inner)
}

/// serde's verdict on a flattened struct none of whose members came (a `REQUIRED` entry:
/// the struct is required while one of its members is).
pub fn flattened_missing<M: Object>(_name: &'static str) -> Result<(), serde_json::Error>
where
    M::Draft: Default,
{
    M::complete(&M::Draft::default())
}

/// serde's verdict on the members of a flattened struct that never came.
pub fn flattened_complete<M: Object>(draft: &Option<M::Draft>) -> Result<(), serde_json::Error>
where
    M::Draft: Default,
{
    match draft {
        Some(draft) => M::complete(draft),
        None => M::complete(&M::Draft::default()),
    }
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

/// A field with nothing inside that settles on its own, and no constraint: [`field`]
/// without the inner fields and the check.
#[inline]
pub fn leaf<'d, M: StreamingModel, F: 'static>(
    op: Op<'_, '_>,
    slot: &'d mut Option<M::Draft>,
    settled: fn(M::Value) -> F,
) -> Reply<'d, F> {
    field::<M, F>(op, slot, settled, None, None)
}
