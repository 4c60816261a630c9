//! Names of generated items.

use syn::Ident;

/// `verdict` -> `Verdict`, `action_items` -> `ActionItems`; a name with no letter to
/// start a type name (`__`, `_1`) or one that spells `Self` (`self_`) gets `Field` before
/// it (`Field`, `Field1`, `FieldSelf`).
pub(crate) fn camel(ident: &Ident) -> String {
    let out = camel_case(ident);
    let starts_well = out.chars().next().is_some_and(|c| c.is_alphabetic());
    if starts_well && out != "Self" {
        out
    } else {
        format!("Field{out}")
    }
}

fn camel_case(ident: &Ident) -> String {
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
