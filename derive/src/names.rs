//! Names of generated items.

use syn::Ident;

/// `verdict` -> `Verdict`, `action_items` -> `ActionItems`.
pub(crate) fn camel(ident: &Ident) -> String {
    let name = ident.to_string();
    let name = name.trim_start_matches("r#");
    let mut out = String::new();
    let mut upper = true;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}
