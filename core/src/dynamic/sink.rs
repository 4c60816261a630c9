//! The dynamic sink: builds a [`PartialValue`] in place and records which values settled.

use super::tree::{Id, Node, PartialValue, Pointer, ValueRef};
use crate::sink::{Raw, Sink};

/// A [`Sink`] that keeps the value read so far as a schema-less tree, and (optionally)
/// which values settled, as node ids whose JSON Pointers are computed only when read.
///
/// A duplicate key keeps its first value (the first value settled, and a settled value
/// never changes): the later member is scanned, checked and left out, and its key's
/// position is recorded for a warning.
///
/// The tree holds at most 2^32 − 1 values: a full tree halts the scan
/// ([`Sink::halted`]), the rest of the input unread. A `DynamicStream` caps its input
/// below that (`DynamicStream::MAX_BYTES`).
#[derive(Debug, Clone, Default)]
pub struct DynamicSink {
    tree: PartialValue,
    /// Open containers, outermost first.
    open: Vec<Id>,
    /// The open string value, if any.
    open_string: Option<Id>,
    /// The key of the member whose value begins next.
    key: String,
    /// The next value belongs to a duplicate key: skip it.
    skip_next: bool,
    /// Inside a skipped value: containers and strings open in it.
    skipping: Option<u32>,
    track: bool,
    /// What settled in `tree` since the last drain (or since it became the tree).
    settled: Vec<Id>,
    /// What settled since the last drain in trees that were current before `tree`: each
    /// one's tree (by generation) and id, reported before `settled`.
    earlier: Vec<(u32, Id)>,
    /// The generation of `tree`: a second root that replaces a value (or a value brought
    /// back) changes it, so that what settled in each stays readable in its own tree.
    generation: u32,
    /// The generation the next new tree takes (never one taken before).
    next_generation: u32,
    /// The last tree given up since the last drain (the value set aside, once the one
    /// that replaced it settled, or the one cut when it is brought back), kept while its
    /// settled values are to be read. One only: memory stays with the values kept, and
    /// the reports of an older one given up in the same chunk are dropped with it.
    retired: Option<(u32, PartialValue)>,
    /// The tree holds as many values as an [`Id`] counts (2^32 - 1): the scan stops.
    full: bool,
    /// Clean-buffer offsets of duplicate keys seen since the last drain.
    duplicates: Vec<usize>,
    /// The value a second root replaced ([`SecondRoot::KeepLast`](crate::SecondRoot)),
    /// until the new root settles, with its generation.
    previous: Option<(u32, PartialValue)>,
    /// The duplicate keys of `previous` not yet drained.
    previous_duplicates: Vec<usize>,
}

impl DynamicSink {
    /// A sink that records settled values when `track_settled` is true.
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

    /// Takes the value.
    pub fn into_value(self) -> PartialValue {
        self.tree
    }

    /// The values settled since the last [`DynamicSink::clear_settled`], in completion
    /// order (innermost first), each at most once: each one's tree and node id. A value
    /// a second root replaced, or one cut and given up for the value before it, keeps
    /// what settled in it (readable until the next drain).
    #[inline]
    pub(crate) fn settled(&self) -> Settled<'_> {
        Settled {
            sink: self,
            earlier: self.earlier.iter(),
            current: self.settled.iter(),
        }
    }

    /// The tree of `generation`: the current one, the one set aside, or one retired.
    fn tree_of(&self, generation: u32) -> Option<&PartialValue> {
        if generation == self.generation {
            return Some(&self.tree);
        }
        match (&self.previous, &self.retired) {
            (Some((g, tree)), _) | (_, Some((g, tree))) if *g == generation => Some(tree),
            _ => None,
        }
    }

    /// Keeps a tree that is given up while values settled in it may still be read (in
    /// place of the one given up before it).
    fn retire(&mut self, generation: u32, tree: PartialValue) {
        if !self.earlier.is_empty() {
            self.retired = Some((generation, tree));
        }
    }

    /// `tree` is about to give way to another: what settled in it is reported as
    /// `earlier`.
    fn switch_trees(&mut self) {
        let generation = self.generation;
        let settled = self.settled.drain(..).map(|id| (generation, id));
        self.earlier.extend(settled);
    }

    /// Forgets the recorded settled values.
    #[inline]
    pub fn clear_settled(&mut self) {
        self.settled.clear();
        // A tree is retired only while values are listed in `earlier`.
        if !self.earlier.is_empty() {
            self.clear_earlier();
        }
    }

    #[cold]
    fn clear_earlier(&mut self) {
        self.earlier.clear();
        self.retired = None;
    }

    /// A duplicate key was seen since the last [`DynamicSink::take_duplicates`].
    pub(crate) fn has_duplicates(&self) -> bool {
        !self.duplicates.is_empty()
    }

    /// Takes the clean-buffer offsets of the duplicate keys seen since the last call.
    pub(crate) fn take_duplicates(&mut self) -> Vec<usize> {
        std::mem::take(&mut self.duplicates)
    }

    /// Adds a node under the innermost open container (or as the root); returns its id,
    /// or `None` when the tree is full (the sink then halts the scan).
    fn attach(&mut self, node: Node) -> Option<Id> {
        let id = self.tree.attach(node, self.open.last().copied(), &self.key);
        self.full |= id.is_none();
        id
    }

    fn settle(&mut self, id: Id) {
        if self.track {
            self.settled.push(id);
        }
        if Some(id) == self.tree.root {
            // The root is complete: a value set aside for it is gone for good.
            if let Some((generation, previous)) = self.previous.take() {
                self.retire(generation, previous);
            }
            self.previous_duplicates = Vec::new();
        }
    }

    fn end_container(&mut self) {
        if let Some(id) = self.open.pop() {
            self.shrink(id);
            self.settle(id);
        }
    }

    /// A container that is complete gives back the room its growth left (see
    /// [`crate::room`]): what the tree holds is then about what the value takes.
    fn shrink(&mut self, id: Id) {
        match self.tree.node_mut(id) {
            Some(Node::Array(items)) => crate::room::give_back(items),
            Some(Node::Object(members)) => crate::room::give_back(members),
            _ => {}
        }
    }

    /// Follows a skipped value (a duplicate key's): true while the event belongs to it.
    fn skipped(&mut self, opens: bool, closes: bool) -> bool {
        if std::mem::take(&mut self.skip_next) {
            self.skipping = Some(0);
        }
        let Some(depth) = self.skipping.as_mut() else {
            return false;
        };
        if opens {
            *depth += 1;
        } else if closes {
            *depth = depth.saturating_sub(1);
        }
        if *depth == 0 {
            self.skipping = None;
        }
        true
    }
}

impl Sink for DynamicSink {
    /// The tree is built from the events alone: no text is read back, so the scanner may
    /// release all of it but the open scalar's (memory: the tree, not the tree and the
    /// text).
    fn released_depth(&self) -> usize {
        usize::MAX
    }
    /// A full tree stops the scan (see [`DynamicSink`]).
    fn halted(&self) -> bool {
        self.full
    }
    fn begin_object(&mut self) {
        if self.skipped(true, false) {
            return;
        }
        if let Some(id) = self.attach(Node::Object(Vec::new())) {
            self.open.push(id);
        }
    }

    fn end_object(&mut self, _raw: Raw<'_>) {
        if self.skipped(false, true) {
            return;
        }
        self.end_container();
    }

    fn begin_array(&mut self) {
        if self.skipped(true, false) {
            return;
        }
        if let Some(id) = self.attach(Node::Array(Vec::new())) {
            self.open.push(id);
        }
    }

    fn end_array(&mut self, _raw: Raw<'_>) {
        if self.skipped(false, true) {
            return;
        }
        self.end_container();
    }

    fn key(&mut self, key: &str, raw: Raw<'_>) {
        if self.skipping.is_some() {
            return;
        }
        let duplicate = self
            .open
            .last()
            .is_some_and(|&id| self.tree.has_member(id, key));
        if duplicate {
            self.skip_next = true;
            self.duplicates.push(raw.span().start);
        }
        self.key.clear();
        self.key.push_str(key);
    }

    fn begin_string(&mut self) {
        if self.skipped(true, false) {
            return;
        }
        self.open_string = self.attach(Node::String(String::new()));
        if let Some(id) = self.open_string {
            self.tree.open_string(id);
        }
    }

    fn string_fragment(&mut self, fragment: &str) {
        if self.skipping.is_some() {
            return;
        }
        self.tree.push_open(fragment);
    }

    fn end_string(&mut self, _raw: Raw<'_>) {
        if self.skipped(false, true) {
            return;
        }
        if let Some(id) = self.open_string.take() {
            self.tree.close_string();
            self.settle(id);
        }
    }

    fn number(&mut self, text: &str, _raw: Raw<'_>) {
        if self.skipped(false, false) {
            return;
        }
        if let Some(id) = self.attach(Node::Number(super::tree::NumberText::new(text))) {
            self.settle(id);
        }
    }

    fn bool(&mut self, value: bool, _raw: Raw<'_>) {
        if self.skipped(false, false) {
            return;
        }
        if let Some(id) = self.attach(Node::Bool(value)) {
            self.settle(id);
        }
    }

    fn null(&mut self, _raw: Raw<'_>) {
        if self.skipped(false, false) {
            return;
        }
        if let Some(id) = self.attach(Node::Null) {
            self.settle(id);
        }
    }

    fn reset(&mut self) {
        self.switch_trees();
        let replaced = std::mem::take(&mut self.tree);
        let generation = self.generation;
        // What settled in the replaced value stays readable in its own tree.
        self.next_generation = self.next_generation.wrapping_add(1);
        self.generation = self.next_generation;
        self.full = false;
        if replaced.root.is_some() {
            if let Some((older, tree)) = self.previous.replace((generation, replaced)) {
                self.retire(older, tree);
            }
            self.previous_duplicates = std::mem::take(&mut self.duplicates);
        } else {
            self.retire(generation, replaced);
        }
        self.open.clear();
        self.open_string = None;
        self.skip_next = false;
        self.skipping = None;
        self.duplicates.clear();
    }

    fn restore(&mut self) {
        if let Some((generation, previous)) = self.previous.take() {
            // The cut value is given up; what settled in it stays readable.
            self.switch_trees();
            let cut = std::mem::replace(&mut self.tree, previous);
            let cut_generation = std::mem::replace(&mut self.generation, generation);
            self.retire(cut_generation, cut);
            self.open.clear();
            self.open_string = None;
            self.skip_next = false;
            self.skipping = None;
            self.duplicates = std::mem::take(&mut self.previous_duplicates);
        }
    }
}

/// The values that settled (see [`DynamicSink::settled`]), with their pointers (computed
/// when displayed). Counting them is free.
pub(crate) struct Settled<'a> {
    sink: &'a DynamicSink,
    earlier: std::slice::Iter<'a, (u32, Id)>,
    current: std::slice::Iter<'a, Id>,
}

impl Settled<'_> {
    #[cold]
    fn earlier_count(self) -> usize {
        // Those of trees no longer kept are left out (see `DynamicSink::retired`).
        let sink = self.sink;
        let kept = |&&(generation, _): &&(u32, Id)| sink.tree_of(generation).is_some();
        self.earlier.filter(kept).count()
    }
}

impl<'a> Iterator for Settled<'a> {
    type Item = (Pointer<'a>, ValueRef<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        for &(generation, id) in self.earlier.by_ref() {
            // Those of a tree no longer kept are left out (see `DynamicSink::retired`).
            if let Some(tree) = self.sink.tree_of(generation) {
                return Some((tree.pointer(id), tree.at(id)));
            }
        }
        let &id = self.current.next()?;
        Some((self.sink.tree.pointer(id), self.sink.tree.at(id)))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let current = self.current.len();
        (current, Some(current + self.earlier.len()))
    }

    #[inline]
    fn count(self) -> usize {
        let current = self.current.len();
        match self.earlier.len() {
            0 => current,
            _ => self.earlier_count() + current,
        }
    }
}
