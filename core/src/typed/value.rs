//! `serde_json::Value`: a schema-less member of a typed model.

use super::{Ctx, Event, Step, Streamable, from_raw};
use serde_json::{Map, Value};
use std::convert::Infallible;

#[derive(Debug, Clone)]
enum Seg {
    Key(String),
    Index(usize),
}

/// The builder of a `serde_json::Value`: the path from the value to its innermost open
/// container, and where the open string sits.
#[derive(Debug, Default)]
pub struct ValueBuilder {
    /// Segments from the root to the innermost open container (one fewer than `depth`).
    path: Vec<Seg>,
    depth: usize,
    key: String,
    /// The open string's segment in the innermost container (`None`: the root string).
    string: Option<Seg>,
    /// Following the value of a rejected duplicate key.
    skipping: Option<super::Depth>,
}

fn child<'v>(node: &'v mut Value, seg: &Seg) -> Option<&'v mut Value> {
    match (node, seg) {
        (Value::Object(map), Seg::Key(k)) => map.get_mut(k),
        (Value::Array(items), Seg::Index(i)) => items.get_mut(*i),
        _ => None,
    }
}

impl ValueBuilder {
    fn container<'v>(&self, root: &'v mut Value) -> Option<&'v mut Value> {
        self.path
            .iter()
            .try_fold(root, |node, seg| child(node, seg))
    }

    /// Adds `value` under the innermost open container (or as the root); returns its
    /// segment.
    fn attach(&mut self, slot: &mut dyn super::Slot<Value>, value: Value) -> Option<Seg> {
        let opens = matches!(value, Value::Object(_) | Value::Array(_));
        let depth = self.depth;
        let seg = match slot.get() {
            Some(root) if depth > 0 => {
                let key = std::mem::take(&mut self.key);
                match self.container(root)? {
                    Value::Object(map) => {
                        map.insert(key.clone(), value);
                        Some(Seg::Key(key))
                    }
                    Value::Array(items) => {
                        items.push(value);
                        Some(Seg::Index(items.len() - 1))
                    }
                    _ => None,
                }
            }
            _ => {
                slot.set(value);
                None
            }
        };
        if opens {
            if let Some(seg) = &seg {
                self.path.push(seg.clone());
            }
            self.depth += 1;
        }
        seg
    }
}

impl Streamable for Value {
    type Value = Value;
    type Draft = Value;
    type Field = Infallible;
    type Builder = ValueBuilder;
    type Name = std::convert::Infallible;

    fn step(
        b: &mut ValueBuilder,
        slot: &mut dyn super::Slot<Value>,
        event: Event<'_>,
        ctx: &mut Ctx<'_, Infallible>,
    ) -> Step<Value> {
        if let Some(depth) = b.skipping.as_mut() {
            if depth.track(&event).is_some() {
                b.skipping = None;
            }
            return Step::More;
        }
        match event {
            Event::Key(key, raw) => {
                let duplicate = match slot.get() {
                    Some(root) if b.depth > 0 => {
                        matches!(b.container(root), Some(Value::Object(map)) if map.contains_key(key))
                    }
                    _ => false,
                };
                if duplicate {
                    // serde keeps the last value; the draft already shows the first as
                    // complete, and shown values never change: a typed stream rejects it.
                    let message =
                        format_args!("duplicate key `{key}`: its first value has settled");
                    let mut path: Vec<super::PathSegment<'_>> = b
                        .path
                        .iter()
                        .map(|seg| match seg {
                            Seg::Key(k) => super::PathSegment::Key(k),
                            Seg::Index(i) => super::PathSegment::Index(*i),
                        })
                        .collect();
                    path.push(super::PathSegment::Key(key));
                    ctx.reject_at(&path, super::Rejected::custom(message, raw));
                    b.skipping = Some(super::Depth::default());
                    return Step::More;
                }
                b.key.clear();
                b.key.push_str(key);
            }
            Event::BeginObject => {
                b.attach(slot, Value::Object(Map::new()));
            }
            Event::BeginArray => {
                b.attach(slot, Value::Array(Vec::new()));
            }
            Event::BeginString => b.string = b.attach(slot, Value::String(String::new())),
            Event::Fragment(text) => {
                let node = match (slot.get(), &b.string) {
                    (Some(root), Some(seg)) => b.container(root).and_then(|c| child(c, seg)),
                    (root, None) => root,
                    (None, Some(_)) => None,
                };
                if let Some(Value::String(s)) = node {
                    s.push_str(text);
                }
            }
            Event::EndString(raw) if b.depth == 0 => return Step::Done(from_raw(raw)),
            Event::EndString(_) => b.string = None,
            Event::EndObject(raw) | Event::EndArray(raw) => {
                if b.depth <= 1 {
                    return Step::Done(from_raw(raw));
                }
                b.depth -= 1;
                b.path.pop();
            }
            Event::Number(_, raw) | Event::Bool(_, raw) | Event::Null(raw) => {
                // Numbers serde_json cannot hold (1e400) stay out of the draft; serde
                // reports them when the value settles.
                if let Ok(value) = from_raw::<Value>(raw) {
                    b.attach(slot, value);
                }
                if b.depth == 0 {
                    return Step::Done(from_raw(raw));
                }
            }
        }
        Step::More
    }
}
