//! The building blocks of schemas that types describe themselves with.

use super::json::{Object, Schema};
use std::collections::{HashMap, HashSet};

/// Collects the `$defs` of a schema as types describe themselves.
#[derive(Debug, Default)]
pub struct SchemaGen {
    pub(crate) defs: Object,
    /// Each defined type (by its full type name) and the definition name it got.
    names: HashMap<&'static str, String>,
    /// Definitions being built (recursion refers to them before they are complete).
    building: HashSet<String>,
    /// The root model's full type name: references to it point at `#`.
    root: Option<&'static str>,
    /// Types whose schema is being written in place (see [`SchemaGen::inline`]).
    inlining: HashSet<&'static str>,
}

impl SchemaGen {
    /// A generator for the document whose root is `T`: references to `T` point at `#`.
    pub(crate) fn for_root<T: ?Sized>(is_model: bool) -> Self {
        SchemaGen {
            root: is_model.then(std::any::type_name::<T>),
            ..SchemaGen::default()
        }
    }

    /// `T`'s schema written in place (an internally tagged variant's content, whose
    /// members sit beside the tag), built with `build`; where `T` holds itself through
    /// such places (`#[serde(tag = "t")] enum Expr { Neg(Box<Expr>), .. }`), a reference
    /// to its definition instead, so that the schema is finite.
    pub fn inline<T: ?Sized>(&mut self, build: impl Fn(&mut SchemaGen) -> Schema) -> Schema {
        let full = std::any::type_name::<T>();
        if self.names.contains_key(full) || self.root == Some(full) {
            return self.define::<T>(build);
        }
        if !self.inlining.insert(full) {
            // Inside its own schema: a definition the inner place refers to.
            return self.define::<T>(build);
        }
        let schema = build(self);
        self.inlining.remove(full);
        schema
    }

    /// A reference to the definition of `T`, building it with `build` the first time. Two
    /// types with the same short name (`a::Item`, `b::Item`) get distinct definitions.
    pub fn define<T: ?Sized>(&mut self, build: impl FnOnce(&mut SchemaGen) -> Schema) -> Schema {
        let full = std::any::type_name::<T>();
        if self.root == Some(full) {
            return reference("#".to_owned());
        }
        if let Some(name) = self.names.get(full) {
            return reference(format!("#/$defs/{name}"));
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
        reference(format!("#/$defs/{name}"))
    }
}

fn reference(target: String) -> Schema {
    Schema::object([("$ref", target)])
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

/// Allows `null` in `schema` (unless it already does).
pub fn make_nullable(schema: &mut Schema) {
    let Schema::Object(map) = schema else {
        return;
    };
    if accepts_null(map) {
        return;
    }
    let has_enum = map.contains_key("enum");
    match map.get("type") {
        Some(Schema::String(t)) if !has_enum => {
            let types = vec![Schema::from(t.as_str()), Schema::from("null")];
            map.insert("type", types);
        }
        _ => {
            let description = map.remove("description");
            let inner = Schema::Object(std::mem::take(map));
            let null = Schema::object([("type", "null")]);
            map.insert("anyOf", vec![inner, null]);
            if let Some(d) = description {
                map.insert("description", d);
            }
        }
    }
}

fn accepts_null(map: &Object) -> bool {
    match map.get("type") {
        Some(Schema::String(t)) => t == "null",
        Some(Schema::Array(types)) => types.iter().any(|t| t == "null"),
        _ => map
            .get("anyOf")
            .and_then(Schema::as_array)
            .is_some_and(|branches| branches.iter().any(|b| b["type"] == "null")),
    }
}

/// Sets a constraint keyword on `schema`, or on its non-null branch if it is nullable. A
/// bound narrows the one the type already has (`maximum = 1000` on a `u8` keeps
/// `maximum: 255`): no bound admits a number serde refuses for the range. (JSON Schema's
/// `integer` admits `1.0` and `1e2`, which serde refuses for an integer type: the schema
/// cannot say that, and a model writing one gets serde's error as the value settles.)
pub fn constrain(schema: &mut Schema, keyword: &str, value: Schema) {
    if let Some(Schema::Array(branches)) = schema.as_object_mut().and_then(|o| o.get_mut("anyOf")) {
        if let Some(Schema::Object(map)) = branches.iter_mut().find(|b| b["type"] != "null") {
            narrow(map, keyword, value);
            return;
        }
    }
    if let Schema::Object(map) = schema {
        narrow(map, keyword, value);
    }
}

/// Sets `keyword` to `value` unless the bound already there is tighter.
fn narrow(map: &mut Object, keyword: &str, value: Schema) {
    let number = |s: &Schema| match s {
        Schema::Number(n) => n.as_f64(),
        _ => None,
    };
    let lower = keyword.starts_with("min") || keyword.starts_with("exclusiveMin");
    let upper = keyword.starts_with("max") || keyword.starts_with("exclusiveMax");
    if let (Some(old), Some(new)) = (map.get(keyword).and_then(number), number(&value)) {
        if (lower && old >= new) || (upper && old <= new) {
            return;
        }
    }
    map.insert(keyword, value);
}

/// Sets `description` on a property schema.
pub fn describe(schema: &mut Schema, description: &str) {
    if let Schema::Object(map) = schema {
        map.insert("description", description);
    }
}
