//! What the derive's generated code names, and nothing else. Not public API: it may change
//! in any release (the derive is pinned to this crate's exact version).

pub use crate::json_schema::{Object as SchemaObject, Schema, SchemaGen, constrain, describe};
pub use crate::typed::FieldSet;
pub use crate::typed::protocol_items::*;
pub use core::option::Option::{self, None, Some};
pub use core::result::Result::{self, Err, Ok};
pub use serde;
pub use serde_json;
