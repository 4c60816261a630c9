//! Expansion: the generated items beside the user's type.
//!
//! The public companions (`XDraft`, `XField`, `XFieldName`) name only what a
//! user reads; every impl sits in one `const _: () = { … };` block and reaches the library
//! through `::settled::__private`. Per field, the impls make one call to a generic helper.

mod data_enum;
mod draft;
mod fields;
mod model;
mod schema;
mod unit_enum;
mod wrapper;

use crate::ast::{self, Body, Field, Model};
use crate::names::camel;
use crate::{shape, valid};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::{DeriveInput, Ident, Type};

/// Parses, checks and expands; every error found is returned.
pub(crate) fn derive(input: &DeriveInput) -> Result<TokenStream, Vec<syn::Error>> {
    let mut errors = Vec::new();
    // `Self` in a field's type names the model; the generated items (the draft, the
    // field enum, a variant's struct) are other types, so they get the model's name.
    let input = &without_self(input);
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
        Body::DataEnum(data) => data_enum::expand(model, data),
        Body::Wrapper(wrapper) => wrapper::expand(model, wrapper),
        Body::Struct(all) => {
            let cx = Cx::new(model, all);
            let (draft, draft_impls) = draft::expand(&cx);
            let (fields, field_impls) = fields::expand(&cx);
            let impls = model::expand(&cx);
            let check = cx.check();
            quote! {
                #draft
                #fields
                #[doc(hidden)]
                #[allow(non_camel_case_types, non_snake_case, unused_qualifications)]
                const _: () = {
                    use ::settled::__private as __p;
                    #check
                    #draft_impls
                    #field_impls
                    #impls
                };
            }
        }
    }
}

/// What every part of a struct's expansion needs.
pub(crate) struct Cx<'a> {
    pub(crate) model: &'a Model<'a>,
    /// Every field, skipped ones included (the final value needs them all).
    pub(crate) all: &'a [Field<'a>],
    /// The fields serde reads, in declaration order; a field's index is its position here.
    pub(crate) fields: Vec<&'a Field<'a>>,
    pub(crate) ident: &'a Ident,
    pub(crate) draft: Ident,
    pub(crate) field_enum: Ident,
    pub(crate) field_name: Ident,
    /// What the docs call the type (`Action::Reply` for a variant's fields).
    pub(crate) title: String,
    /// The enum whose variant this is: a field naming it is recursive too.
    pub(crate) outer: Option<Ident>,
    /// The variant's fields use every type parameter of `outer`.
    pub(crate) outer_whole: bool,
    /// The impls name the field types, the draft and the field enum through the struct's
    /// check (see [`Cx::check`]).
    pub(crate) checked: bool,
    /// serde reads the struct from an array of its fields too (a variant's only when its
    /// enum is externally tagged).
    pub(crate) seq: bool,
    /// Per field of `all`, whether it is recursive and whether it is generic (see
    /// [`Cx::recursive`] and [`Cx::generic`]), worked out once.
    flags: Vec<(bool, bool)>,
}

/// A generated companion's name: the one `#[settled(...)]` gives, or `ident` + `suffix`.
pub(crate) fn companion(renamed: &crate::attr::Attr<Ident>, ident: &Ident, suffix: &str) -> Ident {
    match renamed.get() {
        Some(name) => name.clone(),
        None => format_ident!("{}{}", ident, suffix),
    }
}

impl<'a> Cx<'a> {
    fn new(model: &'a Model<'a>, all: &'a [Field<'a>]) -> Self {
        Cx::within(model, all, None)
    }

    /// A struct's context; `outer`, the enum a variant's fields belong to.
    fn within(model: &'a Model<'a>, all: &'a [Field<'a>], outer: Option<&Ident>) -> Self {
        let ident = &model.input.ident;
        Cx {
            model,
            all,
            fields: all.iter().filter(|f| !f.skipped).collect(),
            ident,
            draft: companion(&model.attrs.draft, ident, "Draft"),
            field_enum: companion(&model.attrs.field_enum, ident, "Field"),
            field_name: companion(&model.attrs.field_name_enum, ident, "FieldName"),
            title: ident.to_string(),
            outer: None,
            outer_whole: false,
            checked: model.input.generics.params.is_empty(),
            seq: true,
            flags: flags(model, all, ident, outer),
        }
    }

    /// The fields of variant `variant` of enum `outer`, read as the hidden struct `model`.
    pub(crate) fn variant(
        model: &'a Model<'a>,
        all: &'a [Field<'a>],
        outer: &Ident,
        variant: &Ident,
        seq: bool,
        outer_whole: bool,
    ) -> Self {
        // `format_ident!` drops the `r#` of a raw identifier (`r#Match` names `OpMatchDraft`);
        // the title keeps it, as serde's messages do ("struct variant Op::r#Match").
        Cx {
            draft: format_ident!("{}{}Draft", outer, variant),
            field_enum: format_ident!("{}{}Field", outer, variant),
            field_name: format_ident!("{}{}FieldName", outer, variant),
            title: format!("{outer}::{variant}"),
            outer: Some(outer.clone()),
            outer_whole,
            seq,
            ..Cx::within(model, all, Some(outer))
        }
    }

    /// The struct's check, first in its `const` block: a constant that is an error exactly
    /// when a field's type cannot stream, reported at that field. The impls name the draft,
    /// the field enum and the field types through it (`__Draft`, `__Field`, `__C<T>`: the
    /// types themselves once it holds), so a field type that cannot stream is one error,
    /// not one per impl that uses it. A constant cannot name type parameters: a generic
    /// model names its types directly.
    pub(crate) fn check(&self) -> TokenStream {
        if !self.checked {
            return TokenStream::new();
        }
        let (draft, field_enum) = (&self.draft, &self.field_enum);
        // Each field's type, spanned as the draft's field is (the same span, the same
        // bound), so that the two errors are one.
        let fields = self.fields.iter().map(|f| {
            let stream = stream_type(f);
            if f.flatten && !shape::is_std_map(f.ty) {
                // A flattened field must be a struct: said once, at the field.
                return quote! { let _ = <#stream as __p::Flattens>::FLATTENS; };
            }
            quote! { let _ = <#stream as __p::StreamingModel>::MODEL; }
        });
        quote! {
            const __CHECK: usize = {
                #(#fields)*
                0
            };
            type __Draft = <#draft as __p::Checked<{ __CHECK }>>::Type;
            type __Field = <#field_enum as __p::Checked<{ __CHECK }>>::Type;
            type __C<__T> = <__T as __p::Checked<{ __CHECK }>>::Type;
        }
    }

    /// The type that streams `field`, as the impls name it.
    pub(crate) fn stream(&self, field: &Field<'_>) -> TokenStream {
        self.gate(stream_type(field))
    }

    /// The tuple of the types that stream a run of fields, as the impls name it.
    pub(crate) fn run(&self, fields: &[TokenStream]) -> TokenStream {
        self.gate(quote! { (#(#fields,)*) })
    }

    /// `ty` through the struct's check.
    fn gate(&self, ty: TokenStream) -> TokenStream {
        if self.checked {
            quote! { __C<#ty> }
        } else {
            ty
        }
    }

    /// The draft type, as the impls name it.
    pub(crate) fn draft_ty(&self) -> TokenStream {
        self.named("__Draft", &self.draft)
    }

    /// The field enum, as the impls name it.
    pub(crate) fn field_ty(&self) -> TokenStream {
        self.named("__Field", &self.field_enum)
    }

    /// A generated type: through its check alias `alias`, or as declared.
    fn named(&self, alias: &str, ident: &Ident) -> TokenStream {
        if self.checked {
            let alias = format_ident!("{}", alias);
            return quote! { #alias };
        }
        let (_, ty_generics, _) = self.generics().split_for_impl();
        quote! { #ident #ty_generics }
    }

    /// The path to the field enum's `In…` variants, whose payloads are field types' own.
    pub(crate) fn inner_ctors(&self) -> TokenStream {
        let field_enum = &self.field_enum;
        if self.checked {
            quote! { __Field }
        } else {
            quote! { #field_enum }
        }
    }

    /// An element type, as the impls name it.
    pub(crate) fn elem(&self, elem: &Type) -> TokenStream {
        self.gate(quote! { #elem })
    }

    pub(crate) fn vis(&self) -> &syn::Visibility {
        &self.model.input.vis
    }

    /// The type's generics as declared (for new type declarations).
    pub(crate) fn generics(&self) -> &syn::Generics {
        &self.model.input.generics
    }

    /// The model's where clause ([`where_clause`]), plus what the bodies of its impls ask
    /// of a generic model's defaults: `Default` of each defaulted or skipped field's type
    /// that uses a type parameter, and of the model under a container `#[serde(default)]`
    /// (the bounds serde's derive adds to its own impl).
    pub(crate) fn where_clause(&self) -> TokenStream {
        let generics = self.generics();
        let params: Vec<&Ident> = generics.type_params().map(|p| &p.ident).collect();
        let mut extra = Vec::new();
        if !params.is_empty() {
            let defaulted = self
                .all
                .iter()
                .filter(|f| match (&f.default, &self.model.default) {
                    (ast::Fallback::Trait, _) => true,
                    (ast::Fallback::None, ast::Fallback::None) => f.skipped,
                    _ => false,
                });
            for f in defaulted.filter(|f| mentions(f.ty, &params)) {
                let ty = f.ty;
                extra.push(quote! { #ty: ::core::default::Default });
            }
            if matches!(self.model.default, ast::Fallback::Trait) {
                let ident = self.ident;
                let (_, ty_generics, _) = generics.split_for_impl();
                extra.push(quote! { #ident #ty_generics: ::core::default::Default });
            }
        }
        // A variant's fields are read as a hidden struct: the bound is the enum's, where
        // the struct has all of the enum's type parameters (else it cannot name it).
        // (The hidden struct is private to the impls: no public item can name it.)
        let own = match &self.outer {
            Some(outer) => self.outer_whole.then_some(outer),
            None => Some(self.ident),
        };
        where_clause_of(own, generics, extra)
    }

    /// The field's type may lead back to the model: it names the model itself (through
    /// `Vec` or `Box`), or it goes through a `Box`, which is how a type refers to one that
    /// refers back to it (`struct Expr { op: Option<Box<BinOp>> }`, `struct BinOp { lhs:
    /// Box<Expr> }`). Its `In…` payload is boxed (the field enums would contain each
    /// other) and it adds nothing to the strict limits (they would be cyclic).
    /// Marked `#[settled(recursive)]`, a field leads back to the model through a
    /// collection (`struct Call { args: Vec<Expr> }` with `enum Expr { Call(Call) }`).
    pub(crate) fn recursive(&self, field: &Field<'_>) -> bool {
        self.flags_of(field).0
    }

    /// The field's type names one of the model's type parameters.
    pub(crate) fn generic(&self, field: &Field<'_>) -> bool {
        self.flags_of(field).1
    }

    fn flags_of(&self, field: &Field<'_>) -> (bool, bool) {
        self.all
            .iter()
            .position(|f| std::ptr::eq(f, field))
            .and_then(|i| self.flags.get(i).copied())
            .unwrap_or_default()
    }

    /// `PhantomData` over the type parameters, for generated types that might not use them.
    pub(crate) fn marker(&self) -> Option<TokenStream> {
        let params: Vec<&Ident> = self.generics().type_params().map(|p| &p.ident).collect();
        (!params.is_empty()).then(|| quote! { ::core::marker::PhantomData<fn() -> (#(#params,)*)> })
    }
}

/// Per field: whether it is recursive (see [`Cx::recursive`]) and whether its type names
/// one of the model's type parameters.
fn flags(
    model: &Model<'_>,
    all: &[Field<'_>],
    ident: &Ident,
    outer: Option<&Ident>,
) -> Vec<(bool, bool)> {
    let boxed = format_ident!("Box");
    let own: Vec<&Ident> = [ident, &boxed].into_iter().chain(outer).collect();
    let params: Vec<&Ident> = model
        .input
        .generics
        .type_params()
        .map(|p| &p.ident)
        .collect();
    all.iter()
        .map(|f| {
            let recursive = f.attrs.recursive.get().is_some() || mentions(f.ty, &own);
            (recursive, !params.is_empty() && mentions(f.ty, &params))
        })
        .collect()
}

/// The user's where clause plus, for each type parameter, what streaming it needs, and
/// for a generic model `ident` its own `DeserializeOwned`: what the user's serde derive
/// asks of the type parameters (`T: Default` for a defaulted field that uses `T`, a
/// `#[serde(bound)]` of theirs) is then asked wherever the model is used, without
/// restating serde's rules, and every generated item (drafts of a recursive model
/// included) states the same bounds. Concrete field types get no bound: a missing impl is
/// reported where the field's type is used, at the field. `extra`: more predicates.
pub(crate) fn where_clause(
    ident: &Ident,
    generics: &syn::Generics,
    extra: Vec<TokenStream>,
) -> TokenStream {
    where_clause_of(Some(ident), generics, extra)
}

/// [`where_clause`], the bound on the type itself only if `ident` names it.
fn where_clause_of(
    ident: Option<&Ident>,
    generics: &syn::Generics,
    extra: Vec<TokenStream>,
) -> TokenStream {
    let user = generics
        .where_clause
        .as_ref()
        .map(|w| w.predicates.iter().collect::<Vec<_>>())
        .unwrap_or_default();
    let params = generics.type_params().map(|p| {
        let p = &p.ident;
        quote_spanned! {p.span()=>
            #p: ::settled::StreamingModel<Value = #p>
                + ::settled::__private::serde::de::DeserializeOwned
                + ::core::fmt::Debug
                + ::core::marker::Send
                + 'static
        }
    });
    let own = generics.type_params().next().and(ident).map(|ident| {
        let (_, ty_generics, _) = generics.split_for_impl();
        quote! { #ident #ty_generics: ::settled::__private::serde::de::DeserializeOwned }
    });
    let all: Vec<TokenStream> = user
        .iter()
        .map(|p| quote! { #p })
        .chain(params)
        .chain(own)
        .chain(extra)
        .collect();
    if all.is_empty() {
        quote! {}
    } else {
        quote! { where #(#all),* }
    }
}

/// The type whose `StreamingModel` impl streams the field: its own, `Atomic<T>`, or a
/// reader of the user's function.
pub(crate) fn stream_type(field: &Field<'_>) -> TokenStream {
    let ty = field.ty;
    if field.with.is_some() {
        let marker = with_marker(field);
        around(
            ty,
            |span| quote_spanned! {span=> ::settled::__private::AtomicWith< },
            quote! { #ty, #marker },
        )
    } else if field.attrs.atomic.get().is_some() {
        around(
            ty,
            |span| quote_spanned! {span=> ::settled::Atomic< },
            quote! { #ty },
        )
    } else {
        quote! { #ty }
    }
}

/// The type of the field's member in the public draft struct: `Option<DraftOf<…>>`
/// (`Option<Complete<…>>` for a field read by a function of the user's), spanned at the
/// field's type so that a type that cannot stream is reported there, once.
pub(crate) fn draft_member_type(field: &Field<'_>) -> TokenStream {
    let ty = field.ty;
    let (first, last) = ends(ty);
    let (open, inner) = if field.with.is_some() {
        (
            quote_spanned! {first=> ::core::option::Option<::settled::Complete< },
            quote! { #ty },
        )
    } else {
        (
            quote_spanned! {first=> ::core::option::Option<::settled::DraftOf< },
            stream_type(field),
        )
    };
    let close = quote_spanned! {last=> > > };
    quote! { #open #inner #close }
}

/// `open inner >`, spanned so that the type covers the user's type `ty` exactly (`open` at
/// its first token, `>` at its last): an error about it points at the field's type, and
/// two errors about the same field type are the same error, reported once.
pub(crate) fn around(
    ty: &Type,
    open: impl FnOnce(proc_macro2::Span) -> TokenStream,
    inner: TokenStream,
) -> TokenStream {
    let (first, last) = ends(ty);
    let open = open(first);
    let close = quote_spanned! {last=> > };
    quote! { #open #inner #close }
}

/// The spans of the first and the last token of `ty`: read from a path type's segments
/// (most field types), from its tokens otherwise.
fn ends(ty: &Type) -> (proc_macro2::Span, proc_macro2::Span) {
    if let Type::Path(syn::TypePath { qself: None, path }) = ty {
        let first = match (&path.leading_colon, path.segments.first()) {
            (Some(colon), _) => Some(colon.spans[0]),
            (None, Some(segment)) => Some(segment.ident.span()),
            (None, None) => None,
        };
        let last = path
            .segments
            .last()
            .and_then(|segment| match &segment.arguments {
                syn::PathArguments::None => Some(segment.ident.span()),
                syn::PathArguments::AngleBracketed(args) => Some(args.gt_token.span),
                syn::PathArguments::Parenthesized(_) => None,
            });
        if let (Some(first), Some(last)) = (first, last) {
            return (first, last);
        }
    }
    let all: Vec<proc_macro2::TokenTree> = quote! { #ty }.into_iter().collect();
    let first = all
        .first()
        .map_or_else(proc_macro2::Span::call_site, |t| t.span());
    let last = all.last().map_or(first, |t| match t {
        proc_macro2::TokenTree::Group(g) => g.span_close(),
        other => other.span(),
    });
    (first, last)
}

/// The marker type that reads a `deserialize_with` field.
pub(crate) fn with_marker(field: &Field<'_>) -> Ident {
    format_ident!("__With_{}", field.ident)
}

/// A field that streams whole (atomic, or read by a function of the user's).
pub(crate) fn is_atomic(field: &Field<'_>) -> bool {
    field.with.is_some() || field.attrs.atomic.get().is_some()
}

/// The element type of a vector field that reports its elements.
pub(crate) fn item_type<'a>(field: &Field<'a>) -> Option<&'a Type> {
    if is_atomic(field) {
        return None;
    }
    shape::vec_element(field.ty)
}

/// Values inside the field settle on their own (it gets an `In…` variant).
pub(crate) fn has_inner(field: &Field<'_>) -> bool {
    if is_atomic(field) {
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

/// The expression of a missing field's default, or `None` when serde has none for it.
pub(crate) fn default_expr(cx: &Cx<'_>, field: &Field<'_>) -> Option<TokenStream> {
    let ident = &field.ident;
    match (&field.default, &cx.model.default) {
        (ast::Fallback::Path(path), _) => Some(quote! { #path() }),
        (ast::Fallback::Trait, _) => Some(quote! { ::core::default::Default::default() }),
        (ast::Fallback::None, ast::Fallback::None) if field.skipped => {
            Some(quote! { ::core::default::Default::default() })
        }
        (ast::Fallback::None, ast::Fallback::None) => None,
        (ast::Fallback::None, _) => Some(quote! { __default.#ident }),
    }
}

/// True if `ty` names one of `params`.
pub(crate) fn mentions(ty: &Type, params: &[&Ident]) -> bool {
    names_any(quote! { #ty }, params)
}

/// `tokens` name one of `params`.
pub(crate) fn names_any(tokens: TokenStream, params: &[&Ident]) -> bool {
    tokens.into_iter().any(|tt| match tt {
        proc_macro2::TokenTree::Ident(i) => params.contains(&&i),
        proc_macro2::TokenTree::Group(g) => names_any(g.stream(), params),
        _ => false,
    })
}

/// `input` with `Self` in its fields' types replaced by the type's own name.
fn without_self(input: &DeriveInput) -> DeriveInput {
    let ident = &input.ident;
    let (_, ty_generics, _) = input.generics.split_for_impl();
    let named = quote! { #ident #ty_generics };
    fn replace(tokens: TokenStream, named: &TokenStream) -> TokenStream {
        tokens
            .into_iter()
            .map(|tt| match tt {
                proc_macro2::TokenTree::Ident(i) if i == "Self" => named.clone(),
                proc_macro2::TokenTree::Group(g) => {
                    let mut group =
                        proc_macro2::Group::new(g.delimiter(), replace(g.stream(), named));
                    group.set_span(g.span());
                    proc_macro2::TokenTree::Group(group).into()
                }
                other => other.into(),
            })
            .collect()
    }
    let fix = |field: &mut syn::Field| {
        let ty = &field.ty;
        let tokens = quote! { #ty };
        if tokens.to_string().contains("Self") {
            if let Ok(ty) = syn::parse2::<Type>(replace(tokens, &named)) {
                field.ty = ty;
            }
        }
    };
    let mut out = input.clone();
    match &mut out.data {
        syn::Data::Struct(s) => s.fields.iter_mut().for_each(fix),
        syn::Data::Enum(e) => e
            .variants
            .iter_mut()
            .flat_map(|v| v.fields.iter_mut())
            .for_each(fix),
        syn::Data::Union(_) => {}
    }
    out
}

/// `X::stream()`, `X::stream_with_options(options)` and `X::json_schema()`, whose doc says
/// what `schema` is.
pub(crate) fn inherent(head: TokenStream, schema: &str) -> TokenStream {
    quote! {
        #[automatically_derived]
        #head {
            /// A lenient stream of this type with the default options.
            pub fn stream() -> ::settled::TypedStream<Self> {
                ::settled::TypedStream::new()
            }

            /// A stream of this type with `options` (strict mode, limits).
            pub fn stream_with_options(options: ::settled::Options) -> ::settled::TypedStream<Self> {
                ::settled::TypedStream::with_options(options)
            }

            #[doc = #schema]
            pub fn json_schema() -> ::settled::schema::Schema {
                ::settled::schema::plain::<Self>()
            }
        }
    }
}
