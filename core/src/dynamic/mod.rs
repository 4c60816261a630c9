//! Schema-less streaming: a partial value tree for the CLI and for code without a model.

mod pointer;
mod sink;
mod stream;
mod tree;
mod write;

pub(crate) use pointer::{Segment, push_pointer};
pub use sink::DynamicSink;
pub use stream::DynamicStream;
pub use tree::{Kind, PartialValue, Pointer, ValueRef};
