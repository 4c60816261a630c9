//! Checks that need the whole model: what cannot be streamed correctly yet.

use crate::ast::{Body, Field, Model};
use crate::attr::Measure;
use crate::shape;
use std::collections::HashMap;

/// A draft tracks settled fields in a 128-bit set, one bit saying the object has closed.
const MAX_FIELDS: usize = 127;

pub(crate) fn check(model: &Model<'_>, errors: &mut Vec<syn::Error>) {
    let named = match &model.body {
        Body::UnitEnum(_) => true,
        Body::DataEnum(data) => !matches!(data.repr, crate::ast::Repr::Untagged),
        _ => false,
    };
    if let (Some(span), false) = (model.attrs.normalize.span(), named) {
        errors.push(syn::Error::new(
            span,
            "`normalize` applies to enums whose variants are named in the JSON (unit enums, \
             tagged enums): it accepts their names in another case or with other separators",
        ));
    }
    let Body::Struct(fields) = &model.body else {
        return;
    };
    let mut seen: HashMap<&str, &syn::Ident> = HashMap::new();
    let mut rest = None;
    for field in fields {
        let std_map = shape::is_std_map(field.ty);
        if field.flatten && std_map && field.with.is_none() {
            if let Some(other) = rest.replace(&field.ident) {
                errors.push(syn::Error::new_spanned(
                    field.original,
                    format!(
                        "`{other}` already takes the keys no field reads: flatten one map into \
                         a struct"
                    ),
                ));
            }
        }
        if field.flatten && !std_map {
            if let Some(map) = rest {
                errors.push(syn::Error::new_spanned(
                    field.original,
                    format!(
                        "declare the flattened map `{map}` after this flattened struct: serde \
                         gives a map declared first the keys the structs after it read too, \
                         which a stream cannot send to both"
                    ),
                ));
            }
        }
        if field.flatten && ((shape::is_map(field.ty) && !std_map) || field.with.is_some()) {
            errors.push(syn::Error::new_spanned(
                field.original,
                "`#[serde(flatten)]` of this type cannot be streamed: flatten a struct, or a \
                 `HashMap` or `BTreeMap` (which takes the keys no field reads)",
            ));
        } else if field.flatten && is_type_param(model, field.ty) {
            errors.push(syn::Error::new_spanned(
                field.ty,
                "a type parameter cannot be flattened into a streamed struct: its keys must be \
                 known where the struct is declared. Flatten a concrete model type, or drop \
                 `flatten` and nest it under its own key",
            ));
        } else if field.flatten && field.attrs.atomic.get().is_some() {
            errors.push(syn::Error::new_spanned(
                field.original,
                "`#[serde(flatten)]` and `#[settled(atomic)]` do not combine: a flattened \
                 struct's members arrive among this struct's keys; drop `atomic`",
            ));
        }
        if field.skipped {
            continue;
        }
        for key in &field.keys {
            if let Some(other) = seen.insert(key, &field.ident) {
                errors.push(syn::Error::new_spanned(
                    field.original,
                    format!(
                        "fields `{other}` and `{}` both read the key `{key}`: rename one of them",
                        field.ident
                    ),
                ));
            }
        }
    }
    for field in fields.iter().filter(|f| !f.skipped) {
        if model.attrs.strict.get().is_some() {
            check_strict_constraints(field, errors);
        }
    }
    check_generated_names(fields, errors);
    let streamed = fields.iter().filter(|f| !f.skipped).count();
    if streamed > MAX_FIELDS {
        errors.push(syn::Error::new_spanned(
            &model.input.ident,
            format!(
                "StreamingModel supports at most {MAX_FIELDS} streamed fields, this struct has \
                 {streamed}: group some into a nested struct"
            ),
        ));
    }
}

// Whether a constraint fits its field, and whether strict structured outputs can describe
// a field's type, is decided by the type's traits where the expansion uses them (spanned
// at the attribute or the field), not here by spelling: a type alias must work.

/// Under `#[settled(strict)]`: a length constraint strict structured outputs cannot
/// enforce.
fn check_strict_constraints(field: &Field<'_>, errors: &mut Vec<syn::Error>) {
    for c in field.attrs.constraints() {
        if c.measure == Measure::Length {
            errors.push(syn::Error::new(
                c.span,
                format!(
                    "`#[settled(strict)]`: OpenAI strict structured outputs do not support `{}` \
                     (`{}`), so it would only be checked as the value settles; remove it, or \
                     drop `strict` to keep it as a stream-time check",
                    c.keyword, c.attr
                ),
            ));
        }
    }
}

/// Two fields must not generate the same variant (`tag: Vec<_>` gives `TagItem`, as does a
/// field `tag_item`).
fn check_generated_names(fields: &[Field<'_>], errors: &mut Vec<syn::Error>) {
    let mut seen: HashMap<String, &syn::Ident> = HashMap::new();
    for field in fields.iter().filter(|f| !f.skipped) {
        let plain = field.ident.to_string();
        if ["__settled", "__marker"].contains(&plain.as_str()) {
            errors.push(syn::Error::new_spanned(
                &field.ident,
                format!(
                    "a field named `{plain}` clashes with the draft's hidden field of that name; \
                     rename the Rust field and keep the key with `#[serde(rename = \"{plain}\")]`"
                ),
            ));
        }
        let camel = crate::names::camel(&field.ident);
        let mut names = vec![camel.clone()];
        if field.attrs.atomic.get().is_some() || shape::vec_element(field.ty).is_none() {
            // A variant named like another field's `…Item` still clashes below.
        } else {
            names.push(format!("{camel}Item"));
        }
        names.push(format!("In{camel}"));
        for name in names {
            if let Some(other) = seen.insert(name.clone(), &field.ident) {
                errors.push(syn::Error::new_spanned(
                    &field.ident,
                    format!(
                        "fields `{other}` and `{}` both generate `{name}`; rename one of them \
                         (`#[serde(rename = ...)]` keeps its key)",
                        field.ident
                    ),
                ));
            }
        }
    }
}

/// `ty` is one of the model's own type parameters, written bare (`T`).
fn is_type_param(model: &Model<'_>, ty: &syn::Type) -> bool {
    let syn::Type::Path(path) = ty else {
        return false;
    };
    path.qself.is_none()
        && path.path.get_ident().is_some_and(|ident| {
            model
                .input
                .generics
                .type_params()
                .any(|param| param.ident == *ident)
        })
}
