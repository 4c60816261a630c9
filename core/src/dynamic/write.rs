//! JSON text of a partial value, without recursion (depth is bounded only by the options).

use super::tree::{Id, Node, PartialValue};
use std::fmt::Write as _;

/// Writes the value `id` of `tree` to `out`. Numbers keep their source text.
pub(crate) fn write_json(tree: &PartialValue, id: Id, out: &mut String) {
    // Open containers: the node and the index of its next child (a `u32`, as node ids
    // are: no container has more children than the tree has nodes; 8 bytes a level, for
    // nesting as deep as the options allow).
    let mut stack: Vec<(Id, u32)> = Vec::new();
    open(tree, id, out, &mut stack);
    while let Some(&(parent, next)) = stack.last() {
        let child = match tree.node(parent) {
            Some(Node::Array(items)) => items.get(next as usize).copied(),
            Some(Node::Object(members)) => members.get(next as usize).map(|(key, child)| {
                if next > 0 {
                    out.push(',');
                }
                write_str(key, out);
                out.push(':');
                *child
            }),
            _ => None,
        };
        let Some(child) = child else {
            let object = matches!(tree.node(parent), Some(Node::Object(_)));
            out.push(if object { '}' } else { ']' });
            stack.pop();
            continue;
        };
        if let Some(top) = stack.last_mut() {
            top.1 = top.1.saturating_add(1);
        }
        if next > 0 && matches!(tree.node(parent), Some(Node::Array(_))) {
            out.push(',');
        }
        open(tree, child, out, &mut stack);
    }
}

/// Writes a scalar whole, or a container's opening bracket (and pushes it).
fn open(tree: &PartialValue, id: Id, out: &mut String, stack: &mut Vec<(Id, u32)>) {
    match tree.node(id) {
        None | Some(Node::Null) => out.push_str("null"),
        Some(Node::Bool(b)) => out.push_str(if *b { "true" } else { "false" }),
        Some(Node::Number(text)) => out.push_str(text.as_str()),
        Some(Node::String(_)) => write_str(tree.at(id).as_str().unwrap_or_default(), out),
        Some(Node::Array(_)) => {
            out.push('[');
            stack.push((id, 0));
        }
        Some(Node::Object(_)) => {
            out.push('{');
            stack.push((id, 0));
        }
    }
}

/// Writes `s` as a JSON string literal.
pub(crate) fn write_str(s: &str, out: &mut String) {
    out.push('"');
    let mut plain = 0;
    for (i, c) in s.char_indices() {
        let escape = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\n' => "\\n",
            '\r' => "\\r",
            '\t' => "\\t",
            '\u{8}' => "\\b",
            '\u{c}' => "\\f",
            c if c < ' ' => "",
            _ => continue,
        };
        out.push_str(s.get(plain..i).unwrap_or_default());
        if escape.is_empty() {
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else {
            out.push_str(escape);
        }
        plain = i + c.len_utf8();
    }
    out.push_str(s.get(plain..).unwrap_or_default());
    out.push('"');
}
