//! `XDraft`: every field optional, updated in place while the value streams.

use super::{Cx, stream_type};
use crate::attr::docs;
use proc_macro2::TokenStream;
use quote::quote;

pub(super) fn expand(cx: &Cx<'_>) -> TokenStream {
    let Cx {
        ident,
        draft,
        field_name,
        ..
    } = cx;
    let vis = cx.vis();
    let generics = cx.generics();
    let (impl_generics, ty_generics, _) = generics.split_for_impl();
    let where_clause = cx.where_clause();
    let marker = cx.marker_type();
    let doc = format!(
        "The draft of [`{ident}`] while it streams: every field `None` until its value \
         begins (numbers, booleans and enums until they settle), strings and vectors growing \
         in place. Serializes with the same keys as `{ident}`, absent fields omitted."
    );

    let members = cx.fields.iter().map(|f| {
        let fdocs = docs(&f.original.attrs);
        let fvis = f.vis;
        let fident = &f.ident;
        let name = &f.name;
        let stream = stream_type(f);
        quote! {
            #(#fdocs)*
            #[serde(rename = #name, skip_serializing_if = "::core::option::Option::is_none")]
            #fvis #fident: ::core::option::Option<<#stream as ::settled::Streamable>::Draft>,
        }
    });
    let idents: Vec<_> = cx.fields.iter().map(|f| &f.ident).collect();
    let names: Vec<_> = cx.fields.iter().map(|f| f.ident.to_string()).collect();
    let indices = 0..cx.fields.len();
    let variants = cx.fields.iter().map(|f| super::variant(f, ""));
    let draft_name = draft.to_string();

    quote! {
        #[doc = #doc]
        #[derive(::settled::__private::serde::Serialize)]
        #[serde(crate = "::settled::__private::serde", bound = "")]
        #vis struct #draft #generics #where_clause {
            #(#members)*
            /// Which fields have settled.
            #[serde(skip)]
            #[doc(hidden)]
            pub __settled: ::settled::FieldSet,
            #[serde(skip)]
            #[doc(hidden)]
            pub __marker: #marker,
        }

        #[allow(dead_code)]
        impl #impl_generics #draft #ty_generics #where_clause {
            /// Whether `field` is pending, streaming or settled.
            pub fn state(&self, field: #field_name) -> ::settled::FieldState {
                match field {
                    #(#field_name::#variants => self.__settled.state(#indices, self.#idents.is_some()),)*
                }
            }
        }

        impl #impl_generics ::core::default::Default for #draft #ty_generics #where_clause {
            fn default() -> Self {
                #draft {
                    #(#idents: ::core::option::Option::None,)*
                    __settled: ::core::default::Default::default(),
                    __marker: ::core::marker::PhantomData,
                }
            }
        }

        impl #impl_generics ::core::clone::Clone for #draft #ty_generics #where_clause {
            fn clone(&self) -> Self {
                #draft {
                    #(#idents: ::core::clone::Clone::clone(&self.#idents),)*
                    __settled: self.__settled,
                    __marker: ::core::marker::PhantomData,
                }
            }
        }

        impl #impl_generics ::core::cmp::PartialEq for #draft #ty_generics #where_clause {
            fn eq(&self, other: &Self) -> bool {
                true #(&& self.#idents == other.#idents)*
            }
        }

        impl #impl_generics ::core::fmt::Debug for #draft #ty_generics #where_clause {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct(#draft_name)
                    #(.field(#names, &self.#idents))*
                    .finish()
            }
        }
    }
}
