//! `#[derive(StreamingModel)]` for settle. See the `settle` crate for the documentation and
//! examples; this crate is re-exported there.
//!
//! The derive runs in three steps: parse (serde's own attribute front end plus
//! `#[settle(...)]`), check (every error collected, each with the span of the offending
//! item), expand (the draft, the field enums, the builder, the callbacks).

mod ast;
mod attr;
mod expand;
mod names;
mod shape;
mod valid;

use proc_macro::TokenStream;

/// Derives `settle::Streamable` and the streaming companions of a struct with named fields
/// or a unit enum. Documented in the `settle` crate.
#[proc_macro_derive(StreamingModel, attributes(settle))]
pub fn derive_streaming_model(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::derive(&input)
        .unwrap_or_else(|errors| errors.iter().map(syn::Error::to_compile_error).collect())
        .into()
}
