//! Newtype, tuple and transparent structs stream as the value they wrap: their draft,
//! their fields and their schema are the inner type's (a tuple struct's, the tuple's).

use crate::ast::{Fallback, Model, Wrapper};
use proc_macro2::TokenStream;
use quote::quote;

pub(super) fn expand(model: &Model<'_>, wrapper: &Wrapper<'_>) -> TokenStream {
    let ident = &model.input.ident;
    let (impl_generics, ty_generics, _) = model.input.generics.split_for_impl();
    let where_clause = super::where_clause(ident, &model.input.generics, Vec::new());
    let types = &wrapper.types;
    let members = &wrapper.members;
    // One field: its type. More: a tuple of them, which streams as a JSON array.
    let (inner, bind) = match types.as_slice() {
        [one] => (quote! { #one }, quote! { __0 }),
        many => {
            let names = (0..many.len()).map(|i| quote::format_ident!("__{}", i));
            (quote! { (#(#many,)*) }, quote! { (#(#names,)*) })
        }
    };
    let values = (0..types.len()).map(|i| quote::format_ident!("__{}", i));
    let defaults = wrapper.defaults.iter().map(|(member, fallback)| {
        let value = match fallback {
            Fallback::Path(path) => quote! { #path() },
            Fallback::None | Fallback::Trait => quote! { ::core::default::Default::default() },
        };
        quote! { #member: #value }
    });
    let construct = quote! {
        |#bind| Self { #(#members: #values,)* #(#defaults,)* }
    };
    let description = model
        .attrs
        .description
        .get()
        .cloned()
        .or_else(|| crate::attr::doc_text(&model.input.attrs));
    let describe = description.map(|d| quote! { __p::describe(&mut __s, #d); });
    // A non-generic wrapper names the wrapped type through a check, as a struct names its
    // fields' types (see `Cx::check`): a type that cannot stream is one error, at it.
    let (check, inner) = if model.input.generics.params.is_empty() {
        let fields = types
            .iter()
            .map(|ty| quote! { let _ = <#ty as __p::StreamingModel>::MODEL; });
        let check = quote! {
            const __CHECK: usize = {
                #(#fields)*
                0
            };
            type __Inner = <#inner as __p::Checked<{ __CHECK }>>::Type;
        };
        (check, quote! { __Inner })
    } else {
        (TokenStream::new(), inner)
    };
    quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types, non_snake_case, unused_qualifications)]
        const _: () = {
            use ::settled::__private as __p;
            #check

            #[automatically_derived]
            impl #impl_generics __p::StreamingModel for #ident #ty_generics #where_clause {
                type Value = Self;
                type Draft = <#inner as __p::StreamingModel>::Draft;
                type Field = <#inner as __p::StreamingModel>::Field;
                type Name = <#inner as __p::StreamingModel>::Name;

                const MODEL: bool = <#inner as __p::StreamingModel>::MODEL;
                const SHAPE: __p::Shape = <#inner as __p::StreamingModel>::SHAPE;
                const NULLABLE: bool = <#inner as __p::StreamingModel>::NULLABLE;
                const ELEMENT: __p::Shape = <#inner as __p::StreamingModel>::ELEMENT;
                const LIMITS: __p::Limits = <#inner as __p::StreamingModel>::LIMITS;
                const VALIDATES: bool = <#inner as __p::StreamingModel>::VALIDATES;

                fn schema(__g: &mut __p::SchemaGen) -> __p::Schema {
                    let mut __s = <#inner as __p::StreamingModel>::schema(__g);
                    #describe
                    __s
                }

                fn root_schema(__g: &mut __p::SchemaGen) -> __p::Schema {
                    let mut __s = <#inner as __p::StreamingModel>::root_schema(__g);
                    #describe
                    __s
                }

                fn field_set(__d: &Self::Draft) -> __p::Option<__p::FieldSet> {
                    <#inner as __p::StreamingModel>::field_set(__d)
                }

                fn step(
                    __member: &mut __p::Member,
                    __event: &__p::Event<'_>,
                    __slot: &mut dyn __p::Slot<Self::Draft>,
                ) -> __p::Flow<Self> {
                    <#inner as __p::StreamingModel>::step(__member, __event, __slot).map(#construct)
                }

                fn frame_draft(__d: &mut Self::Draft) -> __p::Option<&mut dyn ::core::any::Any> {
                    <#inner as __p::StreamingModel>::frame_draft(__d)
                }

                fn to_value(__d: &Self::Draft) -> __p::Result<Self, __p::Rejected> {
                    <#inner as __p::StreamingModel>::to_value(__d).map(#construct)
                }

                fn into_value(__d: Self::Draft) -> __p::Result<Self, __p::Rejected> {
                    <#inner as __p::StreamingModel>::into_value(__d).map(#construct)
                }
            }

            #[automatically_derived]
            impl #impl_generics #ident #ty_generics #where_clause {
                /// A lenient stream of this type with the default options (when the
                /// wrapped type's draft has a default: not a unit enum's or a settled
                /// leaf's, which have no value before they settle).
                pub fn stream<__D>() -> ::settled::TypedStream<Self>
                where
                    Self: __p::StreamingModel<Draft = __D>,
                    __D: ::core::default::Default,
                {
                    ::settled::TypedStream::new()
                }

                /// A stream of this type with `options` (strict mode, limits).
                pub fn stream_with_options<__D>(options: ::settled::Options) -> ::settled::TypedStream<Self>
                where
                    Self: __p::StreamingModel<Draft = __D>,
                    __D: ::core::default::Default,
                {
                    ::settled::TypedStream::with_options(options)
                }

                /// The JSON Schema (2020-12) of this type: the schema of the value it wraps.
                pub fn json_schema() -> ::settled::schema::Schema {
                    ::settled::schema::plain::<Self>()
                }
            }
        };
    }
}
