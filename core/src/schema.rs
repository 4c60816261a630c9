//! JSON Schema from the same type the stream is parsed into, and the profiles providers
//! expect for constrained decoding.
//!
//! ```
//! use serde::Deserialize;
//! use settle::StreamingModel;
//!
//! /// A code review.
//! #[derive(Debug, Deserialize, StreamingModel)]
//! struct Review {
//!     /// Why, one reason per entry.
//!     #[settle(min_items = 1)]
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
//! let openai = settle::schema::openai_strict::<Review>();
//! assert_eq!(openai["required"], serde_json::json!(["reasons", "score", "note"]));
//! assert_eq!(openai["additionalProperties"], false);
//! ```

use crate::typed::Streamable;
use serde_json::{Map, Value, json};
use std::collections::{HashMap, HashSet};

/// The JSON Schema dialect of [`plain`].
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// Collects the `$defs` of a schema as types describe themselves.
#[derive(Debug, Default)]
pub struct SchemaGen {
    defs: Map<String, Value>,
    /// Each defined type (by its full type name) and the definition name it got.
    names: HashMap<&'static str, String>,
    /// Definitions being built (recursion refers to them before they are complete).
    building: HashSet<String>,
    /// The root model's full type name: references to it point at `#`.
    root: Option<&'static str>,
}

impl SchemaGen {
    /// A reference to the definition of `T`, building it with `build` the first time. Two
    /// types with the same short name (`a::Item`, `b::Item`) get distinct definitions.
    pub fn define<T: ?Sized>(&mut self, build: impl FnOnce(&mut SchemaGen) -> Value) -> Value {
        let full = std::any::type_name::<T>();
        if self.root == Some(full) {
            return json!({ "$ref": "#" });
        }
        if let Some(name) = self.names.get(full) {
            return json!({ "$ref": format!("#/$defs/{name}") });
        }
        let short = def_name::<T>();
        let mut name = short.clone();
        let mut n = 2;
        while self.names.values().any(|taken| *taken == name) {
            name = format!("{short}{n}");
            n += 1;
        }
        self.names.insert(full, name.clone());
        self.building.insert(name.clone());
        let schema = build(self);
        self.building.remove(&name);
        self.defs.insert(name.clone(), schema);
        json!({ "$ref": format!("#/$defs/{name}") })
    }
}

/// A definition name for a type: its path's last segments, made safe for a JSON Pointer.
pub fn def_name<T: ?Sized>() -> String {
    let full = std::any::type_name::<T>();
    let mut name = String::new();
    let mut segment = String::new();
    for c in full.chars() {
        match c {
            ':' => segment.clear(),
            '<' | '>' | ',' | ' ' | '&' | '[' | ']' | ';' => {
                if !segment.is_empty() {
                    if !name.is_empty() {
                        name.push('_');
                    }
                    name.push_str(&segment);
                    segment.clear();
                }
            }
            c => segment.push(c),
        }
    }
    if !segment.is_empty() {
        if !name.is_empty() {
            name.push('_');
        }
        name.push_str(&segment);
    }
    name
}

/// The plain JSON Schema (2020-12) of `T`: the root model inline, nested models in
/// `$defs`, properties in field order, `required` as serde requires.
pub fn plain<T: Streamable>() -> Value {
    let mut generator = SchemaGen {
        root: T::MODEL.then(std::any::type_name::<T>),
        ..SchemaGen::default()
    };
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
/// object, only supported keywords. Mark the model `#[settle(strict)]` to have what strict
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

/// Allows `null` in `schema` (unless it already does).
pub fn make_nullable(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    if accepts_null(map) {
        return;
    }
    let has_enum = map.contains_key("enum");
    match map.get("type") {
        Some(Value::String(t)) if !has_enum => {
            let t = t.clone();
            map.insert("type".into(), json!([t, "null"]));
        }
        _ => {
            let description = map.shift_remove("description");
            let inner = Value::Object(std::mem::take(map));
            map.insert("anyOf".into(), json!([inner, { "type": "null" }]));
            if let Some(d) = description {
                map.insert("description".into(), d);
            }
        }
    }
}

fn accepts_null(map: &Map<String, Value>) -> bool {
    match map.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
        _ => map
            .get("anyOf")
            .and_then(Value::as_array)
            .is_some_and(|branches| branches.iter().any(|b| b["type"] == "null")),
    }
}

/// Sets a constraint keyword on `schema`, or on its non-null branch if it is nullable.
pub fn constrain(schema: &mut Value, keyword: &str, value: Value) {
    if let Some(Value::Array(branches)) = schema.get_mut("anyOf") {
        if let Some(branch) = branches.iter_mut().find(|b| b["type"] != "null") {
            if let Value::Object(map) = branch {
                map.insert(keyword.into(), value);
            }
            return;
        }
    }
    if let Value::Object(map) = schema {
        map.insert(keyword.into(), value);
    }
}

/// Sets `description` on a property schema.
pub fn describe(schema: &mut Value, description: &str) {
    if let Value::Object(map) = schema {
        map.insert("description".into(), Value::from(description));
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
