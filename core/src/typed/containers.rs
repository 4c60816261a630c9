//! `Vec<T>` and maps with string keys: elements and entries appear as they begin and
//! report themselves as they settle.

use super::StreamingModel;
use super::protocol::{Event, Flow, Frame, FrameFlow, Member, Out, Rejected, Slot};
use crate::json_schema::{Schema, SchemaGen};
use crate::path::Step;
use serde::Deserialize;
use serde::de::{DeserializeOwned, IgnoredAny, MapAccess, Visitor};
use std::any::{Any, TypeId};
use std::collections::{BTreeMap, HashMap};
use std::convert::Infallible;
use std::marker::PhantomData;

/// What settles inside a `Vec<T>`.
///
/// An element's index is its position in the draft (an element serde rejected without
/// fail-fast has no draft and takes no index), so `draft[i]` is the element an event
/// names.
#[derive(Debug, Clone, PartialEq)]
pub enum Item<V, F> {
    /// Element `index` settled with this strict value (a copy: the draft keeps its own).
    Element(usize, V),
    /// Inside element `index`, something settled (a field of a model element).
    Inner(usize, F),
}

/// The open element's draft: the vector's last element once pushed.
struct Tail<'s, D> {
    items: &'s mut Vec<D>,
    pushed: &'s mut bool,
}

impl<D> Slot<D> for Tail<'_, D> {
    fn get(&mut self) -> Option<&mut D> {
        if *self.pushed {
            self.items.last_mut()
        } else {
            None
        }
    }
    fn set(&mut self, draft: D) {
        match self.items.last_mut() {
            Some(last) if *self.pushed => *last = draft,
            _ => {
                self.items.push(draft);
                *self.pushed = true;
            }
        }
    }
}

/// The frame of a vector.
struct VecFrame<T: StreamingModel> {
    /// An element is open.
    open: bool,
    /// The open element's draft has been pushed onto the vector.
    pushed: bool,
    /// The open element's index in the JSON array (for error paths), and the count begun.
    index: usize,
    begun: usize,
    /// The open element's position in the draft: the index events report.
    position: usize,
    member: Member,
    outbox: Option<Item<T::Value, T::Field>>,
    /// Elements at this position or later are not reported: the sequence will be refused
    /// (an array of fixed length given more elements).
    reported: usize,
}

impl<T: StreamingModel> VecFrame<T> {
    /// A frame that reports the elements before position `reported` only.
    fn reporting(reported: usize) -> Self {
        VecFrame {
            reported,
            open: false,
            pushed: false,
            index: 0,
            begun: 0,
            position: 0,
            member: Member::default(),
            outbox: None,
        }
    }

    /// The open element settled (or was rejected).
    fn element_done(&mut self, value: Result<T::Value, Rejected>, out: &mut Out) {
        let position = self.position;
        self.open = false;
        if self.pushed {
            self.position += 1;
        }
        match value {
            Ok(_) if position >= self.reported => {}
            Ok(value) => {
                self.outbox = Some(Item::Element(position, value));
                out.emit();
            }
            Err(rejected) => out.reject_member(rejected),
        }
    }
}

impl<T: StreamingModel> Frame for VecFrame<T> {
    fn event(&mut self, event: &Event<'_>, draft: &mut dyn Any, out: &mut Out) -> FrameFlow {
        let Some(items) = draft.downcast_mut::<Vec<T::Draft>>() else {
            return FrameFlow::More;
        };
        if !self.open {
            if let Event::EndArray(raw) = event {
                out.closed = Some(raw.span());
                // Complete: the room its growth left goes back.
                crate::room::give_back(items);
                return FrameFlow::Done(true);
            }
            self.open = true;
            self.pushed = false;
            self.member = Member::default();
            self.index = self.begun;
            self.begun += 1;
        }
        let mut tail = Tail {
            items,
            pushed: &mut self.pushed,
        };
        match T::step(&mut self.member, event, &mut tail) {
            Flow::More => FrameFlow::More,
            Flow::Push(frame) => FrameFlow::Push(frame),
            Flow::Done(value) => {
                self.element_done(value, out);
                FrameFlow::More
            }
        }
    }

    fn child_done(
        &mut self,
        draft: &mut dyn Any,
        ok: bool,
        span: std::ops::Range<usize>,
        out: &mut Out,
    ) {
        let value = match draft.downcast_mut::<Vec<T::Draft>>().and_then(|v| v.last()) {
            Some(last) if ok && (out.events || T::VALIDATES) => {
                T::to_value(last).map_err(|r| r.within(span))
            }
            Some(_) if ok => {
                // Settled, and nobody wants its value.
                self.open = false;
                if self.pushed {
                    self.position += 1;
                }
                return;
            }
            _ => {
                self.open = false;
                if self.pushed {
                    self.position += 1;
                }
                return;
            }
        };
        self.element_done(value, out);
    }

    fn child_draft<'d>(&mut self, draft: &'d mut dyn Any) -> Option<&'d mut dyn Any> {
        // The open element's draft may begin after its frame (an enum's): until then the
        // last one is another element's.
        if !self.pushed {
            return None;
        }
        let last = draft.downcast_mut::<Vec<T::Draft>>()?.last_mut()?;
        T::frame_draft(last)
    }

    fn wrap(&mut self, child: &mut dyn Any) -> bool {
        let Some(field) = child
            .downcast_mut::<Option<T::Field>>()
            .and_then(Option::take)
        else {
            return false;
        };
        if self.position >= self.reported {
            return false;
        }
        self.outbox = Some(Item::Inner(self.position, field));
        true
    }

    fn outbox(&mut self) -> &mut dyn Any {
        &mut self.outbox
    }

    fn path<'s>(&'s self, steps: &mut Vec<Step<'s>>) {
        steps.push(Step::Index(self.index));
    }
}

/// [`Vec`]'s step, its elements reported up to position `reported` (an array of that
/// fixed length: past it, the array will be refused, so nothing in it is reported).
pub(super) fn vec_step<T: StreamingModel>(
    member: &mut Member,
    event: &Event<'_>,
    slot: &mut dyn Slot<Vec<T::Draft>>,
    reported: usize,
) -> Flow<Vec<T::Value>> {
    if member.level() == 0 && matches!(event, Event::BeginArray) {
        slot.set(Vec::new());
        return Flow::Push(Box::new(VecFrame::<T>::reporting(reported)));
    }
    member.follow(event)
}

impl<T: StreamingModel> StreamingModel for Vec<T> {
    type Value = Vec<T::Value>;
    type Draft = Vec<T::Draft>;
    type Field = Item<T::Value, T::Field>;
    type Name = Infallible;

    const LIMITS: super::Limits = T::LIMITS;
    const SHAPE: super::Shape = super::Shape::Array;
    const ELEMENT: super::Shape = T::SHAPE;

    fn schema(generator: &mut SchemaGen) -> Schema {
        Schema::object([
            ("type", Schema::from("array")),
            ("items", T::schema(generator)),
        ])
    }

    fn step(
        member: &mut Member,
        event: &Event<'_>,
        slot: &mut dyn Slot<Self::Draft>,
    ) -> Flow<Self::Value> {
        vec_step::<T>(member, event, slot, usize::MAX)
    }

    fn frame_draft(draft: &mut Self::Draft) -> Option<&mut dyn Any> {
        Some(draft)
    }

    fn to_value(draft: &Self::Draft) -> Result<Self::Value, Rejected> {
        values(draft.iter(), T::to_value)
    }

    fn into_value(draft: Self::Draft) -> Result<Self::Value, Rejected> {
        values(draft.into_iter(), T::into_value)
    }
}

/// The values of a vector's element drafts, in a vector of exactly their number.
/// (Collected as `Result`s, they come with no size hint: the vector would grow by
/// doubling, copied at each step and up to twice the size it needs.)
pub(super) fn values<I: ExactSizeIterator, V>(
    drafts: I,
    mut value: impl FnMut(I::Item) -> Result<V, Rejected>,
) -> Result<Vec<V>, Rejected> {
    let mut out = Vec::with_capacity(drafts.len());
    for draft in drafts {
        out.push(value(draft)?);
    }
    Ok(out)
}

/// What settles inside a map.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry<V, F> {
    /// The entry `key` settled with this strict value (a copy: the draft keeps its own).
    Value(String, V),
    /// Inside the entry `key`, something settled.
    Inner(String, F),
}

/// A map flattened into a struct (`#[serde(flatten)]`): it holds the keys no field
/// reads, and the struct's frame reads its entries itself, one key at a time.
pub trait Rest: StreamingModel {
    /// serde's verdict on a key (its text and its JSON), as serde reads a flattened map's
    /// keys: the key as read (two texts, an alias and a name, may read as one key).
    fn check(key: &str, raw: &[u8]) -> Result<String, serde_json::Error>;
    /// The map already holds `key`.
    fn has(key: &str, draft: &Self::Draft) -> bool;
    /// An event of entry `key`'s value.
    fn entry_step(
        key: &str,
        member: &mut Member,
        event: &Event<'_>,
        draft: &mut Self::Draft,
    ) -> Flow<Self::Field>;
    /// Entry `key`'s draft, for its frame.
    fn entry_draft<'d>(key: &str, draft: &'d mut Self::Draft) -> Option<&'d mut dyn Any>;
    /// Entry `key`'s frame closed: its value.
    fn entry_closed(key: &str, draft: &Self::Draft) -> Result<Self::Field, Rejected>;
    /// A field settled inside entry `key` (in its frame's outbox).
    fn entry_wrap(key: &str, child: &mut dyn Any) -> Option<Self::Field>;
}

/// The map operations a map frame needs, shared by `HashMap` and `BTreeMap`.
trait DraftMap<D>: Default + 'static {
    fn entry_mut(&mut self, key: &str) -> Option<&mut D>;
    fn entry(&self, key: &str) -> Option<&D>;
    fn put(&mut self, key: String, draft: D);
}

impl<D: 'static> DraftMap<D> for HashMap<String, D> {
    fn entry_mut(&mut self, key: &str) -> Option<&mut D> {
        self.get_mut(key)
    }
    fn entry(&self, key: &str) -> Option<&D> {
        self.get(key)
    }
    fn put(&mut self, key: String, draft: D) {
        self.insert(key, draft);
    }
}

impl<D: 'static> DraftMap<D> for BTreeMap<String, D> {
    fn entry_mut(&mut self, key: &str) -> Option<&mut D> {
        self.get_mut(key)
    }
    fn entry(&self, key: &str) -> Option<&D> {
        self.get(key)
    }
    fn put(&mut self, key: String, draft: D) {
        self.insert(key, draft);
    }
}

/// The open entry's draft, put when its value begins.
struct EntrySlot<'s, M> {
    map: &'s mut M,
    key: &'s str,
}

impl<M: DraftMap<D>, D> Slot<D> for EntrySlot<'_, M> {
    fn get(&mut self) -> Option<&mut D> {
        self.map.entry_mut(self.key)
    }
    fn set(&mut self, draft: D) {
        self.map.put(self.key.to_owned(), draft);
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MapPhase {
    Open,
    Value,
    /// The value of a refused (duplicate) key.
    Skip,
}

/// The frame of a map: `M` is the draft map.
struct MapFrame<T: StreamingModel, M> {
    /// serde's reason to refuse a key (a map with non-string keys reads them from it).
    check_key: KeyCheck,
    /// The keys read so far, as the key type reads them (`Debug` of the key), for a map
    /// whose keys are not strings: two texts may name one key (`"fast"` and an alias).
    read: std::collections::HashSet<String>,
    phase: MapPhase,
    key: String,
    member: Member,
    outbox: Option<Entry<T::Value, T::Field>>,
    map: PhantomData<fn() -> M>,
}

impl<T: StreamingModel, M: DraftMap<T::Draft>> Frame for MapFrame<T, M> {
    fn event(&mut self, event: &Event<'_>, draft: &mut dyn Any, out: &mut Out) -> FrameFlow {
        let Some(map) = draft.downcast_mut::<M>() else {
            return FrameFlow::More;
        };
        match (self.phase, event) {
            (MapPhase::Open, Event::EndObject(raw)) => {
                out.closed = Some(raw.span());
                return FrameFlow::Done(true);
            }
            (MapPhase::Open, Event::Key(key, raw)) => {
                self.key.clear();
                self.key.push_str(key);
                self.member = Member::default();
                let read = match (self.check_key)(key, raw.bytes()) {
                    Ok(read) => read,
                    Err(error) => {
                        out.reject_member(Rejected {
                            error,
                            span: raw.span(),
                        });
                        self.phase = MapPhase::Skip;
                        return FrameFlow::More;
                    }
                };
                let again = read.is_some_and(|read| !self.read.insert(read));
                if again || map.entry(key).is_some() {
                    out.reject_member(Rejected::duplicate_key(key, *raw));
                    self.phase = MapPhase::Skip;
                } else {
                    self.phase = MapPhase::Value;
                }
            }
            (MapPhase::Value, _) => {
                let mut slot = EntrySlot {
                    map,
                    key: &self.key,
                };
                match T::step(&mut self.member, event, &mut slot) {
                    Flow::More => {}
                    Flow::Push(frame) => return FrameFlow::Push(frame),
                    Flow::Done(value) => self.entry_done(value, out),
                }
            }
            (MapPhase::Skip, _) => {
                if self.member.track(event).is_some() {
                    self.phase = MapPhase::Open;
                }
            }
            (MapPhase::Open, _) => {}
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
        let value = match draft.downcast_mut::<M>().and_then(|m| m.entry(&self.key)) {
            Some(entry) if ok && (out.events || T::VALIDATES) => {
                T::to_value(entry).map_err(|r| r.within(span))
            }
            _ => {
                self.phase = MapPhase::Open;
                return;
            }
        };
        self.entry_done(value, out);
    }

    fn child_draft<'d>(&mut self, draft: &'d mut dyn Any) -> Option<&'d mut dyn Any> {
        let entry = draft.downcast_mut::<M>()?.entry_mut(&self.key)?;
        T::frame_draft(entry)
    }

    fn wrap(&mut self, child: &mut dyn Any) -> bool {
        let Some(field) = child
            .downcast_mut::<Option<T::Field>>()
            .and_then(Option::take)
        else {
            return false;
        };
        self.outbox = Some(Entry::Inner(self.key.clone(), field));
        true
    }

    fn outbox(&mut self) -> &mut dyn Any {
        &mut self.outbox
    }

    fn path<'s>(&'s self, steps: &mut Vec<Step<'s>>) {
        steps.push(Step::Key(&self.key));
    }
}

impl<T: StreamingModel, M> MapFrame<T, M> {
    fn new(check_key: KeyCheck) -> Self {
        MapFrame {
            check_key,
            read: std::collections::HashSet::new(),
            phase: MapPhase::Open,
            key: String::new(),
            member: Member::default(),
            outbox: None,
            map: PhantomData,
        }
    }

    fn entry_done(&mut self, value: Result<T::Value, Rejected>, out: &mut Out) {
        self.phase = MapPhase::Open;
        match value {
            Ok(value) => {
                self.outbox = Some(Entry::Value(self.key.clone(), value));
                out.emit();
            }
            Err(rejected) => out.reject_member(rejected),
        }
    }
}

/// A map's key, read from the JSON key's text as serde reads map keys: a `String` as it
/// is, numbers, unit enums and other types from the string.
fn read_key<K: DeserializeOwned + 'static>(key: String) -> Result<K, serde_json::Error> {
    let mut text = Some(key);
    if let Some(key) = (&mut text as &mut dyn Any)
        .downcast_mut::<Option<K>>()
        .and_then(Option::take)
    {
        return Ok(key);
    }
    let key = text.unwrap_or_default();
    let json = format!("{{{}:0}}", serde_json::to_string(&key)?);
    serde_json::from_str::<FirstKey<K>>(&json).map(|first| first.0)
}

/// Reads a key as it closes: serde's reason to refuse it, or the key as read.
type KeyCheck = fn(&str, &[u8]) -> Result<Option<String>, serde_json::Error>;

/// serde's reason to refuse a key as a `K`, read from the key as written (`raw`, with its
/// quotes and escapes: serde reads `"\u0031"` as a string, not as the number 1); for a key
/// type other than `String`, the key as read (its `Debug`), to find two texts that name
/// one key.
fn check_key<K: DeserializeOwned + std::fmt::Debug + 'static>(
    key: &str,
    raw: &[u8],
) -> Result<Option<String>, serde_json::Error> {
    if TypeId::of::<K>() == TypeId::of::<String>() {
        return Ok(None);
    }
    let read = if raw.first() == Some(&b'"') {
        let mut json = Vec::with_capacity(raw.len() + 4);
        json.push(b'{');
        json.extend_from_slice(raw);
        json.extend_from_slice(b":0}");
        serde_json::from_slice::<FirstKey<K>>(&json).map(|first| first.0)?
    } else {
        read_key::<K>(key.to_owned())?
    };
    Ok(Some(format!("{read:?}")))
}

/// The key of a one-entry JSON object, read as serde reads map keys.
pub(super) struct FirstKey<K>(K);

impl<'de, K: Deserialize<'de>> Deserialize<'de> for FirstKey<K> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit<K>(PhantomData<K>);
        impl<'de, K: Deserialize<'de>> Visitor<'de> for Visit<K> {
            type Value = FirstKey<K>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map key")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FirstKey<K>, A::Error> {
                let Some(key) = map.next_key::<K>()? else {
                    return Err(serde::de::Error::custom("no key"));
                };
                map.next_value::<IgnoredAny>()?;
                Ok(FirstKey(key))
            }
        }
        deserializer.deserialize_map(Visit(PhantomData))
    }
}

/// `HashMap` and `BTreeMap` stream the same way, with any key type serde reads from a JSON
/// string (`String`, integers, unit enums, …). The draft and the events name an entry by
/// its key's text; a key serde refuses is rejected as it closes.
macro_rules! keyed_map {
    ($($map:ident where $($bound:path),+;)*) => {$(
        impl<K, T: StreamingModel> StreamingModel for $map<K, T>
        where
            K: DeserializeOwned + std::fmt::Debug + Send + 'static $(+ $bound)+,
        {
            type Value = $map<K, T::Value>;
            type Draft = $map<String, T::Draft>;
            type Field = Entry<T::Value, T::Field>;
            type Name = Infallible;

            const SHAPE: super::Shape = super::Shape::Object;
            const LIMITS: super::Limits = super::Limits {
                depth: 1 + T::LIMITS.depth,
                ..T::LIMITS
            }
            .unsupported(
                "a map has free-form keys, and strict structured outputs require every object \
                 to list its properties (`additionalProperties: false`); use a struct, or a \
                 `Vec` of key/value structs",
            );

            fn schema(generator: &mut SchemaGen) -> Schema {
                let mut schema = Schema::object([
                    ("type", Schema::from("object")),
                    ("additionalProperties", T::schema(generator)),
                ]);
                if let (Some(names), Schema::Object(map)) = (super::map_keys::key_names::<K>(), &mut schema) {
                    map.insert("propertyNames", names);
                }
                schema
            }

            fn step(
                member: &mut Member,
                event: &Event<'_>,
                slot: &mut dyn Slot<Self::Draft>,
            ) -> Flow<Self::Value> {
                if member.level() == 0 && matches!(event, Event::BeginObject) {
                    slot.set($map::default());
                    let frame = MapFrame::<T, Self::Draft>::new(check_key::<K>);
                    return Flow::Push(Box::new(frame));
                }
                member.follow(event)
            }

            fn frame_draft(draft: &mut Self::Draft) -> Option<&mut dyn Any> {
                Some(draft)
            }

            fn to_value(draft: &Self::Draft) -> Result<Self::Value, Rejected> {
                draft
                    .iter()
                    .map(|(k, d)| Ok((key::<K>(k.clone())?, T::to_value(d)?)))
                    .collect()
            }

            fn into_value(draft: Self::Draft) -> Result<Self::Value, Rejected> {
                draft
                    .into_iter()
                    .map(|(k, d)| Ok((key::<K>(k)?, T::into_value(d)?)))
                    .collect()
            }
        }

        impl<K, T: StreamingModel> Rest for $map<K, T>
        where
            K: DeserializeOwned + std::fmt::Debug + Send + 'static $(+ $bound)+,
        {
            fn check(key: &str, _raw: &[u8]) -> Result<String, serde_json::Error> {
                // serde reads a flattened map's keys as strings: an integer key is refused.
                let read = serde_json::from_value::<K>(serde_json::Value::String(key.to_owned()))?;
                Ok(format!("{read:?}"))
            }

            fn has(key: &str, draft: &Self::Draft) -> bool {
                draft.contains_key(key)
            }

            fn entry_step(
                key: &str,
                member: &mut Member,
                event: &Event<'_>,
                draft: &mut Self::Draft,
            ) -> Flow<Self::Field> {
                let mut slot = EntrySlot { map: draft, key };
                T::step(member, event, &mut slot).map(|v| Entry::Value(key.to_owned(), v))
            }

            fn entry_draft<'d>(key: &str, draft: &'d mut Self::Draft) -> Option<&'d mut dyn Any> {
                draft.get_mut(key).and_then(T::frame_draft)
            }

            fn entry_closed(key: &str, draft: &Self::Draft) -> Result<Self::Field, Rejected> {
                let entry = draft
                    .get(key)
                    .ok_or_else(|| Rejected::unplaced("the entry has no draft"))?;
                T::to_value(entry).map(|v| Entry::Value(key.to_owned(), v))
            }

            fn entry_wrap(key: &str, child: &mut dyn Any) -> Option<Self::Field> {
                let field = child.downcast_mut::<Option<T::Field>>()?.take()?;
                Some(Entry::Inner(key.to_owned(), field))
            }
        }
    )*};
}

/// A settled entry's key (already checked as it closed).
fn key<K: DeserializeOwned + 'static>(text: String) -> Result<K, Rejected> {
    read_key(text).map_err(|error| Rejected { error, span: 0..0 })
}

keyed_map! {
    HashMap where Eq, std::hash::Hash;
    BTreeMap where Ord;
}
