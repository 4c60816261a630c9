//! The model the derive expands: serde's view of the type (names, aliases, skips,
//! defaults) plus `#[settled(...)]`.

use crate::attr;
use serde_derive_internals::{Ctxt, Derive, ast, attr as serde_attr};
use syn::{DeriveInput, Ident, Type, Visibility};

pub(crate) struct Model<'a> {
    pub(crate) input: &'a DeriveInput,
    pub(crate) attrs: attr::ContainerAttrs,
    pub(crate) body: Body<'a>,
    /// `#[serde(deny_unknown_fields)]`: the schema closes the object, unknown keys fail.
    pub(crate) deny_unknown_fields: bool,
    /// `#[serde(default)]` on the struct: missing fields come from `Self::default()`.
    pub(crate) default: Fallback,
}

/// Where a missing field's value comes from, as serde decides it.
#[derive(Clone)]
pub(crate) enum Fallback {
    /// Nowhere: serde's "missing field" (which is `None` for an `Option`).
    None,
    /// `Default::default()`.
    Trait,
    /// A function of the user's.
    Path(syn::ExprPath),
}

impl Fallback {
    fn from_serde(default: &serde_attr::Default) -> Self {
        match default {
            serde_attr::Default::None => Fallback::None,
            serde_attr::Default::Default => Fallback::Trait,
            serde_attr::Default::Path(path) => Fallback::Path(path.clone()),
        }
    }
}

pub(crate) enum Body<'a> {
    Struct(Vec<Field<'a>>),
    /// A unit enum: its variants' serialized names.
    UnitEnum(Vec<String>),
}

pub(crate) struct Field<'a> {
    pub(crate) ident: Ident,
    pub(crate) ty: &'a Type,
    pub(crate) vis: &'a Visibility,
    pub(crate) original: &'a syn::Field,
    /// The key serde reads.
    pub(crate) name: String,
    /// Every key serde accepts (the name and its aliases).
    pub(crate) keys: Vec<String>,
    /// serde never reads this field (`skip`, `skip_deserializing`): it takes its default.
    pub(crate) skipped: bool,
    /// The field's own `#[serde(default …)]`.
    pub(crate) default: Fallback,
    /// serde reads the field with a function of the user's (`deserialize_with`, `with`):
    /// it streams as one value, read by that function.
    pub(crate) with: Option<syn::ExprPath>,
    pub(crate) flatten: bool,
    pub(crate) attrs: attr::FieldAttrs,
}

/// Reads `input` with serde's attribute front end; what serde rejects is reported as serde
/// would report it.
pub(crate) fn parse<'a>(input: &'a DeriveInput, errors: &mut Vec<syn::Error>) -> Option<Model<'a>> {
    if let syn::Data::Union(u) = &input.data {
        errors.push(syn::Error::new(
            u.union_token.span,
            "StreamingModel cannot be derived for a union: use a struct with named fields",
        ));
        return None;
    }
    let cx = Ctxt::new();
    let container = ast::Container::from_ast(&cx, input, Derive::Deserialize);
    if let Err(e) = cx.check() {
        errors.push(e);
        return None;
    }
    let container = container?;
    for (unsupported, what) in [
        (container.attrs.transparent(), "`#[serde(transparent)]`"),
        (
            container.attrs.type_from().is_some(),
            "`#[serde(from = ...)]`",
        ),
        (
            container.attrs.type_try_from().is_some(),
            "`#[serde(try_from = ...)]`",
        ),
    ] {
        if unsupported {
            errors.push(syn::Error::new_spanned(
                &input.ident,
                format!(
                    "{what} cannot be streamed yet: the JSON is not shaped like this type's fields; \
                     stream the inner type instead, or mark fields holding this type `#[settled(atomic)]`"
                ),
            ));
        }
    }
    if !errors.is_empty() {
        return None;
    }
    let attrs = attr::container(&input.attrs, errors);
    let body = match &container.data {
        ast::Data::Struct(ast::Style::Struct, fields) => {
            Body::Struct(fields.iter().filter_map(|f| field(f, errors)).collect())
        }
        ast::Data::Struct(_, _) => {
            errors.push(syn::Error::new_spanned(
                &input.ident,
                "StreamingModel needs named fields: a tuple or unit struct has no keys to stream; \
                 use `struct Name { field: Type }`",
            ));
            return None;
        }
        ast::Data::Enum(variants) => {
            let mut names = Vec::new();
            for v in variants {
                if !matches!(v.style, ast::Style::Unit) {
                    errors.push(syn::Error::new_spanned(
                        v.original,
                        "StreamingModel supports only unit enums (variants without data) for now; \
                         mark a field holding this enum `#[settled(atomic)]` and derive only \
                         `Deserialize` on it",
                    ));
                } else if !v.attrs.skip_deserializing() {
                    names.push(v.attrs.name().deserialize_name().to_owned());
                }
            }
            Body::UnitEnum(names)
        }
    };
    Some(Model {
        input,
        attrs,
        body,
        deny_unknown_fields: container.attrs.deny_unknown_fields(),
        default: Fallback::from_serde(container.attrs.default()),
    })
}

fn field<'a>(f: &ast::Field<'a>, errors: &mut Vec<syn::Error>) -> Option<Field<'a>> {
    let syn::Member::Named(ident) = &f.member else {
        return None;
    };
    let name = f.attrs.name().deserialize_name().to_owned();
    let mut keys: Vec<String> = f.attrs.aliases().iter().cloned().collect();
    if !keys.contains(&name) {
        keys.insert(0, name.clone());
    }
    Some(Field {
        ident: ident.clone(),
        ty: f.ty,
        vis: &f.original.vis,
        original: f.original,
        name,
        keys,
        skipped: f.attrs.skip_deserializing(),
        default: Fallback::from_serde(f.attrs.default()),
        with: f.attrs.deserialize_with().cloned(),
        flatten: f.attrs.flatten(),
        attrs: attr::field(&f.original.attrs, errors),
    })
}
