//! What the derive's generated code names. Not public API: may change in any release.

pub use crate::typed::{Depth, ObjectState, Route, atomic_step};
pub use serde;
pub use serde_json;
pub use std::convert::Infallible;
