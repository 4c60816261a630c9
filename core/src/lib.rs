//! Typed partial JSON for streaming LLM output.
//!
//! A model asked for JSON streams it token by token, and every prefix is invalid JSON.
//! `settled` scans each chunk once, keeps a typed draft of the answer current after every
//! chunk, tells you the moment each value can no longer change, tolerates what models wrap
//! around JSON (prose, ```` ```json ```` fences, `<think>` blocks, comments, trailing
//! commas), and validates the final value with serde, once.
//!
//! # A typed stream
//!
//! Derive [`StreamingModel`] beside `Deserialize`; feed chunks as they arrive; `match` on
//! the fields that settled in each chunk; read the draft whenever you render; finish with
//! the strict value.
//!
//! ```
//! use serde::Deserialize;
//! use settled::StreamingModel;
//!
//! #[derive(Debug, Deserialize, StreamingModel)]
//! struct Review {
//!     verdict: Verdict,     // a unit enum: in the draft only once complete
//!     reasons: Vec<String>, // strings grow in the draft as tokens arrive
//!     score: u8,            // numbers appear only when terminated
//! }
//!
//! #[derive(Debug, Clone, PartialEq, serde::Serialize, Deserialize, StreamingModel)]
//! #[serde(rename_all = "snake_case")]
//! enum Verdict { Ship, Hold }
//!
//! let chunks = ["Sure! ```json\n{\"verdict\": \"sh", "ip\", \"reasons\": [\"fa", "st\"], \"score\": 9}\n```"];
//! let mut stream = Review::stream();
//! for chunk in chunks {
//!     for field in stream.feed(chunk.as_bytes())? {
//!         match field {
//!             ReviewField::Verdict(v) => println!("verdict: {v:?}"), // the strict value
//!             ReviewField::ReasonsItem(i, r) => println!("reason {i}: {r}"),
//!             ReviewField::Reasons(all) => println!("{} reasons", all.len()),
//!             ReviewField::Score(s) => println!("score: {s}"),
//!         }
//!     }
//!     let draft: &ReviewDraft = stream.draft(); // every field optional, updated in place
//!     println!("{}", serde_json::to_string(draft)?);
//! }
//! let review: Review = stream.finish()?; // serde's verdict on the whole value
//! assert_eq!((review.verdict, review.score), (Verdict::Ship, 9));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Callbacks take a variant of the field enum (`stream.on(ReviewField::Score, |s| …)`,
//! fired inside `feed`). The derive also generates the field names with their keys
//! (`ReviewFieldName`), and the model's JSON Schema
//! (`Review::json_schema()`, and the provider profiles in [`schema`]). Keys are serde's:
//! `rename`, `rename_all`, `alias`, `default` and `skip` are honoured.
//!
//! # Without a model
//!
//! [`DynamicStream`] keeps a schema-less partial value and reports each value by JSON
//! Pointer as it settles (this is what `settled replay` prints):
//!
//! ```
//! use settled::{DynamicStream, Options};
//!
//! let mut stream = DynamicStream::new();
//! for chunk in ["Here you go:\n```json\n{\"verdict\": \"sh", "ip\", \"score\": 9", "}\n```"] {
//!     stream.feed(chunk.as_bytes())?;
//!     if let Some(draft) = stream.draft() {
//!         println!("draft: {draft}"); // {"verdict":"sh"} ... {"verdict":"ship","score":9}
//!     }
//!     for (path, value) in stream.settled() {
//!         println!("settled {path} = {value}"); // /verdict = "ship", /score = 9, then the root
//!     }
//! }
//! assert_eq!(stream.finish()?.to_json(), r#"{"verdict":"ship","score":9}"#);
//! # Ok::<(), settled::Error>(())
//! ```
//!
//! # Providers
//!
//! [`provider::Decoder`] turns a provider's server-sent events (OpenAI Chat Completions,
//! the OpenAI Responses API, Anthropic Messages) into text deltas, tool-call argument
//! deltas and a finish reason; parsing only, bring any HTTP client. Feed the text deltas to
//! a stream; end it with [`FinishWith::finish_with`](provider::FinishWith) so that a reply cut by the token limit is
//! reported as [`ErrorKind::Truncated`] naming the cause. [`provider::ToolStreams`] gives
//! each tool call its own typed stream.
//!
//! # Async
//!
//! With the `futures` feature, `TypedStream::updates` turns any `Stream` of byte chunks
//! (an HTTP body) into a `Stream` of `Update`s: fields as they settle, drafts (opt-in),
//! and the strict value last.
//!
//! # Options and limits
//!
//! [`Options`] sets the mode and the limits, each enforced: lenient (default) or
//! [`strict`](Options::strict) RFC 8259; a byte cap (64 MiB: a model stuck in a loop ends
//! with [`ErrorKind::TooLarge`]); a depth cap (127, serde_json's own limit); an idle limit
//! for prose before any value; a stall guard for runs of whitespace; what to do with a
//! second value after the first; whether a value serde rejects fails the chunk it settles
//! in ([`fail_fast`](Options::fail_fast), default) or only `finish`.
//!
//! # How a stream ends
//!
//! | ending | `feed` | `finish()` |
//! |--------|--------|------------|
//! | complete | the fields that settled | `Ok(value)` |
//! | truncated | — | `Err`: [`ErrorKind::Truncated`], the last draft, the required fields not complete (never written, or cut inside) |
//! | not JSON | `Err(Invalid)` in that chunk | the same error, with the last draft |
//! | no JSON at all | `Err(NoStructure)` past the idle limit | `Err(NoStructure)` |
//! | byte or depth cap | `Err(TooLarge)` / `Err(TooDeep)` | the same, with the last draft |
//! | a value serde rejects | `Err(Validation)` where it settles | JSON Pointer, value, line and column |
//!
//! Every [`Error`] has a kind to match on, a byte offset, line and column, and
//! [`Error::feedback`]: a short message to send back to the model for one repair turn.
//! [`StreamError`] adds the last draft and the missing fields; nothing read is lost.
//!
//! # Feature flags
//!
//! - `futures`: the async adapter, `TypedStream::updates` (adds `futures-core`).
//! - `async-openai`: `openai_client`, async-openai's chat completion stream in, typed
//!   updates out (its types only: no HTTP client, no TLS).
//! - `axum`: `serve`, a typed update stream as an SSE response (`draft`, `field`, `done`,
//!   `error` events) and the page's JavaScript.
//! - `chrono`, `time`, `uuid`, `url`, `rust_decimal`: those crates' types as field types,
//!   each shown once settled, with its JSON Schema `format` (`date-time`, `uuid`, `uri`, …).
//!
//! The scanner itself ([`Scanner`] with a [`Sink`]) is public for tools that need raw
//! events.
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod dynamic;
mod error;
mod json_schema;
#[cfg(feature = "async-openai")]
#[cfg_attr(docsrs, doc(cfg(feature = "async-openai")))]
pub mod openai_client;
mod options;
mod path;
pub mod provider;
mod room;
mod scanner;
pub mod schema;
#[cfg(feature = "axum")]
#[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
pub mod serve;
mod sink;
mod stream;
mod typed;
mod validate;

#[doc(hidden)]
pub mod __private;

pub use dynamic::{DynamicSink, PartialValue, Pointer, ValueKind, ValueRef};
pub use error::{Error, ErrorKind, Position};
pub use options::{Options, SERDE_MAX_DEPTH, SecondRoot};
pub use scanner::{MAX_WARNINGS, Scanner, Warning, WarningKind};
/// Derives streaming for a response type: `#[derive(StreamingModel)]` on a struct with named
/// fields, on a newtype, tuple or `#[serde(transparent)]` struct (which streams as the value
/// it wraps: its draft, events and schema are that value's), on a unit enum (which
/// streams as one atomic value), or on an enum with data (see below).
///
/// For `struct X`, it generates beside it, with `X`'s visibility:
///
/// - `XDraft`: every field `Option<…>` of the field type's draft (a partial `String`, a
///   `Vec` of drafts whose last element may be partial, a nested model's draft; numbers,
///   booleans, enums and `#[settled(atomic)]` fields only once settled). `Option<T>` fields
///   tell "not arrived" (`None`) from "the model wrote null" (`Some(None)`).
///   `draft.state(XFieldName::F)` says pending, streaming or settled. The draft implements
///   `Default`, `Clone`, `PartialEq`, `Serialize` (with serde's keys, absent fields left
///   out) and `Debug`, which shows its name and that JSON (`ReviewDraft {"score":9}`).
/// - `XField`: one variant per field with its strict value, `FItem(index, value)` per
///   element of a vector field (its type written `Vec<…>`, maybe inside `Option` or
///   `Box`; behind a type alias, `type Tags = Vec<String>`, the field streams and
///   settles whole without `FItem`: a derive sees only the name written), `InF(…)` for values settling inside a nested model
///   (boxed, `InF(Box<…>)`, when the field's type names `X` or goes through a `Box`: the
///   way models refer to themselves and to each other, `struct Expr { op:
///   Option<Box<BinOp>> }` with `struct BinOp { lhs: Box<Expr> }`). Two models that refer
///   to each other through a `Vec` or a map alone do not compile (their field enums would
///   contain each other, a "cycle detected" error): mark one of the fields on the way
///   `#[settled(recursive)]`, `struct Call { #[settled(recursive)] args: Vec<Expr> }` with
///   `enum Expr { Num(f64), Call(Call) }`.
/// - `XFieldName`: the fields, with `key()` (what serde reads) and `is_required()`.
/// - `X::stream()` / `X::stream_with_options(options)` and the `StreamingModel` impl.
///
/// Keys are the keys serde reads: `rename`, `rename_all`, `alias`, `default`, `skip` and
/// `skip_deserializing` are honoured; a field with `deserialize_with` or `with` streams as
/// one value (its draft is the settled value, its event what the function returned). A
/// `#[serde(flatten)]` struct field reads its keys among this struct's own (its members
/// settle as `InF(…)`; the draft serializes them flat); a flattened `HashMap` or
/// `BTreeMap` takes the keys nothing else reads, each entry settling as
/// `InF(Entry::Value(key, value))`, its keys read as serde reads a flattened map's
/// (as strings). Where serde would give one value to two flattened fields, the shape is
/// refused at compile time: a map declared before a flattened struct, a struct that
/// flattens fields of its own beside a flattened map, and a struct with a flattened map
/// inside that is not the last flattened struct (or that follows a struct that flattens
/// fields of its own); a generic model is checked where the flattened types do not name
/// its parameters. Unit structs, unions, enums with data
/// and const parameters, flattened enums, type parameters, `Option`s and other
/// collections, and borrowed fields (`&'a str`) are compile errors that say what to do
/// instead. Models need `Debug` and `Deserialize`; unit enums
/// also `Clone`, `PartialEq` and `Serialize` (their draft is the value itself).
///
/// The final value is assembled from what settled, the way serde's own derive reads the
/// struct (every attribute above gives serde's verdict), with one exception: a map (or
/// `serde_json::Value`, or a flattened map) that repeats a key is refused with a
/// [`Validation`](ErrorKind::Validation) error at the repeat, where serde keeps the last
/// value, since the first has settled and been reported. Where serde reads a value
/// through its buffer (a variant of an internally tagged enum, a flattened struct, a
/// `tag` + `content` value whose content comes before its tag), it refuses `u128` and
/// `i128` and a map with keys that are not strings (`HashMap<u32, _>`), which settled
/// reads as it reads them anywhere else. And every byte is read as JSON, also under a
/// key no field reads: a lone surrogate (`"\ud800"`) or bytes that are not UTF-8 there
/// are [`Invalid`](ErrorKind::Invalid), which serde would skip. A hand-written
/// `impl Deserialize` for a struct that derives `StreamingModel` is not called: to stream
/// a type whose `Deserialize` validates or converts, mark the fields of that type
/// `#[settled(atomic)]` (serde then reads each one whole) and do not derive
/// `StreamingModel` on it.
///
/// An enum with data streams in each of serde's representations (externally tagged,
/// `tag`, `tag` + `content`, `untagged`), with `rename`, `rename_all`,
/// `rename_all_fields`, `alias` and `other` honoured. For `enum X` it generates:
///
/// - `XDraft`: an enum of the variants' drafts (`XVDraft` for a struct variant `V`, the
///   inner type's draft for a newtype variant, a [`TupleDraft`] for a tuple variant). It is
///   absent until the variant is known: its key (external), its tag's value (internal,
///   adjacent), and for an untagged enum once the whole value has arrived and serde has
///   chosen (so no draft ever shows a variant a later byte could rule out). A tagged
///   value whose members come before its tag has them kept, then shown (and their fields
///   reported) the moment the tag settles. Read it with
///   [`TypedStream::current`] (`XDraft` has no empty form).
/// - `XField`: per variant with values inside, what settled there (`XVField` for a
///   struct variant's fields). The whole `X` settles as a field of its parent.
/// - its schema: `anyOf` one closed object per variant, the tag first as a single-valued
///   `enum`. OpenAI's strict mode wants an object at the root: stream a struct holding
///   the enum rather than the enum itself.
///
/// A wrong or unknown tag is a `Validation` error at the tag's path, in the chunk where
/// the tag settles.
///
/// `#[settled(...)]` attributes:
///
/// - on a named field: `atomic` (stream the value whole, shown once settled: any type
///   serde reads; its draft, a [`Complete`], derefs to the value serde
///   read and serializes as the JSON it was read from, which differs where serde
///   converts, as `try_from` does), `recursive` (the field leads back to this model through a collection:
///   its events are boxed, see `XField` above), `description = "…"` (the schema's,
///   instead of the doc comment), and the constraints `min_items`, `max_items`,
///   `min_length`, `max_length`, `minimum`, `maximum` (in the schema, narrowing the
///   type's own range, and checked as the value settles); where one would do nothing (a
///   skipped or flattened field, a tuple field, a variant), it is a compile error;
/// - on a struct with named fields: `description = "…"`, `strict` (what OpenAI's strict
///   structured outputs cannot describe, in it or in the types it holds, is a compile
///   error); on an enum `description = "…"`, and on a unit enum `normalize`: a name written
///   in another case or with other separators (`In Progress`, `IN-PROGRESS` for
///   `in_progress`; aliases too) settles as its variant, serde reading the canonical name;
///   every other character must match (`C#` is not `C++`, `+1` not `-1`). Off by
///   default: without it serde alone decides;
/// - on a struct or an enum with data: `draft = "…"`, `field_enum = "…"` and (a struct)
///   `field_name_enum = "…"` name the generated `XDraft`, `XField` and `XFieldName`
///   otherwise, where those names are taken by types of yours (`Form` beside a
///   `FormField` struct: `#[settled(field_enum = "FormEvent")]`). Rust reports such a
///   clash as a type defined twice.
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
/// stream.on(ReviewField::Score, |score| assert_eq!(*score, 9));
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
pub use stream::{
    DynamicError, DynamicStream, FeedError, Fields, Partial, StreamError, TypedStream,
};
#[cfg(feature = "futures")]
#[cfg_attr(docsrs, doc(cfg(feature = "futures")))]
pub use stream::{Update, UpdateError, Updates};
pub use typed::{
    Atomic, Complete, DraftOf, Entry, FieldName, FieldOf, FieldState, Item, StreamingModel,
    TupleDraft, TupleItem,
};

/// The crate README's example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
