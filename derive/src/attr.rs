//! `#[settled(...)]` attributes.

use syn::spanned::Spanned;

/// Keys accepted on a field.
const FIELD_KEYS: &[&str] = &[
    "atomic",
    "description",
    "min_items",
    "max_items",
    "min_length",
    "max_length",
    "minimum",
    "maximum",
];
/// Keys accepted on the container.
const CONTAINER_KEYS: &[&str] = &["description", "strict"];

/// A schema constraint on a field: the attribute, its JSON Schema keyword, its value.
pub(crate) struct Constraint {
    pub(crate) attr: &'static str,
    pub(crate) keyword: &'static str,
    pub(crate) value: f64,
    pub(crate) span: proc_macro2::Span,
}

impl Constraint {
    /// What the constraint measures.
    pub(crate) fn kind(&self) -> ConstraintKind {
        match self.attr {
            "min_items" | "max_items" => ConstraintKind::Items,
            "min_length" | "max_length" => ConstraintKind::Length,
            _ => ConstraintKind::Number,
        }
    }

    /// A lower bound (`min_*`, `minimum`).
    pub(crate) fn is_min(&self) -> bool {
        self.attr.starts_with("min")
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ConstraintKind {
    Items,
    Length,
    Number,
}

/// `#[settled(...)]` on a field.
#[derive(Default)]
pub(crate) struct FieldAttrs {
    pub(crate) atomic: bool,
    pub(crate) description: Option<String>,
    pub(crate) constraints: Vec<Constraint>,
}

/// `#[settled(...)]` on the struct or enum.
#[derive(Default)]
pub(crate) struct ContainerAttrs {
    pub(crate) description: Option<String>,
    /// Checked against OpenAI's strict structured outputs rules at compile time.
    pub(crate) strict: Option<proc_macro2::Span>,
}

/// Parses the `#[settled(...)]` attributes among `attrs`, collecting errors.
fn parse(
    attrs: &[syn::Attribute],
    allowed: &[&str],
    errors: &mut Vec<syn::Error>,
    mut accept: impl FnMut(&str, &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("settled")) {
        let result = attr.parse_nested_meta(|meta| {
            let name = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            if !allowed.contains(&name.as_str()) {
                return Err(meta.error(format!(
                    "unknown settled attribute `{name}`; expected one of: {}",
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

fn number_value(meta: &syn::meta::ParseNestedMeta<'_>, integer: bool) -> syn::Result<f64> {
    let expr: syn::Expr = meta.value()?.parse()?;
    let (negative, lit) = match &expr {
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => (true, &*u.expr),
        other => (false, other),
    };
    let value = match lit {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_parse::<f64>()?,
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Float(f),
            ..
        }) if !integer => f.base10_parse::<f64>()?,
        _ => {
            let expected = if integer {
                "a non-negative integer"
            } else {
                "a number"
            };
            return Err(syn::Error::new_spanned(
                &expr,
                format!("expected {expected}"),
            ));
        }
    };
    if integer && negative {
        return Err(syn::Error::new_spanned(
            &expr,
            "expected a non-negative integer",
        ));
    }
    Ok(if negative { -value } else { value })
}

pub(crate) fn field(attrs: &[syn::Attribute], errors: &mut Vec<syn::Error>) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    parse(attrs, FIELD_KEYS, errors, |name, meta| {
        let (attr, keyword, integer) = match name {
            "atomic" => {
                out.atomic = true;
                return Ok(());
            }
            "description" => {
                out.description = Some(string_value(meta)?);
                return Ok(());
            }
            "min_items" => ("min_items", "minItems", true),
            "max_items" => ("max_items", "maxItems", true),
            "min_length" => ("min_length", "minLength", true),
            "max_length" => ("max_length", "maxLength", true),
            "minimum" => ("minimum", "minimum", false),
            _ => ("maximum", "maximum", false),
        };
        let span = meta.path.span();
        let value = number_value(meta, integer)?;
        out.constraints.push(Constraint {
            attr,
            keyword,
            value,
            span,
        });
        Ok(())
    });
    out
}

pub(crate) fn container(attrs: &[syn::Attribute], errors: &mut Vec<syn::Error>) -> ContainerAttrs {
    let mut out = ContainerAttrs::default();
    parse(attrs, CONTAINER_KEYS, errors, |name, meta| {
        match name {
            "strict" => out.strict = Some(meta.path.span()),
            _ => out.description = Some(string_value(meta)?),
        }
        Ok(())
    });
    out
}

/// The text of the `///` doc comments among `attrs`: lines trimmed, joined with newlines.
pub(crate) fn doc_text(attrs: &[syn::Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(syn::MetaNameValue {
                value:
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }),
                ..
            }) => Some(s.value().trim().to_string()),
            _ => None,
        })
        .collect();
    let text = lines.join("\n").trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// The `///` doc comments among `attrs`, as attributes to copy onto generated items.
pub(crate) fn docs(attrs: &[syn::Attribute]) -> Vec<syn::Attribute> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .cloned()
        .collect()
}
