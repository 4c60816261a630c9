//! `XField` (what settles, typed) and `XFieldName` (which field).

use super::{Cx, has_inner, item_type, variant};
use crate::attr::docs;
use proc_macro2::TokenStream;
use quote::quote;

pub(super) fn expand(cx: &Cx<'_>) -> TokenStream {
    let Cx {
        ident,
        field_enum,
        field_name,
        ..
    } = cx;
    let vis = cx.vis();
    let generics = cx.generics();
    let (impl_generics, ty_generics, _) = generics.split_for_impl();
    let where_clause = cx.where_clause();

    let mut variants = Vec::new();
    let mut debug_arms = Vec::new();
    for f in &cx.fields {
        let fdocs = docs(&f.original.attrs);
        let ty = f.ty;
        let name = &f.name;
        let v = variant(f, "");
        let settled = format!("`{name}` settled with this strict value.");
        variants.push(quote! { #(#fdocs)* #[doc = ""] #[doc = #settled] #v(#ty) });
        debug_arms
            .push(quote! { #field_enum::#v(x) => f.debug_tuple(stringify!(#v)).field(x).finish() });
        if let Some(elem) = item_type(f) {
            let vi = variant(f, "Item");
            let doc = format!("An element of `{name}` settled: its index and strict value.");
            variants.push(quote! { #[doc = #doc] #vi(usize, #elem) });
            debug_arms.push(quote! { #field_enum::#vi(i, x) => f.debug_tuple(stringify!(#vi)).field(i).field(x).finish() });
        }
        if has_inner(f) {
            let vin = variant(f, "In");
            // A recursive model's own events are boxed (the enum would contain itself).
            let boxed = |payload: TokenStream| {
                if cx.recursive(f) {
                    quote! { ::std::boxed::Box<#payload> }
                } else {
                    payload
                }
            };
            let (variant, arm) = match item_type(f) {
                Some(elem) => {
                    let payload = boxed(quote! { <#elem as ::settled::Streamable>::Field });
                    let doc = format!(
                        "Inside element `index` of `{name}`, a value settled (the element's own field)."
                    );
                    (
                        quote! { #[doc = #doc] #vin(usize, #payload) },
                        quote! { #field_enum::#vin(i, x) => f.debug_tuple(stringify!(#vin)).field(i).field(x).finish() },
                    )
                }
                None => {
                    let stream = super::stream_type(f);
                    let payload = boxed(quote! { <#stream as ::settled::Streamable>::Field });
                    let doc = format!("Inside `{name}`, a value settled (its own field).");
                    (
                        quote! { #[doc = #doc] #vin(#payload) },
                        quote! { #field_enum::#vin(x) => f.debug_tuple(stringify!(#vin)).field(x).finish() },
                    )
                }
            };
            variants.push(variant);
            debug_arms.push(arm);
        }
    }
    // `Streamable` requires `Value: Debug` and `Field: Debug`: no further bounds needed.
    let debug_where = where_clause.clone();

    let enum_doc = format!(
        "What settled inside a [`{ident}`], with the strict value: one variant per field, \
         `…Item` per element of a vector field, `In…` for values settling inside a nested model."
    );
    let name_doc = format!("The fields of [`{ident}`] as serde reads them.");
    let name_variants: Vec<_> = cx.fields.iter().map(|f| variant(f, "")).collect();
    let name_docs = cx.fields.iter().map(|f| {
        let d = format!("`{}`", f.name);
        quote! { #[doc = #d] }
    });
    let keys = cx.fields.iter().map(|f| &f.name);
    let required = cx
        .fields
        .iter()
        .map(|f| !f.has_default && !crate::shape::is_option(f.ty));
    // Only a generic struct needs a variant that uses its type parameters.
    let (marker_variant, marker_arm) = if generics.type_params().next().is_some() {
        let marker = cx.marker_type();
        (
            quote! { #[doc(hidden)] __Marker(#marker, ::core::convert::Infallible), },
            quote! { #field_enum::__Marker(_, never) => match *never {}, },
        )
    } else {
        (quote! {}, quote! {})
    };

    quote! {
        #[doc = #enum_doc]
        #[allow(dead_code)]
        #vis enum #field_enum #generics #where_clause {
            #(#variants,)*
            #marker_variant
        }

        impl #impl_generics ::core::fmt::Debug for #field_enum #ty_generics #debug_where {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                match self {
                    #(#debug_arms,)*
                    #marker_arm
                }
            }
        }

        #[doc = #name_doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(dead_code)]
        #vis enum #field_name {
            #(#name_docs #name_variants,)*
        }

        impl ::settled::FieldName for #field_name {
            fn key(self) -> &'static str {
                #field_name::key(self)
            }
        }

        #[allow(dead_code)]
        impl #field_name {
            /// Every field, in declaration order.
            pub const ALL: &'static [#field_name] = &[#(#field_name::#name_variants),*];

            /// The key serde reads for this field.
            pub fn key(self) -> &'static str {
                match self {
                    #(#field_name::#name_variants => #keys,)*
                }
            }

            /// serde requires this field (no `default`).
            pub fn is_required(self) -> bool {
                match self {
                    #(#field_name::#name_variants => #required,)*
                }
            }
        }
    }
}
