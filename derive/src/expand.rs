//! Expansion: the generated items beside the user's type.

mod builder;
mod callbacks;
mod draft;
mod fields;
mod schema;
mod unit_enum;

use crate::ast::{self, Body, Field, Model};
use crate::names::camel;
use crate::{shape, valid};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Ident, Type};

/// Parses, checks and expands; every error found is returned.
pub(crate) fn derive(input: &DeriveInput) -> Result<TokenStream, Vec<syn::Error>> {
    let mut errors = Vec::new();
    let model = ast::parse(input, &mut errors);
    if let Some(model) = &model {
        valid::check(model, &mut errors);
    }
    match model {
        Some(model) if errors.is_empty() => Ok(expand(&model)),
        _ => Err(errors),
    }
}

fn expand(model: &Model<'_>) -> TokenStream {
    match &model.body {
        Body::UnitEnum(_) => unit_enum::expand(model),
        Body::Struct(fields) => {
            let cx = Cx::new(model, fields);
            let draft = draft::expand(&cx);
            let fields = fields::expand(&cx);
            let builder = builder::expand(&cx);
            let callbacks = callbacks::expand(&cx);
            quote! {
                #draft
                #fields
                #builder
                #callbacks
            }
        }
    }
}

/// What every part of a struct's expansion needs.
pub(crate) struct Cx<'a> {
    pub(crate) model: &'a Model<'a>,
    /// The fields serde reads, in declaration order; a field's index is its position here.
    pub(crate) fields: Vec<&'a Field<'a>>,
    pub(crate) ident: &'a Ident,
    pub(crate) draft: Ident,
    pub(crate) field_enum: Ident,
    pub(crate) field_name: Ident,
    pub(crate) builder: Ident,
    pub(crate) callbacks: Ident,
}

impl<'a> Cx<'a> {
    fn new(model: &'a Model<'a>, fields: &'a [Field<'a>]) -> Self {
        let ident = &model.input.ident;
        Cx {
            model,
            fields: fields.iter().filter(|f| !f.skipped).collect(),
            ident,
            draft: format_ident!("{}Draft", ident),
            field_enum: format_ident!("{}Field", ident),
            field_name: format_ident!("{}FieldName", ident),
            builder: format_ident!("{}Builder", ident),
            callbacks: format_ident!("{}Callbacks", ident),
        }
    }

    pub(crate) fn vis(&self) -> &syn::Visibility {
        &self.model.input.vis
    }

    /// The type's generics as declared (for new type declarations).
    pub(crate) fn generics(&self) -> &syn::Generics {
        &self.model.input.generics
    }

    /// The user's where clause plus, for each streamed field, the bound that makes its
    /// type streamable, spanned at the field so a missing impl points there.
    pub(crate) fn where_clause(&self) -> TokenStream {
        let user = self
            .generics()
            .where_clause
            .as_ref()
            .map(|w| w.predicates.iter().collect::<Vec<_>>())
            .unwrap_or_default();
        let params: Vec<&Ident> = self.generics().type_params().map(|p| &p.ident).collect();
        // A field whose type names a type parameter is bounded through the parameter (a
        // where clause on `Vec<T>` itself would hide the impl's associated types); one that
        // names the type itself (recursion) needs no bound, and would make one cyclic.
        let mut own = params.clone();
        own.push(self.ident);
        let bounds = self
            .fields
            .iter()
            .filter(|f| !mentions(f.ty, &own))
            .map(|f| {
                let ty = f.ty;
                let stream = stream_type(f);
                let mut bound = quote_spanned! {ty.span()=>
                    #stream: ::settled::Streamable<Value = #ty>,
                };
                if let Some(elem) = item_type(f) {
                    bound.extend(quote_spanned! {elem.span()=>
                        #elem: ::settled::Streamable<Value = #elem>,
                    });
                }
                bound
            });
        let param_bounds = params.iter().map(|p| {
            quote_spanned! {p.span()=>
                #p: ::settled::Streamable<Value = #p>
                    + ::core::fmt::Debug
                    + ::settled::__private::serde::de::DeserializeOwned,
            }
        });
        quote! { where #(#user,)* #(#bounds)* #(#param_bounds)* }
    }

    /// The field's type names the model itself (recursion, through `Vec` or `Box`).
    pub(crate) fn recursive(&self, field: &Field<'_>) -> bool {
        mentions(field.ty, &[self.ident])
    }

    /// `PhantomData` over the type parameters, for generated types that might not use them.
    pub(crate) fn marker_type(&self) -> TokenStream {
        let params = self.generics().type_params().map(|p| &p.ident);
        quote! { ::core::marker::PhantomData<fn() -> (#(#params,)*)> }
    }
}

/// The type whose `Streamable` impl streams the field: its own, or `Atomic<T>`.
pub(crate) fn stream_type(field: &Field<'_>) -> TokenStream {
    let ty = field.ty;
    if field.attrs.atomic {
        quote_spanned! {ty.span()=> ::settled::Atomic<#ty> }
    } else {
        quote! { #ty }
    }
}

/// The element type of a vector field that reports its elements.
pub(crate) fn item_type<'a>(field: &Field<'a>) -> Option<&'a Type> {
    if field.attrs.atomic {
        return None;
    }
    shape::vec_element(field.ty)
}

/// Values inside the field settle on their own (it gets an `In…` variant).
pub(crate) fn has_inner(field: &Field<'_>) -> bool {
    if field.attrs.atomic {
        return false;
    }
    match item_type(field) {
        Some(elem) => shape::has_inner(elem),
        None => shape::has_inner(field.ty),
    }
}

/// The variant idents of a field: `Name`, `NameItem`, `InName`.
pub(crate) fn variant(field: &Field<'_>, suffix: &str) -> Ident {
    let camel = camel(&field.ident);
    match suffix {
        "In" => format_ident!("In{}", camel, span = field.ident.span()),
        _ => format_ident!("{}{}", camel, suffix, span = field.ident.span()),
    }
}

/// True if `ty` names one of `params`.
fn mentions(ty: &Type, params: &[&Ident]) -> bool {
    fn walk(tokens: TokenStream, params: &[&Ident]) -> bool {
        tokens.into_iter().any(|tt| match tt {
            proc_macro2::TokenTree::Ident(i) => params.contains(&&i),
            proc_macro2::TokenTree::Group(g) => walk(g.stream(), params),
            _ => false,
        })
    }
    walk(quote! { #ty }, params)
}
