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

pub use crate::json_schema::{Object, Schema};
#[doc(hidden)]
pub use crate::json_schema::{SchemaGen, constrain, def_name, describe, make_nullable};
use crate::typed::StreamingModel;

/// The JSON Schema dialect of [`plain`].
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The plain JSON Schema (2020-12) of `T`: the root model inline, nested models in
/// `$defs`, properties in field order, `required` as serde requires.
pub fn plain<T: StreamingModel>() -> Schema {
    let mut out = Object::new();
    out.insert("$schema", DIALECT);
    for (key, value) in body::<T>() {
        out.insert(key, value);
    }
    Schema::Object(out)
}

/// The root schema's members and `$defs`, without `$schema`.
fn body<T: StreamingModel>() -> Object {
    let mut generator = SchemaGen::for_root::<T>(T::NAMED);
    let mut out = match T::root_schema(&mut generator) {
        Schema::Object(members) => members,
        // A root that is not an object schema (a scalar root type): keep it whole.
        other => Object::from_iter([("allOf", vec![other])]),
    };
    if !generator.defs.is_empty() {
        out.insert("$defs", std::mem::take(&mut generator.defs));
    }
    out
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

/// The `format` values OpenAI's strict structured outputs accept; others are left out.
const OPENAI_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// `T`'s schema for OpenAI strict structured outputs: every property listed in
/// `required` (`Option` fields are nullable), `additionalProperties: false` on every
/// object, only supported keywords. Mark the model `#[settled(strict)]` to have what strict
/// mode cannot enforce (maps, `serde_json::Value`, unsupported constraints) rejected at
/// compile time; unchecked, such fields come out as they are.
///
/// An enum with data is `anyOf` one closed object per variant (every property required,
/// the tag first as a single-valued `enum`), which strict mode accepts anywhere but at the
/// root: the root must be an object, so stream a struct that holds the enum.
///
/// Keywords strict mode lacks are dropped, so unchecked models get a schema that admits
/// more than [`plain`]'s: each of a tuple's elements may be any of its element types (no
/// `prefixItems`; `#[settled(strict)]` rejects tuples), a `char` any string (no
/// `maxLength`), a length constraint goes unchecked. serde still checks them: such a
/// value fails `finish`, with its path.
pub fn openai_strict<T: StreamingModel>() -> Schema {
    let mut schema = Schema::Object(body::<T>());
    strictify(&mut schema);
    schema
}

/// The `response_format` of an OpenAI Chat Completions request for `T`, strict.
pub fn openai_response_format<T: StreamingModel>(name: &str) -> Schema {
    let format = Schema::object([
        ("name", Schema::from(name)),
        ("strict", Schema::from(true)),
        ("schema", openai_strict::<T>()),
    ]);
    Schema::object([
        ("type", Schema::from("json_schema")),
        ("json_schema", format),
    ])
}

/// An Anthropic tool whose `input_schema` is `T`'s schema (the plain profile's body: an
/// enum with data is `anyOf` there too, and a tool's input must be an object at the root).
pub fn anthropic_tool<T: StreamingModel>(name: &str, description: &str) -> Schema {
    Schema::object([
        ("name", Schema::from(name)),
        ("description", Schema::from(description)),
        ("input_schema", Schema::Object(body::<T>())),
    ])
}

fn strictify(schema: &mut Schema) {
    let Schema::Object(map) = schema else {
        return;
    };
    // Strict mode has no `prefixItems`: a tuple's elements become `items` that may be any
    // of its element types (positions are lost; serde still checks them).
    if let Some(Schema::Array(elements)) = map.remove("prefixItems") {
        let mut distinct: Vec<Schema> = Vec::new();
        for element in elements {
            if !distinct.contains(&element) {
                distinct.push(element);
            }
        }
        let items = match <[Schema; 1]>::try_from(distinct) {
            Ok([one]) => one,
            Err(many) => Schema::object([("anyOf", many)]),
        };
        map.insert("items", items);
    }
    map.retain(|k, _| OPENAI_KEYWORDS.contains(&k));
    // Only the formats strict mode knows.
    if map
        .get("format")
        .is_some_and(|f| !OPENAI_FORMATS.iter().any(|known| f == *known))
    {
        map.remove("format");
    }
    let is_object =
        map.get("type").is_some_and(|t| t == "object") || map.contains_key("properties");
    if is_object {
        // Every key required. Optional fields are already nullable (`Option<T>`); a field
        // with a serde default keeps its type: the model writes a value, which serde accepts.
        if let Some(Schema::Object(properties)) = map.get("properties") {
            let all: Vec<Schema> = properties.keys().map(Schema::from).collect();
            map.insert("required", all);
        }
        if !matches!(map.get("additionalProperties"), Some(Schema::Object(_))) {
            map.insert("additionalProperties", false);
        }
    }
    for (key, child) in map.iter_mut() {
        match key {
            "properties" | "$defs" => {
                if let Schema::Object(children) = child {
                    children.iter_mut().for_each(|(_, c)| strictify(c));
                }
            }
            "items" | "additionalProperties" => strictify(child),
            "anyOf" => {
                if let Schema::Array(branches) = child {
                    branches.iter_mut().for_each(strictify);
                    // A branch left with no keyword held only what strict mode cannot say
                    // (`allOf`: a scalar inside an internally tagged variant, which serde
                    // refuses anyway); it would admit anything.
                    branches.retain(|b| !matches!(b, Schema::Object(o) if o.is_empty()));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nullable_forms() {
        let mut s = Schema::from(json!({"type": "integer", "minimum": 0}));
        make_nullable(&mut s);
        assert_eq!(s, json!({"type": ["integer", "null"], "minimum": 0}));
        let mut r = Schema::from(json!({"$ref": "#/$defs/A", "description": "a"}));
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
