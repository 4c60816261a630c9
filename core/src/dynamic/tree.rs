//! The partial value tree: an arena of nodes updated in place, read through [`ValueRef`].

use crate::path::{Step, write_step};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// Objects at most this wide are searched linearly for duplicate keys; wider ones get an
/// index.
const INDEX_AT: usize = 32;

/// A node's id: its place in the arena. 32 bits: a value takes at least one byte of
/// input, and [`DynamicSink`](super::DynamicSink) takes no more values than fit.
pub(crate) type Id = u32;

/// Nodes per block of the arena. The arena grows by blocks, not by doubling one vector,
/// so that it never holds an old and a new copy of every node at once (only the last
/// block grows by doubling, up to this size).
const BLOCK: usize = 4096;

#[derive(Debug, Clone)]
pub(crate) enum Node {
    Null,
    Bool(bool),
    /// The number's exact source text.
    Number(NumberText),
    String(String),
    Array(Vec<Id>),
    /// Members in arrival order (an object wider than [`INDEX_AT`] also has an index in
    /// [`PartialValue`], by key).
    Object(Vec<(Box<str>, Id)>),
}

/// A number's source text: inline when short (almost every number; no allocation), else
/// on the heap. No larger than the widest node.
#[derive(Debug, Clone)]
pub(crate) enum NumberText {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Box<str>),
}

/// The longest number text kept inline.
const INLINE: usize = 22;

impl NumberText {
    pub(crate) fn new(text: &str) -> Self {
        let mut bytes = [0; INLINE];
        match (bytes.get_mut(..text.len()), u8::try_from(text.len())) {
            (Some(slot), Ok(len)) => {
                slot.copy_from_slice(text.as_bytes());
                NumberText::Inline { len, bytes }
            }
            _ => NumberText::Heap(text.into()),
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        match self {
            // Copied from a `&str` whole: valid UTF-8.
            NumberText::Inline { len, bytes } => bytes
                .get(..usize::from(*len))
                .and_then(|b| std::str::from_utf8(b).ok())
                .unwrap_or_default(),
            NumberText::Heap(text) => text,
        }
    }
}

/// A block of the arena: its nodes, and beside them each one's parent (the root's is
/// itself). A value's JSON Pointer is read from the parents only when asked for: a
/// node's place in its parent is found there by its id (children are listed in the
/// order they were added, so by increasing id).
#[derive(Debug, Clone, Default)]
struct Block {
    nodes: Vec<Node>,
    parents: Vec<Id>,
}

/// A JSON value as far as it has arrived: strings may be prefixes of their final text,
/// containers may be missing members, nothing else is partial.
#[derive(Debug, Clone, Default)]
pub struct PartialValue {
    /// The arena, in blocks of at most [`BLOCK`] nodes (every block but the last full).
    blocks: Vec<Block>,
    /// The key index of each object wider than [`INDEX_AT`] members, by its id.
    index: HashMap<Id, HashSet<Box<str>>>,
    pub(crate) root: Option<Id>,
    /// The open string, if any: its node holds an empty string while its text grows in
    /// `open_text`, one buffer every string reuses, so that a string streamed a few bytes
    /// at a time is allocated once, at its exact size, when it closes.
    open: Option<Id>,
    open_text: String,
}

/// An open string at least this long moves into its node when it closes (its buffer
/// shrunk to fit) instead of being copied: the buffer is not kept at the size of the
/// longest string, and a long string is not copied.
const MOVE_AT: usize = 4096;

impl PartialValue {
    /// The root, once the value has begun.
    pub fn root(&self) -> Option<ValueRef<'_>> {
        self.root.map(|id| ValueRef { tree: self, id })
    }

    /// The value as JSON text (`null` before it began).
    pub fn to_json(&self) -> String {
        self.root()
            .map_or_else(|| "null".to_owned(), |root| root.to_json())
    }

    pub(crate) fn node(&self, id: Id) -> Option<&Node> {
        let id = id as usize;
        self.blocks.get(id / BLOCK)?.nodes.get(id % BLOCK)
    }

    pub(crate) fn node_mut(&mut self, id: Id) -> Option<&mut Node> {
        let id = id as usize;
        self.blocks.get_mut(id / BLOCK)?.nodes.get_mut(id % BLOCK)
    }

    fn parent(&self, id: Id) -> Option<Id> {
        let id = id as usize;
        self.blocks
            .get(id / BLOCK)?
            .parents
            .get(id % BLOCK)
            .copied()
    }

    /// A string node `id` holding `text`: the open string's text lives apart (see
    /// `PartialValue::open`).
    fn string_text<'a>(&'a self, id: Id, text: &'a str) -> &'a str {
        match self.open {
            Some(open) if open == id => &self.open_text,
            _ => text,
        }
    }

    /// The string `id` (attached empty) opens: its text grows with
    /// [`PartialValue::push_open`] until [`PartialValue::close_string`].
    pub(crate) fn open_string(&mut self, id: Id) {
        self.close_string();
        self.open = Some(id);
    }

    /// Appends `fragment` to the open string.
    pub(crate) fn push_open(&mut self, fragment: &str) {
        if self.open.is_some() {
            self.open_text.push_str(fragment);
        }
    }

    /// The open string is complete: its text moves into its node, at its exact size.
    pub(crate) fn close_string(&mut self) {
        let Some(id) = self.open.take() else {
            return;
        };
        let text = if self.open_text.len() >= MOVE_AT {
            let mut text = std::mem::take(&mut self.open_text);
            text.shrink_to_fit();
            text
        } else {
            let text = self.open_text.as_str().to_owned();
            self.open_text.clear();
            text
        };
        if let Some(Node::String(s)) = self.node_mut(id) {
            *s = text;
        }
    }

    /// Nodes in the arena.
    fn len(&self) -> usize {
        match self.blocks.last() {
            Some(last) => (self.blocks.len() - 1) * BLOCK + last.nodes.len(),
            None => 0,
        }
    }

    /// Adds `node` under the container `parent` (as the member `key` of an object), or as
    /// the root when there is none. `None`, and nothing added, once the arena holds as
    /// many nodes as an [`Id`] counts.
    pub(crate) fn attach(&mut self, node: Node, parent: Option<Id>, key: &str) -> Option<Id> {
        let id = Id::try_from(self.len()).ok().filter(|&id| id < Id::MAX)?;
        let parent = match parent {
            Some(parent) => {
                self.adopt(parent, id, key);
                parent
            }
            None => {
                self.root = Some(id);
                id
            }
        };
        if self
            .blocks
            .last()
            .is_none_or(|block| block.nodes.len() >= BLOCK)
        {
            // The first block grows by doubling (a small document takes little); the
            // ones after it take their whole size at once (no copy of the nodes while
            // they fill).
            let block = match self.blocks.len() {
                0 => Block::default(),
                _ => Block {
                    nodes: Vec::with_capacity(BLOCK),
                    parents: Vec::with_capacity(BLOCK),
                },
            };
            self.blocks.push(block);
        }
        if let Some(block) = self.blocks.last_mut() {
            block.nodes.push(node);
            block.parents.push(parent);
        }
        Some(id)
    }

    /// Lists `child` in the container `parent` (as the member `key` of an object).
    fn adopt(&mut self, parent: Id, child: Id, key: &str) {
        let at = parent as usize;
        let node = self
            .blocks
            .get_mut(at / BLOCK)
            .and_then(|block| block.nodes.get_mut(at % BLOCK));
        match node {
            Some(Node::Array(items)) => items.push(child),
            Some(Node::Object(members)) => {
                members.push((key.into(), child));
                if members.len() > INDEX_AT {
                    let index = self.index.entry(parent).or_default();
                    if index.is_empty() {
                        // The object just became wide: its members so far.
                        index.extend(members.iter().map(|(k, _)| k.clone()));
                    } else {
                        index.insert(key.into());
                    }
                }
            }
            _ => {}
        }
    }

    /// The object `id` has a member `key`.
    pub(crate) fn has_member(&self, id: Id, key: &str) -> bool {
        if let Some(index) = self.index.get(&id) {
            return index.contains(key);
        }
        matches!(
            self.node(id),
            Some(Node::Object(members)) if members.iter().any(|(k, _)| &**k == key)
        )
    }

    pub(crate) fn at(&self, id: Id) -> ValueRef<'_> {
        ValueRef { tree: self, id }
    }

    /// The JSON Pointer of node `id`, computed from the parent links.
    pub(crate) fn pointer(&self, id: Id) -> Pointer<'_> {
        Pointer { tree: self, id }
    }

    /// Writes the pointer of `id` to `out`, root first, without recursion.
    fn write_pointer(&self, id: Id, out: &mut dyn fmt::Write) -> fmt::Result {
        let mut chain = Vec::new();
        let mut at = id;
        while let Some(parent) = self.parent(at).filter(|&parent| parent != at) {
            chain.push((parent, at));
            at = parent;
        }
        for &(parent, child) in chain.iter().rev() {
            // Children are in the order of their ids: the child's place is found by it.
            let step = match self.node(parent) {
                Some(Node::Object(members)) => Step::Key(
                    members
                        .binary_search_by_key(&child, |&(_, id)| id)
                        .ok()
                        .and_then(|at| members.get(at))
                        .map_or("", |(k, _)| &**k),
                ),
                Some(Node::Array(items)) => Step::Index(items.binary_search(&child).unwrap_or(0)),
                _ => Step::Index(0),
            };
            write_step(step, out)?;
        }
        Ok(())
    }
}

/// The RFC 6901 JSON Pointer of a value in a [`PartialValue`], computed when displayed
/// (settled values cost no string until one is asked for).
#[derive(Clone, Copy)]
pub struct Pointer<'a> {
    tree: &'a PartialValue,
    id: Id,
}

impl Pointer<'_> {
    /// Writes the pointer to `out` (for output that should not hold it whole).
    pub fn write_to(&self, out: &mut dyn fmt::Write) -> fmt::Result {
        self.tree.write_pointer(self.id, out)
    }
}

impl fmt::Display for Pointer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.tree.write_pointer(self.id, f)
    }
}

impl fmt::Debug for Pointer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pointer({self})")
    }
}

impl PartialEq<str> for Pointer<'_> {
    /// Compares without building the pointer's string.
    fn eq(&self, other: &str) -> bool {
        /// Consumes `rest` as the pointer is written; fails at the first difference.
        struct Matches<'s>(&'s str);
        impl fmt::Write for Matches<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                self.0 = self.0.strip_prefix(s).ok_or(fmt::Error)?;
                Ok(())
            }
        }
        let mut matches = Matches(other);
        self.write_to(&mut matches).is_ok() && matches.0.is_empty()
    }
}

impl PartialEq<&str> for Pointer<'_> {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

/// A borrowed view of one value in a [`PartialValue`]. `Display` writes it as JSON, numbers
/// in their exact source text.
#[derive(Clone, Copy)]
pub struct ValueRef<'a> {
    tree: &'a PartialValue,
    id: Id,
}

/// What a [`ValueRef`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// `null`
    Null,
    /// `true` or `false`
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl<'a> ValueRef<'a> {
    fn node(&self) -> &'a Node {
        self.tree.node(self.id).unwrap_or(&Node::Null)
    }

    /// What this value is.
    pub fn kind(&self) -> ValueKind {
        match self.node() {
            Node::Null => ValueKind::Null,
            Node::Bool(_) => ValueKind::Bool,
            Node::Number(_) => ValueKind::Number,
            Node::String(_) => ValueKind::String,
            Node::Array(_) => ValueKind::Array,
            Node::Object(_) => ValueKind::Object,
        }
    }

    /// The text of a string (possibly a prefix of the final string).
    pub fn as_str(&self) -> Option<&'a str> {
        match self.node() {
            Node::String(s) => Some(self.tree.string_text(self.id, s)),
            _ => None,
        }
    }

    /// A number's exact source text, e.g. `"1e400"`.
    pub fn as_number_text(&self) -> Option<&'a str> {
        match self.node() {
            Node::Number(n) => Some(n.as_str()),
            _ => None,
        }
    }

    /// A boolean's value.
    pub fn as_bool(&self) -> Option<bool> {
        match self.node() {
            Node::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// Elements of an array or members of an object arrived so far (0 for scalars).
    pub fn len(&self) -> usize {
        match self.node() {
            Node::Array(items) => items.len(),
            Node::Object(members) => members.len(),
            _ => 0,
        }
    }

    /// True for empty containers and for scalars.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The array element at `index`.
    pub fn index(&self, index: usize) -> Option<ValueRef<'a>> {
        match self.node() {
            Node::Array(items) => items.get(index).map(|&id| self.tree.at(id)),
            _ => None,
        }
    }

    /// The object member named `key`.
    pub fn get(&self, key: &str) -> Option<ValueRef<'a>> {
        match self.node() {
            Node::Object(members) => members
                .iter()
                .find(|(k, _)| &**k == key)
                .map(|&(_, id)| self.tree.at(id)),
            _ => None,
        }
    }

    /// An object's members in arrival order (empty for other kinds).
    pub fn members(&self) -> impl Iterator<Item = (&'a str, ValueRef<'a>)> + 'a {
        let tree = self.tree;
        let entries: &'a [(Box<str>, Id)] = match self.node() {
            Node::Object(members) => members,
            _ => &[],
        };
        entries.iter().map(move |(k, id)| (&**k, tree.at(*id)))
    }

    /// An array's elements (empty for other kinds).
    pub fn elements(&self) -> impl Iterator<Item = ValueRef<'a>> + 'a {
        let tree = self.tree;
        let items: &'a [Id] = match self.node() {
            Node::Array(items) => items,
            _ => &[],
        };
        items.iter().map(move |&id| tree.at(id))
    }

    /// The value as JSON text.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        super::write::write_json(self.tree, self.id, &mut out);
        out
    }

    /// Appends the value as JSON text to `out`.
    pub fn write_json(&self, out: &mut String) {
        super::write::write_json(self.tree, self.id, out);
    }
}

impl fmt::Display for ValueRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json())
    }
}

impl fmt::Debug for ValueRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ValueRef({})", self.to_json())
    }
}

#[cfg(test)]
mod number_text {
    use super::{INLINE, Node, NumberText};

    #[test]
    fn short_numbers_are_kept_inline_and_long_ones_whole() {
        for text in ["0", "-1.5e-7", "12345678901234567890.5", "1e400"] {
            let number = NumberText::new(text);
            assert!(matches!(number, NumberText::Inline { .. }), "{text}");
            assert_eq!(number.as_str(), text);
        }
        let long = "1".repeat(INLINE + 1);
        let number = NumberText::new(&long);
        assert!(matches!(number, NumberText::Heap(_)));
        assert_eq!(number.as_str(), long);
        let exact = "9".repeat(INLINE);
        assert_eq!(NumberText::new(&exact).as_str(), exact);
        // The inline text makes no node wider.
        assert!(std::mem::size_of::<NumberText>() <= std::mem::size_of::<String>());
        // With its parent link, a node takes 36 bytes of the arena.
        assert!(std::mem::size_of::<Node>() <= 32);
    }
}
