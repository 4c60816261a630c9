//! Schema-less streaming: a partial value tree for the CLI and for code without a model.

mod sink;
mod tree;
mod write;

pub use sink::DynamicSink;
pub use tree::{PartialValue, Pointer, ValueKind, ValueRef};
