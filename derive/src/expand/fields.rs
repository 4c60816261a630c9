//! `XField` (what settles, typed) and `XFieldName` (which field).

use super::{Cx, default_expr, has_inner, item_type, variant};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Ident;

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
    // The variants by name, what they read as for the callbacks and `Debug`: those with
    // one value, those with an index and a value.
    let (mut of, mut items) = (Vec::new(), Vec::new());
    for f in &cx.fields {
        let ty = f.ty;
        let name = &f.name;
        let v = variant(f, "");
        if !f.flatten {
            // A flattened struct has no value of its own in the JSON: only its members
            // settle (as `In…`).
            let settled = format!("`{name}` settled with this strict value.");
            variants.push(quote! { #[doc = #settled] #v(#ty) });
            of.push(v.clone());
        }
        if let Some(elem) = item_type(f) {
            let vi = variant(f, "Item");
            items.push(vi.clone());
            let doc = format!(
                "An element of `{name}` settled: its index in the draft and its strict value \
                 (a copy)."
            );
            variants.push(quote! { #[doc = #doc] #vi(usize, #elem) });
        }
        if has_inner(f) {
            let vin = variant(f, "In");
            match item_type(f) {
                Some(_) => items.push(vin.clone()),
                None => of.push(vin.clone()),
            }
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

    let public = quote! {
        #[doc = #enum_doc]
        // An application may match some fields only: unread payloads are not dead code.
        // Variants mirror the fields: their names and sizes are the model's.
        #[allow(
            dead_code,
            clippy::enum_variant_names,
            clippy::large_enum_variant,
            clippy::type_complexity
        )]
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
    let field_ty = cx.field_ty();
    let parts_impls = if cx.checked && !(of.is_empty() && items.is_empty()) {
        // A non-generic model's: written by the library's macro from the variants' names.
        quote! { __p::parts!(#field_enum as __Field { #(#of),* } [#(#items),*]); }
    } else {
        // One arm per variant. An enum without variants (a struct without fields) has no
        // value to read.
        let of_labels = of.iter().map(Ident::to_string);
        let item_labels = items.iter().map(Ident::to_string);
        let marker = cx.marker().map(|_| {
            quote! { Self::__Marker(_, __never) => match *__never {}, }
        });
        let part = if of.is_empty() && items.is_empty() && marker.is_none() {
            quote! { match *self {} }
        } else {
            quote! {
                match __s {
                    #(Self::#of(__v) => __p::Part::of(Self::#of, #of_labels, __v),)*
                    #(Self::#items(__i, __v) => __p::Part::item(Self::#items, #item_labels, *__i, __v),)*
                    #marker
                }
            }
        };
        quote! {
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
        }
    };
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
        #parts_impls

        #names
    };
    (public, private)
}
