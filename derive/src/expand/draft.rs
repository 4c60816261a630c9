//! `XDraft`: every field optional, updated in place while the value streams.

use super::{Cx, draft_member_type};
use crate::attr::docs;
use proc_macro2::TokenStream;
use quote::quote;

/// The draft struct, and its impls (for the `const` block).
pub(super) fn expand(cx: &Cx<'_>) -> (TokenStream, TokenStream) {
    let Cx {
        title,
        draft,
        field_name,
        ..
    } = cx;
    let vis = cx.vis();
    let generics = cx.generics();
    let (impl_generics, ty_generics, _) = generics.split_for_impl();
    let where_clause = cx.where_clause();
    let doc = format!(
        "The draft of [`{title}`] while it streams: every field `None` until its value \
         begins (numbers, booleans and enums until they settle), strings and vectors growing \
         in place. Serializes with the same keys as `{title}`, absent fields omitted."
    );
    let members = cx.fields.iter().map(|f| {
        let fdocs = docs(&f.original.attrs);
        let fvis = f.vis;
        let fident = &f.ident;
        let ty = draft_member_type(f);
        quote! {
            #(#fdocs)*
            #fvis #fident: #ty,
        }
    });
    let marker = cx.marker().map(|marker| {
        quote! {
            #[doc(hidden)]
            pub __marker: #marker,
        }
    });
    // The std derives bound type parameters, not the drafts of fields: a generic model's
    // draft gets its impls by hand.
    // A checked draft gets the std derives' impls through its check.
    let (derives, impls) = if cx.checked {
        (quote! {}, None)
    } else if cx.marker().is_none() {
        let derives = quote! {
            #[derive(Clone, Default, PartialEq)]
        };
        (derives, None)
    } else {
        (quote! {}, Some(generic_impls(cx)))
    };
    let public = quote! {
        #[doc = #doc]
        #derives
        // The fields are named as the model's are: a lint the user allowed there stays
        // allowed. Their types are the drafts of the model's, spelled out in full.
        #[allow(non_snake_case, clippy::type_complexity)]
        #vis struct #draft #generics #where_clause {
            #(#members)*
            #[doc(hidden)]
            pub __settled: ::settled::__private::FieldSet,
            #marker
        }
    };
    if cx.checked && !cx.fields.iter().any(|f| f.flatten) {
        // Written by the library's macro from the fields' names and keys.
        let entries = cx.fields.iter().map(|f| {
            let (fident, name) = (&f.ident, &f.name);
            quote! { #fident: #name }
        });
        let private = quote! {
            __p::draft_impls!(#draft as __Draft of #field_name { #(#entries),* });
        };
        return (public, private);
    }
    let impls = impls.or_else(|| {
        let idents = cx.fields.iter().map(|f| &f.ident);
        cx.checked
            .then(|| quote! { __p::draft_traits!(#draft as __Draft { #(#idents),* }); })
    });
    let begun = cx.fields.iter().map(|f| {
        let fident = &f.ident;
        quote! { __d.#fident.is_some() }
    });
    // A flattened struct's members may come until the object closes.
    let flattened: Vec<usize> = cx
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.flatten && !crate::shape::is_std_map(f.ty))
        .map(|(i, _)| i)
        .collect();
    let state = if flattened.is_empty() {
        quote! { __d.__settled.state_of(field as usize, &[#(#begun),*]) }
    } else {
        quote! {
            let __begun = &[#(#begun),*];
            match field as usize {
                #(#flattened)|* => __d.__settled.state_of_flattened(field as usize, __begun),
                __i => __d.__settled.state_of(__i, __begun),
            }
        }
    };
    let draft_name = draft.to_string();
    let entries = cx.fields.iter().map(|f| {
        let fident = &f.ident;
        let name = &f.name;
        if f.flatten {
            quote! { .flatten(&__d.#fident) }
        } else {
            quote! { .entry(#name, &__d.#fident) }
        }
    });
    let draft_ty = cx.draft_ty();
    let private = quote! {
        #[automatically_derived]
        impl #impl_generics __p::serde::Serialize for #draft #ty_generics #where_clause {
            fn serialize<__S: __p::serde::Serializer>(&self, __s: __S) -> __p::Result<__S::Ok, __S::Error> {
                let __d: &#draft_ty = self;
                __p::DraftMap::new(__s) #(#entries)* .end()
            }
        }

        // What it serializes to: the JSON a browser gets.
        #[automatically_derived]
        impl #impl_generics ::core::fmt::Debug for #draft #ty_generics #where_clause {
            fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                __p::debug_draft(#draft_name, self, __f)
            }
        }

        #[automatically_derived]
        impl #impl_generics #draft #ty_generics #where_clause {
            /// Whether `field` is pending, streaming or settled.
            pub fn state(&self, field: #field_name) -> ::settled::FieldState {
                let __d: &#draft_ty = self;
                #state
            }
        }

        #impls
    };
    (public, private)
}

/// `Clone`, `Default` and `PartialEq` for a generic model's draft.
fn generic_impls(cx: &Cx<'_>) -> TokenStream {
    let draft = &cx.draft;
    let (impl_generics, ty_generics, _) = cx.generics().split_for_impl();
    let where_clause = cx.where_clause();
    let idents: Vec<_> = cx.fields.iter().map(|f| &f.ident).collect();
    quote! {
        #[automatically_derived]
        impl #impl_generics ::core::default::Default for #draft #ty_generics #where_clause {
            fn default() -> Self {
                #draft {
                    #(#idents: ::core::option::Option::None,)*
                    __settled: ::core::default::Default::default(),
                    __marker: ::core::marker::PhantomData,
                }
            }
        }

        #[automatically_derived]
        impl #impl_generics ::core::clone::Clone for #draft #ty_generics #where_clause {
            fn clone(&self) -> Self {
                #draft {
                    #(#idents: ::core::clone::Clone::clone(&self.#idents),)*
                    __settled: self.__settled,
                    __marker: ::core::marker::PhantomData,
                }
            }
        }

        #[automatically_derived]
        impl #impl_generics ::core::cmp::PartialEq for #draft #ty_generics #where_clause {
            fn eq(&self, __other: &Self) -> bool {
                true #(&& self.#idents == __other.#idents)*
            }
        }

    }
}
