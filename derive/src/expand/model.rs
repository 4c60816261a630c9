//! The impls: `StreamingModel` (the draft taken apart into the value) and the field table
//! the library's object frame reads (`__private::Object`). One helper call per field.

use super::{Cx, default_expr, has_inner, is_atomic, item_type, stream_type, variant};
use crate::ast::Field;
use crate::attr::Measure;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

pub(super) fn expand(cx: &Cx<'_>) -> TokenStream {
    let Cx {
        ident,
        draft,
        field_enum,
        field_name,
        ..
    } = cx;
    let (impl_generics, ty_generics, _) = cx.generics().split_for_impl();
    let where_clause = cx.where_clause();
    let markers = cx.fields.iter().filter_map(|f| with_reader(f));
    let schema_items = super::schema::impl_items(cx);
    let strict = super::schema::strict_checks(cx);
    let into_value = construct(cx, false);
    let to_value = construct(cx, true);
    let object = object_impl(cx);
    quote! {
        #(#markers)*

        #[automatically_derived]
        impl #impl_generics ::settled::StreamingModel for #ident #ty_generics #where_clause {
            type Value = Self;
            type Draft = #draft #ty_generics;
            type Field = #field_enum #ty_generics;
            type Name = #field_name;

            const MODEL: bool = true;

            #schema_items

            fn missing(__draft: ::core::option::Option<&Self::Draft>) -> ::std::vec::Vec<#field_name> {
                ::settled::__private::names(__draft.map(|__d| __d.__settled), #field_name::ALL, #field_name::is_required, false)
            }

            fn settled(__draft: ::core::option::Option<&Self::Draft>) -> ::std::vec::Vec<#field_name> {
                ::settled::__private::names(__draft.map(|__d| __d.__settled), #field_name::ALL, #field_name::is_required, true)
            }

            fn step(
                __member: &mut ::settled::__private::Member,
                __event: &::settled::__private::Event<'_>,
                __slot: &mut dyn ::settled::__private::Slot<Self::Draft>,
            ) -> ::settled::__private::Flow<Self> {
                ::settled::__private::object_step::<Self>(__member, __event, __slot)
            }

            fn frame_draft(__draft: &mut Self::Draft) -> ::core::option::Option<&mut dyn ::core::any::Any> {
                ::core::option::Option::Some(__draft)
            }

            fn to_value(__draft: &Self::Draft) -> ::core::result::Result<Self, ::settled::__private::Rejected> {
                #to_value
            }

            fn into_value(__draft: Self::Draft) -> ::core::result::Result<Self, ::settled::__private::Rejected> {
                #into_value
            }
        }

        #object
        #strict

        #[automatically_derived]
        impl #impl_generics #ident #ty_generics #where_clause {
            /// A lenient stream of this type with the default options.
            pub fn stream() -> ::settled::TypedStream<Self> {
                ::settled::TypedStream::new()
            }

            /// A stream of this type with `options` (strict mode, limits).
            pub fn stream_with_options(__options: ::settled::Options) -> ::settled::TypedStream<Self> {
                ::settled::TypedStream::with_options(__options)
            }

            /// The JSON Schema (2020-12) of this type: properties in field order, keys as
            /// serde reads them, doc comments as descriptions, nested models in `$defs`.
            pub fn json_schema() -> ::settled::schema::Schema {
                ::settled::schema::plain::<Self>()
            }
        }
    }
}

/// The marker type and reader of a `deserialize_with` field.
fn with_reader(f: &Field<'_>) -> Option<TokenStream> {
    let path = f.with.as_ref()?;
    let ty = f.ty;
    let marker = super::with_marker(f);
    Some(quote! {
        struct #marker;
        impl ::settled::__private::DeserializeWith<#ty> for #marker {
            fn deserialize(
                __json: &[u8],
            ) -> ::core::result::Result<#ty, ::settled::__private::serde_json::Error> {
                #path(&mut ::settled::__private::serde_json::Deserializer::from_slice(__json))
            }
        }
    })
}

/// The value from the draft: taken apart (`copy` false) or copied (`copy` true). Fields
/// that never settled take serde's value for them: their default, or the "missing field"
/// serde gives (which is `None` for an `Option`).
fn construct(cx: &Cx<'_>, copy: bool) -> TokenStream {
    let needs_default = !matches!(cx.model.default, crate::ast::Fallback::None)
        && cx
            .all
            .iter()
            .any(|f| matches!(f.default, crate::ast::Fallback::None));
    let container_default = needs_default.then(|| {
        let ident = cx.ident;
        quote! { let __default: #ident = ::core::default::Default::default(); }
    });
    let members = cx.all.iter().map(|f| {
        let fident = &f.ident;
        let Some(index) = cx.fields.iter().position(|g| g.ident == f.ident) else {
            // serde never reads it.
            let value = default_expr(cx, f)
                .unwrap_or_else(|| quote! { ::core::default::Default::default() });
            return quote! { #fident: #value, };
        };
        let stream = stream_type(f);
        let name = &f.name;
        let draft = if copy {
            quote! { &__draft.#fident }
        } else {
            quote! { __draft.#fident }
        };
        let settled = quote! { __settled.contains(#index) };
        let call = match (default_expr(cx, f), f.with.is_some(), copy) {
            (Some(default), _, false) => {
                quote! { ::settled::__private::take_or::<#stream>(#draft, #settled, || #default) }
            }
            (Some(default), _, true) => {
                quote! { ::settled::__private::take_ref_or::<#stream>(#draft, #settled, || #default) }
            }
            (None, true, false) => {
                quote! { ::settled::__private::take_present::<#stream>(#draft, #settled, #name) }
            }
            (None, true, true) => {
                quote! { ::settled::__private::take_ref_present::<#stream>(#draft, #settled, #name) }
            }
            (None, false, false) => {
                quote! { ::settled::__private::take::<#stream>(#draft, #settled, #name) }
            }
            (None, false, true) => {
                quote! { ::settled::__private::take_ref::<#stream>(#draft, #settled, #name) }
            }
        };
        quote! { #fident: #call?, }
    });
    quote! {
        let __settled = __draft.__settled;
        #container_default
        ::core::result::Result::Ok(Self { #(#members)* })
    }
}

/// The field table: keys, and per field its value's events, its draft, its inner fields.
fn object_impl(cx: &Cx<'_>) -> TokenStream {
    let Cx {
        ident, field_enum, ..
    } = cx;
    let (impl_generics, ty_generics, _) = cx.generics().split_for_impl();
    let where_clause = cx.where_clause();
    let key_arms = cx.fields.iter().enumerate().map(|(i, f)| {
        let keys = &f.keys;
        quote! { #(#keys)|* => ::core::option::Option::Some(#i), }
    });
    let names = cx.fields.iter().map(|f| &f.name);
    // serde's own list for its "unknown field" message: every name and alias.
    let deny_unknown = if cx.model.deny_unknown_fields {
        let known = cx.fields.iter().flat_map(|f| &f.keys);
        quote! { ::core::option::Option::Some(&[#(#known),*]) }
    } else {
        quote! { ::core::option::Option::None }
    };
    let mut member_arms = Vec::new();
    let mut done_arms = Vec::new();
    let mut draft_arms = Vec::new();
    let mut wrap_arms = Vec::new();
    let mut require = Vec::new();
    for (i, f) in cx.fields.iter().enumerate() {
        let fident = &f.ident;
        let stream = stream_type(f);
        let v = variant(f, "");
        let check = constraint(f);
        member_arms.push(quote! {
            #i => ::settled::__private::settle_member(
                <#stream as ::settled::StreamingModel>::step(__member, __event, &mut __draft.#fident),
                __event,
                #field_enum::#v,
                #check,
            ),
        });
        if !is_atomic(f) {
            done_arms.push(quote! {
                #i => ::settled::__private::settle_draft::<#stream, _>(&__draft.#fident, __raw, #field_enum::#v, #check),
            });
            draft_arms.push(quote! {
                #i => __draft.#fident.as_mut().and_then(<#stream as ::settled::StreamingModel>::frame_draft),
            });
        }
        if let Some(wrap) = wrap(cx, f) {
            wrap_arms.push(quote! { #i => #wrap, });
        }
        if default_expr(cx, f).is_none() {
            let name = &f.name;
            let ty = f.ty;
            require.push(if f.with.is_some() {
                quote! { ::settled::__private::require_present(__settled.contains(#i), #name)?; }
            } else {
                quote! { ::settled::__private::require::<#ty>(__settled.contains(#i), #name)?; }
            });
        }
    }
    quote! {
        #[automatically_derived]
        impl #impl_generics ::settled::__private::Object for #ident #ty_generics #where_clause {
            const KEYS: ::settled::__private::Keys = ::settled::__private::Keys {
                index_of: |__key| match __key {
                    #(#key_arms)*
                    _ => ::core::option::Option::None,
                },
                names: &[#(#names),*],
                deny_unknown: #deny_unknown,
            };

            fn settled_mut(__draft: &mut Self::Draft) -> &mut ::settled::__private::FieldSet {
                &mut __draft.__settled
            }

            fn member(
                __index: usize,
                __member: &mut ::settled::__private::Member,
                __event: &::settled::__private::Event<'_>,
                __draft: &mut Self::Draft,
            ) -> ::settled::__private::Flow<Self::Field> {
                match __index {
                    #(#member_arms)*
                    _ => ::settled::__private::Flow::More,
                }
            }

            fn member_done(
                __index: usize,
                __draft: &Self::Draft,
                __raw: ::settled::Raw<'_>,
            ) -> ::core::result::Result<Self::Field, ::settled::__private::Rejected> {
                match __index {
                    #(#done_arms)*
                    _ => ::core::result::Result::Err(::settled::__private::Rejected::custom("no such field", __raw)),
                }
            }

            fn member_draft(
                __index: usize,
                __draft: &mut Self::Draft,
            ) -> ::core::option::Option<&mut dyn ::core::any::Any> {
                match __index {
                    #(#draft_arms)*
                    _ => ::core::option::Option::None,
                }
            }

            fn wrap(
                __index: usize,
                __inner: &mut dyn ::core::any::Any,
            ) -> ::core::option::Option<Self::Field> {
                match __index {
                    #(#wrap_arms)*
                    _ => ::core::option::Option::None,
                }
            }

            fn complete(__draft: &Self::Draft) -> ::core::result::Result<(), ::settled::__private::serde_json::Error> {
                let __settled = __draft.__settled;
                #(#require)*
                ::core::result::Result::Ok(())
            }
        }
    }
}

/// How a field settled inside field `f` becomes this model's field.
fn wrap(cx: &Cx<'_>, f: &Field<'_>) -> Option<TokenStream> {
    let field_enum = &cx.field_enum;
    let boxed = |x: TokenStream| {
        if cx.recursive(f) {
            quote! { ::std::boxed::Box::new(#x) }
        } else {
            x
        }
    };
    match item_type(f) {
        Some(elem) => {
            let item = variant(f, "Item");
            let within = if has_inner(f) {
                let vin = variant(f, "In");
                let x = boxed(quote! { __x });
                quote! { ::core::option::Option::Some(|__i, __x| #field_enum::#vin(__i, #x)) }
            } else {
                quote! { ::core::option::Option::None }
            };
            Some(quote! {
                ::settled::__private::wrap_items::<#elem, _>(__inner, #field_enum::#item, #within)
            })
        }
        None if has_inner(f) => {
            let stream = stream_type(f);
            let vin = variant(f, "In");
            let x = boxed(quote! { __x });
            Some(quote! {
                ::settled::__private::wrap_inner::<#stream, _>(__inner, |__x| #field_enum::#vin(#x))
            })
        }
        None => None,
    }
}

/// The field's constraint check, spanned at each attribute so that a constraint that does
/// not apply to the field's type is reported there.
fn constraint(f: &Field<'_>) -> TokenStream {
    let constraints = f.attrs.constraints();
    if constraints.is_empty() {
        return quote! { ::core::option::Option::None };
    }
    let ty = f.ty;
    let checks = constraints.iter().map(|c| {
        let check = match c.measure {
            Measure::Items => quote! { check_items },
            Measure::Length => quote! { check_length },
            Measure::Number => quote! { check_range },
        };
        let value = c.value;
        let (min, max) = if c.min {
            (
                quote! { ::core::option::Option::Some(#value) },
                quote! { ::core::option::Option::None },
            )
        } else {
            (
                quote! { ::core::option::Option::None },
                quote! { ::core::option::Option::Some(#value) },
            )
        };
        quote_spanned! {c.span=> ::settled::__private::#check(__value, #min, #max)?; }
    });
    quote! {
        ::core::option::Option::Some(|__value: &#ty| -> ::core::result::Result<(), ::std::string::String> {
            #(#checks)*
            ::core::result::Result::Ok(())
        })
    }
}
