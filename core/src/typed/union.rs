//! Enums with data, in serde's four representations: the frame that reads the enum's
//! object, the per-variant helper generated code calls, and the union's schema.
//!
//! The draft of an enum is absent until its variant is known (the variant's key, or the
//! tag's value), so the frame begins without one and hands it to the step that owns its
//! slot ([`Event::Place`]). Members that arrive before a late tag are kept and replayed
//! into the variant once the tag settles; an untagged value is kept whole and replayed
//! into the variant serde chose.

use super::StreamingModel;
use super::protocol::{Event, Flow, Frame, FrameFlow, Member, Out, Rejected, Slot, from_raw};
use super::replay::Recording;
use crate::json_schema::{Object as SchemaObject, Schema, SchemaGen, describe};
use crate::path::Step;
use crate::sink::Raw;
use serde::de::Error as _;
use std::any::Any;
use std::sync::Arc;

/// How serde writes the enum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repr {
    /// `{"Variant": content}` (a unit variant also as `"Variant"`).
    External,
    /// `{"tag": "Variant", ...the content's members}`.
    Internal {
        /// The tag's key.
        tag: &'static str,
    },
    /// `{"tag": "Variant", "content": content}`.
    Adjacent {
        /// The tag's key.
        tag: &'static str,
        /// The content's key.
        content: &'static str,
    },
    /// The content alone: the first variant serde reads it as.
    Untagged,
}

/// What a variant holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Nothing.
    Unit,
    /// One value.
    Newtype,
    /// A tuple.
    Tuple,
    /// Named fields.
    Struct,
}

/// An enum's variants as serde reads them.
#[derive(Debug)]
pub struct Variants {
    /// The representation.
    pub repr: Repr,
    /// Each variant's name, by index.
    pub names: &'static [&'static str],
    /// Each variant's kind, by index.
    pub kinds: &'static [Kind],
    /// Each variant's description (empty: none), by index.
    pub descriptions: &'static [&'static str],
    /// The variant of a name (or an alias).
    pub index_of: fn(&str) -> Option<usize>,
    /// The `#[serde(other)]` variant, for unknown tags.
    pub other: Option<usize>,
    /// `#[serde(deny_unknown_fields)]`: an adjacently tagged enum's other keys are errors.
    pub deny_unknown: bool,
    /// `#[settled(normalize)]`: the names serde reads for each variant (the name first),
    /// matched ignoring case and separators when serde's own match fails.
    pub normalize: Option<&'static [&'static [&'static str]]>,
}

impl Variants {
    /// The variant `name` names: serde's match, else (with `normalize`) the one variant it
    /// names ignoring case and separators.
    fn lookup(&self, name: &str) -> Option<usize> {
        (self.index_of)(name).or_else(|| {
            let canonical = super::normalize::canonical(name, self.normalize?)?;
            (self.index_of)(canonical)
        })
    }
}

/// What the enum frame asks of one variant.
pub enum VariantOp<'a, 'e> {
    /// An event of the variant's content.
    Step(&'a mut Member, &'a Event<'e>),
    /// The content's draft, for its frame.
    Draft,
    /// A field settled inside the content (in its frame's outbox): as the enum's field.
    Wrap(&'a mut dyn Any),
    /// A unit variant was read: its draft.
    Unit,
    /// The content is missing (an adjacently tagged enum's): serde's value for a missing
    /// field (`None` for an `Option`) as if `null` (at this text) was written.
    Missing(Raw<'e>),
}

/// A variant's answer to a [`VariantOp`].
pub enum VariantReply<'d, F> {
    /// To [`VariantOp::Step`] and [`VariantOp::Unit`].
    Flow(Flow<()>),
    /// To [`VariantOp::Draft`].
    Draft(Option<&'d mut dyn Any>),
    /// To [`VariantOp::Wrap`].
    Wrapped(Option<F>),
}

/// What the derive generates for an enum with data.
pub trait Union: StreamingModel<Value = Self> + serde::de::DeserializeOwned {
    /// The variants.
    const VARIANTS: Variants;

    /// Runs `op` on variant `index`, whose draft is `draft` if the enum's draft is that
    /// variant; a draft the variant begins goes to `place`.
    fn variant<'d>(
        index: usize,
        op: VariantOp<'_, '_>,
        draft: Option<&'d mut Self::Draft>,
        place: &mut Option<Self::Draft>,
    ) -> VariantReply<'d, Self::Field>;

    /// The variant a value is.
    fn index(value: &Self) -> usize;

    /// The schema of variant `index`'s content (`None`: a unit variant).
    fn content_schema(index: usize, generator: &mut SchemaGen) -> Option<Schema>;
}

/// The draft of a variant's content seen as a slot: the enum's draft if it is this
/// variant, else a new one to place.
struct VariantSlot<'a, D> {
    payload: Option<&'a mut D>,
    fresh: Option<D>,
}

impl<D> Slot<D> for VariantSlot<'_, D> {
    fn get(&mut self) -> Option<&mut D> {
        match &mut self.payload {
            Some(payload) => Some(&mut **payload),
            None => self.fresh.as_mut(),
        }
    }
    fn set(&mut self, draft: D) {
        match &mut self.payload {
            Some(payload) => **payload = draft,
            None => self.fresh = Some(draft),
        }
    }
}

/// Variant with content `C` (its draft `payload` if begun), drafted as `wrap(draft)`;
/// fields settled inside it are `inner(field)`.
pub fn variant<'d, C: StreamingModel, E: StreamingModel>(
    op: VariantOp<'_, '_>,
    payload: Option<&'d mut C::Draft>,
    place: &mut Option<E::Draft>,
    wrap: fn(C::Draft) -> E::Draft,
    inner: Option<fn(C::Field) -> E::Field>,
) -> VariantReply<'d, E::Field> {
    match op {
        VariantOp::Step(member, event) => {
            let mut slot = VariantSlot {
                payload,
                fresh: None,
            };
            let flow = C::step(member, event, &mut slot).map(|_| ());
            if let Some(fresh) = slot.fresh {
                *place = Some(wrap(fresh));
            }
            VariantReply::Flow(flow)
        }
        VariantOp::Draft => VariantReply::Draft(payload.and_then(C::frame_draft)),
        VariantOp::Wrap(child) => VariantReply::Wrapped(
            child
                .downcast_mut::<Option<C::Field>>()
                .and_then(Option::take)
                .and_then(|field| inner.map(|wrap| wrap(field))),
        ),
        VariantOp::Unit => VariantReply::Flow(Flow::Done(Err(Rejected::unplaced(
            "this variant holds a value",
        )))),
        VariantOp::Missing(null) => {
            if super::missing::is_required::<C::Value>("content") {
                return VariantReply::Flow(Flow::Done(Err(Rejected::custom("missing", null))));
            }
            let mut member = Member::default();
            variant::<C, E>(
                VariantOp::Step(&mut member, &Event::Null(null)),
                payload,
                place,
                wrap,
                inner,
            )
        }
    }
}

/// A unit variant, drafted as `draft`: `null` as its content (`{"Variant": null}`), or
/// nothing.
pub fn unit_variant<'d, E: StreamingModel>(
    op: VariantOp<'_, '_>,
    place: &mut Option<E::Draft>,
    draft: E::Draft,
) -> VariantReply<'d, E::Field> {
    match op {
        VariantOp::Step(member, event) => {
            let mut slot: Option<()> = None;
            let flow = <() as StreamingModel>::step(member, event, &mut slot);
            if let Flow::Done(Ok(())) = flow {
                *place = Some(draft);
            }
            VariantReply::Flow(flow)
        }
        VariantOp::Unit => {
            *place = Some(draft);
            VariantReply::Flow(Flow::Done(Ok(())))
        }
        VariantOp::Draft => VariantReply::Draft(None),
        VariantOp::Wrap(_) => VariantReply::Wrapped(None),
        VariantOp::Missing(_) => VariantReply::Flow(Flow::Done(Ok(()))),
    }
}

/// The builder of an enum's value: its object opens the enum's frame (the draft comes
/// with the variant); a string is a unit variant (or an untagged scalar), read whole.
pub fn union_step<E: Union>(
    member: &mut Member,
    event: &Event<'_>,
    slot: &mut dyn Slot<E::Draft>,
) -> Flow<E> {
    if let Event::Place(adopt) = event {
        if let Some(draft) = adopt.take::<E::Draft>() {
            slot.set(draft);
        }
        return Flow::More;
    }
    let untagged = E::VARIANTS.repr == Repr::Untagged;
    if member.level() == 0 {
        match event {
            Event::BeginObject | Event::BeginArray if untagged => {
                return Flow::Push(Box::new(EnumFrame::<E>::untagged(event)));
            }
            Event::BeginObject => return Flow::Push(Box::new(EnumFrame::<E>::new())),
            _ => {}
        }
    }
    let Some(raw) = member.track(event) else {
        return Flow::More;
    };
    // A scalar: serde decides (a unit variant's name, an untagged variant), then the
    // variant's draft is built from the same events.
    let value = match from_raw::<E>(raw) {
        Ok(value) => value,
        Err(rejected) => {
            // A unit variant's name as the model wrote it (`#[settled(normalize)]`).
            let canonical = serde_json::from_slice::<String>(raw.bytes())
                .ok()
                .and_then(|name| E::VARIANTS.lookup(&name))
                .and_then(|index| E::VARIANTS.names.get(index));
            match canonical.map(|name| serde_json::from_value::<E>((*name).into())) {
                Some(Ok(value)) if E::VARIANTS.normalize.is_some() => value,
                _ => return Flow::Done(Err(rejected)),
            }
        }
    };
    let index = E::index(&value);
    let mut draft: Option<E::Draft> = None;
    if E::VARIANTS.kinds.get(index) == Some(&Kind::Unit) {
        let _ = E::variant(index, VariantOp::Unit, None, &mut draft);
    } else {
        let text = match event {
            Event::EndString(_) => from_raw::<String>(raw).ok(),
            _ => None,
        };
        let events = match &text {
            Some(text) => vec![
                Event::BeginString,
                Event::Fragment(text),
                Event::EndString(raw),
            ],
            None => vec![*event],
        };
        let mut content = Member::default();
        for event in &events {
            let mut fresh = None;
            let _ = E::variant(
                index,
                VariantOp::Step(&mut content, event),
                draft.as_mut(),
                &mut fresh,
            );
            if fresh.is_some() {
                draft = fresh;
            }
        }
    }
    match draft {
        Some(draft) => slot.set(draft),
        // serde reads a tagged enum from an array too (`["Variant", …]`); its draft cannot
        // be built from one, and a value shown once but lost at the end would be wrong.
        None if E::VARIANTS.kinds.get(index) != Some(&Kind::Unit) => {
            return Flow::Done(Err(Rejected::custom(
                "this enum is written as an array (`[tag, content]`), which settled does \
                 not stream: write it as an object",
                raw,
            )));
        }
        None => {}
    }
    Flow::Done(Ok(value))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Expecting a key or the closing brace.
    Open,
    /// Inside the variant's content (external, adjacent; untagged when replayed).
    Content,
    /// Inside the tag's value.
    Tag,
    /// Keeping a member that came before the tag.
    Record,
    /// Skipping a member's value.
    Skip,
    /// Internally tagged, variant known: the content's own frame reads the members.
    Delegate,
    /// Untagged: keeping the whole value until it closes.
    Untagged,
}

/// The frame of an enum's object.
pub struct EnumFrame<E: Union> {
    phase: Phase,
    member: Member,
    variant: Option<usize>,
    /// The last key read, for paths.
    key: String,
    keyed: bool,
    outbox: Option<E::Field>,
    /// Internally tagged: the content's frame, reading this same object.
    delegate: Option<Box<dyn Frame>>,
    /// The path is this frame's key (a duplicate tag), not the delegate's.
    own_path: bool,
    /// Skipping a duplicate tag's value in a delegated object.
    skip_tag: bool,
    recording: Option<Recording>,
    failed: bool,
    tagged: bool,
    /// The content's key was read (adjacent) or its value settled (external).
    content: bool,
    /// Untagged: the replay of the content is under way.
    replayed: bool,
}

impl<E: Union> EnumFrame<E> {
    fn new() -> Self {
        EnumFrame {
            phase: Phase::Open,
            member: Member::default(),
            variant: None,
            key: String::new(),
            keyed: false,
            outbox: None,
            delegate: None,
            own_path: false,
            skip_tag: false,
            recording: None,
            failed: false,
            tagged: false,
            content: false,
            replayed: false,
        }
    }

    fn untagged(first: &Event<'_>) -> Self {
        let mut recording = Recording::default();
        let _ = recording.keep(first, None);
        EnumFrame {
            phase: Phase::Untagged,
            recording: Some(recording),
            ..Self::new()
        }
    }

    fn kind(index: usize) -> Kind {
        E::VARIANTS.kinds.get(index).copied().unwrap_or(Kind::Unit)
    }

    /// The kept members are dropped unreplayed: their bytes leave the replay budget.
    fn released(&mut self, out: &mut Out) {
        if let Some(recording) = self.recording.take() {
            out.released += recording.charged();
        }
    }

    fn reject(&mut self, rejected: Rejected, out: &mut Out) {
        self.failed = true;
        out.reject_member(rejected);
    }

    /// An event of the variant's content.
    fn content_event(
        &mut self,
        index: usize,
        event: &Event<'_>,
        draft: Option<&mut E::Draft>,
        out: &mut Out,
    ) -> FrameFlow {
        let mut place = None;
        let reply = E::variant(
            index,
            VariantOp::Step(&mut self.member, event),
            draft,
            &mut place,
        );
        if let Some(placed) = place {
            out.place = Some(Box::new(placed));
        }
        match reply {
            VariantReply::Flow(Flow::Push(frame)) => FrameFlow::Push(frame),
            VariantReply::Flow(Flow::Done(result)) => {
                self.content_settled();
                if let Err(rejected) = result {
                    self.reject(rejected, out);
                }
                FrameFlow::More
            }
            _ => FrameFlow::More,
        }
    }

    fn content_settled(&mut self) {
        self.content = true;
        self.member = Member::default();
        if !self.replayed {
            self.phase = Phase::Open;
        }
    }

    /// A key of the enum's own object.
    fn key(&mut self, key: &str, raw: Raw<'_>, event: &Event<'_>, out: &mut Out) {
        self.key.clear();
        self.key.push_str(key);
        self.keyed = true;
        self.member = Member::default();
        self.phase = Phase::Skip;
        let variants = &E::VARIANTS;
        match variants.repr {
            Repr::External => {
                if self.variant.is_some() {
                    self.reject(
                        Rejected::custom(
                            "an externally tagged enum's object has one key, its variant",
                            raw,
                        ),
                        out,
                    );
                    return;
                }
                match variants.lookup(key).or(variants.other) {
                    Some(index) => {
                        self.variant = Some(index);
                        self.phase = Phase::Content;
                    }
                    None => self.reject(
                        Rejected {
                            error: serde_json::Error::unknown_variant(key, variants.names),
                            span: raw.span(),
                        },
                        out,
                    ),
                }
            }
            Repr::Internal { tag } | Repr::Adjacent { tag, .. } if key == tag => {
                if self.tagged {
                    self.reject(
                        Rejected::custom(format_args!("duplicate field `{tag}`"), raw),
                        out,
                    );
                } else {
                    self.phase = Phase::Tag;
                }
            }
            Repr::Adjacent { content, .. } if key == content => {
                if self.content {
                    self.reject(
                        Rejected::custom(format_args!("duplicate field `{content}`"), raw),
                        out,
                    );
                    return;
                }
                self.content = true;
                match self.variant {
                    Some(_) => self.phase = Phase::Content,
                    None => self.record(event, raw, out),
                }
            }
            Repr::Adjacent { tag, content } => {
                if variants.deny_unknown {
                    // serde's message for its two fields.
                    let message = format!("unknown field `{key}`, expected `{tag}` or `{content}`");
                    self.reject(Rejected::custom(message, raw), out);
                }
            }
            // A member before the tag (after it, the delegate reads them; a unit
            // variant's are ignored, as serde ignores them).
            Repr::Internal { .. } if self.variant.is_none() => self.record(event, raw, out),
            Repr::Internal { .. } | Repr::Untagged => {}
        }
    }

    /// Keeps the member whose key is `event` until the tag is read.
    fn record(&mut self, event: &Event<'_>, raw: Raw<'_>, out: &mut Out) {
        let recording = self.recording.get_or_insert_with(Recording::default);
        out.recorded += recording.keep(event, out.origin.as_ref()) + recording.keep_text(raw);
        self.phase = Phase::Record;
    }

    /// The tag's value settled.
    fn tag(&mut self, raw: Raw<'_>, out: &mut Out) {
        self.tagged = true;
        self.phase = Phase::Open;
        let variants = &E::VARIANTS;
        let name = match from_raw::<String>(raw) {
            Ok(name) => name,
            Err(rejected) => return self.reject(rejected, out),
        };
        let Some(index) = variants.lookup(&name).or(variants.other) else {
            let error = serde_json::Error::unknown_variant(&name, variants.names);
            return self.reject(
                Rejected {
                    error,
                    span: raw.span(),
                },
                out,
            );
        };
        self.variant = Some(index);
        let mut place = None;
        if Self::kind(index) == Kind::Unit {
            let _ = E::variant(index, VariantOp::Unit, None, &mut place);
            match variants.repr {
                // Content written before the tag: replayed, the unit variant checks it
                // is `null`, as serde does.
                Repr::Adjacent { .. } if self.recording.is_some() => self.content = false,
                // serde ignores the other members of an internally tagged unit variant.
                _ => self.released(out),
            }
        } else if let Repr::Internal { .. } = variants.repr {
            // The content is this object: its frame reads the members from here on.
            let mut member = Member::default();
            let begin = VariantOp::Step(&mut member, &Event::BeginObject);
            match E::variant(index, begin, None, &mut place) {
                VariantReply::Flow(Flow::Push(frame)) => {
                    self.delegate = Some(frame);
                    self.phase = Phase::Delegate;
                }
                _ => {
                    self.released(out);
                    return self.reject(
                        Rejected::custom(
                            format_args!(
                                "variant `{name}` of an internally tagged enum holds a value \
                                 that is not an object"
                            ),
                            raw,
                        ),
                        out,
                    );
                }
            }
        } else if self.recording.is_some() {
            // Adjacent: the content came first; replayed, it reads as if it came now.
            self.content = false;
        }
        if let Some(placed) = place {
            out.place = Some(Box::new(placed));
        }
        if let Some(recording) = self.recording.take() {
            out.replay = Some(Arc::new(recording));
        }
    }

    /// The enum's closing brace (outside a delegate).
    fn close(&mut self, raw: Raw<'_>, draft: Option<&mut E::Draft>, out: &mut Out) -> FrameFlow {
        out.closed = Some(raw.span());
        self.released(out);
        let variants = &E::VARIANTS;
        let missing = match variants.repr {
            Repr::External if self.variant.is_none() => Some(serde_json::Error::custom(
                "expected an object with one key, the variant's name",
            )),
            Repr::Internal { tag } | Repr::Adjacent { tag, .. } if !self.tagged => {
                Some(serde_json::Error::missing_field(tag))
            }
            Repr::Adjacent { content, .. }
                if !self.content
                    && self.variant.is_some_and(|i| Self::kind(i) != Kind::Unit)
                    && !self.failed =>
            {
                // serde reads a missing content as it reads a missing field: `None` for
                // an `Option`, else an error.
                let index = self.variant.unwrap_or_default();
                let end = raw.span().end;
                let null = Raw::with_text(b"null", end..end);
                let mut place = None;
                let accepted = matches!(
                    E::variant(index, VariantOp::Missing(null), draft, &mut place),
                    VariantReply::Flow(Flow::Done(Ok(())))
                );
                if let Some(placed) = place.filter(|_| accepted) {
                    out.place = Some(Box::new(placed));
                }
                (!accepted).then(|| serde_json::Error::missing_field(content))
            }
            _ => None,
        };
        if let Some(error) = missing {
            let end = raw.span().end;
            out.reject_own(Rejected {
                error,
                span: end.saturating_sub(1)..end,
            });
            return FrameFlow::Done(false);
        }
        FrameFlow::Done(!self.failed)
    }

    /// Internally tagged, variant known: the delegate reads the object, except a second
    /// tag.
    fn delegated(
        &mut self,
        index: usize,
        event: &Event<'_>,
        draft: Option<&mut E::Draft>,
        out: &mut Out,
    ) -> FrameFlow {
        if self.skip_tag {
            if self.member.track(event).is_some() {
                self.skip_tag = false;
            }
            return FrameFlow::More;
        }
        if let (Event::Key(key, raw), 0) = (event, self.member.level()) {
            self.member = Member::default();
            self.own_path = false;
            if let Repr::Internal { tag } = E::VARIANTS.repr {
                if *key == tag {
                    self.key.clear();
                    self.key.push_str(key);
                    self.keyed = true;
                    self.own_path = true;
                    self.skip_tag = true;
                    self.reject(
                        Rejected::custom(format_args!("duplicate field `{tag}`"), *raw),
                        out,
                    );
                    return FrameFlow::More;
                }
            }
        } else {
            let _ = self.member.track(event);
        }
        let Some(delegate) = self.delegate.as_mut() else {
            return FrameFlow::More;
        };
        let mut draft = draft;
        let mut unused = None;
        let payload = match E::variant(index, VariantOp::Draft, draft.as_deref_mut(), &mut unused) {
            VariantReply::Draft(payload) => payload,
            _ => None,
        };
        let flow = match payload {
            Some(payload) => delegate.event(event, payload, out),
            None => delegate.event(event, &mut (), out),
        };
        if let Some(inner) = out.place.take() {
            // The content's draft began late (an enum's): it becomes this enum's, through
            // the content's own step.
            let adopt = super::protocol::Adopt::new(inner);
            let mut member = Member::default();
            member.begun = true;
            let mut place = None;
            let step = VariantOp::Step(&mut member, &Event::Place(&adopt));
            let _ = E::variant(index, step, draft, &mut place);
            if let Some(placed) = place {
                out.place = Some(Box::new(placed));
            }
        }
        if out.emitted {
            self.take_delegated(index, out);
        }
        match flow {
            FrameFlow::Done(ok) => FrameFlow::Done(ok && !self.failed),
            other => other,
        }
    }

    /// The delegate's outbox, as the enum's field.
    fn take_delegated(&mut self, index: usize, out: &mut Out) {
        let Some(delegate) = self.delegate.as_mut() else {
            return;
        };
        let mut unused = None;
        self.outbox = match E::variant(index, VariantOp::Wrap(delegate.outbox()), None, &mut unused)
        {
            VariantReply::Wrapped(field) => field,
            _ => None,
        };
        out.emitted = self.outbox.is_some();
    }

    /// Untagged: the value closed; serde chooses the variant, and the kept events are
    /// replayed into it.
    fn untagged_event(&mut self, event: &Event<'_>, out: &mut Out) -> FrameFlow {
        let level = self.member.level();
        let Some(recording) = self.recording.as_mut() else {
            return FrameFlow::More;
        };
        out.recorded += recording.keep(event, out.origin.as_ref());
        let raw = match event {
            Event::EndObject(raw) | Event::EndArray(raw) if level == 0 => *raw,
            _ => {
                let _ = self.member.track(event);
                return FrameFlow::More;
            }
        };
        out.closed = Some(raw.span());
        match from_raw::<E>(raw) {
            Ok(value) => {
                let index = E::index(&value);
                out.recorded += recording.keep_text(raw);
                recording.seal(raw.span());
                let recording = self.recording.take().unwrap_or_default();
                out.replay = Some(Arc::new(recording));
                self.variant = Some(index);
                self.phase = Phase::Content;
                self.replayed = true;
                self.member = Member::default();
                FrameFlow::More
            }
            Err(rejected) => {
                self.released(out);
                out.reject_own(rejected);
                FrameFlow::Done(false)
            }
        }
    }
}

impl<E: Union> Frame for EnumFrame<E> {
    fn event(&mut self, event: &Event<'_>, draft: &mut dyn Any, out: &mut Out) -> FrameFlow {
        let draft = draft.downcast_mut::<E::Draft>();
        match (self.phase, self.variant) {
            (Phase::Delegate, Some(index)) => return self.delegated(index, event, draft, out),
            (Phase::Content, Some(index)) => {
                if let Event::Seal(raw) = event {
                    out.closed = Some(raw.span());
                    return FrameFlow::Done(!self.failed);
                }
                return self.content_event(index, event, draft, out);
            }
            _ => {}
        }
        if let Event::Place(_) = event {
            return FrameFlow::More;
        }
        match self.phase {
            Phase::Untagged => return self.untagged_event(event, out),
            Phase::Tag => {
                if let Some(raw) = self.member.track(event) {
                    self.tag(raw, out);
                }
                return FrameFlow::More;
            }
            Phase::Record => {
                if let Some(recording) = self.recording.as_mut() {
                    out.recorded += recording.keep(event, out.origin.as_ref());
                    if let Some(raw) = self.member.track(event) {
                        out.recorded += recording.keep_text(raw);
                        self.phase = Phase::Open;
                    }
                }
                return FrameFlow::More;
            }
            Phase::Skip => {
                if self.member.track(event).is_some() {
                    self.phase = Phase::Open;
                }
                return FrameFlow::More;
            }
            Phase::Open | Phase::Content | Phase::Delegate => {}
        }
        match event {
            Event::Key(key, raw) => self.key(key, *raw, event, out),
            Event::EndObject(raw) => return self.close(*raw, draft, out),
            _ => {}
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
        let Some(index) = self.variant else {
            return;
        };
        if self.phase == Phase::Delegate {
            self.member = Member::default();
            let mut unused = None;
            let payload = match E::variant(
                index,
                VariantOp::Draft,
                draft.downcast_mut::<E::Draft>(),
                &mut unused,
            ) {
                VariantReply::Draft(payload) => payload,
                _ => None,
            };
            if let (Some(delegate), Some(payload)) = (self.delegate.as_mut(), payload) {
                delegate.child_done(payload, ok, span, out);
            }
            if out.emitted {
                self.take_delegated(index, out);
            }
            return;
        }
        if !ok {
            self.failed = true;
        }
        self.content_settled();
    }

    fn keeps_text(&self) -> bool {
        match self.phase {
            Phase::Untagged => true,
            Phase::Delegate => self.delegate.as_ref().is_some_and(|d| d.keeps_text()),
            _ => false,
        }
    }

    fn child_draft<'d>(&mut self, draft: &'d mut dyn Any) -> Option<&'d mut dyn Any> {
        let index = self.variant?;
        let mut unused = None;
        let payload = match E::variant(
            index,
            VariantOp::Draft,
            draft.downcast_mut::<E::Draft>(),
            &mut unused,
        ) {
            VariantReply::Draft(payload) => payload?,
            _ => return None,
        };
        match self.delegate.as_mut() {
            Some(delegate) if self.phase == Phase::Delegate => delegate.child_draft(payload),
            _ => Some(payload),
        }
    }

    fn wrap(&mut self, child: &mut dyn Any) -> bool {
        let Some(index) = self.variant else {
            return false;
        };
        if self.phase == Phase::Delegate {
            let Some(delegate) = self.delegate.as_mut() else {
                return false;
            };
            if !delegate.wrap(child) {
                return false;
            }
            let mut out = Out::default();
            self.take_delegated(index, &mut out);
            return out.emitted;
        }
        let mut unused = None;
        self.outbox = match E::variant(index, VariantOp::Wrap(child), None, &mut unused) {
            VariantReply::Wrapped(field) => field,
            _ => None,
        };
        self.outbox.is_some()
    }

    fn outbox(&mut self) -> &mut dyn Any {
        &mut self.outbox
    }

    fn path<'s>(&'s self, steps: &mut Vec<Step<'s>>) {
        match self.delegate.as_ref() {
            Some(delegate) if self.phase == Phase::Delegate && !self.own_path => {
                delegate.path(steps);
            }
            _ if self.keyed => steps.push(Step::Key(&self.key)),
            _ => {}
        }
    }
}

/// An object schema with `members` (all required), closed.
fn closed(members: Vec<(&str, Schema)>) -> Schema {
    let required: Vec<Schema> = members.iter().map(|(k, _)| Schema::from(*k)).collect();
    let mut properties = SchemaObject::new();
    for (key, schema) in members {
        properties.insert(key, schema);
    }
    Schema::object([
        ("type", Schema::from("object")),
        ("properties", Schema::Object(properties)),
        ("required", Schema::from(required)),
        ("additionalProperties", Schema::from(false)),
    ])
}

/// The tag's schema: the one name it may hold.
fn tag_schema(name: &str) -> Schema {
    Schema::object([
        ("type", Schema::from("string")),
        ("enum", Schema::from(vec![Schema::from(name)])),
    ])
}

/// The content's object schema with the tag as its first property (first in `required`
/// too), closed; a map's takes its other keys; an enum's branches each take the tag (an
/// internally tagged enum inside another reads both tags from one object); other content
/// is joined with `allOf` (a scalar: no object is one, as serde finds).
fn with_tag(content: Schema, tag: &str, name: &str) -> Schema {
    let Schema::Object(mut content) = content else {
        return Schema::object([(
            "allOf",
            vec![closed(vec![(tag, tag_schema(name))]), content],
        )]);
    };
    if !content.contains_key("properties") {
        if let Some(Schema::Array(branches)) = content.remove("anyOf") {
            let branches: Vec<Schema> = branches
                .into_iter()
                .map(|branch| with_tag(branch, tag, name))
                .collect();
            content.insert("anyOf", branches);
            return Schema::Object(content);
        }
        if content.get("type").is_some_and(|t| t == "object") {
            // A map: its keys beside the tag, which its key names need not admit.
            content.insert("properties", SchemaObject::new());
            if let Some(names) = content.remove("propertyNames") {
                let tag_name = Schema::object([("const", Schema::from(tag))]);
                let either = Schema::object([("anyOf", vec![tag_name, names])]);
                content.insert("propertyNames", either);
            }
        }
    }
    let Some(Schema::Object(old)) = content.remove("properties") else {
        let content = Schema::Object(content);
        let mut head = closed(vec![(tag, tag_schema(name))]);
        if let Schema::Object(head) = &mut head {
            head.remove("additionalProperties");
        }
        return Schema::object([("allOf", vec![head, content])]);
    };
    let mut properties = SchemaObject::new();
    properties.insert(tag, tag_schema(name));
    for (key, schema) in old.iter() {
        properties.insert(key, schema.clone());
    }
    let mut required = vec![Schema::from(tag)];
    if let Some(Schema::Array(old)) = content.remove("required") {
        // The content of an enum with the same tag names it again: once is enough.
        for key in old {
            if !required.contains(&key) {
                required.push(key);
            }
        }
    }
    let mut out = SchemaObject::new();
    out.insert("type", "object");
    out.insert("properties", Schema::Object(properties));
    out.insert("required", required);
    // Closed, unless a flattened map takes the other keys.
    match content.remove("additionalProperties") {
        Some(rest @ Schema::Object(_)) => out.insert("additionalProperties", rest),
        _ => out.insert("additionalProperties", false),
    }
    for (key, schema) in content.iter() {
        if key != "type" {
            out.insert(key, schema.clone());
        }
    }
    Schema::Object(out)
}

/// The enum's schema: `anyOf` of closed objects, one per variant, the tag first as a
/// single-valued `enum` (external unit variants as one string `enum`).
pub fn union_schema<E: Union>(generator: &mut SchemaGen) -> Schema {
    let variants = &E::VARIANTS;
    let mut branches = Vec::new();
    let mut units = Vec::new();
    for (index, name) in variants.names.iter().enumerate() {
        let content = E::content_schema(index, generator);
        let mut branch = match (variants.repr, content) {
            (Repr::External, None) => {
                units.push(Schema::from(*name));
                continue;
            }
            (Repr::External, Some(content)) => closed(vec![(name, content)]),
            (Repr::Internal { tag }, None) => closed(vec![(tag, tag_schema(name))]),
            (Repr::Internal { tag }, Some(content)) => with_tag(content, tag, name),
            (Repr::Adjacent { tag, .. }, None) => closed(vec![(tag, tag_schema(name))]),
            (Repr::Adjacent { tag, content: key }, Some(content)) => {
                closed(vec![(tag, tag_schema(name)), (key, content)])
            }
            (Repr::Untagged, None) => Schema::object([("type", "null")]),
            (Repr::Untagged, Some(content)) => content,
        };
        if let Some(description) = variants.descriptions.get(index).filter(|d| !d.is_empty()) {
            describe(&mut branch, description);
        }
        branches.push(branch);
    }
    if !units.is_empty() {
        let names = Schema::object([("type", Schema::from("string")), ("enum", units.into())]);
        branches.insert(0, names);
    }
    match <[Schema; 1]>::try_from(branches) {
        Ok([one]) => one,
        Err(many) => Schema::object([("anyOf", many)]),
    }
}
