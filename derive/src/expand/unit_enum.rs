//! A unit enum is atomic: it appears in a draft only once settled.

use crate::ast::Model;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

pub(super) fn expand(model: &Model<'_>) -> TokenStream {
    let ident = &model.input.ident;
    let variants = match &model.body {
        crate::ast::Body::UnitEnum(variants) => variants.clone(),
        _ => Vec::new(),
    };
    let names: Vec<&String> = variants.iter().map(|(name, _)| name).collect();
    let step = if model.attrs.normalize.get().is_some() {
        let read = variants.iter().map(|(_, read)| quote! { &[#(#read),*] });
        quote! { ::settled::__private::normalized_step(__member, __event, __slot, &[#(#read),*]) }
    } else {
        quote! { ::settled::__private::atomic_step(__member, __event, __slot) }
    };
    let description = model
        .attrs
        .description
        .get()
        .cloned()
        .or_else(|| crate::attr::doc_text(&model.input.attrs));
    let describe =
        description.map(|d| quote! { ::settled::__private::describe(&mut __schema, #d); });
    let (impl_generics, ty_generics, where_clause) = model.input.generics.split_for_impl();
    // The traits the value and draft need, checked in one bound so that a missing derive is
    // one error naming them all, at the enum (a constant cannot name generic parameters, so a
    // generic enum gets the compiler's errors per bound).
    let (check, checked) = if model.input.generics.params.is_empty() {
        let check = quote_spanned! {ident.span()=>
            const __CHECK: usize = <#ident as ::settled::__private::UnitEnumTraits>::OK;
        };
        (
            check,
            quote! { <Self as ::settled::__private::Checked<{ __CHECK }>>::Type },
        )
    } else {
        (TokenStream::new(), quote! { Self })
    };
    quote! {
        #[doc(hidden)]
        const _: () = {
            #check
            #[automatically_derived]
            impl #impl_generics ::settled::StreamingModel for #ident #ty_generics #where_clause {
                type Value = #checked;
                type Draft = #checked;
                type Field = ::core::convert::Infallible;
                type Name = ::core::convert::Infallible;

                fn step(
                    __member: &mut ::settled::__private::Member,
                    __event: &::settled::__private::Event<'_>,
                    __slot: &mut dyn ::settled::__private::Slot<<Self as ::settled::StreamingModel>::Draft>,
                ) -> ::settled::__private::Flow<<Self as ::settled::StreamingModel>::Value> {
                    #step
                }

                fn to_value(__draft: &<Self as ::settled::StreamingModel>::Draft) -> ::core::result::Result<<Self as ::settled::StreamingModel>::Value, ::settled::__private::Rejected> {
                    ::core::result::Result::Ok(::core::clone::Clone::clone(__draft))
                }

                fn into_value(__draft: <Self as ::settled::StreamingModel>::Draft) -> ::core::result::Result<<Self as ::settled::StreamingModel>::Value, ::settled::__private::Rejected> {
                    ::core::result::Result::Ok(__draft)
                }

                fn schema(_: &mut ::settled::__private::SchemaGen) -> ::settled::__private::Schema {
                    let __names: ::std::vec::Vec<::settled::__private::Schema> =
                        ::std::vec![#(<::settled::__private::Schema as ::core::convert::From<_>>::from(#names)),*];
                    let mut __schema = ::settled::__private::Schema::object([
                        ("type", <::settled::__private::Schema as ::core::convert::From<_>>::from("string")),
                        ("enum", <::settled::__private::Schema as ::core::convert::From<_>>::from(__names)),
                    ]);
                    #describe
                    __schema
                }
            }
        };
    }
}
