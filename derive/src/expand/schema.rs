//! The model's JSON Schema and constraint checks, as items of its `Streamable` impl.

use super::{Cx, stream_type};
use crate::attr::{ConstraintKind, doc_text};
use crate::shape;
use proc_macro2::TokenStream;
use quote::quote;

/// `SCHEMA_DEPTH`, `SCHEMA_PROPERTIES`, `schema`, `root_schema` and `check`.
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
    let checks = cx.fields.iter().map(|f| field_check(f));
    quote! {
        const SCHEMA_DEPTH: usize = {
            let mut deepest = 0;
            #(
                if <#streams as ::settled::Streamable>::SCHEMA_DEPTH > deepest {
                    deepest = <#streams as ::settled::Streamable>::SCHEMA_DEPTH;
                }
            )*
            1 + deepest
        };
        const SCHEMA_PROPERTIES: usize =
            #count #(+ <#streams as ::settled::Streamable>::SCHEMA_PROPERTIES)*;

        fn schema(generator: &mut ::settled::schema::SchemaGen) -> ::settled::schema::Schema {
            generator.define::<Self>(|generator| Self::root_schema(generator))
        }

        fn root_schema(generator: &mut ::settled::schema::SchemaGen) -> ::settled::schema::Schema {
            #object
        }

        fn check(
            value: &Self,
            path: &mut ::std::vec::Vec<::std::string::String>,
        ) -> ::core::result::Result<(), ::settled::Violation> {
            #(#checks)*
            ::core::result::Result::Ok(())
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
        .clone()
        .or_else(|| doc_text(&input.attrs));
    let describe = description.map(|d| quote! { object.insert("description", #d); });
    let properties = cx.fields.iter().map(|f| {
        let name = &f.name;
        let schema = field_schema(f);
        let description = f
            .attrs
            .description
            .clone()
            .or_else(|| doc_text(&f.original.attrs));
        let describe =
            description.map(|d| quote! { ::settled::schema::describe(&mut property, #d); });
        let constraints = f.attrs.constraints.iter().map(|c| {
            let keyword = c.keyword;
            let value = c.value;
            let json = if c.kind() == ConstraintKind::Number {
                quote! { ::settled::schema::Schema::from(#value) }
            } else {
                let n = value as u64;
                quote! { ::settled::schema::Schema::from(#n) }
            };
            quote! { ::settled::schema::constrain(&mut property, #keyword, #json); }
        });
        quote! {
            {
                let mut property = #schema;
                #(#constraints)*
                #describe
                properties.insert(#name, property);
            }
        }
    });
    let required = cx
        .fields
        .iter()
        .filter(|f| !f.has_default && !shape::is_option(f.ty))
        .map(|f| &f.name);
    let closed = cx.model.deny_unknown_fields.then(|| {
        quote! { object.insert("additionalProperties", false); }
    });
    quote! {
        let mut properties = ::settled::schema::Object::new();
        #(#properties)*
        let mut object = ::settled::schema::Object::new();
        object.insert("type", "object");
        #describe
        object.insert("properties", properties);
        let required: ::std::vec::Vec<::settled::schema::Schema> =
            ::std::vec![#(::settled::schema::Schema::from(#required)),*];
        object.insert("required", required);
        #closed
        ::settled::schema::Schema::Object(object)
    }
}

/// A field's schema: its type's, or for an atomic field of a type settled cannot describe,
/// any value.
fn field_schema(f: &crate::ast::Field<'_>) -> TokenStream {
    let ty = f.ty;
    if f.attrs.atomic {
        // The type's own schema if it streams (chosen by trait, so `Box<str>` or an atomic
        // `Vec<String>` are described), any value otherwise.
        return quote! {{
            #[allow(unused_imports)]
            use ::settled::__private::{SchemaOfAnything as _, SchemaOfStreamable as _};
            (&&::settled::__private::SchemaOf::<#ty>::new()).schema(generator)
        }};
    }
    let stream = stream_type(f);
    quote! { <#stream as ::settled::Streamable>::schema(generator) }
}

/// Checks a field's constraints, then the constraints inside it.
fn field_check(f: &crate::ast::Field<'_>) -> TokenStream {
    let ident = &f.ident;
    let name = &f.name;
    let stream = stream_type(f);
    let constraints = f.attrs.constraints.iter().map(|c| {
        let value = c.value;
        let (measure, unit) = match c.kind() {
            ConstraintKind::Items => (quote! { ::settled::__private::Length::length }, "items"),
            ConstraintKind::Length => (quote! { ::settled::__private::Length::length }, "characters"),
            ConstraintKind::Number => (quote! { ::settled::__private::Number::number }, ""),
        };
        let (op, words) = if c.is_min() { (quote! { < }, "at least") } else { (quote! { > }, "at most") };
        let unit = if value == 1.0 { unit.trim_end_matches('s') } else { unit };
        let message = if unit.is_empty() {
            format!("expected {words} {value}, got {{}}")
        } else {
            format!("expected {words} {value} {unit}, got {{}}")
        };
        quote! {
            if let ::core::option::Option::Some(measured) = #measure(&value.#ident) {
                if (measured as f64) #op #value {
                    return ::core::result::Result::Err(::settled::Violation::at(path, ::std::format!(#message, measured)));
                }
            }
        }
    });
    let recurse = (!f.attrs.atomic).then(|| {
        quote! { <#stream as ::settled::Streamable>::check(&value.#ident, path)?; }
    });
    quote! {
        path.push(::std::string::String::from(#name));
        #(#constraints)*
        #recurse
        path.pop();
    }
}

/// Under `#[settled(strict)]`, compile-time assertions of the provider's documented limits
/// (a non-generic model only: constants cannot name type parameters).
pub(super) fn strict_limits(cx: &Cx<'_>) -> TokenStream {
    let Some(span) = cx.model.attrs.strict else {
        return quote! {};
    };
    if cx.generics().type_params().next().is_some() {
        return quote! {};
    }
    let ident = cx.ident;
    let depth = format!(
        "`#[settled(strict)]` on `{ident}`: objects nest deeper than the {} levels OpenAI strict structured outputs allow",
        LIMIT_DEPTH
    );
    let properties = format!(
        "`#[settled(strict)]` on `{ident}`: more than the {} object properties OpenAI strict structured outputs allow",
        LIMIT_PROPERTIES
    );
    quote::quote_spanned! {span=>
        const _: () = {
            ::core::assert!(<#ident as ::settled::Streamable>::SCHEMA_DEPTH <= #LIMIT_DEPTH, #depth);
            ::core::assert!(<#ident as ::settled::Streamable>::SCHEMA_PROPERTIES <= #LIMIT_PROPERTIES, #properties);
        };
    }
}

/// OpenAI's documented limits for strict structured outputs.
pub(crate) const LIMIT_DEPTH: usize = 10;
pub(crate) const LIMIT_PROPERTIES: usize = 5000;
