//! `XCallbacks`: per-field callbacks on `settled::TypedStream<X>`, fired inside `feed`.

use super::{Cx, item_type, variant};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

pub(super) fn expand(cx: &Cx<'_>) -> TokenStream {
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
    let mut impls = Vec::new();
    for f in &cx.fields {
        let ty = f.ty;
        let name = &f.name;
        let method = format_ident!("on_{}", f.ident.to_string().trim_start_matches("r#"));
        let v = variant(f, "");
        let doc = format!("Calls `f` with `{name}` each time it settles.");
        decls.push(quote! {
            #[doc = #doc]
            fn #method(&mut self, f: impl ::core::ops::FnMut(&#ty) + ::core::marker::Send + 'static) -> &mut Self;
        });
        impls.push(quote! {
            fn #method(&mut self, mut __f: impl ::core::ops::FnMut(&#ty) + ::core::marker::Send + 'static) -> &mut Self {
                self.on_field(move |__field| {
                    if let #field_enum::#v(__value) = __field {
                        __f(__value);
                    }
                })
            }
        });
        if let Some(elem) = item_type(f) {
            let method = format_ident!("{}_item", method);
            let vi = variant(f, "Item");
            let doc = format!(
                "Calls `f` with the index and value of each element of `{name}` as it settles."
            );
            decls.push(quote! {
                #[doc = #doc]
                fn #method(&mut self, f: impl ::core::ops::FnMut(usize, &#elem) + ::core::marker::Send + 'static) -> &mut Self;
            });
            impls.push(quote! {
                fn #method(&mut self, mut __f: impl ::core::ops::FnMut(usize, &#elem) + ::core::marker::Send + 'static) -> &mut Self {
                    self.on_field(move |__field| {
                        if let #field_enum::#vi(__index, __value) = __field {
                            __f(*__index, __value);
                        }
                    })
                }
            });
        }
    }
    let doc = format!(
        "Per-field callbacks on a stream of [`{ident}`], fired inside `feed` in settling order."
    );
    quote! {
        #[doc = #doc]
        #vis trait #callbacks #generics #where_clause {
            #(#decls)*
        }

        #[automatically_derived]
        impl #impl_generics #callbacks #ty_generics for ::settled::TypedStream<#ident #ty_generics> #where_clause {
            #(#impls)*
        }
    }
}
