//! The stream drivers: the scanner feeding a typed or a schema-less sink, and what they
//! hand back.

mod dynamic;
mod outcome;
mod typed;
#[cfg(feature = "futures")]
mod updates;

pub use dynamic::{DynamicError, DynamicStream};
pub use outcome::{FeedError, Fields, Partial, StreamError};
pub use typed::TypedStream;
#[cfg(feature = "futures")]
pub use updates::{Update, UpdateError, Updates};
