//! The model's JSON Schema and limits, as items of its `StreamingModel` impl.

use super::{Cx, default_expr, is_atomic, stream_type};
use crate::attr::doc_text;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// `LIMITS`, `schema` and `root_schema`.
pub(super) fn impl_items(cx: &Cx<'_>) -> TokenStream {
    // Recursive fields add nothing finite to the limits (and would make them cyclic); the
    // others' are merged by runs of twelve.
    let streams: Vec<TokenStream> = cx
        .fields
        .iter()
        .filter(|f| !cx.recursive(f))
        .map(|f| stream_type(f))
        .collect();
    let runs = streams.chunks(12).map(|run| {
        let run = cx.run(run);
        quote! { __p::run_limits::<#run>() }
    });
    let count = cx.fields.len();
    let object = object_schema(cx);
    // A length strict structured outputs cannot enforce: a strict model that holds this
    // one is refused at its field.
    let lengths = cx.fields.iter().find_map(|f| {
        f.attrs
            .constraints()
            .into_iter()
            .find(|c| c.measure == crate::attr::Measure::Length)
            .map(|c| (f, c.attr))
    });
    let unsupported = lengths.map(|(f, attr)| {
        let why = format!(
            "`{}.{}` has `{attr}`, which strict structured outputs cannot enforce; check the \
             length after `finish`, or drop the constraint",
            cx.title, f.ident
        );
        quote! { .unsupported(#why) }
    });
    quote! {
        const LIMITS: __p::Limits = __p::Limits::LEAF #(.with(#runs))* .nest(#count) #unsupported;

        fn root_schema(__g: &mut __p::SchemaGen) -> __p::Schema {
            #object
        }
    }
}

/// The object schema: properties in field order, serde's required keys, descriptions.
fn object_schema(cx: &Cx<'_>) -> TokenStream {
    let input = cx.model.input;
    let description = optional(
        cx.model
            .attrs
            .description
            .get()
            .cloned()
            .or_else(|| doc_text(&input.attrs)),
    );
    // Runs of consecutive plain fields (their type's own schema), at most twelve each, are
    // described in one call over the tuple of their types.
    let plain = |f: &crate::ast::Field<'_>| !f.flatten && !is_atomic(f);
    let mut pieces: Vec<Vec<&crate::ast::Field<'_>>> = Vec::new();
    for f in &cx.fields {
        match pieces.last_mut() {
            Some(run) if plain(f) && plain(run[0]) && run.len() < 12 => run.push(f),
            _ => pieces.push(vec![f]),
        }
    }
    // A run's fields are described by plain arrays of literals (cheap for rustc to check):
    // keys, descriptions (`""` for none; the list stops after the last), constraints by
    // position, and the positions of the fields that have a default.
    let runs = pieces.iter().filter(|run| plain(run[0])).map(|run| {
        let streams: Vec<TokenStream> = run.iter().map(|f| stream_type(f)).collect();
        let streams = cx.run(&streams);
        let names = run.iter().map(|f| &f.name);
        let mut descriptions: Vec<String> = run
            .iter()
            .map(|f| description_text(f).unwrap_or_default())
            .collect();
        while descriptions.last().is_some_and(String::is_empty) {
            descriptions.pop();
        }
        let constraints = run.iter().enumerate().flat_map(|(at, f)| {
            f.attrs.constraints().into_iter().map(move |c| {
                let (keyword, value) = (c.keyword, c.value);
                quote! { (#at, #keyword, #value) }
            })
        });
        let optional = run
            .iter()
            .enumerate()
            .filter(|(_, f)| default_expr(cx, f).is_some())
            .map(|(at, _)| at);
        (
            run[0].ident.clone(),
            quote! {
                __o.run::<#streams>(
                    __g,
                    &[#(#names),*],
                    &[#(#descriptions),*],
                    &[#(#constraints),*],
                    &[#(#optional),*],
                );
            },
        )
    });
    let runs: Vec<(syn::Ident, TokenStream)> = runs.collect();
    let properties = cx.fields.iter().map(|f| {
        if plain(f) {
            // The first of a run describes it.
            return runs
                .iter()
                .find(|(first, _)| *first == f.ident)
                .map(|(_, call)| call.clone())
                .unwrap_or_default();
        }
        let name = &f.name;
        let (description, constraints) = (field_description(f), field_constraints(f));
        let required = if default_expr(cx, f).is_some() {
            quote! { __p::Some(false) }
        } else if f.with.is_some() {
            quote! { __p::Some(true) }
        } else {
            quote! { __p::None }
        };
        if f.flatten && crate::shape::is_std_map(f.ty) {
            let stream = cx.stream(f);
            quote! { __o.rest::<#stream>(__g); }
        } else if f.flatten {
            let stream = cx.stream(f);
            quote! { __o.flatten::<#stream>(__g); }
        } else if is_atomic(f) {
            let schema = field_schema(cx, f);
            let required = match f.with {
                Some(_) => quote! { #required.unwrap_or(true) },
                None => {
                    let ty = f.ty;
                    quote! { #required.unwrap_or_else(|| __p::is_required::<#ty>(#name)) }
                }
            };
            quote! { __o.property(#name, #schema, #description, #constraints, #required); }
        } else {
            // Plain fields are described by their run, above.
            quote! {}
        }
    });
    let closed = cx.model.deny_unknown_fields;
    quote! {
        let mut __o = __p::ObjectSchema::new();
        #(#properties)*
        __o.finish(#description, #closed)
    }
}

/// A field's description: its `#[settled(description)]`, else its doc comment.
fn field_description(f: &crate::ast::Field<'_>) -> TokenStream {
    optional(description_text(f))
}

/// The text of a field's description, if it has one.
fn description_text(f: &crate::ast::Field<'_>) -> Option<String> {
    let text = f.attrs.description.get().cloned();
    text.or_else(|| doc_text(&f.original.attrs))
}

/// A field's constraints, as (JSON Schema keyword, value) pairs.
fn field_constraints(f: &crate::ast::Field<'_>) -> TokenStream {
    let constraints = f.attrs.constraints().into_iter().map(|c| {
        let (keyword, value) = (c.keyword, c.value);
        quote! { (#keyword, #value) }
    });
    quote! { &[#(#constraints),*] }
}

/// `Some("text")` or `None`.
fn optional(text: Option<String>) -> TokenStream {
    match text {
        Some(text) => quote! { __p::Some(#text) },
        None => quote! { __p::None },
    }
}

/// A field's schema: its type's; for an atomic field, the schema of its type when it has
/// one (chosen by trait), any value otherwise.
fn field_schema(cx: &Cx<'_>, f: &crate::ast::Field<'_>) -> TokenStream {
    let ty = f.ty;
    if f.with.is_some() {
        // The user's function reads the JSON, whatever shape it takes: any value.
        return quote! { __p::Schema::Object(__p::SchemaObject::new()) };
    }
    if is_atomic(f) {
        return quote! {{
            #[allow(unused_imports)]
            use __p::{SchemaOfAnything as _, SchemaOfModel as _};
            (&&__p::SchemaOf::<#ty>::new()).schema(__g)
        }};
    }
    let stream = cx.stream(f);
    quote! { <#stream as __p::StreamingModel>::schema(__g) }
}

/// Under `#[settled(strict)]`: each field's type must be one OpenAI's strict structured
/// outputs can describe (decided by its type, reported at the field), and the documented
/// limits hold (a non-generic model only: constants cannot name type parameters).
pub(super) fn strict_checks(cx: &Cx<'_>) -> TokenStream {
    let Some(span) = cx.model.attrs.strict.span() else {
        return quote! {};
    };
    let fields = cx
        .fields
        .iter()
        .filter(|f| !cx.recursive(f) && !cx.generic(f))
        .map(|f| {
            let ty = f.ty;
            let stream = cx.stream(f);
            if f.with.is_some() {
                let message = format!(
                    "`#[settled(strict)]`: the field `{}` is read by `deserialize_with`, whose \
                     JSON has no schema strict structured outputs could constrain; read the \
                     field as its type, or leave the model without `strict`",
                    f.ident
                );
                quote_spanned! {f.ident.span()=> ::core::compile_error!(#message); }
            } else if is_atomic(f) {
                quote_spanned! {ty.span()=>
                    const _: () = __p::strict_atomic::<#ty>();
                }
            } else {
                quote_spanned! {ty.span()=>
                    const _: () = __p::strict::<#stream>();
                }
            }
        });
    let limits = (cx.generics().type_params().next().is_none()).then(|| {
        let ident = cx.ident;
        let depth = format!(
            "`#[settled(strict)]` on `{ident}`: objects nest deeper than the {LIMIT_DEPTH} levels OpenAI strict structured outputs allow"
        );
        let properties = format!(
            "`#[settled(strict)]` on `{ident}`: more than the {LIMIT_PROPERTIES} object properties OpenAI strict structured outputs allow"
        );
        quote_spanned! {span=>
            const _: () = {
                ::core::assert!(<#ident as ::settled::StreamingModel>::LIMITS.depth <= #LIMIT_DEPTH, #depth);
                ::core::assert!(<#ident as ::settled::StreamingModel>::LIMITS.properties <= #LIMIT_PROPERTIES, #properties);
            };
        }
    });
    quote! {
        #(#fields)*
        #limits
    }
}

/// OpenAI's documented limits for strict structured outputs.
pub(crate) const LIMIT_DEPTH: usize = 10;
pub(crate) const LIMIT_PROPERTIES: usize = 5000;
