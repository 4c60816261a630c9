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
    /// A newtype or tuple struct, or a `#[serde(transparent)]` struct: the JSON is its
    /// inner value (a tuple struct's fields as a tuple).
    Wrapper(Wrapper<'a>),
    /// A unit enum: each variant's serialized name, and every name serde reads for it
    /// (the name first, then its aliases).
    UnitEnum(Vec<(String, Vec<String>)>),
    /// An enum with data (or any enum serde reads tagged or untagged).
    DataEnum(DataEnum<'a>),
}

/// How serde writes an enum: see serde's enum representations.
pub(crate) enum Repr {
    External,
    Internal(String),
    Adjacent(String, String),
    Untagged,
}

pub(crate) struct DataEnum<'a> {
    pub(crate) repr: Repr,
    /// The variants serde reads (skipped ones left out), in order.
    pub(crate) variants: Vec<Variant<'a>>,
    /// Every variant, for matches on the value.
    pub(crate) all: Vec<&'a syn::Variant>,
    /// `#[serde(rename_all_fields = "...")]` on the enum.
    pub(crate) rename_all_fields: Option<String>,
}

pub(crate) struct Variant<'a> {
    pub(crate) original: &'a syn::Variant,
    /// The name serde reads, and every name it accepts (the name first, then aliases).
    pub(crate) name: String,
    pub(crate) keys: Vec<String>,
    /// The name serde writes (the draft serializes as the value does).
    pub(crate) written: String,
    pub(crate) style: VariantStyle,
    /// `#[serde(other)]`.
    pub(crate) other: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum VariantStyle {
    Unit,
    Newtype,
    Tuple,
    Struct,
}

/// How a wrapper struct reads: the type it streams as, and how its value is built from
/// that type's value.
pub(crate) struct Wrapper<'a> {
    /// The field types the JSON holds, in order (one for a newtype or transparent struct).
    pub(crate) types: Vec<&'a Type>,
    /// The members the values go to (`0`, `1`, … or the transparent field's name).
    pub(crate) members: Vec<syn::Member>,
    /// Members serde fills with their default (a transparent struct's skipped fields).
    pub(crate) defaults: Vec<(syn::Member, Fallback)>,
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
    if let Some(lifetime) = input.generics.lifetimes().next() {
        errors.push(syn::Error::new_spanned(
            lifetime,
            "StreamingModel needs owned types: a stream's draft and events outlive the chunk \
             each value arrived in, so fields cannot borrow from the input; use `String` (or \
             `Cow<'static, str>`) for `&str`, and owned types for other borrows",
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
                    "{what} cannot be streamed: the JSON is shaped like the other type, not this \
                     one; stream that type, or mark fields holding this type `#[settled(atomic)]`"
                ),
            ));
        }
    }
    let fields: Vec<&ast::Field> = match &container.data {
        ast::Data::Struct(_, fields) => fields.iter().collect(),
        ast::Data::Enum(variants) => variants.iter().flat_map(|v| &v.fields).collect(),
    };
    for f in fields {
        if !f.attrs.borrowed_lifetimes().is_empty() {
            // serde borrows on `borrow`, and unasked for `&str` and `&[u8]`.
            errors.push(match serde_attr_naming(&f.original.attrs, "borrow") {
                Some(attr) => syn::Error::new_spanned(
                    attr,
                    "`#[serde(borrow)]` cannot be streamed: a stream's draft and events outlive \
                     the chunk each value arrived in, so nothing can borrow from the input; \
                     remove `borrow` (a `Cow<'static, str>` field then owns its text)",
                ),
                None => syn::Error::new_spanned(
                    f.ty,
                    "serde borrows this field from the input, and a stream's draft and events \
                     outlive the chunk each value arrived in; use `String` for `&str`, \
                     `Vec<u8>` for `&[u8]`",
                ),
            });
        }
    }
    if !errors.is_empty() {
        return None;
    }
    let attrs = attr::container(&input.attrs, errors);
    let body = match &container.data {
        ast::Data::Struct(_, fields) if container.attrs.transparent() => {
            Body::Wrapper(wrapper(fields, false, errors)?)
        }
        ast::Data::Struct(ast::Style::Struct, fields) => {
            Body::Struct(fields.iter().filter_map(|f| field(f, errors)).collect())
        }
        ast::Data::Struct(ast::Style::Newtype | ast::Style::Tuple, fields) => {
            if fields.len() > MAX_TUPLE {
                errors.push(syn::Error::new_spanned(
                    &input.ident,
                    format!(
                        "a tuple struct streams as a tuple of at most {MAX_TUPLE} elements, this \
                         one has {}: give its fields names",
                        fields.len()
                    ),
                ));
                return None;
            }
            if !matches!(container.attrs.default(), serde_attr::Default::None) {
                errors.push(syn::Error::new_spanned(
                    &input.ident,
                    "`#[serde(default)]` on a tuple struct cannot be streamed: serde fills the \
                     missing trailing elements; give the fields names",
                ));
                return None;
            }
            Body::Wrapper(wrapper(fields, true, errors)?)
        }
        ast::Data::Struct(ast::Style::Unit, _) => {
            errors.push(syn::Error::new_spanned(
                &input.ident,
                "a unit struct holds nothing to stream: use a unit enum, or `()`",
            ));
            return None;
        }
        ast::Data::Enum(variants) => {
            for v in variants {
                if let Some(a) = v.original.attrs.iter().find(|a| a.path() == &attr::SETTLED) {
                    attr::refuse(
                        syn::spanned::Spanned::span(a),
                        "a variant takes none; its doc comment is its description",
                        errors,
                    );
                }
            }
            let tagged = !matches!(container.attrs.tag(), serde_attr::TagType::External);
            if !tagged && variants.iter().all(|v| matches!(v.style, ast::Style::Unit)) {
                let mut names = Vec::new();
                for v in variants.iter().filter(|v| !v.attrs.skip_deserializing()) {
                    let name = v.attrs.name().deserialize_name().to_owned();
                    let mut read: Vec<String> = vec![name.clone()];
                    read.extend(v.attrs.aliases().iter().filter(|a| **a != name).cloned());
                    names.push((name, read));
                }
                Body::UnitEnum(names)
            } else {
                Body::DataEnum(data_enum(input, &container, variants, errors)?)
            }
        }
    };
    let companions = match body {
        Body::Struct(_) => &[][..],
        Body::DataEnum(_) => &[&attrs.field_name_enum][..],
        Body::Wrapper(_) | Body::UnitEnum(_) => {
            &[&attrs.draft, &attrs.field_enum, &attrs.field_name_enum][..]
        }
    };
    for span in companions.iter().filter_map(|a| a.span()) {
        attr::refuse(
            span,
            "this type generates no such companion (a struct generates `XDraft`, `XField` \
             and `XFieldName`; an enum with data `XDraft` and `XField`)",
            errors,
        );
    }
    if let (Some(span), false) = (attrs.strict.span(), matches!(body, Body::Struct(_))) {
        attr::refuse(
            span,
            "strict structured outputs need an object with named properties at the root; \
             put `#[settled(strict)]` on the struct that holds this type (its check covers \
             this type too)",
            errors,
        );
    }
    Some(Model {
        input,
        attrs,
        body,
        deny_unknown_fields: container.attrs.deny_unknown_fields(),
        default: Fallback::from_serde(container.attrs.default()),
    })
}

/// The largest tuple settled streams.
const MAX_TUPLE: usize = 5;

/// A newtype, tuple or transparent struct: the fields serde reads, in order, and the ones
/// it fills with defaults.
fn wrapper<'a>(
    fields: &[ast::Field<'a>],
    tuple: bool,
    errors: &mut Vec<syn::Error>,
) -> Option<Wrapper<'a>> {
    let mut out = Wrapper {
        types: Vec::new(),
        members: Vec::new(),
        defaults: Vec::new(),
    };
    for f in fields {
        if let Some(span) = attr::field(&f.original.attrs, errors).first() {
            attr::refuse(
                span,
                "a field of a tuple, newtype or transparent struct takes none; give the fields \
                 names, or put it on a named field that holds this struct",
                errors,
            );
        }
        let defaulted = !matches!(f.attrs.default(), serde_attr::Default::None);
        if tuple && (f.attrs.skip_deserializing() || defaulted) {
            // serde reads a tuple struct's fields by position: a skipped field shifts
            // them, a defaulted one may be missing at the end.
            errors.push(syn::Error::new_spanned(
                f.original,
                "`skip` and `default` on a field of a tuple struct cannot be streamed: serde \
                 reads its fields by position; give the fields names",
            ));
            return None;
        }
        if f.attrs.skip_deserializing() {
            out.defaults
                .push((f.member.clone(), Fallback::from_serde(f.attrs.default())));
            continue;
        }
        if f.attrs.deserialize_with().is_some() {
            errors.push(syn::Error::new_spanned(
                f.original,
                "a field read by `deserialize_with` or `with` cannot carry a wrapper struct's \
                 stream: derive only `Deserialize` on this struct and mark fields holding it \
                 `#[settled(atomic)]`",
            ));
            return None;
        }
        out.types.push(f.ty);
        out.members.push(f.member.clone());
    }
    Some(out)
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
    let attrs = attr::field(&f.original.attrs, errors);
    if let Some(span) = attrs.first() {
        if f.attrs.skip_deserializing() {
            attr::refuse(span, "serde never reads a skipped field", errors);
        } else if f.attrs.flatten() {
            attr::refuse(
                span,
                "a flattened field has no value of its own; put it on the flattened struct's \
                 fields",
                errors,
            );
        }
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
        attrs,
    })
}

/// An enum with data: its representation and the variants serde reads.
fn data_enum<'a>(
    input: &'a DeriveInput,
    container: &ast::Container<'a>,
    variants: &[ast::Variant<'a>],
    errors: &mut Vec<syn::Error>,
) -> Option<DataEnum<'a>> {
    if let Some(param) = input.generics.const_params().next() {
        errors.push(syn::Error::new_spanned(
            param,
            "an enum with data and const parameters cannot stream yet: write the enum for the \
             values it holds, or mark fields holding it `#[settled(atomic)]`",
        ));
        return None;
    }
    let repr = match container.attrs.tag() {
        serde_attr::TagType::External => Repr::External,
        serde_attr::TagType::Internal { tag } => Repr::Internal(tag.clone()),
        serde_attr::TagType::Adjacent { tag, content } => {
            Repr::Adjacent(tag.clone(), content.clone())
        }
        serde_attr::TagType::None => Repr::Untagged,
    };
    let mut out = Vec::new();
    for v in variants {
        if v.attrs.skip_deserializing() {
            continue;
        }
        if v.attrs.untagged() {
            errors.push(syn::Error::new_spanned(
                v.original,
                "`#[serde(untagged)]` on one variant cannot be streamed yet: mark the whole \
                 enum `#[serde(untagged)]`, or fields holding it `#[settled(atomic)]`",
            ));
            continue;
        }
        if v.attrs.deserialize_with().is_some() {
            errors.push(syn::Error::new_spanned(
                v.original,
                "a variant read by `deserialize_with` or `with` cannot be streamed: mark fields \
                 holding this enum `#[settled(atomic)]`",
            ));
            continue;
        }
        let style = match v.style {
            ast::Style::Unit => VariantStyle::Unit,
            ast::Style::Newtype => VariantStyle::Newtype,
            ast::Style::Tuple if v.fields.len() <= MAX_TUPLE => VariantStyle::Tuple,
            ast::Style::Tuple => {
                errors.push(syn::Error::new_spanned(
                    v.original,
                    format!(
                        "a tuple variant streams as a tuple of at most {MAX_TUPLE} elements: \
                         give its fields names"
                    ),
                ));
                continue;
            }
            ast::Style::Struct => VariantStyle::Struct,
        };
        if style == VariantStyle::Tuple
            && v.fields.iter().any(|f| {
                f.attrs.skip_deserializing()
                    || f.attrs.deserialize_with().is_some()
                    || !matches!(f.attrs.default(), serde_attr::Default::None)
            })
        {
            errors.push(syn::Error::new_spanned(
                v.original,
                "`skip`, `default` and `with` on a tuple variant's fields cannot be streamed: \
                 serde reads them by position; give the fields names",
            ));
            continue;
        }
        if style == VariantStyle::Newtype
            && v.fields
                .iter()
                .any(|f| f.attrs.deserialize_with().is_some())
        {
            errors.push(syn::Error::new_spanned(
                v.original,
                "a newtype variant's field read by `with` cannot be streamed: mark fields \
                 holding this enum `#[settled(atomic)]`",
            ));
            continue;
        }
        // A newtype variant's field may be `atomic` (read where the stream is built);
        // constraints and descriptions apply to named fields only.
        for f in &v.fields {
            let attrs = attr::field(&f.original.attrs, &mut Vec::new());
            let refused = match style {
                VariantStyle::Newtype => attrs.first_besides_atomic(),
                _ if style == VariantStyle::Tuple => attrs.first(),
                _ => None,
            };
            if let Some(span) = refused {
                attr::refuse(
                    span,
                    "a field of a tuple or newtype variant takes only `atomic` (a newtype's); \
                     give the variant named fields",
                    errors,
                );
            }
        }
        let name = v.attrs.name().deserialize_name().to_owned();
        let mut keys: Vec<String> = vec![name.clone()];
        keys.extend(v.attrs.aliases().iter().filter(|a| **a != name).cloned());
        out.push(Variant {
            original: v.original,
            written: v.attrs.name().serialize_name().to_owned(),
            name,
            keys,
            style,
            other: v.attrs.other(),
        });
    }
    let all = match &input.data {
        syn::Data::Enum(e) => e.variants.iter().collect(),
        _ => Vec::new(),
    };
    Some(DataEnum {
        repr,
        variants: out,
        all,
        rename_all_fields: serde_string(&input.attrs, "rename_all_fields"),
    })
}

/// The `#[serde(...)]` attribute in `attrs` that names `key` (`borrow`, `borrow = "'a"`).
fn serde_attr_naming<'a>(attrs: &'a [syn::Attribute], key: &str) -> Option<&'a syn::Attribute> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("serde"))
        .find(|attr| {
            let mut named = false;
            let _ = attr.parse_nested_meta(|meta| {
                named |= meta.path.is_ident(key);
                skip_entry(&meta)
            });
            named
        })
}

/// Reads past the value of a `#[serde(...)]` entry: `= expr`, or `(...)` of such entries.
fn skip_entry(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let _: syn::Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        let _ = meta.parse_nested_meta(|inner| {
            if inner.input.peek(syn::Token![=]) {
                let _: syn::Expr = inner.value()?.parse()?;
            }
            Ok(())
        });
    }
    Ok(())
}

/// The string of `#[serde(key = "...")]` (or `key(deserialize = "...")`) in `attrs`.
pub(crate) fn serde_string(attrs: &[syn::Attribute], key: &str) -> Option<String> {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident(key) {
                if meta.input.peek(syn::Token![=]) {
                    let s: syn::LitStr = meta.value()?.parse()?;
                    found = Some(s.value());
                } else {
                    meta.parse_nested_meta(|inner| {
                        let value = inner.value()?;
                        let s: syn::LitStr = value.parse()?;
                        if inner.path.is_ident("deserialize") {
                            found = Some(s.value());
                        }
                        Ok(())
                    })?;
                }
            } else {
                skip_entry(&meta)?;
            }
            Ok(())
        });
    }
    found
}
