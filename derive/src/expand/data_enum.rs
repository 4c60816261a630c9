//! An enum with data: `XDraft` (an enum of the variants' drafts), `XField` (what settles
//! inside a variant), and the variant table the library's enum frame reads. A struct
//! variant's fields are read as a hidden struct, expanded like any model, whose draft and
//! fields are public as `XVariantDraft` and `XVariantField`.

use super::{Cx, draft, fields, mentions, model, where_clause};
use crate::ast::{self, DataEnum, Model, Repr, Variant, VariantStyle};
use crate::attr::{doc_text, docs};
use crate::shape;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::ext::IdentExt;
use syn::{DeriveInput, Ident};

/// A variant's content: the type it streams as, and how the enum's value is built from
/// that type's value.
struct Content {
    ty: TokenStream,
    /// Its draft and field types as public code names them.
    draft: TokenStream,
    field: TokenStream,
    /// Builds the variant from `__v`, the content's value.
    build: TokenStream,
    /// Fields settle inside it (it gets an `XField` variant).
    inner: bool,
    /// The content names the enum itself (its field payload is boxed).
    recursive: bool,
}

pub(super) fn expand(model: &Model<'_>, data: &DataEnum<'_>) -> TokenStream {
    let ident = &model.input.ident;
    let vis = &model.input.vis;
    let mut errors = Vec::new();
    // The hidden structs of struct variants, parsed like any model.
    let synthesized: Vec<Option<DeriveInput>> = data
        .variants
        .iter()
        .map(|v| (v.style == VariantStyle::Struct).then(|| hidden_struct(model, data, v)))
        .collect();
    let parsed: Vec<Option<Model<'_>>> = synthesized
        .iter()
        .map(|input| input.as_ref().and_then(|i| ast::parse(i, &mut errors)))
        .collect();
    for m in parsed.iter().flatten() {
        crate::valid::check(m, &mut errors);
    }
    if !errors.is_empty() {
        return errors.iter().map(syn::Error::to_compile_error).collect();
    }
    let mut public = Vec::new();
    let mut private = Vec::new();
    let mut contents = Vec::new();
    // A variant's payload through a `Box` may lead back to the enum (see `Cx::recursive`).
    let boxed = format_ident!("Box");
    // Every variant's field types, for the enum's check (see `Cx::check`).
    let mut checked_types: Vec<TokenStream> = Vec::new();
    for (v, m) in data.variants.iter().zip(&parsed) {
        let vident = &v.original.ident;
        let content = match (v.style, m) {
            (VariantStyle::Struct, Some(m)) => {
                let crate::ast::Body::Struct(all) = &m.body else {
                    continue;
                };
                let seq = matches!(data.repr, Repr::External);
                let whole = m.input.generics.type_params().count()
                    == model.input.generics.type_params().count();
                let cx = Cx::variant(m, all, ident, vident, seq, whole);
                checked_types.extend(cx.fields.iter().map(|f| super::stream_type(f)));
                let (d, d_impls) = draft::expand(&cx);
                let (f, f_impls) = fields::expand(&cx);
                let impls = model::expand(&cx);
                // serde's derive does not know `#[settled(...)]`: the emitted struct goes
                // without it (it was read above).
                let mut hidden = m.input.clone();
                if let syn::Data::Struct(s) = &mut hidden.data {
                    for f in s.fields.iter_mut() {
                        f.attrs.retain(|a| !a.path().is_ident("settled"));
                    }
                }
                public.push(quote! { #d #f });
                // Its impls in a block of their own: its check's names are its own.
                let check = cx.check();
                private.push(quote! {
                    #[derive(::core::fmt::Debug, __p::serde::Deserialize)]
                    #[allow(dead_code)]
                    #hidden
                    const _: () = {
                        #check
                        #d_impls
                        #f_impls
                        #impls
                    };
                });
                let hidden_ident = &m.input.ident;
                let (_, hidden_generics, _) = m.input.generics.split_for_impl();
                let members: Vec<&Ident> = all.iter().map(|f| &f.ident).collect();
                let (d_name, f_name) = (&cx.draft, &cx.field_enum);
                Content {
                    draft: quote! { #d_name #hidden_generics },
                    field: quote! { #f_name #hidden_generics },
                    ty: quote! { #hidden_ident #hidden_generics },
                    build: quote! { #ident::#vident { #(#members: __v.#members),* } },
                    inner: true,
                    recursive: false,
                }
            }
            (VariantStyle::Newtype, _) => {
                let field = v.original.fields.iter().next();
                let ty = field.map(|f| &f.ty);
                let atomic = field.is_some_and(|f| {
                    crate::attr::field(&f.attrs, &mut errors)
                        .atomic
                        .get()
                        .is_some()
                });
                let stream = match (ty, atomic) {
                    (Some(ty), true) => quote! { ::settled::Atomic<#ty> },
                    (Some(ty), false) => quote! { #ty },
                    (None, _) => quote! { () },
                };
                checked_types.push(stream.clone());
                Content {
                    draft: quote! { ::settled::DraftOf<#stream> },
                    field: quote! { ::settled::FieldOf<#stream> },
                    build: quote! { #ident::#vident(__v) },
                    inner: !atomic && ty.is_some_and(shape::has_inner),
                    recursive: ty.is_some_and(|t| mentions(t, &[ident, &boxed])),
                    ty: stream,
                }
            }
            // `T0()`: serde reads an empty array (`()` would read `null`).
            (VariantStyle::Tuple, _) if v.original.fields.is_empty() => Content {
                draft: quote! { ::settled::DraftOf<[(); 0]> },
                field: quote! { ::settled::FieldOf<[(); 0]> },
                ty: quote! { [(); 0] },
                build: quote! { { let [] = __v; #ident::#vident() } },
                inner: false,
                recursive: false,
            },
            (VariantStyle::Tuple, _) => {
                let types: Vec<&syn::Type> = v.original.fields.iter().map(|f| &f.ty).collect();
                checked_types.extend(types.iter().map(|t| quote! { #t }));
                let at = (0..types.len()).map(syn::Index::from);
                Content {
                    draft: quote! { ::settled::DraftOf<(#(#types,)*)> },
                    field: quote! { ::settled::FieldOf<(#(#types,)*)> },
                    ty: quote! { (#(#types,)*) },
                    build: quote! { #ident::#vident(#(__v.#at),*) },
                    inner: true,
                    recursive: types.iter().any(|t| mentions(t, &[ident, &boxed])),
                }
            }
            _ => Content {
                draft: quote! { () },
                field: quote! { () },
                ty: quote! { () },
                build: quote! { #ident::#vident },
                inner: false,
                recursive: false,
            },
        };
        contents.push((v, content));
    }
    if !errors.is_empty() {
        return errors.iter().map(syn::Error::to_compile_error).collect();
    }
    let draft_enum = crate::expand::companion(&model.attrs.draft, ident, "Draft");
    let field_enum = crate::expand::companion(&model.attrs.field_enum, ident, "Field");
    // A non-generic enum names its types through its check, as a struct does.
    let checked = model.input.generics.params.is_empty();
    let gate = |ty: &TokenStream| {
        if checked {
            quote! { __C<#ty> }
        } else {
            ty.clone()
        }
    };
    let check = checked.then(|| {
        let terms = checked_types
            .iter()
            .map(|ty| quote! { let _ = <#ty as __p::StreamingModel>::MODEL; });
        quote! {
            const __CHECK: usize = {
                #(#terms)*
                0
            };
            type __C<__T> = <__T as __p::Checked<{ __CHECK }>>::Type;
        }
    });

    // The draft: an enum of the variants' drafts, serialized as serde writes the enum.
    let repr_attr = match &data.repr {
        Repr::External => quote! {},
        Repr::Internal(tag) => quote! { #[serde(tag = #tag)] },
        Repr::Adjacent(tag, content) => quote! { #[serde(tag = #tag, content = #content)] },
        Repr::Untagged => quote! { #[serde(untagged)] },
    };
    let draft_variants = contents.iter().map(|(v, c)| {
        let vident = &v.original.ident;
        let name = &v.written;
        let vdocs = docs(&v.original.attrs);
        if v.style == VariantStyle::Unit {
            quote! { #(#vdocs)* #[serde(rename = #name)] #vident }
        } else {
            let payload = c.draft.clone();
            let payload = if c.recursive {
                quote! { ::std::boxed::Box<#payload> }
            } else {
                payload
            };
            // serde's internal tagging refuses to write an `Option` payload, however it is
            // spelled: the draft is written as serde reads it, the content's members beside
            // the tag (or the tag alone while it is `None`).
            let internal = matches!(data.repr, Repr::Internal(_));
            // One that may hold the enum itself is written through JSON, so that the
            // serializer's type does not grow at each level (see `tagged_newtype_erased`).
            let with = (internal && v.style == VariantStyle::Newtype).then(|| {
                if c.recursive {
                    quote! { #[serde(serialize_with = "::settled::__private::tagged_newtype_erased")] }
                } else {
                    quote! { #[serde(serialize_with = "::settled::__private::tagged_newtype")] }
                }
            });
            quote! { #(#vdocs)* #[serde(rename = #name)] #with #vident(#payload) }
        }
    });
    let draft_doc = format!(
        "The draft of [`{ident}`] while it streams: absent until its variant is known (its \
         key, or its tag's value), then that variant's draft. Serializes as `{ident}` does."
    );
    let field_variants = contents.iter().filter(|(_, c)| c.inner).map(|(v, c)| {
        let vident = &v.original.ident;
        let payload = c.field.clone();
        let payload = if c.recursive {
            quote! { ::std::boxed::Box<#payload> }
        } else {
            payload
        };
        let doc = format!("Inside variant `{}`, a value settled.", v.name);
        quote! { #[doc = #doc] #vident(#payload) }
    });
    let field_doc = format!(
        "What settled inside a [`{ident}`]: one variant per variant with values inside, \
         carrying what settled there. The whole `{ident}` settles as a field of its parent \
         (or as the stream's value)."
    );
    let generics = &model.input.generics;
    let (impl_generics, ty_generics, _) = generics.split_for_impl();
    let where_clause = where_clause(ident, generics, Vec::new());
    let params: Vec<&Ident> = generics.type_params().map(|p| &p.ident).collect();
    // A generic enum's draft gets its std impls by hand (the derives would bound the type
    // parameters, not the drafts), and serde's none (the drafts are `Serialize`).
    let (derives, serde_bound, draft_impls) = if params.is_empty() {
        (
            quote! { #[derive(::settled::__private::serde::Serialize)] },
            quote! {},
            draft_impls(model, &contents, &draft_enum, true),
        )
    } else {
        (
            quote! { #[derive(::settled::__private::serde::Serialize)] },
            quote! { #[serde(bound(serialize = ""))] },
            draft_impls(model, &contents, &draft_enum, false),
        )
    };
    let marker = (!params.is_empty()).then(|| {
        quote! {
            #[doc(hidden)]
            __Marker(::core::marker::PhantomData<fn() -> (#(#params,)*)>, ::core::convert::Infallible),
        }
    });
    public.push(quote! {
        #[doc = #draft_doc]
        #derives
        #[serde(crate = "::settled::__private::serde")]
        #serde_bound
        #repr_attr
        #[allow(
            clippy::enum_variant_names,
            clippy::large_enum_variant,
            clippy::type_complexity
        )]
        #vis enum #draft_enum #generics #where_clause {
            #(#draft_variants,)*
        }

        #[doc = #field_doc]
        #[derive(::core::fmt::Debug)]
        #[allow(
            dead_code,
            clippy::enum_variant_names,
            clippy::large_enum_variant,
            clippy::type_complexity
        )]
        #vis enum #field_enum #generics #where_clause {
            #(#field_variants,)*
            #marker
        }
    });
    private.push(draft_impls);

    // The variant table.
    let repr = match &data.repr {
        Repr::External => quote! { __p::Repr::External },
        Repr::Internal(tag) => quote! { __p::Repr::Internal { tag: #tag } },
        Repr::Adjacent(tag, content) => {
            quote! { __p::Repr::Adjacent { tag: #tag, content: #content } }
        }
        Repr::Untagged => quote! { __p::Repr::Untagged },
    };
    let names = contents.iter().map(|(v, _)| &v.name);
    let kinds = contents.iter().map(|(v, _)| match v.style {
        VariantStyle::Unit => quote! { __p::Kind::Unit },
        VariantStyle::Newtype => quote! { __p::Kind::Newtype },
        VariantStyle::Tuple => quote! { __p::Kind::Tuple },
        VariantStyle::Struct => quote! { __p::Kind::Struct },
    });
    let descriptions = contents
        .iter()
        .map(|(v, _)| doc_text(&v.original.attrs).unwrap_or_default());
    let index_arms = contents.iter().enumerate().map(|(i, (v, _))| {
        let keys = &v.keys;
        quote! { #(#keys)|* => __p::Some(#i), }
    });
    let other = match contents.iter().position(|(v, _)| v.other) {
        Some(i) => quote! { __p::Some(#i) },
        None => quote! { __p::None },
    };
    let deny = model.deny_unknown_fields;
    let normalize = if model.attrs.normalize.get().is_some() {
        let read = contents.iter().map(|(v, _)| {
            let keys = &v.keys;
            quote! { &[#(#keys),*] }
        });
        quote! { __p::Some(&[#(#read),*]) }
    } else {
        quote! { __p::None }
    };
    let variant_arms = contents.iter().enumerate().map(|(i, (v, c))| {
        let vident = &v.original.ident;
        let gated = gate(&c.ty);
        if v.style == VariantStyle::Unit {
            return quote! { #i => __p::unit_variant::<Self>(__op, __place, #draft_enum::#vident), };
        }
        let (payload, wrap) = if c.recursive {
            (
                quote! { __p::Some(#draft_enum::#vident(__x)) => __p::Some(&mut **__x), },
                quote! { |__x| #draft_enum::#vident(::std::boxed::Box::new(__x)) },
            )
        } else {
            (
                quote! { __p::Some(#draft_enum::#vident(__x)) => __p::Some(__x), },
                quote! { #draft_enum::#vident },
            )
        };
        let inner = match (c.inner, c.recursive) {
            (false, _) => quote! { __p::None },
            (true, false) => quote! { __p::Some(#field_enum::#vident) },
            (true, true) => {
                quote! { __p::Some(|__f| #field_enum::#vident(::std::boxed::Box::new(__f))) }
            }
        };
        quote! {
            #i => __p::variant::<#gated, Self>(
                __op,
                match __d { #payload _ => __p::None },
                __place,
                #wrap,
                #inner,
            ),
        }
    });
    let index_of_value = data.all.iter().map(|v| {
        let vident = &v.ident;
        let i = contents
            .iter()
            .position(|(c, _)| c.original.ident == *vident)
            .unwrap_or(usize::MAX);
        quote! { #ident::#vident { .. } => #i, }
    });
    let internal = matches!(data.repr, Repr::Internal(_));
    let schema_arms = contents.iter().enumerate().map(|(i, (v, c))| {
        let ty = gate(&c.ty);
        match v.style {
            VariantStyle::Unit => quote! { #i => __p::None, },
            VariantStyle::Struct => {
                quote! { #i => __p::Some(<#ty as __p::StreamingModel>::root_schema(__g)), }
            }
            _ if internal => quote! {
                #i => __p::Some(__g.inline::<#ty>(<#ty as __p::StreamingModel>::root_schema)),
            },
            _ => quote! { #i => __p::Some(<#ty as __p::StreamingModel>::schema(__g)), },
        }
    });
    let to_value_arms = contents.iter().map(|(v, c)| {
        let vident = &v.original.ident;
        let ty = gate(&c.ty);
        let build = &c.build;
        if v.style == VariantStyle::Unit {
            return quote! { #draft_enum::#vident => __p::Ok(#ident::#vident), };
        }
        let x = if c.recursive {
            quote! { &**__x }
        } else {
            quote! { __x }
        };
        quote! {
            #draft_enum::#vident(__x) => <#ty as __p::StreamingModel>::to_value(#x).map(|__v| #build),
        }
    });
    let into_value_arms = contents.iter().map(|(v, c)| {
        let vident = &v.original.ident;
        let ty = gate(&c.ty);
        let build = &c.build;
        if v.style == VariantStyle::Unit {
            return quote! { #draft_enum::#vident => __p::Ok(#ident::#vident), };
        }
        let x = if c.recursive {
            quote! { *__x }
        } else {
            quote! { __x }
        };
        quote! {
            #draft_enum::#vident(__x) => <#ty as __p::StreamingModel>::into_value(#x).map(|__v| #build),
        }
    });
    let limits = contents
        .iter()
        .filter(|(_, c)| !c.recursive && !c.ty.is_empty())
        .map(|(_, c)| {
            let ty = gate(&c.ty);
            quote! { __p::limits_of::<#ty>() }
        });
    let shape = match data.repr {
        Repr::Untagged => quote! { __p::Shape::Any },
        Repr::External if contents.iter().any(|(v, _)| v.style == VariantStyle::Unit) => {
            quote! { __p::Shape::Any }
        }
        _ => quote! { __p::Shape::Object },
    };
    let inherent = super::inherent(
        quote! { impl #impl_generics #ident #ty_generics #where_clause },
        "The JSON Schema (2020-12) of this type: `anyOf` one closed object per variant, the \
         tag first.",
    );
    let description = model
        .attrs
        .description
        .get()
        .cloned()
        .or_else(|| doc_text(&model.input.attrs))
        .map(|d| quote! { __p::describe(&mut __schema, #d); });
    let (draft_ty, field_ty) = (
        gate(&quote! { #draft_enum #ty_generics }),
        gate(&quote! { #field_enum #ty_generics }),
    );
    quote! {
        #(#public)*

        #[doc(hidden)]
        #[allow(non_camel_case_types, non_snake_case, unused_qualifications)]
        const _: () = {
            use ::settled::__private as __p;
            #check
            #(#private)*

            #[automatically_derived]
            impl #impl_generics __p::StreamingModel for #ident #ty_generics #where_clause {
                type Value = Self;
                type Draft = #draft_ty;
                type Field = #field_ty;
                type Name = ::core::convert::Infallible;

                const SHAPE: __p::Shape = #shape;
                const NAMED: bool = true;
                const LIMITS: __p::Limits = __p::Limits::LEAF #(.with(#limits))* .nest(0);

                fn schema(__g: &mut __p::SchemaGen) -> __p::Schema {
                    __g.define::<Self>(<Self as __p::StreamingModel>::root_schema)
                }

                fn root_schema(__g: &mut __p::SchemaGen) -> __p::Schema {
                    let mut __schema = __p::union_schema::<Self>(__g);
                    #description
                    __schema
                }

                fn step(
                    __member: &mut __p::Member,
                    __event: &__p::Event<'_>,
                    __slot: &mut dyn __p::Slot<<Self as __p::StreamingModel>::Draft>,
                ) -> __p::Flow<Self> {
                    __p::union_step::<Self>(__member, __event, __slot)
                }

                fn frame_draft(__d: &mut <Self as __p::StreamingModel>::Draft) -> __p::Option<&mut dyn ::core::any::Any> {
                    __p::Some(__d)
                }

                fn to_value(__d: &<Self as __p::StreamingModel>::Draft) -> __p::Result<Self, __p::Rejected> {
                    match __d {
                        #(#to_value_arms)*
                    }
                }

                fn into_value(__d: <Self as __p::StreamingModel>::Draft) -> __p::Result<Self, __p::Rejected> {
                    match __d {
                        #(#into_value_arms)*
                    }
                }
            }

            #[automatically_derived]
            impl #impl_generics __p::Union for #ident #ty_generics #where_clause {
                const VARIANTS: __p::Variants = __p::Variants {
                    repr: #repr,
                    names: &[#(#names),*],
                    kinds: &[#(#kinds),*],
                    descriptions: &[#(#descriptions),*],
                    index_of: {
                        fn __index_of(__k: &str) -> __p::Option<usize> {
                            match __k {
                                #(#index_arms)*
                                _ => __p::None,
                            }
                        }
                        __index_of
                    },
                    other: #other,
                    deny_unknown: #deny,
                    normalize: #normalize,
                };

                fn variant<'__d>(
                    __i: usize,
                    __op: __p::VariantOp<'_, '_>,
                    __d: __p::Option<&'__d mut <Self as __p::StreamingModel>::Draft>,
                    __place: &mut __p::Option<<Self as __p::StreamingModel>::Draft>,
                ) -> __p::VariantReply<'__d, <Self as __p::StreamingModel>::Field> {
                    match __i {
                        #(#variant_arms)*
                        _ => __p::VariantReply::Wrapped(__p::None),
                    }
                }

                fn index(__v: &Self) -> usize {
                    match __v {
                        #(#index_of_value)*
                    }
                }

                fn content_schema(__i: usize, __g: &mut __p::SchemaGen) -> __p::Option<__p::Schema> {
                    match __i {
                        #(#schema_arms)*
                        _ => __p::None,
                    }
                }
            }

            #inherent
        };
    }
}

/// The hidden struct a struct variant's fields are read as: the fields as declared (their
/// attributes kept, visible as the enum is), the variant's `rename_all` (or the enum's
/// `rename_all_fields`) and the enum's `deny_unknown_fields`.
fn hidden_struct(model: &Model<'_>, data: &DataEnum<'_>, v: &Variant<'_>) -> DeriveInput {
    let ident = format_ident!("__{}{}", model.input.ident, v.original.ident);
    let vis = &model.input.vis;
    let rename = ast::serde_string(&v.original.attrs, "rename_all")
        .or_else(|| data.rename_all_fields.clone())
        .map(|rule| quote! { #[serde(rename_all = #rule)] });
    let deny = model
        .deny_unknown_fields
        .then(|| quote! { #[serde(deny_unknown_fields)] });
    let fields: Vec<syn::Field> = v
        .original
        .fields
        .iter()
        .map(|f| {
            let mut f = f.clone();
            f.vis = vis.clone();
            f
        })
        .collect();
    // The enum's type parameters the variant's fields use (an unused one is an error).
    let used: Vec<&syn::TypeParam> = model
        .input
        .generics
        .type_params()
        .filter(|p| fields.iter().any(|f| mentions(&f.ty, &[&p.ident])))
        .collect();
    let generics = if used.is_empty() {
        quote! {}
    } else {
        quote! { <#(#used),*> }
    };
    // The enum's where clause, but for predicates naming a parameter the variant does not
    // use (the hidden struct does not declare it).
    let unused: Vec<&Ident> = model
        .input
        .generics
        .type_params()
        .map(|p| &p.ident)
        .filter(|p| !used.iter().any(|u| &u.ident == *p))
        .collect();
    let user_where = model.input.generics.where_clause.as_ref().and_then(|w| {
        let kept: Vec<_> = w
            .predicates
            .iter()
            .filter(|p| !super::names_any(quote! { #p }, &unused))
            .collect();
        (!kept.is_empty()).then(|| quote! { where #(#kept),* })
    });
    // serde's own bounds would add `T: Default` for a defaulted field; the parameters
    // need only be read.
    let bound = (!used.is_empty()).then(|| {
        let bounds = used
            .iter()
            .map(|p| {
                format!(
                    "{}: ::settled::__private::serde::de::DeserializeOwned",
                    p.ident
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        quote! { #[serde(bound(deserialize = #bounds))] }
    });
    // serde's messages name it as they name the variant (not `__XV`).
    let expecting = format!("struct variant {}::{}", model.input.ident, v.original.ident);
    syn::parse_quote! {
        #[serde(crate = "::settled::__private::serde")]
        #[serde(expecting = #expecting)]
        #bound
        #rename
        #deny
        #[allow(non_snake_case)]
        #vis struct #ident #generics #user_where {
            #(#fields,)*
        }
    }
}

/// `Clone`, `Debug` and `PartialEq` for an enum's draft, by hand: a generic enum's (the
/// derives would bound the type parameters, not the drafts), and a checked one's, whose
/// bodies name the draft through the enum's check (so that a variant's field type that
/// cannot stream is reported once, at the field).
fn draft_impls(
    model: &Model<'_>,
    contents: &[(&Variant<'_>, Content)],
    draft: &Ident,
    checked: bool,
) -> TokenStream {
    let generics = &model.input.generics;
    let (impl_generics, ty_generics, _) = generics.split_for_impl();
    let where_clause = where_clause(&model.input.ident, generics, Vec::new());
    let (seen, path) = if checked {
        (quote! { __C<#draft> }, quote! { __C::<#draft> })
    } else {
        (quote! { Self }, quote! { #draft })
    };
    let mut clone = Vec::new();
    let mut debug = Vec::new();
    let mut eq = Vec::new();
    for (v, _) in contents {
        let vident = &v.original.ident;
        // As `#[derive(Debug)]` names a raw identifier: without its `r#`.
        let name = vident.unraw().to_string();
        if v.style == VariantStyle::Unit {
            clone.push(quote! { #path::#vident => #path::#vident, });
            debug.push(quote! { #path::#vident => __f.write_str(#name), });
            eq.push(quote! { (#path::#vident, #path::#vident) => true, });
        } else {
            clone.push(
                quote! { #path::#vident(__x) => #path::#vident(::core::clone::Clone::clone(__x)), },
            );
            debug.push(
                quote! { #path::#vident(__x) => __f.debug_tuple(#name).field(__x).finish(), },
            );
            eq.push(quote! { (#path::#vident(__a), #path::#vident(__b)) => __a == __b, });
        }
    }
    quote! {
        #[automatically_derived]
        impl #impl_generics ::core::clone::Clone for #draft #ty_generics #where_clause {
            fn clone(&self) -> Self {
                let __s: &#seen = self;
                match __s {
                    #(#clone)*
                }
            }
        }

        #[automatically_derived]
        impl #impl_generics ::core::fmt::Debug for #draft #ty_generics #where_clause {
            fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let __s: &#seen = self;
                match __s {
                    #(#debug)*
                }
            }
        }

        #[automatically_derived]
        impl #impl_generics ::core::cmp::PartialEq for #draft #ty_generics #where_clause {
            fn eq(&self, __other: &Self) -> bool {
                let (__s, __o): (&#seen, &#seen) = (self, __other);
                match (__s, __o) {
                    #(#eq)*
                    _ => false,
                }
            }
        }
    }
}
