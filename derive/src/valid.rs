//! Checks that need the whole model: what cannot be streamed correctly yet.

use crate::ast::{Body, Model};
use std::collections::HashMap;

/// A draft tracks settled fields in a 128-bit set.
const MAX_FIELDS: usize = 128;

pub(crate) fn check(model: &Model<'_>, errors: &mut Vec<syn::Error>) {
    let Body::Struct(fields) = &model.body else {
        return;
    };
    let mut seen: HashMap<&str, &syn::Ident> = HashMap::new();
    for field in fields {
        if field.flatten {
            errors.push(syn::Error::new_spanned(
                field.original,
                "`#[serde(flatten)]` cannot be streamed yet: the flattened keys arrive mixed \
                 with this struct's own keys; nest the struct as a named field instead",
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
