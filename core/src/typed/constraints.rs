//! What `#[settled(...)]` constraints measure, chosen by trait (a type alias works; a type
//! the constraint does not apply to is a compile error at the attribute), and the schema
//! of an atomic field's type.

use super::StreamingModel;
use crate::json_schema::{Schema, SchemaGen};

/// Values `min_items`/`max_items` count: sequences (an absent optional value is not
/// counted).
#[diagnostic::on_unimplemented(
    message = "`min_items` and `max_items` count the elements of a sequence, and `{Self}` is not one",
    label = "not a sequence",
    note = "use `min_length`/`max_length` for a string, `minimum`/`maximum` for a number"
)]
pub trait Items {
    /// Every element read is one of the value's (not a set's, which collapses duplicates):
    /// an element past `max_items` shows the value is refused as soon as it settles.
    const EVERY_ELEMENT: bool = false;
    /// The number of elements, if there is a value.
    fn items(&self) -> Option<usize>;
}

/// Sequences of every kind settled streams: their length (a set's after serde has
/// collapsed duplicates).
macro_rules! items {
    ($($(#[$attr:meta])* $ty:ty => [$($generics:tt)*] $every:literal),* $(,)?) => {$(
        $(#[$attr])*
        impl<$($generics)*> Items for $ty {
            const EVERY_ELEMENT: bool = $every;
            fn items(&self) -> Option<usize> {
                Some(self.len())
            }
        }
    )*};
}

items!(
    Vec<T> => [T] true,
    std::collections::VecDeque<T> => [T] true,
    std::collections::HashSet<T, S> => [T, S] false,
    std::collections::BTreeSet<T> => [T] false,
    [T; N] => [T, const N: usize] true,
);

/// The `max_items` of a vector field whose elements are reported one by one: an element
/// past it is not (the vector will be refused); `None` for a set.
pub fn items_cap<V: Items>(max: f64) -> Option<f64> {
    V::EVERY_ELEMENT.then_some(max)
}

/// Values `min_length`/`max_length` measure: strings, in characters.
#[diagnostic::on_unimplemented(
    message = "`min_length` and `max_length` measure a string, and `{Self}` is not one",
    label = "not a string",
    note = "use `min_items`/`max_items` for a sequence, `minimum`/`maximum` for a number"
)]
pub trait Length {
    /// The number of characters, if there is a value.
    fn length(&self) -> Option<usize>;
}

impl Length for String {
    fn length(&self) -> Option<usize> {
        Some(self.chars().count())
    }
}

impl Length for Box<str> {
    fn length(&self) -> Option<usize> {
        Some(self.chars().count())
    }
}

impl Length for std::borrow::Cow<'_, str> {
    fn length(&self) -> Option<usize> {
        Some(self.chars().count())
    }
}

/// Values `minimum`/`maximum` compare: numbers.
#[diagnostic::on_unimplemented(
    message = "`minimum` and `maximum` bound a number, and `{Self}` is not one",
    label = "not a number",
    note = "use `min_length`/`max_length` for a string, `min_items`/`max_items` for a sequence"
)]
pub trait Number {
    /// The value, exactly, if there is one.
    fn number(&self) -> Option<Measured>;
}

/// A number a bound is compared with: integers exactly (a `u64` past 2^53 is not
/// rounded to the nearest `f64`), floats as they are.
#[derive(Debug, Clone, Copy)]
pub enum Measured {
    /// Any signed integer type.
    Int(i128),
    /// An unsigned integer past `i128::MAX`.
    Big(u128),
    /// `f32` or `f64`.
    Float(f64),
}

impl Measured {
    /// How the value compares with `bound` (`None` when either is NaN).
    #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
    fn compare(self, bound: f64) -> Option<std::cmp::Ordering> {
        use std::cmp::Ordering;
        // 2^127: every `i128` is below it, and a float below it in magnitude truncates to
        // an `i128` exactly.
        const LIMIT: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
        let n = match self {
            Measured::Float(x) => return x.partial_cmp(&bound),
            Measured::Big(_) if bound.is_nan() => return None,
            Measured::Big(_) if bound < LIMIT => return Some(Ordering::Greater),
            Measured::Big(n) => return (n as f64).partial_cmp(&bound),
            Measured::Int(n) => n,
        };
        if bound.is_nan() {
            return None;
        }
        if bound >= LIMIT {
            return Some(Ordering::Less);
        }
        if bound < -LIMIT {
            return Some(Ordering::Greater);
        }
        let whole = bound.trunc();
        match n.cmp(&(whole as i128)) {
            Ordering::Equal => 0.0.partial_cmp(&(bound - whole)),
            unequal => Some(unequal),
        }
    }
}

impl std::fmt::Display for Measured {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Measured::Int(n) => n.fmt(f),
            Measured::Big(n) => n.fmt(f),
            Measured::Float(x) => x.fmt(f),
        }
    }
}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl Number for $t {
            fn number(&self) -> Option<Measured> {
                Some(match i128::try_from(*self) {
                    Ok(n) => Measured::Int(n),
                    Err(_) => Measured::Big(u128::try_from(*self).unwrap_or(u128::MAX)),
                })
            }
        }
    )*};
}

integers!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize
);

impl Number for f32 {
    fn number(&self) -> Option<Measured> {
        Some(Measured::Float(f64::from(*self)))
    }
}

impl Number for f64 {
    fn number(&self) -> Option<Measured> {
        Some(Measured::Float(*self))
    }
}

macro_rules! through {
    ($($trait:ident :: $method:ident -> $out:ty),*) => {$(
        impl<T: $trait> $trait for Option<T> {
            fn $method(&self) -> Option<$out> {
                self.as_ref().and_then($trait::$method)
            }
        }
        impl<T: $trait> $trait for Box<T> {
            fn $method(&self) -> Option<$out> {
                (**self).$method()
            }
        }
    )*};
}

through!(Length::length -> usize, Number::number -> Measured);

/// An optional or boxed sequence counts as the sequence does: its elements past
/// `max_items` are not reported either.
impl<T: Items> Items for Option<T> {
    const EVERY_ELEMENT: bool = T::EVERY_ELEMENT;
    fn items(&self) -> Option<usize> {
        self.as_ref().and_then(Items::items)
    }
}

impl<T: Items> Items for Box<T> {
    const EVERY_ELEMENT: bool = T::EVERY_ELEMENT;
    fn items(&self) -> Option<usize> {
        (**self).items()
    }
}

/// "expected at least 1 item, got 0"
fn bound(measured: f64, min: Option<f64>, max: Option<f64>, unit: &str) -> Result<(), String> {
    let describe = |n: f64| {
        let unit = if n == 1.0 {
            unit.trim_end_matches('s')
        } else {
            unit
        };
        if unit.is_empty() {
            format!("{n}")
        } else {
            format!("{n} {unit}")
        }
    };
    if let Some(min) = min.filter(|&min| measured < min) {
        return Err(format!(
            "expected at least {}, got {measured}",
            describe(min)
        ));
    }
    if let Some(max) = max.filter(|&max| measured > max) {
        return Err(format!(
            "expected at most {}, got {measured}",
            describe(max)
        ));
    }
    Ok(())
}

/// `min_items`/`max_items`.
#[allow(clippy::cast_precision_loss)]
pub fn check_items<V: Items>(value: &V, min: Option<f64>, max: Option<f64>) -> Result<(), String> {
    match value.items() {
        Some(n) => bound(n as f64, min, max, "items"),
        None => Ok(()),
    }
}

/// `min_length`/`max_length`.
#[allow(clippy::cast_precision_loss)]
pub fn check_length<V: Length>(
    value: &V,
    min: Option<f64>,
    max: Option<f64>,
) -> Result<(), String> {
    match value.length() {
        Some(n) => bound(n as f64, min, max, "characters"),
        None => Ok(()),
    }
}

/// `minimum`/`maximum`.
pub fn check_range<V: Number>(value: &V, min: Option<f64>, max: Option<f64>) -> Result<(), String> {
    use std::cmp::Ordering;
    let Some(n) = value.number() else {
        return Ok(());
    };
    if let Some(min) = min.filter(|&min| n.compare(min) == Some(Ordering::Less)) {
        return Err(format!("expected at least {min}, got {n}"));
    }
    if let Some(max) = max.filter(|&max| n.compare(max) == Some(Ordering::Greater)) {
        return Err(format!("expected at most {max}, got {n}"));
    }
    Ok(())
}

/// The schema of an atomic field's type: its `StreamingModel` schema when it has one,
/// else any value. Chosen by trait at the field's concrete type (autoref specialization):
/// `(&&SchemaOf::<T>::new()).schema(generator)`.
pub struct SchemaOf<T: ?Sized>(std::marker::PhantomData<fn() -> Box<T>>);

impl<T: ?Sized> SchemaOf<T> {
    /// The probe.
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        SchemaOf(std::marker::PhantomData)
    }
}

/// `T` describes itself.
pub trait SchemaOfModel {
    /// `T`'s schema.
    fn schema(&self, generator: &mut SchemaGen) -> Schema;
    /// `T` has a schema of its own.
    fn described(&self) -> bool;
}

impl<T: StreamingModel> SchemaOfModel for &SchemaOf<T> {
    fn schema(&self, generator: &mut SchemaGen) -> Schema {
        T::schema(generator)
    }
    fn described(&self) -> bool {
        true
    }
}

/// `T` has no schema of its own: any value.
pub trait SchemaOfAnything {
    /// `{}`.
    fn schema(&self, generator: &mut SchemaGen) -> Schema;
    /// `T` has no schema of its own.
    fn described(&self) -> bool;
}

impl<T: ?Sized> SchemaOfAnything for SchemaOf<T> {
    fn schema(&self, _: &mut SchemaGen) -> Schema {
        Schema::Object(crate::json_schema::Object::new())
    }
    fn described(&self) -> bool {
        false
    }
}

/// Under `#[settled(strict)]`: a field type OpenAI's strict structured outputs cannot
/// describe fails to compile, with the reason (evaluated in a `const`).
#[allow(clippy::panic)] // at compile time: the panic is the compile error
pub const fn strict<T: StreamingModel>() {
    if let Some(reason) = T::LIMITS.strict {
        panic!("{}", reason);
    }
}

/// Under `#[settled(strict)]`: an atomic field's type must describe itself (derive
/// `StreamingModel` for it, or use a std type), or its schema would accept anything.
pub const fn strict_atomic<T: Described>() {}

/// A type with a schema of its own.
#[diagnostic::on_unimplemented(
    message = "`#[settled(strict)]`: the atomic field's type `{Self}` has no schema, so strict structured outputs could not constrain it",
    label = "no schema for this type",
    note = "derive `StreamingModel` for the type, or use a std type"
)]
pub trait Described {}

impl<T: StreamingModel> Described for T {}

/// A model's object schema, built field by field.
#[derive(Debug, Default)]
pub struct ObjectSchema {
    properties: crate::json_schema::Object,
    required: Vec<Schema>,
    /// A flattened map's value schema: what the other keys hold.
    rest: Option<Schema>,
}

impl ObjectSchema {
    /// No properties yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Property `name` of type `F` (its own schema), required as serde requires it unless
    /// `required` says otherwise (a default, a reader of the user's).
    pub fn field<F: StreamingModel>(
        &mut self,
        generator: &mut SchemaGen,
        name: &'static str,
        description: Option<&str>,
        constraints: &[(&str, f64)],
        required: Option<bool>,
    ) {
        let schema = F::schema(generator);
        let required = required.unwrap_or_else(|| super::missing::is_required::<F::Value>(name));
        self.property(name, schema, description, constraints, required);
    }

    /// The properties of a struct `F` flattened into this one (`#[serde(flatten)]`), with
    /// its required keys.
    pub fn flatten<F: StreamingModel>(&mut self, generator: &mut SchemaGen) {
        let Schema::Object(mut object) = F::root_schema(generator) else {
            return;
        };
        if let Some(Schema::Object(properties)) = object.remove("properties") {
            for (name, schema) in properties {
                self.properties.insert(name, schema);
            }
        }
        if let Some(Schema::Array(required)) = object.remove("required") {
            // Two flattened structs that share a key list it once (serde reads such a
            // model only if the key's value suits both).
            for key in required {
                if !self.required.contains(&key) {
                    self.required.push(key);
                }
            }
        }
        // Its flattened map takes the keys nobody reads: so does this struct.
        if let Some(rest @ Schema::Object(_)) = object.remove("additionalProperties") {
            self.rest.get_or_insert(rest);
        }
    }

    /// A map `M` flattened into this struct: the keys no property names hold its values.
    pub fn rest<M: StreamingModel>(&mut self, generator: &mut SchemaGen) {
        if let Schema::Object(mut map) = M::schema(generator) {
            self.rest = map.remove("additionalProperties");
        }
    }

    /// Property `name` with `schema`: its constraints (JSON Schema keyword and value), its
    /// description, and whether it is required.
    pub fn property(
        &mut self,
        name: &'static str,
        mut schema: Schema,
        description: Option<&str>,
        constraints: &[(&str, f64)],
        required: bool,
    ) {
        for &(keyword, value) in constraints {
            crate::json_schema::constrain(&mut schema, keyword, Schema::from(value));
        }
        if let Some(description) = description {
            crate::json_schema::describe(&mut schema, description);
        }
        self.properties.insert(name, schema);
        if required {
            self.required.push(Schema::from(name));
        }
    }

    /// The object schema: `{"type": "object", "description", "properties", "required"}`,
    /// closed (`additionalProperties: false`) under `deny_unknown_fields`.
    pub fn finish(self, description: Option<&str>, closed: bool) -> Schema {
        let mut object = crate::json_schema::Object::new();
        object.insert("type", "object");
        if let Some(description) = description {
            object.insert("description", description);
        }
        object.insert("properties", self.properties);
        object.insert("required", self.required);
        match self.rest {
            Some(rest) => object.insert("additionalProperties", rest),
            None if closed => object.insert("additionalProperties", false),
            None => {}
        }
        Schema::Object(object)
    }
}
