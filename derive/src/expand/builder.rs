//! The typed builder: routes scanner events by key into the draft, in place.

use super::{Cx, has_inner, item_type, stream_type, variant};
use proc_macro2::TokenStream;
use quote::quote;

pub(super) fn expand(cx: &Cx<'_>) -> TokenStream {
    let Cx {
        ident,
        draft,
        field_enum,
        field_name,
        builder,
        ..
    } = cx;
    let vis = cx.vis();
    let generics = cx.generics();
    let (impl_generics, ty_generics, _) = generics.split_for_impl();
    let where_clause = cx.where_clause();
    let marker = cx.marker_type();

    let idents: Vec<_> = cx.fields.iter().map(|f| &f.ident).collect();
    let builder_types = cx.fields.iter().map(|f| {
        let stream = stream_type(f);
        quote! { <#stream as ::settled::Streamable>::Builder }
    });
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
    let field_arms = cx
        .fields
        .iter()
        .enumerate()
        .map(|(i, f)| field_arm(cx, i, f));
    let stream_doc = format!("A lenient stream of [`{ident}`] with the default options.");
    let schema_items = super::schema::impl_items(cx);
    let strict_limits = super::schema::strict_limits(cx);
    let builder_doc = format!("The typed builder of [`{ident}`] (generated; not for direct use).");

    quote! {
        #[doc = #builder_doc]
        #[doc(hidden)]
        #vis struct #builder #generics #where_clause {
            __state: ::settled::__private::ObjectState,
            #(#idents: #builder_types,)*
            __marker: #marker,
        }

        impl #impl_generics ::core::default::Default for #builder #ty_generics #where_clause {
            fn default() -> Self {
                #builder {
                    __state: ::core::default::Default::default(),
                    #(#idents: ::core::default::Default::default(),)*
                    __marker: ::core::marker::PhantomData,
                }
            }
        }

        impl #impl_generics ::settled::Streamable for #ident #ty_generics #where_clause {
            type Value = Self;
            type Draft = #draft #ty_generics;
            type Field = #field_enum #ty_generics;
            type Builder = #builder #ty_generics;
            type Name = #field_name;

            const MODEL: bool = true;

            #schema_items

            fn missing(draft: ::core::option::Option<&Self::Draft>) -> ::std::vec::Vec<#field_name> {
                #field_name::ALL
                    .iter()
                    .copied()
                    .filter(|name| {
                        name.is_required()
                            && !draft.is_some_and(|d| d.state(*name) == ::settled::FieldState::Settled)
                    })
                    .collect()
            }

            fn settled(draft: ::core::option::Option<&Self::Draft>) -> ::std::vec::Vec<#field_name> {
                #field_name::ALL
                    .iter()
                    .copied()
                    .filter(|name| draft.is_some_and(|d| d.state(*name) == ::settled::FieldState::Settled))
                    .collect()
            }

            fn step(
                b: &mut Self::Builder,
                slot: &mut dyn ::settled::Slot<Self::Draft>,
                event: ::settled::Event<'_>,
                ctx: &mut ::settled::Ctx<'_, Self::Field>,
            ) -> ::settled::Step<Self> {
                fn index_of(key: &str) -> ::core::option::Option<usize> {
                    match key {
                        #(#key_arms)*
                        _ => ::core::option::Option::None,
                    }
                }
                static __KEYS: ::settled::__private::Keys = ::settled::__private::Keys {
                    index_of,
                    names: &[#(#names),*],
                    deny_unknown: #deny_unknown,
                };
                match b.__state.route(&event, &__KEYS) {
                    ::settled::__private::Route::Begin => {
                        slot.set(::core::default::Default::default());
                        ::settled::Step::More
                    }
                    ::settled::__private::Route::Done(raw) => {
                        ::settled::Step::Done(::settled::from_raw(raw))
                    }
                    ::settled::__private::Route::Field { index, .. } => {
                        if let ::core::option::Option::Some(draft) = slot.get() {
                            match index {
                                #(#field_arms)*
                                _ => {}
                            }
                        }
                        ::settled::Step::More
                    }
                    ::settled::__private::Route::Reject(rejected) => {
                        ctx.reject(::settled::PathSegment::Key(b.__state.key()), rejected);
                        ::settled::Step::More
                    }
                    _ => ::settled::Step::More,
                }
            }
        }

        #[allow(dead_code)]
        impl #impl_generics #ident #ty_generics #where_clause {
            #[doc = #stream_doc]
            pub fn stream() -> ::settled::Stream<Self> {
                ::settled::Stream::new()
            }

            /// A stream with `options` (strict mode, limits).
            pub fn stream_with(options: ::settled::Options) -> ::settled::Stream<Self> {
                ::settled::Stream::with_options(options)
            }

            /// The JSON Schema (2020-12) of this type: properties in field order, keys as
            /// serde reads them, doc comments as descriptions, nested models in `$defs`.
            /// See `settled::schema` for the provider profiles.
            pub fn json_schema() -> ::settled::schema::Schema {
                ::settled::schema::plain::<Self>()
            }
        }

        #strict_limits
    }
}

/// The dispatch of one field: step its builder, and when it settles, mark it and emit it.
fn field_arm(cx: &Cx<'_>, index: usize, f: &crate::ast::Field<'_>) -> TokenStream {
    let field_enum = &cx.field_enum;
    let fident = &f.ident;
    let stream = stream_type(f);
    let settled = variant(f, "");
    let inner = quote! { <#stream as ::settled::Streamable>::Field };
    let wrap = match item_type(f) {
        Some(_) => {
            let item = variant(f, "Item");
            let inner_arm = if has_inner(f) {
                let vin = variant(f, "In");
                let x = if cx.recursive(f) {
                    quote! { ::std::boxed::Box::new(x) }
                } else {
                    quote! { x }
                };
                quote! { ::settled::Item::Inner(i, x) => #field_enum::#vin(i, #x), }
            } else {
                quote! { ::settled::Item::Inner(_, never) => match never {}, }
            };
            quote! {
                |item: #inner| match item {
                    ::settled::Item::Settled(i, v) => #field_enum::#item(i, v),
                    #inner_arm
                }
            }
        }
        None if has_inner(f) => {
            let vin = variant(f, "In");
            let x = if cx.recursive(f) {
                quote! { ::std::boxed::Box::new(x) }
            } else {
                quote! { x }
            };
            quote! { |x: #inner| #field_enum::#vin(#x) }
        }
        None => quote! { |never: #inner| match never {} },
    };
    quote! {
        #index => {
            let builder = &mut b.#fident;
            let field_slot = &mut draft.#fident;
            // The key as the model wrote it (a name or an alias): error paths resolve in
            // the reply.
            let step = ctx.nested(
                ::settled::PathSegment::Key(b.__state.key()),
                #wrap,
                |ctx| <#stream as ::settled::Streamable>::step(builder, field_slot, event, ctx),
            );
            if let ::settled::Step::Done(value) = step {
                b.__state.field_done();
                match value {
                    ::core::result::Result::Ok(value) => {
                        draft.__settled.insert(#index);
                        ctx.emit(#field_enum::#settled(value));
                    }
                    ::core::result::Result::Err(error) => {
                        ctx.reject(::settled::PathSegment::Key(b.__state.key()), error);
                    }
                }
            }
        }
    }
}
