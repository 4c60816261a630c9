//! `#[settled(...)]` attributes: one constant per key, one arm per key, every key at most
//! once.

use proc_macro2::Span;
use std::fmt;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;

/// An attribute key.
#[derive(Clone, Copy)]
pub(crate) struct Symbol(&'static str);

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl PartialEq<Symbol> for syn::Path {
    fn eq(&self, word: &Symbol) -> bool {
        self.is_ident(word.0)
    }
}

/// The helper attribute itself.
pub(crate) const SETTLED: Symbol = Symbol("settled");
const ATOMIC: Symbol = Symbol("atomic");
const RECURSIVE: Symbol = Symbol("recursive");
const DESCRIPTION: Symbol = Symbol("description");
const MIN_ITEMS: Symbol = Symbol("min_items");
const MAX_ITEMS: Symbol = Symbol("max_items");
const MIN_LENGTH: Symbol = Symbol("min_length");
const MAX_LENGTH: Symbol = Symbol("max_length");
const MINIMUM: Symbol = Symbol("minimum");
const MAXIMUM: Symbol = Symbol("maximum");
const STRICT: Symbol = Symbol("strict");
const NORMALIZE: Symbol = Symbol("normalize");
const DRAFT: Symbol = Symbol("draft");
const FIELD_ENUM: Symbol = Symbol("field_enum");
const FIELD_NAME_ENUM: Symbol = Symbol("field_name_enum");

/// A value set at most once, remembering where.
pub(crate) struct Attr<T> {
    name: Symbol,
    value: Option<(Span, T)>,
}

impl<T> Attr<T> {
    fn none(name: Symbol) -> Self {
        Attr { name, value: None }
    }

    /// Sets the value; a second setting is an error at it.
    fn set(&mut self, span: Span, value: T, errors: &mut Vec<syn::Error>) {
        if self.value.is_some() {
            errors.push(syn::Error::new(
                span,
                format!("duplicate settled attribute `{}`; keep one", self.name),
            ));
        } else {
            self.value = Some((span, value));
        }
    }

    pub(crate) fn get(&self) -> Option<&T> {
        self.value.as_ref().map(|(_, v)| v)
    }

    pub(crate) fn span(&self) -> Option<Span> {
        self.value.as_ref().map(|(s, _)| *s)
    }
}

/// What a constraint measures.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Measure {
    Items,
    Length,
    Number,
}

/// A schema constraint on a field: the attribute, its JSON Schema keyword, its value.
pub(crate) struct Constraint {
    pub(crate) attr: Symbol,
    pub(crate) keyword: &'static str,
    pub(crate) measure: Measure,
    pub(crate) min: bool,
    pub(crate) value: f64,
    pub(crate) span: Span,
}

/// `#[settled(...)]` on a field.
pub(crate) struct FieldAttrs {
    pub(crate) atomic: Attr<()>,
    /// The field leads back to the model through a collection (`Vec<Expr>` inside a
    /// model that `Expr` holds): its events are boxed.
    pub(crate) recursive: Attr<()>,
    pub(crate) description: Attr<String>,
    constraints: [Attr<f64>; 6],
}

/// The constraint keys: the attribute, its JSON Schema keyword, what it measures, whether
/// it is a lower bound.
const CONSTRAINTS: [(Symbol, &str, Measure, bool); 6] = [
    (MIN_ITEMS, "minItems", Measure::Items, true),
    (MAX_ITEMS, "maxItems", Measure::Items, false),
    (MIN_LENGTH, "minLength", Measure::Length, true),
    (MAX_LENGTH, "maxLength", Measure::Length, false),
    (MINIMUM, "minimum", Measure::Number, true),
    (MAXIMUM, "maximum", Measure::Number, false),
];

impl FieldAttrs {
    /// Where the first key other than `atomic` is set, if any.
    pub(crate) fn first_besides_atomic(&self) -> Option<Span> {
        let mut constraints = self.constraints.iter().filter_map(Attr::span);
        self.recursive
            .span()
            .or_else(|| self.description.span())
            .or_else(|| constraints.next())
    }

    /// Where the first key is set, if any.
    pub(crate) fn first(&self) -> Option<Span> {
        self.atomic
            .span()
            .or_else(|| self.recursive.span())
            .or_else(|| self.first_besides_atomic())
    }

    /// The constraints set, in declaration order of the keys.
    pub(crate) fn constraints(&self) -> Vec<Constraint> {
        CONSTRAINTS
            .iter()
            .zip(&self.constraints)
            .filter_map(|(&(attr, keyword, measure, min), set)| {
                let (span, value) = set.value.as_ref()?;
                Some(Constraint {
                    attr,
                    keyword,
                    measure,
                    min,
                    value: *value,
                    span: *span,
                })
            })
            .collect()
    }
}

/// `#[settled(...)]` on the struct or enum.
pub(crate) struct ContainerAttrs {
    pub(crate) description: Attr<String>,
    /// Checked against OpenAI's strict structured outputs rules at compile time.
    pub(crate) strict: Attr<()>,
    /// A unit enum accepts its names as models misspell them (case, separators).
    pub(crate) normalize: Attr<()>,
    /// The names of the generated companions, where `XDraft`, `XField` or `XFieldName`
    /// would clash with a type of the user's (a `FormField` struct beside a `Form` model).
    pub(crate) draft: Attr<syn::Ident>,
    pub(crate) field_enum: Attr<syn::Ident>,
    pub(crate) field_name_enum: Attr<syn::Ident>,
}

/// Calls `accept` for each key inside every `#[settled(...)]` among `attrs`.
fn each(
    attrs: &[syn::Attribute],
    errors: &mut Vec<syn::Error>,
    mut accept: impl FnMut(&ParseNestedMeta<'_>, &mut Vec<syn::Error>) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| a.path() == &SETTLED) {
        let mut found = Vec::new();
        if let Err(e) = attr.parse_nested_meta(|meta| accept(&meta, &mut found)) {
            errors.push(e);
        }
        errors.extend(found);
    }
}

fn unknown(meta: &ParseNestedMeta<'_>, allowed: &[Symbol], place: &str) -> syn::Error {
    let name = meta
        .path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_default();
    let allowed: Vec<String> = allowed.iter().map(ToString::to_string).collect();
    meta.error(format!(
        "unknown settled attribute `{name}` on {place}; expected one of: {}",
        allowed.join(", ")
    ))
}

/// A key that takes no value (`atomic`, not `atomic = true`).
fn flag(meta: &ParseNestedMeta<'_>, name: Symbol) -> syn::Result<()> {
    if meta.input.is_empty() || meta.input.peek(syn::Token![,]) {
        return Ok(());
    }
    Err(meta.error(format!(
        "`{name}` takes no value: write `#[settled({name})]`"
    )))
}

fn string_value(meta: &ParseNestedMeta<'_>) -> syn::Result<String> {
    let lit: syn::LitStr = meta.value()?.parse()?;
    Ok(lit.value())
}

fn number_value(meta: &ParseNestedMeta<'_>, integer: bool) -> syn::Result<f64> {
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
    if !value.is_finite() {
        return Err(syn::Error::new_spanned(
            &expr,
            "expected a finite number: this one is past the largest `f64`; write a smaller bound, or none",
        ));
    }
    Ok(if negative { -value } else { value })
}

pub(crate) fn field(attrs: &[syn::Attribute], errors: &mut Vec<syn::Error>) -> FieldAttrs {
    let mut out = FieldAttrs {
        atomic: Attr::none(ATOMIC),
        recursive: Attr::none(RECURSIVE),
        description: Attr::none(DESCRIPTION),
        constraints: CONSTRAINTS.map(|(attr, ..)| Attr::none(attr)),
    };
    each(attrs, errors, |meta, found| {
        let span = meta.path.span();
        // #[settled(atomic)]
        if meta.path == ATOMIC {
            flag(meta, ATOMIC)?;
            out.atomic.set(span, (), found);
            return Ok(());
        }
        // #[settled(recursive)]
        if meta.path == RECURSIVE {
            flag(meta, RECURSIVE)?;
            out.recursive.set(span, (), found);
            return Ok(());
        }
        // #[settled(description = "...")]
        if meta.path == DESCRIPTION {
            let value = string_value(meta)?;
            out.description.set(span, value, found);
            return Ok(());
        }
        // #[settled(min_items = 1)], #[settled(maximum = 10)], ...
        for (i, (attr, _, measure, _)) in CONSTRAINTS.iter().enumerate() {
            if meta.path == *attr {
                let value = number_value(meta, *measure != Measure::Number)?;
                if let Some(slot) = out.constraints.get_mut(i) {
                    slot.set(span, value, found);
                }
                return Ok(());
            }
        }
        let mut allowed = vec![ATOMIC, RECURSIVE, DESCRIPTION];
        allowed.extend(CONSTRAINTS.iter().map(|c| c.0));
        Err(unknown(meta, &allowed, "a field"))
    });
    // A lower bound over its upper bound: no value satisfies both.
    for pair in out.constraints.chunks(2) {
        if let [low, high] = pair {
            if let (Some((_, min)), Some((span, max))) = (&low.value, &high.value) {
                if min > max {
                    errors.push(syn::Error::new(
                        *span,
                        format!(
                            "`{} = {min}` is over `{} = {max}`: no value satisfies both; \
                             lower the first or raise the second",
                            low.name, high.name
                        ),
                    ));
                }
            }
        }
    }
    out
}

/// A `#[settled(...)]` that would have no effect where it is: an error at it that says
/// `why`.
pub(crate) fn refuse(span: Span, why: &str, errors: &mut Vec<syn::Error>) {
    errors.push(syn::Error::new(
        span,
        format!("this settled attribute has no effect here: {why}"),
    ));
}

pub(crate) fn container(attrs: &[syn::Attribute], errors: &mut Vec<syn::Error>) -> ContainerAttrs {
    let mut out = ContainerAttrs {
        description: Attr::none(DESCRIPTION),
        strict: Attr::none(STRICT),
        normalize: Attr::none(NORMALIZE),
        draft: Attr::none(DRAFT),
        field_enum: Attr::none(FIELD_ENUM),
        field_name_enum: Attr::none(FIELD_NAME_ENUM),
    };
    each(attrs, errors, |meta, found| {
        let span = meta.path.span();
        // #[settled(normalize)]
        if meta.path == NORMALIZE {
            flag(meta, NORMALIZE)?;
            out.normalize.set(span, (), found);
            return Ok(());
        }
        // #[settled(strict)]
        if meta.path == STRICT {
            flag(meta, STRICT)?;
            out.strict.set(span, (), found);
            return Ok(());
        }
        // #[settled(description = "...")]
        if meta.path == DESCRIPTION {
            let value = string_value(meta)?;
            out.description.set(span, value, found);
            return Ok(());
        }
        // #[settled(draft = "FormDraft")], and the other companions' names
        for (key, slot) in [
            (DRAFT, &mut out.draft),
            (FIELD_ENUM, &mut out.field_enum),
            (FIELD_NAME_ENUM, &mut out.field_name_enum),
        ] {
            if meta.path == key {
                let lit: syn::LitStr = meta.value()?.parse()?;
                let ident = syn::parse_str::<syn::Ident>(&lit.value()).map_err(|_| {
                    syn::Error::new(
                        lit.span(),
                        format!(
                            "`{key}` names a generated type: give an identifier, as in \
                             `#[settled({key} = \"FormEvent\")]`"
                        ),
                    )
                })?;
                slot.set(span, syn::Ident::new(&ident.to_string(), lit.span()), found);
                return Ok(());
            }
        }
        Err(unknown(
            meta,
            &[
                DESCRIPTION,
                STRICT,
                NORMALIZE,
                DRAFT,
                FIELD_ENUM,
                FIELD_NAME_ENUM,
            ],
            "a struct or enum",
        ))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(attr: syn::Attribute) -> (FieldAttrs, Vec<String>) {
        let mut errors = Vec::new();
        let attrs = field(&[attr], &mut errors);
        (attrs, errors.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn every_key_at_most_once() {
        let (attrs, errors) =
            parse(syn::parse_quote!(#[settled(min_items = 3, min_items = 1, maximum = 2)]));
        assert_eq!(
            errors,
            ["duplicate settled attribute `min_items`; keep one"]
        );
        let constraints = attrs.constraints();
        assert_eq!(constraints.len(), 2);
        assert_eq!(constraints[0].value, 3.0, "the first one stays");
        let (_, errors) =
            parse(syn::parse_quote!(#[settled(description = "a", description = "b")]));
        assert_eq!(
            errors,
            ["duplicate settled attribute `description`; keep one"]
        );
    }

    #[test]
    fn a_flag_takes_no_value_and_bounds_are_ordered() {
        let (attrs, errors) = parse(syn::parse_quote!(#[settled(atomic = true)]));
        assert_eq!(
            errors,
            ["`atomic` takes no value: write `#[settled(atomic)]`"]
        );
        assert!(attrs.atomic.get().is_none());
        let (attrs, errors) = parse(syn::parse_quote!(#[settled(atomic, min_length = 1)]));
        assert!(errors.is_empty(), "{errors:?}");
        assert!(attrs.atomic.get().is_some());
        let (_, errors) = parse(syn::parse_quote!(#[settled(min_length = 4, max_length = 3)]));
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("`min_length = 4` is over `max_length = 3`"));
        let (_, errors) = parse(syn::parse_quote!(#[settled(minimum = 2, maximum = 2)]));
        assert!(
            errors.is_empty(),
            "equal bounds admit one value: {errors:?}"
        );
    }

    #[test]
    fn an_unknown_key_lists_the_known_ones() {
        let (_, errors) = parse(syn::parse_quote!(#[settled(maximun = 2)]));
        assert!(errors[0].starts_with("unknown settled attribute `maximun` on a field"));
        assert!(errors[0].contains("maximum"));
    }
}
