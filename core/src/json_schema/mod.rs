//! JSON Schema as a value: [`Schema`] (JSON whose objects keep their key order) and the
//! generator types describe themselves with. The profiles providers expect are in
//! [`schema`](crate::schema).

mod generator;
mod json;

pub use generator::{SchemaGen, constrain, def_name, describe, make_nullable};
pub use json::{Object, Schema};
