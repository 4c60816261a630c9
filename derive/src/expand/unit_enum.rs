//! A unit enum is atomic: it appears in a draft only once settled.

use crate::ast::Model;
use proc_macro2::TokenStream;
use quote::quote;

pub(super) fn expand(model: &Model<'_>) -> TokenStream {
    let ident = &model.input.ident;
    let (impl_generics, ty_generics, where_clause) = model.input.generics.split_for_impl();
    quote! {
        impl #impl_generics ::settle::Streamable for #ident #ty_generics #where_clause {
            type Value = Self;
            type Draft = Self;
            type Field = ::core::convert::Infallible;
            type Builder = ::settle::__private::Depth;
            type Name = ::core::convert::Infallible;

            fn step(
                b: &mut Self::Builder,
                slot: &mut ::core::option::Option<Self>,
                event: ::settle::Event<'_>,
                _ctx: &mut ::settle::Ctx<'_, Self::Field>,
            ) -> ::settle::Step<Self> {
                ::settle::__private::atomic_step(b, slot, event)
            }
        }
    }
}
