//! `XField` (what settles, typed) and `XFieldName` (which field).

use super::{Cx, default_expr, has_inner, item_type, variant};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

/// The field enums, and their impls (for the `const` block).
pub(super) fn expand(cx: &Cx<'_>) -> (TokenStream, TokenStream) {
    let Cx {
        title,
        field_enum,
        field_name,
        ..
    } = cx;
    let vis = cx.vis();
    let generics = cx.generics();
    let where_clause = cx.where_clause();

    let mut variants = Vec::new();
    // One arm per variant: what it reads as for the callbacks and `Debug`.
    let mut parts = Vec::new();
    // The variants as the impls name them (through the struct's check).
    let me = if cx.checked {
        quote! { __Field }
    } else {
        quote! { Self }
    };
    for f in &cx.fields {
        let ty = f.ty;
        let name = &f.name;
        let v = variant(f, "");
        if !f.flatten {
            // A flattened struct has no value of its own in the JSON: only its members
            // settle (as `In…`).
            let settled = format!("`{name}` settled with this strict value.");
            variants.push(quote! { #[doc = #settled] #v(#ty) });
            let label = v.to_string();
            parts.push(quote! { #me::#v(__v) => __p::Part::of(#me::#v, #label, __v), });
        }
        if let Some(elem) = item_type(f) {
            let vi = variant(f, "Item");
            let label = vi.to_string();
            parts.push(
                quote! { #me::#vi(__i, __v) => __p::Part::item(#me::#vi, #label, *__i, __v), },
            );
            let doc = format!(
                "An element of `{name}` settled: its index in the draft and its strict value \
                 (a copy)."
            );
            variants.push(quote! { #[doc = #doc] #vi(usize, #elem) });
        }
        if has_inner(f) {
            let vin = variant(f, "In");
            let label = vin.to_string();
            parts.push(match item_type(f) {
                Some(_) => {
                    quote! { #me::#vin(__i, __v) => __p::Part::item(#me::#vin, #label, *__i, __v), }
                }
                None => quote! { #me::#vin(__v) => __p::Part::of(#me::#vin, #label, __v), },
            });
            // A recursive model's own events are boxed (the enum would contain itself).
            let boxed = |payload: TokenStream| {
                // Spanned at the field: a type that cannot stream is reported there, once.
                if cx.recursive(f) {
                    super::around(
                        f.ty,
                        |span| quote_spanned! {span=> ::std::boxed::Box< },
                        payload,
                    )
                } else {
                    payload
                }
            };
            variants.push(match item_type(f) {
                Some(elem) => {
                    let payload = boxed(super::around(elem, |span| quote_spanned! {span=> ::settled::FieldOf< }, quote! { #elem }));
                    let doc = format!(
                        "Inside element `index` of `{name}`, a value settled (the element's own field)."
                    );
                    quote! { #[doc = #doc] #vin(usize, #payload) }
                }
                None => {
                    let stream = super::stream_type(f);
                    let payload = boxed(super::around(f.ty, |span| quote_spanned! {span=> ::settled::FieldOf< }, stream));
                    let doc = format!("Inside `{name}`, a value settled (its own field).");
                    quote! { #[doc = #doc] #vin(#payload) }
                }
            });
        }
    }
    let enum_doc = format!(
        "What settled inside a [`{title}`], with the strict value: one variant per field, \
         `…Item` per element of a vector field, `In…` for values settling inside a nested model."
    );
    let name_doc = format!("The fields of [`{title}`] as serde reads them.");
    let name_variants: Vec<_> = cx.fields.iter().map(|f| variant(f, "")).collect();
    let name_docs = cx.fields.iter().map(|f| {
        let d = format!("`{}`", f.name);
        quote! { #[doc = #d] }
    });
    // A struct without fields has a name enum without variants: nothing to read.
    let empty = name_variants.is_empty();
    let own = if empty {
        quote! { match self {} }
    } else {
        quote! { self as usize }
    };
    let by_value = |body: TokenStream| {
        if empty {
            quote! { match self {} }
        } else {
            body
        }
    };
    // A non-generic model's own tables answer (see `names` below); a generic one's cannot
    // be named from this non-generic enum: its keys are listed, each field's type is asked
    // where it names no type parameter, and serde's rule for `Option` decides for the others.
    let (key, is_required) = if cx.checked {
        (TokenStream::new(), TokenStream::new())
    } else {
        let keys = cx.fields.iter().map(|f| &f.name);
        let required = cx.fields.iter().map(|f| {
            let (name, ty) = (&f.name, f.ty);
            if default_expr(cx, f).is_some() || (f.flatten && crate::shape::is_std_map(ty)) {
                quote! { false }
            } else if f.with.is_some() {
                quote! { true }
            } else if cx.generic(f) {
                let optional = crate::shape::is_option(ty);
                quote! { !#optional }
            } else if f.flatten {
                let stream = super::stream_type(f);
                quote! { __p::flattened_missing::<#stream>(#name).is_err() }
            } else {
                quote! { __p::is_required::<#ty>(#name) }
            }
        });
        (
            quote! { __p::nth(&[#(#keys),*], #own) },
            quote! { [#(#required),*].get(#own).copied().unwrap_or(false) },
        )
    };
    let (key, is_required) = (by_value(key), by_value(is_required));
    // Only a generic struct needs a variant that uses its type parameters.
    let marker_variant = cx.marker().map(|marker| {
        quote! { #[doc(hidden)] __Marker(#marker, ::core::convert::Infallible), }
    });
    if cx.marker().is_some() {
        parts.push(quote! { Self::__Marker(_, __never) => match *__never {}, });
    }

    let public = quote! {
        #[doc = #enum_doc]
        // An application may match some fields only: unread payloads are not dead code.
        // Variants mirror the fields: their names and sizes are the model's.
        #[allow(dead_code, clippy::enum_variant_names, clippy::large_enum_variant)]
        #vis enum #field_enum #generics #where_clause {
            #(#variants,)*
            #marker_variant
        }

        #[doc = #name_doc]
        #[derive(Clone, Copy)]
        #[allow(clippy::enum_variant_names)]
        #vis enum #field_name {
            #(#name_docs #name_variants,)*
        }
    };
    let (impl_generics, ty_generics, _) = generics.split_for_impl();
    // An enum without variants (a struct without fields) has no value to read.
    let part = if parts.is_empty() {
        quote! { match *self {} }
    } else {
        quote! { match __s { #(#parts)* } }
    };
    let field_ty = cx.field_ty();
    // The variant's name, as `#[derive(Debug)]` writes it; equal and hashed by index; a
    // non-generic model's `FieldName` reads its tables.
    let names = if cx.generics().params.is_empty() {
        let ident = cx.ident;
        quote! { __p::name_traits!(#field_name of #ident, [#(#name_variants),*]); }
    } else {
        quote! {
            #[automatically_derived]
            impl ::settled::FieldName for #field_name {
                const ALL: &'static [Self] = &[#(Self::#name_variants),*];

                fn key(self) -> &'static str {
                    #key
                }

                fn is_required(self) -> bool {
                    #is_required
                }
            }

            __p::name_traits!(#field_name, [#(#name_variants),*]);
        }
    };
    let private = quote! {
        #[automatically_derived]
        impl #impl_generics __p::Parts for #field_enum #ty_generics #where_clause {
            fn part(&self) -> __p::Part<'_> {
                let __s: &#field_ty = self;
                #part
            }
        }

        #[automatically_derived]
        impl #impl_generics ::core::fmt::Debug for #field_enum #ty_generics #where_clause {
            fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::core::fmt::Debug::fmt(&__p::Parts::part(self), __f)
            }
        }

        #names
    };
    (public, private)
}
