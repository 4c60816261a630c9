//! The dynamic sink: builds a [`PartialValue`] in place and records settled paths.

use super::pointer::{Segment, push_pointer};
use super::tree::{Node, PartialValue};
use crate::sink::{Raw, Sink};

/// A [`Sink`] that keeps the value read so far as a schema-less tree, and (optionally) the
/// JSON Pointer of every value the moment it settles.
#[derive(Debug, Clone, Default)]
pub struct DynamicSink {
    tree: PartialValue,
    /// Open containers, outermost first.
    open: Vec<usize>,
    /// The open string value, if any.
    open_string: Option<usize>,
    /// Path segments of open values below the root (containers and the open string).
    path: Vec<Segment>,
    /// The key of the member whose value begins next.
    key: String,
    track: bool,
    settled: Vec<(String, usize)>,
    duplicate_seen: bool,
}

impl DynamicSink {
    /// A sink that records settled paths when `track_settled` is true.
    pub fn new(track_settled: bool) -> Self {
        DynamicSink {
            track: track_settled,
            ..DynamicSink::default()
        }
    }

    /// The value so far.
    pub fn value(&self) -> &PartialValue {
        &self.tree
    }

    /// Settled values recorded since the last [`DynamicSink::clear_settled`], as JSON
    /// Pointers and node ids, in completion order, each path at most once (a duplicate
    /// key keeps its latest value).
    pub(crate) fn settled(&self) -> &[(String, usize)] {
        &self.settled
    }

    /// Forgets the recorded settled values.
    pub fn clear_settled(&mut self) {
        self.settled.clear();
        self.duplicate_seen = false;
    }

    /// Drops earlier reports of a path reported again (duplicate keys), keeping the last.
    pub(crate) fn dedupe_settled(&mut self) {
        if !self.duplicate_seen {
            return;
        }
        let mut seen = std::collections::HashSet::new();
        let mut keep = vec![false; self.settled.len()];
        for (i, (path, _)) in self.settled.iter().enumerate().rev() {
            if let Some(slot) = keep.get_mut(i) {
                *slot = seen.insert(path.clone());
            }
        }
        let mut flags = keep.into_iter();
        self.settled.retain(|_| flags.next().unwrap_or(true));
        self.duplicate_seen = false;
    }

    /// Adds a node under the innermost open container; returns its id and its segment.
    fn attach(&mut self, node: Node) -> (usize, Option<Segment>) {
        let id = self.tree.nodes.len();
        self.tree.nodes.push(node);
        let Some(&parent) = self.open.last() else {
            self.tree.root = Some(id);
            return (id, None);
        };
        let segment = match self.tree.nodes.get_mut(parent) {
            Some(Node::Array(items)) => {
                items.push(id);
                Some(Segment::Index(items.len() - 1))
            }
            Some(Node::Object(members)) => {
                if members.insert(&self.key, id) {
                    self.duplicate_seen = true;
                }
                Some(Segment::Key(self.key.as_str().into()))
            }
            _ => None,
        };
        (id, segment)
    }

    fn open_value(&mut self, node: Node) -> usize {
        let (id, segment) = self.attach(node);
        if let Some(segment) = segment {
            self.path.push(segment);
        }
        id
    }

    /// Records that `id`, whose segment is on top of the path (or `own` for scalars),
    /// settled.
    fn settle(&mut self, id: usize, own: Option<&Segment>) {
        if !self.track {
            return;
        }
        let mut pointer = String::new();
        for segment in self.path.iter().chain(own) {
            push_pointer(&mut pointer, segment);
        }
        self.settled.push((pointer, id));
    }

    fn close_value(&mut self, id: usize, had_parent: bool) {
        self.settle(id, None);
        if had_parent {
            self.path.pop();
        }
    }

    fn scalar(&mut self, node: Node) {
        let (id, segment) = self.attach(node);
        self.settle(id, segment.as_ref());
    }

    fn end_container(&mut self) {
        if let Some(id) = self.open.pop() {
            let had_parent = !self.open.is_empty();
            self.close_value(id, had_parent);
        }
    }
}

impl Sink for DynamicSink {
    fn begin_object(&mut self) {
        let id = self.open_value(Node::Object(Default::default()));
        self.open.push(id);
    }

    fn end_object(&mut self, _raw: Raw<'_>) {
        self.end_container();
    }

    fn begin_array(&mut self) {
        let id = self.open_value(Node::Array(Vec::new()));
        self.open.push(id);
    }

    fn end_array(&mut self, _raw: Raw<'_>) {
        self.end_container();
    }

    fn key(&mut self, key: &str) {
        self.key.clear();
        self.key.push_str(key);
    }

    fn begin_string(&mut self) {
        let id = self.open_value(Node::String(String::new()));
        self.open_string = Some(id);
    }

    fn string_fragment(&mut self, fragment: &str) {
        if let Some(Node::String(s)) = self.open_string.and_then(|id| self.tree.nodes.get_mut(id)) {
            s.push_str(fragment);
        }
    }

    fn end_string(&mut self, _raw: Raw<'_>) {
        if let Some(id) = self.open_string.take() {
            let had_parent = !self.open.is_empty();
            self.close_value(id, had_parent);
        }
    }

    fn number(&mut self, text: &str, _raw: Raw<'_>) {
        self.scalar(Node::Number(text.into()));
    }

    fn bool(&mut self, value: bool, _raw: Raw<'_>) {
        self.scalar(Node::Bool(value));
    }

    fn null(&mut self, _raw: Raw<'_>) {
        self.scalar(Node::Null);
    }

    fn reset(&mut self) {
        self.tree = PartialValue::default();
        self.open.clear();
        self.open_string = None;
        self.path.clear();
    }
}
