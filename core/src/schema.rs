//! JSON Schema from the same type the stream is parsed into, and the profiles providers
//! expect for constrained decoding.
//!
//! ```
//! use serde::Deserialize;
//! use settled::StreamingModel;
//!
//! /// A code review.
//! #[derive(Debug, Deserialize, StreamingModel)]
//! struct Review {
//!     /// Why, one reason per entry.
//!     #[settled(min_items = 1)]
//!     reasons: Vec<String>,
//!     score: u8,
//!     note: Option<String>,
//! }
//!
//! let plain = Review::json_schema();
//! assert_eq!(plain["required"], serde_json::json!(["reasons", "score"]));
//! assert_eq!(plain["properties"]["reasons"]["minItems"], 1);
//!
//! // OpenAI strict mode: every property required, optional ones nullable.
//! let openai = settled::schema::openai_strict::<Review>();
//! assert_eq!(openai["required"], serde_json::json!(["reasons", "score", "note"]));
//! assert_eq!(openai["additionalProperties"], false);
//! ```

use crate::typed::Streamable;
pub use crate::typed::schema_gen::{SchemaGen, constrain, def_name, describe, make_nullable};
use serde_json::{Map, Value, json};

/// The JSON Schema dialect of [`plain`].
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The plain JSON Schema (2020-12) of `T`: the root model inline, nested models in
/// `$defs`, properties in field order, `required` as serde requires.
pub fn plain<T: Streamable>() -> Value {
    let mut generator = SchemaGen::for_root::<T>(T::MODEL);
    let root = T::root_schema(&mut generator);
    let mut out = Map::new();
    out.insert("$schema".into(), Value::from(DIALECT));
    if let Value::Object(fields) = root {
        out.extend(fields);
    }
    if !generator.defs.is_empty() {
        out.insert("$defs".into(), Value::Object(generator.defs));
    }
    Value::Object(out)
}

/// Keywords OpenAI's strict structured outputs accept.
const OPENAI_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "description",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "pattern",
    "format",
];

/// `T`'s schema for OpenAI strict structured outputs: every property listed in
/// `required` (`Option` fields are nullable), `additionalProperties: false` on every
/// object, only supported keywords. Mark the model `#[settled(strict)]` to have what strict
/// mode cannot enforce (maps, `serde_json::Value`, unsupported constraints) rejected at
/// compile time; unchecked, such fields come out as they are.
pub fn openai_strict<T: Streamable>() -> Value {
    let mut schema = plain::<T>();
    if let Value::Object(map) = &mut schema {
        map.shift_remove("$schema");
    }
    strictify(&mut schema);
    schema
}

/// The `response_format` of an OpenAI Chat Completions request for `T`, strict.
pub fn openai_response_format<T: Streamable>(name: &str) -> Value {
    json!({
        "type": "json_schema",
        "json_schema": { "name": name, "strict": true, "schema": openai_strict::<T>() }
    })
}

/// An Anthropic tool whose `input_schema` is `T`'s schema.
pub fn anthropic_tool<T: Streamable>(name: &str, description: &str) -> Value {
    let mut schema = plain::<T>();
    if let Value::Object(map) = &mut schema {
        map.shift_remove("$schema");
    }
    json!({ "name": name, "description": description, "input_schema": schema })
}

fn strictify(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    map.retain(|k, _| OPENAI_KEYWORDS.contains(&k.as_str()));
    let is_object =
        map.get("type") == Some(&Value::from("object")) || map.contains_key("properties");
    if is_object {
        // Every key required. Optional fields are already nullable (`Option<T>`); a field
        // with a serde default keeps its type: the model writes a value, which serde accepts.
        if let Some(Value::Object(properties)) = map.get("properties") {
            let all: Vec<Value> = properties.keys().map(|k| Value::from(k.as_str())).collect();
            map.insert("required".into(), Value::Array(all));
        }
        if !matches!(map.get("additionalProperties"), Some(Value::Object(_))) {
            map.insert("additionalProperties".into(), Value::Bool(false));
        }
    }
    for (key, child) in map.iter_mut() {
        match key.as_str() {
            "properties" | "$defs" => {
                if let Value::Object(children) = child {
                    children.values_mut().for_each(strictify);
                }
            }
            "items" | "additionalProperties" => strictify(child),
            "anyOf" => {
                if let Value::Array(branches) = child {
                    branches.iter_mut().for_each(strictify);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nullable_forms() {
        let mut s = json!({"type": "integer", "minimum": 0});
        make_nullable(&mut s);
        assert_eq!(s, json!({"type": ["integer", "null"], "minimum": 0}));
        let mut r = json!({"$ref": "#/$defs/A", "description": "a"});
        make_nullable(&mut r);
        assert_eq!(
            r,
            json!({"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}], "description": "a"})
        );
        make_nullable(&mut r);
        assert_eq!(r["anyOf"].as_array().unwrap().len(), 2, "idempotent");
    }

    #[test]
    fn def_names_are_pointer_safe() {
        assert_eq!(def_name::<Vec<String>>(), "Vec_String");
        assert_eq!(def_name::<u8>(), "u8");
    }
}
