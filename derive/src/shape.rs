//! What a field's type looks like, read from its syntax: whether it is a vector (its
//! elements get their own settled variant) and whether values inside it can settle on
//! their own (nested models get a wrapping variant).

use syn::{GenericArgument, PathArguments, Type};

/// Types whose values have nothing inside that settles separately.
const LEAVES: &[&str] = &[
    "bool",
    "char",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "f32",
    "f64",
    "String",
    "str",
    "Cow",
    "PathBuf",
    "IpAddr",
    "Ipv4Addr",
    "Ipv6Addr",
    "SocketAddr",
    "SocketAddrV4",
    "SocketAddrV6",
    "NonZeroU8",
    "NonZeroU16",
    "NonZeroU32",
    "NonZeroU64",
    "NonZeroUsize",
    "NonZeroI8",
    "NonZeroI16",
    "NonZeroI32",
    "NonZeroI64",
    "Uuid",
    "Url",
    "Decimal",
    "DateTime",
    "NaiveDate",
    "NaiveDateTime",
    "NaiveTime",
    "OffsetDateTime",
    "PrimitiveDateTime",
];

/// The first generic type argument of `ty` if its last path segment is `name`.
fn argument_of<'t>(ty: &'t Type, names: &[&str]) -> Option<&'t Type> {
    let Type::Path(path) = ty else {
        return None;
    };
    let segment = path.path.segments.last()?;
    // One string per segment: comparing an `Ident` with a `&str` makes a string each time.
    let ident = segment.ident.to_string();
    if !names.contains(&ident.as_str()) {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &segment.arguments else {
        return None;
    };
    args.args.iter().find_map(|a| match a {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    })
}

/// `ty` without `Option<…>`, `Box<…>` and `Arc<…>` wrappers.
fn strip(mut ty: &Type) -> &Type {
    while let Some(inner) = argument_of(ty, &["Option", "Box", "Arc"]) {
        ty = inner;
    }
    ty
}

/// The element type if `ty` is (an optional or boxed) `Vec<E>`.
pub(crate) fn vec_element(ty: &Type) -> Option<&Type> {
    argument_of(strip(ty), &["Vec"])
}

/// `ty` is a map (or a JSON value, which may be one): a flattened map collects the keys
/// nobody else reads.
pub(crate) fn is_map(ty: &Type) -> bool {
    let Type::Path(path) = strip(ty) else {
        return false;
    };
    path.path.segments.last().is_some_and(|s| {
        let ident = s.ident.to_string();
        ["HashMap", "BTreeMap", "Map", "IndexMap", "Value"].contains(&ident.as_str())
    })
}

/// `ty` is a std map: flattened, it takes the keys no field reads.
pub(crate) fn is_std_map(ty: &Type) -> bool {
    let Type::Path(path) = ty else {
        return false;
    };
    path.path
        .segments
        .last()
        .is_some_and(|s| matches!(s.ident.to_string().as_str(), "HashMap" | "BTreeMap"))
}

/// `ty` is an `Option<…>`: serde reads a missing key as `None`.
pub(crate) fn is_option(ty: &Type) -> bool {
    argument_of(ty, &["Option"]).is_some()
}

/// Values of `ty` may contain values that settle separately (models, maps, type
/// parameters); false for std scalars and strings.
pub(crate) fn has_inner(ty: &Type) -> bool {
    match strip(ty) {
        Type::Path(path) => path
            .path
            .segments
            .last()
            .is_none_or(|s| !LEAVES.contains(&s.ident.to_string().as_str())),
        Type::Reference(_) => false,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(s: &str) -> Type {
        syn::parse_str(s).unwrap()
    }

    #[test]
    fn reads_vectors_and_leaves() {
        assert!(vec_element(&ty("Vec<String>")).is_some());
        assert!(vec_element(&ty("Option<Box<Vec<Item>>>")).is_some());
        assert!(vec_element(&ty("String")).is_none());
        assert!(!has_inner(&ty("Option<u8>")));
        assert!(!has_inner(&ty("String")));
        assert!(has_inner(&ty("Meeting")));
        assert!(has_inner(&ty("T")));
        assert!(has_inner(&ty("HashMap<String, u8>")));
    }
}
