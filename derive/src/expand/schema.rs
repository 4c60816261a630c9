//! The model's JSON Schema and limits, as items of its `StreamingModel` impl.

use super::{Cx, default_expr, is_atomic, stream_type};
use crate::attr::doc_text;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// `SCHEMA_DEPTH`, `SCHEMA_PROPERTIES`, `STRICT_UNSUPPORTED`, `schema` and `root_schema`.
pub(super) fn impl_items(cx: &Cx<'_>) -> TokenStream {
    // Recursive fields add nothing finite to the limits (and would make them cyclic).
    let streams: Vec<TokenStream> = cx
        .fields
        .iter()
        .filter(|f| !cx.recursive(f))
        .map(|f| stream_type(f))
        .collect();
    let count = cx.fields.len();
    let object = object_schema(cx);
    quote! {
        const SCHEMA_DEPTH: usize = {
            let mut __deepest = 0;
            #(
                if <#streams as ::settled::StreamingModel>::SCHEMA_DEPTH > __deepest {
                    __deepest = <#streams as ::settled::StreamingModel>::SCHEMA_DEPTH;
                }
            )*
            1 + __deepest
        };
        const SCHEMA_PROPERTIES: usize =
            #count #(+ <#streams as ::settled::StreamingModel>::SCHEMA_PROPERTIES)*;
        const STRICT_UNSUPPORTED: ::core::option::Option<&'static str> = {
            let mut __reason = ::core::option::Option::None;
            #(
                if __reason.is_none() {
                    __reason = <#streams as ::settled::StreamingModel>::STRICT_UNSUPPORTED;
                }
            )*
            __reason
        };

        fn schema(__generator: &mut ::settled::__private::SchemaGen) -> ::settled::__private::Schema {
            __generator.define::<Self>(|__generator| Self::root_schema(__generator))
        }

        fn root_schema(__generator: &mut ::settled::__private::SchemaGen) -> ::settled::__private::Schema {
            #object
        }
    }
}

/// The object schema: properties in field order, serde's required keys, descriptions.
fn object_schema(cx: &Cx<'_>) -> TokenStream {
    let input = cx.model.input;
    let description = cx
        .model
        .attrs
        .description
        .get()
        .cloned()
        .or_else(|| doc_text(&input.attrs));
    let describe = description.map(|d| quote! { __object.insert("description", #d); });
    let properties = cx.fields.iter().map(|f| {
        let name = &f.name;
        let schema = field_schema(f);
        let description = f
            .attrs
            .description
            .get()
            .cloned()
            .or_else(|| doc_text(&f.original.attrs));
        let describe = description
            .map(|d| quote! { ::settled::__private::describe(&mut __property, #d); });
        let constraints = f.attrs.constraints().into_iter().map(|c| {
            let keyword = c.keyword;
            let value = c.value;
            quote! {
                ::settled::__private::constrain(&mut __property, #keyword, ::settled::__private::Schema::from(#value));
            }
        });
        let required = if default_expr(cx, f).is_some() {
            quote! { false }
        } else if f.with.is_some() {
            quote! { true }
        } else {
            let ty = f.ty;
            quote! { ::settled::__private::is_required::<#ty>(#name) }
        };
        quote! {
            let mut __property = #schema;
            #(#constraints)*
            #describe
            __properties.insert(#name, __property);
            if #required {
                __required.push(::settled::__private::Schema::from(#name));
            }
        }
    });
    let closed = cx.model.deny_unknown_fields.then(|| {
        quote! { __object.insert("additionalProperties", false); }
    });
    quote! {
        let mut __properties = ::settled::__private::SchemaObject::new();
        let mut __required = ::std::vec::Vec::new();
        #(#properties)*
        let mut __object = ::settled::__private::SchemaObject::new();
        __object.insert("type", "object");
        #describe
        __object.insert("properties", __properties);
        __object.insert("required", __required);
        #closed
        ::settled::__private::Schema::Object(__object)
    }
}

/// A field's schema: its type's; for an atomic field, the schema of its type when it has
/// one (chosen by trait), any value otherwise.
fn field_schema(f: &crate::ast::Field<'_>) -> TokenStream {
    let ty = f.ty;
    if is_atomic(f) {
        return quote! {{
            #[allow(unused_imports)]
            use ::settled::__private::{SchemaOfAnything as _, SchemaOfModel as _};
            (&&::settled::__private::SchemaOf::<#ty>::new()).schema(__generator)
        }};
    }
    let stream = stream_type(f);
    quote! { <#stream as ::settled::StreamingModel>::schema(__generator) }
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
            let stream = stream_type(f);
            if is_atomic(f) {
                quote_spanned! {ty.span()=>
                    const _: () = ::settled::__private::strict_atomic::<#ty>();
                }
            } else {
                quote_spanned! {ty.span()=>
                    const _: () = ::settled::__private::strict::<#stream>();
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
                ::core::assert!(<#ident as ::settled::StreamingModel>::SCHEMA_DEPTH <= #LIMIT_DEPTH, #depth);
                ::core::assert!(<#ident as ::settled::StreamingModel>::SCHEMA_PROPERTIES <= #LIMIT_PROPERTIES, #properties);
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
