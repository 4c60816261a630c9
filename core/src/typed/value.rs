//! `serde_json::Value`: a schema-less member of a typed model, its draft growing as it
//! arrives.

use super::StreamingModel;
use super::protocol::{Event, Flow, Frame, FrameFlow, Member, Out, Rejected, Slot, from_raw};
use crate::json_schema::{Schema, SchemaGen};
use crate::path::Step;
use serde_json::{Map, Value};
use std::any::Any;
use std::convert::Infallible;

#[derive(Debug, Clone)]
enum Seg {
    Key(String),
    Index(usize),
}

fn child<'v>(node: &'v mut Value, seg: &Seg) -> Option<&'v mut Value> {
    match (node, seg) {
        (Value::Object(map), Seg::Key(k)) => map.get_mut(k),
        (Value::Array(items), Seg::Index(i)) => items.get_mut(*i),
        _ => None,
    }
}

/// The frame of a `Value` container: everything inside it, to its closing bracket. The
/// path from the value to its innermost open container is walked per event (at most the
/// depth serde_json reads).
#[derive(Debug, Default)]
struct ValueFrame {
    /// Segments from the value to the innermost open container (one fewer than `depth`).
    path: Vec<Seg>,
    depth: usize,
    key: String,
    /// The open string's segment in the innermost container.
    string: Option<Seg>,
    /// Following the value of a refused duplicate key.
    skipping: Option<Member>,
    /// The steps of a rejected member, relative to this value.
    rejected_at: Vec<Seg>,
    outbox: Option<Infallible>,
}

impl ValueFrame {
    fn container<'v>(&self, root: &'v mut Value) -> Option<&'v mut Value> {
        self.path
            .iter()
            .try_fold(root, |node, seg| child(node, seg))
    }

    /// Adds `value` under the innermost open container; returns its segment.
    fn attach(&mut self, root: &mut Value, value: Value) -> Option<Seg> {
        let opens = matches!(value, Value::Object(_) | Value::Array(_));
        let key = std::mem::take(&mut self.key);
        let seg = match self.container(root)? {
            Value::Object(map) => {
                map.insert(key.clone(), value);
                Seg::Key(key)
            }
            Value::Array(items) => {
                items.push(value);
                Seg::Index(items.len() - 1)
            }
            _ => return None,
        };
        if opens {
            self.path.push(seg.clone());
            self.depth += 1;
        }
        Some(seg)
    }

    /// A member of the innermost container was rejected: where.
    fn reject(&mut self, seg: Seg, rejected: Rejected, out: &mut Out) {
        self.rejected_at = self.path.clone();
        self.rejected_at.push(seg);
        out.reject_member(rejected);
    }

    /// The segment the next member of the innermost container gets.
    fn next_seg(&self, root: &mut Value) -> Seg {
        match self.container(root) {
            Some(Value::Array(items)) => Seg::Index(items.len()),
            _ => Seg::Key(self.key.clone()),
        }
    }
}

impl Frame for ValueFrame {
    fn event(&mut self, event: &Event<'_>, draft: &mut dyn Any, out: &mut Out) -> FrameFlow {
        let Some(root) = draft.downcast_mut::<Value>() else {
            return FrameFlow::More;
        };
        if let Some(member) = self.skipping.as_mut() {
            if member.track(event).is_some() {
                self.skipping = None;
            }
            return FrameFlow::More;
        }
        match *event {
            Event::Key(key, raw) => {
                let duplicate = matches!(
                    self.container(root),
                    Some(Value::Object(map)) if map.contains_key(key)
                );
                if duplicate {
                    self.reject(
                        Seg::Key(key.to_owned()),
                        Rejected::duplicate_key(key, raw),
                        out,
                    );
                    self.skipping = Some(Member::default());
                } else {
                    self.key.clear();
                    self.key.push_str(key);
                }
            }
            Event::BeginObject => {
                self.attach(root, Value::Object(Map::new()));
            }
            Event::BeginArray => {
                self.attach(root, Value::Array(Vec::new()));
            }
            Event::EndObject(raw) | Event::EndArray(raw) => {
                if self.depth == 0 {
                    out.closed = Some(raw.span());
                    return FrameFlow::Done(true);
                }
                self.depth -= 1;
                self.path.pop();
            }
            Event::BeginString => self.string = self.attach(root, Value::String(String::new())),
            Event::Fragment(text) => {
                let node = match &self.string {
                    Some(seg) => self.container(root).and_then(|c| child(c, seg)),
                    None => None,
                };
                if let Some(Value::String(s)) = node {
                    s.push_str(text);
                }
            }
            Event::EndString(_) => self.string = None,
            Event::Number(_, raw) | Event::Bool(_, raw) | Event::Null(raw) => {
                match from_raw::<Value>(raw) {
                    Ok(value) => {
                        self.attach(root, value);
                    }
                    // A number serde_json cannot hold (1e400): serde's verdict, at it.
                    Err(rejected) => {
                        let seg = self.next_seg(root);
                        self.key.clear();
                        self.reject(seg, rejected, out);
                    }
                }
            }
            Event::Place(_) | Event::Seal(_) => {}
        }
        FrameFlow::More
    }

    fn child_done(&mut self, _: &mut dyn Any, _: bool, _: std::ops::Range<usize>, _: &mut Out) {}

    fn child_draft<'d>(&mut self, _: &'d mut dyn Any) -> Option<&'d mut dyn Any> {
        None
    }

    fn wrap(&mut self, _: &mut dyn Any) -> bool {
        false
    }

    fn outbox(&mut self) -> &mut dyn Any {
        &mut self.outbox
    }

    fn path<'s>(&'s self, steps: &mut Vec<Step<'s>>) {
        for seg in &self.rejected_at {
            steps.push(match seg {
                Seg::Key(k) => Step::Key(k),
                Seg::Index(i) => Step::Index(*i),
            });
        }
    }
}

/// A schema-less value: containers, strings, numbers as `serde_json` reads them.
impl StreamingModel for Value {
    type Value = Value;
    type Draft = Value;
    type Field = Infallible;
    type Name = Infallible;

    const LIMITS: super::Limits = super::Limits::LEAF.unsupported(
        "`serde_json::Value` accepts any JSON, and strict structured outputs need a type for \
         every value; use a model or a concrete type",
    );

    fn schema(_: &mut SchemaGen) -> Schema {
        Schema::Object(crate::json_schema::Object::new())
    }

    fn step(member: &mut Member, event: &Event<'_>, slot: &mut dyn Slot<Value>) -> Flow<Value> {
        match *event {
            Event::BeginObject | Event::BeginArray if member.level() == 0 => {
                let empty = match event {
                    Event::BeginObject => Value::Object(Map::new()),
                    _ => Value::Array(Vec::new()),
                };
                slot.set(empty);
                Flow::Push(Box::new(ValueFrame::default()))
            }
            Event::BeginString if member.level() == 0 => {
                slot.set(Value::String(String::new()));
                member.track(event);
                Flow::More
            }
            Event::Fragment(text) => {
                if let Some(Value::String(s)) = slot.get() {
                    s.push_str(text);
                }
                Flow::More
            }
            Event::EndString(_) => {
                member.track(event);
                Flow::Done(Ok(slot.get().cloned().unwrap_or(Value::Null)))
            }
            Event::Number(_, raw) | Event::Bool(_, raw) | Event::Null(raw) => {
                let value = from_raw::<Value>(raw);
                if let Ok(v) = &value {
                    slot.set(v.clone());
                }
                Flow::Done(value)
            }
            _ => Flow::More,
        }
    }

    fn frame_draft(draft: &mut Value) -> Option<&mut dyn Any> {
        Some(draft)
    }

    fn to_value(draft: &Value) -> Result<Value, Rejected> {
        Ok(draft.clone())
    }

    fn into_value(draft: Value) -> Result<Value, Rejected> {
        Ok(draft)
    }
}
