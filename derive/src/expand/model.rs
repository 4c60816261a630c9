//! The impls: `StreamingModel` (the draft taken apart into the value) and the field table
//! the library's object frame reads (`__private::Object`). One helper call per field.

use super::{Cx, default_expr, has_inner, item_type, stream_type, variant};
use crate::ast::Field;
use crate::attr::Measure;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

pub(super) fn expand(cx: &Cx<'_>) -> TokenStream {
    let Cx {
        ident, field_name, ..
    } = cx;
    let (impl_generics, ty_generics, _) = cx.generics().split_for_impl();
    let where_clause = cx.where_clause();
    let (draft_ty, field_ty) = (cx.draft_ty(), cx.field_ty());
    let markers = cx.fields.iter().filter_map(|f| with_reader(f));
    let schema_items = super::schema::impl_items(cx);
    let strict = super::schema::strict_checks(cx);
    let into_value = construct(cx);
    let missing_keys = missing_keys(cx);
    let object = object_impl(cx);
    let inherent = super::inherent(
        quote! { impl #impl_generics #ident #ty_generics #where_clause },
        "The JSON Schema (2020-12) of this type: properties in field order, keys as serde \
         reads them, doc comments as descriptions, nested models in `$defs`.",
    );
    quote! {
        #(#markers)*

        #[automatically_derived]
        impl #impl_generics __p::StreamingModel for #ident #ty_generics #where_clause {
            type Value = Self;
            type Draft = #draft_ty;
            type Field = #field_ty;
            type Name = #field_name;

            const MODEL: bool = true;

            #schema_items

            fn field_set(__d: &Self::Draft) -> __p::Option<__p::FieldSet> {
                __p::Some(__d.__settled)
            }

            fn step(
                __member: &mut __p::Member,
                __event: &__p::Event<'_>,
                __slot: &mut dyn __p::Slot<Self::Draft>,
            ) -> __p::Flow<Self> {
                __p::object_step::<Self>(__member, __event, __slot)
            }

            fn into_value(__d: Self::Draft) -> __p::Result<Self, __p::Rejected> {
                #into_value
            }

            #missing_keys
        }

        #object
        #strict

        #inherent
    }
}

/// A model that flattens structs: their own missing keys stand in for their fields (which
/// have no key in the JSON).
fn missing_keys(cx: &Cx<'_>) -> Option<TokenStream> {
    let field_name = &cx.field_name;
    let arms: Vec<TokenStream> = cx
        .fields
        .iter()
        .filter(|f| f.flatten && !crate::shape::is_std_map(f.ty))
        .map(|f| {
            let (v, fident, stream) = (variant(f, ""), &f.ident, cx.stream(f));
            quote! {
                #field_name::#v => __p::Some(<#stream as __p::StreamingModel>::missing_keys(
                    __d.and_then(|__d| __d.#fident.as_ref()),
                )),
            }
        })
        .collect();
    if arms.is_empty() {
        return None;
    }
    Some(quote! {
        fn missing_keys(__d: __p::Option<&Self::Draft>) -> ::std::vec::Vec<&'static str> {
            __p::missing_keys_with::<Self>(__d, |__n| match __n {
                #(#arms)*
                _ => __p::None,
            })
        }
    })
}

/// The marker type and reader of a `deserialize_with` field.
fn with_reader(f: &Field<'_>) -> Option<TokenStream> {
    let path = f.with.as_ref()?;
    let ty = f.ty;
    let marker = super::with_marker(f);
    Some(quote! {
        struct #marker;
        impl __p::DeserializeWith<#ty> for #marker {
            fn deserialize(
                __json: &[u8],
            ) -> __p::Result<#ty, __p::serde_json::Error> {
                #path(&mut __p::serde_json::Deserializer::from_slice(__json))
            }
        }
    })
}

/// The value from the draft, taken apart. Fields that never settled take serde's value
/// for them: their default, or the "missing field" serde gives (`None` for an `Option`).
/// Runs of consecutive plain fields (no default, no reader of the user's, not flattened)
/// are taken in one call each, by the tuple of their types.
fn construct(cx: &Cx<'_>) -> TokenStream {
    let needs_default = !matches!(cx.model.default, crate::ast::Fallback::None)
        && cx
            .all
            .iter()
            .any(|f| matches!(f.default, crate::ast::Fallback::None));
    // Serde's value for the container: `Default::default()`, or the user's function.
    let container_default = needs_default.then(|| {
        let value = match &cx.model.default {
            crate::ast::Fallback::Path(path) => quote! { #path() },
            _ => quote! { ::core::default::Default::default() },
        };
        quote! { let __default: Self = #value; }
    });
    let plain = |f: &Field<'_>| default_expr(cx, f).is_none() && f.with.is_none() && !f.flatten;
    // Runs of plain fields: (first index, fields), at most twelve each.
    let mut runs: Vec<(usize, Vec<&Field<'_>>)> = Vec::new();
    for (i, f) in cx.fields.iter().enumerate() {
        if !plain(f) {
            continue;
        }
        match runs.last_mut() {
            Some((first, run)) if *first + run.len() == i && run.len() < 12 => run.push(f),
            _ => runs.push((i, vec![f])),
        }
    }
    // Each run's values in one tuple, read by position (one local per run, no pattern
    // that a constant in scope could be taken for).
    let mut taken_at = std::collections::HashMap::new();
    let taken: Vec<TokenStream> = runs
        .iter()
        .enumerate()
        .map(|(r, (first, run))| {
            let local = quote::format_ident!("__run{}", r);
            for (k, f) in run.iter().enumerate() {
                let k = syn::Index::from(k);
                taken_at.insert(f.ident.to_string(), quote! { #local.#k });
            }
            let first = proc_macro2::Literal::usize_unsuffixed(*first);
            let streams: Vec<TokenStream> = run.iter().map(|f| stream_type(f)).collect();
            let streams = cx.run(&streams);
            let drafts = run.iter().map(|f| {
                let fident = &f.ident;
                quote! { __d.#fident }
            });
            quote! {
                // A `match` rather than `?`: rustc checks it faster.
                let #local = match __p::take_run::<#streams, Self>((#(#drafts,)*), __s, #first) {
                    __p::Ok(__v) => __v,
                    __p::Err(__e) => return __p::Err(__e),
                };
            }
        })
        .collect();
    let members = cx.all.iter().map(|f| {
        let fident = &f.ident;
        let Some(index) = cx.fields.iter().position(|g| g.ident == f.ident) else {
            // serde never reads it.
            let value = default_expr(cx, f)
                .unwrap_or_else(|| quote! { ::core::default::Default::default() });
            return quote! { #fident: #value, };
        };
        let stream = cx.stream(f);
        if f.flatten {
            // Its members' verdicts are its own: serde's "missing field" names them.
            return quote! {
                #fident: <#stream as __p::StreamingModel>::into_value(
                    __d.#fident.unwrap_or_default(),
                )?,
            };
        }
        if let Some(value) = taken_at.get(&f.ident.to_string()) {
            return quote! { #fident: #value, };
        }
        let name = &f.name;
        let index = proc_macro2::Literal::usize_unsuffixed(index);
        let args = quote! { __d.#fident, __s.contains(#index) };
        let call = match default_expr(cx, f) {
            Some(default) => quote! { __p::take_or::<#stream>(#args, || #default) },
            None => quote! { __p::take_present::<#stream>(#args, #name) },
        };
        quote! { #fident: #call?, }
    });
    quote! {
        let __s = __d.__settled;
        #container_default
        #(#taken)*
        __p::Ok(Self { #(#members)* })
    }
}

/// The field table: keys, and per field its value's events, its draft, its inner fields.
fn object_impl(cx: &Cx<'_>) -> TokenStream {
    let Cx { ident, .. } = cx;
    let (impl_generics, ty_generics, _) = cx.generics().split_for_impl();
    let where_clause = cx.where_clause();
    let flattens = cx.fields.iter().any(|f| f.flatten);
    let names = cx.fields.iter().map(|f| &f.name);
    // serde's own list for its "unknown field" message: every name and alias.
    let deny_unknown = cx.model.deny_unknown_fields.then(|| {
        let known = cx.fields.iter().flat_map(|f| &f.keys);
        quote! { .deny_unknown(&[#(#known),*]) }
    });
    let mut field_arms = Vec::new();
    let mut require = Vec::new();
    let mut required = Vec::new();
    // The fields that are not flattened: serde names a missing one before any flattened
    // struct's member.
    let mut own_required = Vec::new();
    // A flattened struct's members take the indices after the fields', in order: `base`
    // is where the next one's start.
    let mut base = {
        let count = cx.fields.len();
        quote! { #count }
    };
    let mut flattened_keys = Vec::new();
    let mut rest = None;
    // Flattened structs whose own flattened map takes the keys nobody reads (when this
    // struct has no map of its own).
    let mut inner_rests = Vec::new();
    for (i, f) in cx.fields.iter().enumerate() {
        let k = proc_macro2::Literal::usize_unsuffixed(i);
        if f.flatten && crate::shape::is_std_map(f.ty) {
            // The map takes the keys nobody else reads.
            let stream = cx.stream(f);
            let fident = &f.ident;
            let field_enum = cx.inner_ctors();
            let vin = variant(f, "In");
            rest = Some(move |checks: TokenStream| {
                quote! {
                    const REST: bool = true;

                    fn rest<'__d>(
                        __k: &str,
                        __o: __p::Op<'_, '_>,
                        __d: &'__d mut Self::Draft,
                    ) -> __p::Reply<'__d, Self::Field> {
                        #checks
                        __p::rest::<#stream, Self>(__k, __o, &mut __d.#fident, #field_enum::#vin)
                    }
                }
            });
            continue;
        }
        if f.flatten {
            let stream = cx.stream(f);
            let fident = &f.ident;
            let field_enum = cx.inner_ctors();
            let vin = variant(f, "In");
            let start = base.clone();
            let len = quote! { <#stream as __p::Object>::WIDTH };
            flattened_keys.push(quote! {
                if let __p::Some(__j) = <#stream as __p::Object>::KEYS.index_of(__k) {
                    return __p::Some(#start + __j);
                }
            });
            field_arms.push(quote! {
                __i if (#start..#start + #len).contains(&__i) => __p::flattened::<#stream, Self>(
                    __i - (#start), __o, &mut __d.#fident, (&mut __d.__settled, #k), #field_enum::#vin,
                ),
            });
            require.push(quote! { __p::flattened_complete::<#stream>(&__d.#fident)?; });
            // Required while its own required members are.
            let name = &f.name;
            required.push(quote! { (#k, #name, __p::flattened_missing::<#stream>), });
            inner_rests.push(quote! {
                if <#stream as __p::Object>::REST {
                    return __p::flattened_rest::<#stream, Self>(
                        __k, __o, &mut __d.#fident, #field_enum::#vin,
                    );
                }
            });
            base = quote! { (#start + #len) };
            continue;
        }
        let call = field_call(cx, f);
        field_arms.push(quote! { #k => #call, });
        if default_expr(cx, f).is_none() {
            let name = &f.name;
            let ty = f.ty;
            let entry = if f.with.is_some() {
                quote! { (#k, #name, __p::missing_refused), }
            } else {
                quote! { (#k, #name, __p::missing_ok::<#ty>), }
            };
            if flattens {
                own_required.push(entry.clone());
            }
            required.push(entry);
        }
    }
    // With flattened structs, the member indices in use, checked against the 127 a
    // `FieldSet` holds (for a generic model the check cannot name the parameters).
    let width = (!flattened_keys.is_empty()).then(|| {
        let check = cx.generics().params.is_empty().then(|| {
            quote! {
                const _: () = ::core::assert!(
                    #base <= 127,
                    "a struct and the structs it flattens can stream at most 127 fields in all",
                );
            }
        });
        quote! { const WIDTH: usize = { #check #base }; }
    });
    // Each field's name is its key, and its aliases are listed; a struct that flattens
    // another finds keys by a lookup of its own (a flattened field's name is no key).
    let aliases = cx.fields.iter().enumerate().flat_map(|(i, f)| {
        let i = proc_macro2::Literal::usize_unsuffixed(i);
        let name = &f.name;
        f.keys
            .iter()
            .filter(move |k| *k != name)
            .map(move |alias| quote! { (#alias, #i) })
    });
    let lookup = flattens.then(|| {
        let key_arms = cx
            .fields
            .iter()
            .enumerate()
            .filter(|(_, f)| !f.flatten)
            .map(|(i, f)| {
                let i = proc_macro2::Literal::usize_unsuffixed(i);
                let keys = &f.keys;
                quote! { #(#keys)|* => __p::Some(#i), }
            });
        quote! {
            .lookup(|__k| {
                let __own = match __k {
                    #(#key_arms)*
                    _ => __p::None,
                };
                if __own.is_some() {
                    return __own;
                }
                #(#flattened_keys)*
                __p::None
            })
        }
    });
    // With flattened structs: the struct's own fields first, then each flattened struct's
    // members, as serde reads them.
    let complete = (!require.is_empty()).then(|| {
        quote! {
            fn complete(__d: &Self::Draft) -> __p::Result<(), __p::serde_json::Error> {
                __p::require_all(__d.__settled, &[#(#own_required)*])?;
                #(#require)*
                __p::Ok(())
            }
        }
    });
    let rest = match rest {
        Some(own) => own(flatten_checks(cx)),
        None if !inner_rests.is_empty() => {
            let flat = cx
                .fields
                .iter()
                .filter(|f| f.flatten && !crate::shape::is_std_map(f.ty));
            let streams = flat.map(|f| cx.stream(f));
            let checks = flatten_checks(cx);
            quote! {
                const REST: bool = false #(|| <#streams as __p::Object>::REST)*;

                fn rest<'__d>(
                    __k: &str,
                    __o: __p::Op<'_, '_>,
                    __d: &'__d mut Self::Draft,
                ) -> __p::Reply<'__d, Self::Field> {
                    #checks
                    #(#inner_rests)*
                    __p::Reply::Wrapped(__p::None)
                }
            }
        }
        None => quote! {},
    };
    let seq = (!cx.seq).then(|| quote! { const SEQ: bool = false; });
    // A variant's struct is named as serde names the variant.
    let expected = cx.outer.is_some().then(|| {
        let expected = format!("struct variant {}", cx.title);
        quote! { const EXPECTED: __p::Option<&'static str> = __p::Some(#expected); }
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics __p::Flattens for #ident #ty_generics #where_clause {}

        #[automatically_derived]
        impl #impl_generics __p::Object for #ident #ty_generics #where_clause {
            const KEYS: __p::Keys =
                __p::Keys::new(&[#(#names),*], &[#(#aliases),*]) #deny_unknown #lookup;
            #width

            fn settled_mut(__d: &mut Self::Draft) -> &mut __p::FieldSet {
                &mut __d.__settled
            }

            #[inline]
            fn field<'__d>(
                __i: usize,
                __o: __p::Op<'_, '_>,
                __d: &'__d mut Self::Draft,
            ) -> __p::Reply<'__d, Self::Field> {
                match __i {
                    #(#field_arms)*
                    _ => __p::Reply::Flow(__p::Flow::More),
                }
            }

            const REQUIRED: &'static [__p::Required] = &[#(#required)*];
            #seq
            #expected

            #complete

            #rest
        }
    }
}

/// The flattened structs whose keys serde gives to another flattened field too, refused
/// where their types are known (a constant cannot name the model's type parameters): a
/// struct that flattens fields of its own is read as a map and takes none of its keys
/// from the ones the fields after it see, so a flattened map beside it (in this struct,
/// or inside a struct flattened after it) gets them as well; and a map flattened inside
/// a struct gets the keys of the structs flattened after it. A stream sends each value to
/// one place. Each check is spanned at the first struct's field.
fn flatten_checks(cx: &Cx<'_>) -> TokenStream {
    let map = cx
        .fields
        .iter()
        .find(|f| f.flatten && crate::shape::is_std_map(f.ty));
    let structs: Vec<&Field<'_>> = cx
        .fields
        .iter()
        .copied()
        .filter(|f| f.flatten && !crate::shape::is_std_map(f.ty) && !cx.generic(f))
        .collect();
    let mut checks = Vec::new();
    for (i, f) in structs.iter().enumerate() {
        let stream = cx.stream(f);
        let name = &f.ident;
        let span = syn::spanned::Spanned::span(f.ty);
        if let Some(map) = map {
            let map = &map.ident;
            let message = format!(
                "`{name}` flattens fields of its own, so serde reads it as a map and the \
                 flattened map `{map}` gets its keys too, which a stream cannot send to both: \
                 flatten the fields of `{name}` into this struct directly, or drop `{map}`"
            );
            checks.push(quote_spanned! {span=>
                const _: () = ::core::assert!(
                    <#stream as __p::Object>::KEYS.lookup.is_none(),
                    #message,
                );
            });
            continue;
        }
        let later = structs.get(i + 1..).unwrap_or_default();
        if later.is_empty() {
            continue;
        }
        let names: Vec<String> = later.iter().map(|g| format!("`{}`", g.ident)).collect();
        let message = format!(
            "`{name}` has a flattened map, and serde gives it the keys of {} (flattened \
             after it) too, which a stream cannot send to both: declare `{name}` last",
            names.join(", ")
        );
        checks.push(quote_spanned! {span=>
            const _: () = ::core::assert!(!<#stream as __p::Object>::REST, #message);
        });
        for g in later {
            let other = cx.stream(g);
            let other_name = &g.ident;
            let message = format!(
                "`{name}` flattens fields of its own, so serde reads it as a map and the map \
                 flattened inside `{other_name}` gets its keys too, which a stream cannot send \
                 to both: flatten the fields of `{name}` into this struct directly"
            );
            checks.push(quote_spanned! {span=>
                const _: () = ::core::assert!(
                    <#stream as __p::Object>::KEYS.lookup.is_none()
                        || !<#other as __p::Object>::REST,
                    #message,
                );
            });
        }
    }
    quote! { #(#checks)* }
}

/// One field's arm: the generic helper for its type, with its variants and constraint.
fn field_call(cx: &Cx<'_>, f: &Field<'_>) -> TokenStream {
    let field_enum = &cx.field_enum;
    let inner_ctors = cx.inner_ctors();
    let fident = &f.ident;
    let stream = cx.stream(f);
    let v = variant(f, "");
    let check = constraint(f);
    let boxed = |x: TokenStream| {
        if cx.recursive(f) {
            quote! { ::std::boxed::Box::new(#x) }
        } else {
            x
        }
    };
    let none = quote! { __p::None };
    match item_type(f) {
        Some(elem) => {
            let elem = cx.elem(elem);
            let item = variant(f, "Item");
            let inner = match (has_inner(f), cx.recursive(f)) {
                (false, _) => none.clone(),
                (true, false) => {
                    let vin = variant(f, "In");
                    quote! { __p::Some(#inner_ctors::#vin) }
                }
                (true, true) => {
                    let vin = variant(f, "In");
                    let x = boxed(quote! { __x });
                    quote! { __p::Some(|__i, __x| #inner_ctors::#vin(__i, #x)) }
                }
            };
            let cap = match f
                .attrs
                .constraints()
                .iter()
                .find(|c| matches!(c.measure, Measure::Items) && !c.min)
            {
                Some(c) => {
                    let (ty, value) = (f.ty, c.value);
                    quote_spanned! {c.span=> __p::items_cap::<#ty>(#value) }
                }
                None => none.clone(),
            };
            quote! {
                __p::field_items::<#stream, #elem, _>(
                    __o, &mut __d.#fident, #field_enum::#v, #field_enum::#item, #inner, #check,
                    #cap,
                )
            }
        }
        None => {
            let inner = match (has_inner(f), cx.recursive(f)) {
                (false, _) => none,
                (true, false) => {
                    let vin = variant(f, "In");
                    quote! { __p::Some(#inner_ctors::#vin) }
                }
                (true, true) => {
                    let vin = variant(f, "In");
                    let x = boxed(quote! { __x });
                    quote! { __p::Some(|__x| #inner_ctors::#vin(#x)) }
                }
            };
            if f.attrs.constraints().is_empty() && !has_inner(f) {
                return quote! {
                    __p::leaf::<#stream, _>(__o, &mut __d.#fident, #field_enum::#v)
                };
            }
            quote! {
                __p::field::<#stream, _>(
                    __o, &mut __d.#fident, #field_enum::#v, #inner, #check,
                )
            }
        }
    }
}

/// The field's constraint check, spanned at each attribute so that a constraint that does
/// not apply to the field's type is reported there.
fn constraint(f: &Field<'_>) -> TokenStream {
    let constraints = f.attrs.constraints();
    if constraints.is_empty() {
        return quote! { __p::None };
    }
    let ty = f.ty;
    let checks = constraints.iter().map(|c| {
        let check = match c.measure {
            Measure::Items => quote! { check_items },
            Measure::Length => quote! { check_length },
            Measure::Number => quote! { check_range },
        };
        let value = c.value;
        let (min, max) = if c.min {
            (quote! { __p::Some(#value) }, quote! { __p::None })
        } else {
            (quote! { __p::None }, quote! { __p::Some(#value) })
        };
        quote_spanned! {c.span=> __p::#check(__v, #min, #max)?; }
    });
    quote! {
        __p::Some(|__v: &#ty| {
            #(#checks)*
            __p::Ok(())
        })
    }
}
