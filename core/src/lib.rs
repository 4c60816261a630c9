//! Typed partial JSON for streaming LLM output.
//!
//! A model asked for JSON streams it token by token; every prefix is invalid JSON. `settled`
//! scans each chunk once, keeps the value read so far current, and reports each value the
//! moment it can no longer change.
//!
//! ```
//! use settled::{DynamicStream, Options};
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
//! # Ok::<(), settled::Error>(())
//! ```
//!
//! With a model, [`StreamingModel`] derives a typed draft and a field-settled enum; see
//! its documentation for a complete example.
//!
//! The pieces: [`Scanner`] (the one incremental scanner, generic over a [`Sink`]),
//! [`Stream`] and [`Streamable`] (typed drafts), [`DynamicSink`]/[`DynamicStream`] (a
//! schema-less partial value), [`Options`] (mode and limits) and [`Error`] (typed,
//! positioned failures).
#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod dynamic;
mod error;
mod options;
mod outcome;
pub mod provider;
mod scanner;
pub mod schema;
mod sink;
pub mod sse;
mod stream;
mod typed;
#[cfg(feature = "futures")]
pub mod updates;
mod validate;

#[doc(hidden)]
pub mod __private;

pub use dynamic::{DynamicSink, DynamicStream, Kind, PartialValue, ValueRef};
pub use error::{Error, ErrorKind};
pub use options::{Options, SecondRoot};
pub use outcome::{Partial, StreamError};
pub use scanner::{Scanner, Warning, WarningKind};
/// Derives streaming for a response type: `#[derive(StreamingModel)]` on a struct with named
/// fields (or on a unit enum, which then streams as one atomic value).
///
/// For `struct X`, it generates beside it, with `X`'s visibility:
///
/// - `XDraft`: every field `Option<…>` of the field type's draft (a partial `String`, a
///   `Vec` of drafts whose last element may be partial, a nested model's draft; numbers,
///   booleans, enums and `#[settled(atomic)]` fields only once settled). `Option<T>` fields
///   tell "not arrived" (`None`) from "the model wrote null" (`Some(None)`).
///   `draft.state(XFieldName::F)` says pending, streaming or settled. The draft implements
///   `Default`, `Debug`, `Clone`, `PartialEq` and `Serialize` (with serde's keys).
/// - `XField`: one variant per field with its strict value, `FItem(index, value)` per
///   element of a vector field, `InF(…)` for values settling inside a nested model.
/// - `XFieldName`: the fields, with `key()` (what serde reads) and `is_required()`.
/// - `XCallbacks`: `on_<field>` and `on_<field>_item` callbacks on `settled::Stream<X>`.
/// - `X::stream()` / `X::stream_with(options)` and the `Streamable` impl.
///
/// Keys are the keys serde reads: `rename`, `rename_all`, `alias`, `default`, `skip` and
/// `skip_deserializing` are honoured. Tuple structs, unions, enums with data and `flatten`
/// are compile errors that say what to do instead. Models need `Debug` and `Deserialize`;
/// unit enums also `Clone`, `PartialEq` and `Serialize` (their draft is the value itself).
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use settled::{FieldState, StreamingModel};
///
/// #[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, StreamingModel)]
/// #[serde(rename_all = "snake_case")]
/// enum Verdict { Ship, Hold }
///
/// #[derive(Debug, Deserialize, StreamingModel)]
/// struct Review {
///     /// Ship or hold.
///     verdict: Verdict,
///     reasons: Vec<String>,
///     score: u8,
///     #[serde(default)]
///     note: Option<String>,
/// }
///
/// let mut stream = Review::stream();
/// stream.on_score(|score| assert_eq!(*score, 9));
///
/// let mut events = Vec::new();
/// for chunk in ["Here:\n```json\n{\"verdict\": \"ship\", \"reasons\": [\"fa", "st\", \"small\"], ", "\"score\": 9}\n```"] {
///     for field in stream.feed(chunk.as_bytes())? {
///         match field {
///             ReviewField::Verdict(v) => events.push(format!("verdict {v:?}")),
///             ReviewField::ReasonsItem(i, r) => events.push(format!("reason {i}: {r}")),
///             ReviewField::Reasons(all) => events.push(format!("{} reasons", all.len())),
///             ReviewField::Score(s) => events.push(format!("score {s}")),
///             ReviewField::Note(n) => events.push(format!("note {n:?}")),
///         }
///     }
///     // The draft after the first chunk holds the partial second reason.
///     if events.len() == 1 {
///         assert_eq!(stream.draft().reasons.as_deref(), Some(&["fa".to_string()][..]));
///         assert_eq!(stream.draft().state(ReviewFieldName::Reasons), FieldState::Streaming);
///     }
/// }
/// assert_eq!(events, ["verdict Ship", "reason 0: fast", "reason 1: small", "2 reasons", "score 9"]);
/// let review = stream.finish()?;
/// assert_eq!((review.verdict, review.score, review.note), (Verdict::Ship, 9, None));
/// # Ok::<(), settled::Error>(())
/// ```
pub use settled_derive::StreamingModel;
pub use sink::{IgnoreSink, Raw, Sink};
pub use stream::Stream;
pub use typed::{
    Atomic, Ctx, Entry, Event, FieldName, FieldSet, FieldState, Item, PathSegment, Rejected,
    Rejection, Settled, Slot, Step, Streamable, Violation, builders, from_raw,
};
