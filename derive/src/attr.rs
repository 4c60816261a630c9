//! `#[settle(...)]` attributes.

use syn::spanned::Spanned;

/// Keys accepted on a field.
const FIELD_KEYS: &[&str] = &["atomic", "description"];
/// Keys accepted on the container.
const CONTAINER_KEYS: &[&str] = &["description"];

/// `#[settle(...)]` on a field.
#[derive(Default)]
pub(crate) struct FieldAttrs {
    pub(crate) atomic: bool,
    pub(crate) description: Option<String>,
}

/// `#[settle(...)]` on the struct or enum.
#[derive(Default)]
pub(crate) struct ContainerAttrs {
    pub(crate) description: Option<String>,
}

/// Parses the `#[settle(...)]` attributes among `attrs`, collecting errors.
fn parse(
    attrs: &[syn::Attribute],
    allowed: &[&str],
    errors: &mut Vec<syn::Error>,
    mut accept: impl FnMut(&str, &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("settle")) {
        let result = attr.parse_nested_meta(|meta| {
            let name = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            if !allowed.contains(&name.as_str()) {
                return Err(meta.error(format!(
                    "unknown settle attribute `{}`; expected one of: {}",
                    meta.path.span().source_text().unwrap_or(name),
                    allowed.join(", ")
                )));
            }
            accept(&name, &meta)
        });
        if let Err(e) = result {
            errors.push(e);
        }
    }
}

fn string_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<String> {
    let lit: syn::LitStr = meta.value()?.parse()?;
    Ok(lit.value())
}

pub(crate) fn field(attrs: &[syn::Attribute], errors: &mut Vec<syn::Error>) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    parse(attrs, FIELD_KEYS, errors, |name, meta| {
        match name {
            "atomic" => out.atomic = true,
            _ => out.description = Some(string_value(meta)?),
        }
        Ok(())
    });
    out
}

pub(crate) fn container(attrs: &[syn::Attribute], errors: &mut Vec<syn::Error>) -> ContainerAttrs {
    let mut out = ContainerAttrs::default();
    parse(attrs, CONTAINER_KEYS, errors, |_, meta| {
        out.description = Some(string_value(meta)?);
        Ok(())
    });
    out
}

/// The `///` doc comments among `attrs`, as attributes to copy onto generated items.
pub(crate) fn docs(attrs: &[syn::Attribute]) -> Vec<syn::Attribute> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .cloned()
        .collect()
}
