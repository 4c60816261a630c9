//! Typed partial JSON for streaming LLM output.
//!
//! A model asked for JSON streams it token by token; every prefix is invalid JSON. `settle`
//! scans each chunk once, keeps the value read so far current, and reports each value the
//! moment it can no longer change.
//!
//! ```
//! use settle::{DynamicStream, Options};
//!
//! let mut stream = DynamicStream::new(Options::default());
//! for chunk in ["Here you go:\n```json\n{\"verdict\": \"sh", "ip\", \"score\": 9", "}\n```"] {
//!     stream.feed(chunk.as_bytes())?;
//!     if let Some(draft) = stream.snapshot() {
//!         println!("draft: {draft}");
//!     }
//!     for (path, value) in stream.settled() {
//!         println!("settled {path} = {value}");
//!     }
//! }
//! let value = stream.finish()?;
//! assert_eq!(value.to_json(), r#"{"verdict":"ship","score":9}"#);
//! # Ok::<(), settle::Error>(())
//! ```
//!
//! The pieces: [`Scanner`] (the one incremental scanner, generic over a [`Sink`]),
//! [`DynamicSink`]/[`DynamicStream`] (a schema-less partial value), [`Options`] (mode and
//! limits) and [`Error`] (typed, positioned failures).
#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod dynamic;
mod error;
mod options;
mod scanner;
mod sink;
mod stream;
mod typed;

#[doc(hidden)]
pub mod __private;

pub use dynamic::{DynamicSink, DynamicStream, Kind, PartialValue, ValueRef};
pub use error::{Error, ErrorKind};
pub use options::Options;
pub use scanner::Scanner;
pub use settle_derive::StreamingModel;
pub use sink::{IgnoreSink, Raw, Sink};
pub use stream::Stream;
pub use typed::{
    Atomic, Ctx, Entry, Event, FieldSet, FieldState, Item, PathSegment, Rejection, Step,
    Streamable, builders, from_raw,
};
