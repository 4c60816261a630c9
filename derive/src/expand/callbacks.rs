//! `XCallbacks`: per-field callbacks on `settled::TypedStream<X>`, fired inside `feed`.

use super::{Cx, item_type};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The callbacks trait, and its impl for the stream (for the `const` block): each callback
/// finds its field's value through the field enum's `Parts`.
pub(super) fn expand(cx: &Cx<'_>) -> (TokenStream, TokenStream) {
    let Cx {
        ident,
        field_enum,
        callbacks,
        ..
    } = cx;
    let vis = cx.vis();
    let generics = cx.generics();
    let (impl_generics, ty_generics, _) = generics.split_for_impl();
    let where_clause = cx.where_clause();

    let mut decls = Vec::new();
    for (index, f) in cx.fields.iter().enumerate().filter(|(_, f)| !f.flatten) {
        let index = proc_macro2::Literal::usize_unsuffixed(index);
        let ty = f.ty;
        let name = &f.name;
        let method = format_ident!("on_{}", f.ident.to_string().trim_start_matches("r#"));
        let doc = format!("Calls `f` with `{name}` each time it settles.");
        decls.push(quote! {
            #[doc = #doc]
            fn #method(&mut self, f: impl ::settled::Callback<#ty>) -> &mut Self {
                self.on_index(#index, f)
            }
        });
        if let Some(elem) = item_type(f) {
            let method = format_ident!("{}_item", method);
            let doc = format!(
                "Calls `f` with the index and value of each element of `{name}` as it settles."
            );
            decls.push(quote! {
                #[doc = #doc]
                fn #method(&mut self, f: impl ::settled::ItemCallback<#elem>) -> &mut Self {
                    self.on_item_index(#index, f)
                }
            });
        }
    }
    let doc = format!(
        "Per-field callbacks on a stream of [`{ident}`], fired inside `feed` in settling order."
    );
    let public = quote! {
        #[doc = #doc]
        #vis trait #callbacks #generics: ::settled::__private::OnField<#field_enum #ty_generics> + ::core::marker::Sized #where_clause {
            #(#decls)*
        }
    };
    let private = quote! {
        #[automatically_derived]
        impl #impl_generics #callbacks #ty_generics for ::settled::TypedStream<#ident #ty_generics> #where_clause {}
    };
    (public, private)
}
