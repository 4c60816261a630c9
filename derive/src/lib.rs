//! `#[derive(StreamingModel)]` for settled. See the `settled` crate for the documentation and
//! examples; this crate is re-exported there.
//!
//! The derive runs in three steps: parse (serde's own attribute front end plus
//! `#[settled(...)]`), check (every error collected, each with the span of the offending
//! item), expand (the draft, the field enums, the builder).

mod ast;
mod attr;
mod expand;
mod names;
mod shape;
mod valid;

use proc_macro::TokenStream;

/// Derives `settled::StreamingModel` and the streaming companions of a struct with named fields
/// or an enum. Documented in the `settled` crate.
#[proc_macro_derive(StreamingModel, attributes(settled))]
pub fn derive_streaming_model(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::derive(&input)
        .unwrap_or_else(|errors| errors.iter().map(syn::Error::to_compile_error).collect())
        .into()
}

#[cfg(test)]
mod tests {
    /// The expansion of a model, formatted, for review: what users' code compiles against.
    fn expand(source: &str) -> String {
        let input: syn::DeriveInput = syn::parse_str(source).expect("a valid item");
        let tokens = crate::expand::derive(&input).expect("expands");
        let file: syn::File = syn::parse2(tokens).expect("the expansion parses");
        prettyplease::unparse(&file)
    }

    #[test]
    fn expansion_of_a_review() {
        insta::assert_snapshot!(expand(
            "/// A code review.
            #[derive(Deserialize)]
            pub struct Review {
                /// Ship or hold.
                verdict: Verdict,
                #[settled(min_items = 1)]
                reasons: Vec<String>,
                #[serde(rename = \"confidence\", alias = \"score\")]
                score: u8,
                note: Option<String>,
            }"
        ));
    }

    #[test]
    fn expansion_of_a_generic_model() {
        insta::assert_snapshot!(expand(
            "pub struct Page<T> {
                items: Vec<T>,
                next: Option<String>,
            }"
        ));
    }

    #[test]
    fn expansion_of_a_recursive_model() {
        insta::assert_snapshot!(expand(
            "struct Node {
                label: String,
                next: Option<Box<Node>>,
                #[serde(default)]
                children: Vec<Node>,
            }"
        ));
    }

    #[test]
    fn expansion_of_atomic_fields() {
        insta::assert_snapshot!(expand(
            "struct Event {
                #[settled(atomic)]
                id: Box<str>,
                #[serde(deserialize_with = \"trimmed\")]
                title: String,
            }"
        ));
    }

    #[test]
    fn expansion_of_a_map_model() {
        insta::assert_snapshot!(expand(
            "#[serde(deny_unknown_fields, default)]
            struct Scores {
                by_player: std::collections::HashMap<String, u32>,
                #[serde(skip)]
                cache: u8,
            }"
        ));
    }

    #[test]
    fn expansion_of_a_unit_enum() {
        insta::assert_snapshot!(expand(
            "#[serde(rename_all = \"snake_case\")]
            enum Verdict { Ship, Hold }"
        ));
    }
}
