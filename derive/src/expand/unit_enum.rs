//! A unit enum is atomic: it appears in a draft only once settled.

use crate::ast::Model;
use proc_macro2::TokenStream;
use quote::quote;

pub(super) fn expand(model: &Model<'_>) -> TokenStream {
    let ident = &model.input.ident;
    let names = match &model.body {
        crate::ast::Body::UnitEnum(names) => names.clone(),
        crate::ast::Body::Struct(_) => Vec::new(),
    };
    let description = model
        .attrs
        .description
        .clone()
        .or_else(|| crate::attr::doc_text(&model.input.attrs));
    let describe = description.map(|d| quote! { ::settled::schema::describe(&mut schema, #d); });
    let (impl_generics, ty_generics, where_clause) = model.input.generics.split_for_impl();
    quote! {
        impl #impl_generics ::settled::Streamable for #ident #ty_generics #where_clause {
            type Value = Self;
            type Draft = Self;
            type Field = ::core::convert::Infallible;
            type Builder = ::settled::__private::Depth;
            type Name = ::core::convert::Infallible;

            fn step(
                b: &mut Self::Builder,
                slot: &mut dyn ::settled::Slot<Self>,
                event: ::settled::Event<'_>,
                _ctx: &mut ::settled::Ctx<'_, Self::Field>,
            ) -> ::settled::Step<Self> {
                ::settled::__private::atomic_step(b, slot, event)
            }

            fn schema(_: &mut ::settled::schema::SchemaGen) -> ::settled::schema::Schema {
                let names: ::std::vec::Vec<::settled::schema::Schema> =
                    ::std::vec![#(::settled::schema::Schema::from(#names)),*];
                let mut schema = ::settled::schema::Schema::object([
                    ("type", ::settled::schema::Schema::from("string")),
                    ("enum", ::settled::schema::Schema::from(names)),
                ]);
                #describe
                schema
            }
        }
    }
}
