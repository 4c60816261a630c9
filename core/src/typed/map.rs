//! Maps with string keys: an entry appears when its value begins.

use super::{Ctx, Depth, Event, PathSegment, Step, Streamable, from_raw};
use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasher;

/// What settles inside a map.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry<V, F> {
    /// The entry `key` settled with this strict value.
    Settled(String, V),
    /// Inside the entry `key`, something settled.
    Inner(String, F),
}

/// The builder of a map.
#[derive(Debug)]
pub struct MapBuilder<B> {
    phase: Phase,
    key: String,
    /// The open entry has not put its draft yet (a duplicate key's old draft is hidden).
    fresh: bool,
    element: Option<Box<B>>,
    mismatch: Depth,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Start,
    Open,
    Value,
    /// The value of a rejected (duplicate) key.
    Skip,
    Mismatch,
}

impl<B> Default for MapBuilder<B> {
    fn default() -> Self {
        MapBuilder {
            phase: Phase::Start,
            key: String::new(),
            fresh: false,
            element: None,
            mismatch: Depth::default(),
        }
    }
}

/// The map operations the builder needs, shared by `HashMap` and `BTreeMap`.
trait DraftMap<D>: Default {
    fn entry_mut(&mut self, key: &str) -> Option<&mut D>;
    fn put(&mut self, key: String, draft: D);
}

impl<D, S: BuildHasher + Default> DraftMap<D> for HashMap<String, D, S> {
    fn entry_mut(&mut self, key: &str) -> Option<&mut D> {
        self.get_mut(key)
    }
    fn put(&mut self, key: String, draft: D) {
        self.insert(key, draft);
    }
}

impl<D> DraftMap<D> for BTreeMap<String, D> {
    fn entry_mut(&mut self, key: &str) -> Option<&mut D> {
        self.get_mut(key)
    }
    fn put(&mut self, key: String, draft: D) {
        self.insert(key, draft);
    }
}

/// The open entry's draft. A duplicate key starts over: the first `set` replaces it.
struct EntrySlot<'s, M, D> {
    map: &'s mut M,
    key: &'s str,
    fresh: &'s mut bool,
    _draft: std::marker::PhantomData<fn() -> D>,
}

impl<M: DraftMap<D>, D> super::Slot<D> for EntrySlot<'_, M, D> {
    fn get(&mut self) -> Option<&mut D> {
        if *self.fresh {
            return None;
        }
        self.map.entry_mut(self.key)
    }
    fn set(&mut self, draft: D) {
        *self.fresh = false;
        self.map.put(self.key.to_owned(), draft);
    }
}

fn map_step<T: Streamable, M: DraftMap<T::Draft>, V: serde::de::DeserializeOwned>(
    b: &mut MapBuilder<T::Builder>,
    slot: &mut dyn super::Slot<M>,
    event: Event<'_>,
    ctx: &mut Ctx<'_, Entry<T::Value, T::Field>>,
) -> Step<V> {
    match (b.phase, event) {
        (Phase::Start, Event::BeginObject) => {
            slot.set(M::default());
            b.phase = Phase::Open;
            return Step::More;
        }
        (Phase::Start | Phase::Mismatch, _) => {
            b.phase = Phase::Mismatch;
            return b.mismatch.follow(&event);
        }
        (Phase::Open, Event::EndObject(raw)) => return Step::Done(from_raw(raw)),
        (Phase::Open, Event::Key(key, raw)) => {
            b.key.clear();
            b.key.push_str(key);
            if slot.get().and_then(|map| map.entry_mut(key)).is_some() {
                // serde would keep the last value; its first has settled and been
                // reported, and a settled value never changes: a typed stream rejects it.
                let message = format_args!("duplicate key `{key}`: its first value has settled");
                ctx.reject(PathSegment::Key(key), super::Rejected::custom(message, raw));
                b.phase = Phase::Skip;
                return Step::More;
            }
            b.phase = Phase::Value;
            b.fresh = true;
            super::depth::fresh_element(&mut b.element);
            return Step::More;
        }
        (Phase::Skip, _) => {
            if b.mismatch.track(&event).is_some() {
                b.phase = Phase::Open;
            }
            return Step::More;
        }
        _ => {}
    }
    let (Some(map), Some(element)) = (slot.get(), b.element.as_deref_mut()) else {
        return Step::More;
    };
    let key = b.key.as_str();
    let mut entry = EntrySlot {
        map,
        key,
        fresh: &mut b.fresh,
        _draft: std::marker::PhantomData,
    };
    let step = ctx.nested(
        PathSegment::Key(key),
        |f| Entry::Inner(key.to_owned(), f),
        |inner| T::step(element, &mut entry, event, inner),
    );
    if let Step::Done(value) = step {
        b.phase = Phase::Open;
        match value {
            Ok(value) => ctx.emit(Entry::Settled(key.to_owned(), value)),
            Err(error) => ctx.reject(PathSegment::Key(key), error),
        }
    }
    Step::More
}

/// `HashMap` and `BTreeMap` with `String` keys stream the same way.
macro_rules! string_keyed_map {
    ($($map:ident),*) => {$(
        impl<T: Streamable> Streamable for $map<String, T> {
            type Value = $map<String, T::Value>;
            type Draft = $map<String, T::Draft>;
            type Field = Entry<T::Value, T::Field>;
            type Builder = MapBuilder<T::Builder>;
            type Name = std::convert::Infallible;

            const SCHEMA_DEPTH: usize = 1 + T::SCHEMA_DEPTH;
            const SCHEMA_PROPERTIES: usize = T::SCHEMA_PROPERTIES;
            const SHAPE: super::Shape = super::Shape::Object;

            fn schema(generator: &mut crate::schema::SchemaGen) -> crate::schema::Schema {
                crate::schema::Schema::object([
                    ("type", crate::schema::Schema::from("object")),
                    ("additionalProperties", T::schema(generator)),
                ])
            }

            fn check(value: &Self::Value, path: &mut Vec<String>) -> Result<(), super::Violation> {
                for (key, item) in value {
                    path.push(key.clone());
                    T::check(item, path)?;
                    path.pop();
                }
                Ok(())
            }

            fn step(
                b: &mut Self::Builder,
                slot: &mut dyn super::Slot<Self::Draft>,
                event: Event<'_>,
                ctx: &mut Ctx<'_, Self::Field>,
            ) -> Step<Self::Value> {
                map_step::<T, _, _>(b, slot, event, ctx)
            }
        }
    )*};
}

string_keyed_map!(HashMap, BTreeMap);
