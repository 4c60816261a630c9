//! `XCallbacks`: per-field callbacks on `settled::Stream<X>`, fired inside `feed`.

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
            fn #method(&mut self, f: impl FnMut(&#ty) + Send + 'static) -> &mut Self;
        });
        impls.push(quote! {
            fn #method(&mut self, mut f: impl FnMut(&#ty) + Send + 'static) -> &mut Self {
                self.on_field(move |field| {
                    if let #field_enum::#v(value) = field {
                        f(value);
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
                fn #method(&mut self, f: impl FnMut(usize, &#elem) + Send + 'static) -> &mut Self;
            });
            impls.push(quote! {
                fn #method(&mut self, mut f: impl FnMut(usize, &#elem) + Send + 'static) -> &mut Self {
                    self.on_field(move |field| {
                        if let #field_enum::#vi(index, value) = field {
                            f(*index, value);
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
        #[allow(dead_code)]
        #vis trait #callbacks #generics #where_clause {
            #(#decls)*
        }

        impl #impl_generics #callbacks #ty_generics for ::settled::Stream<#ident #ty_generics> #where_clause {
            #(#impls)*
        }
    }
}
