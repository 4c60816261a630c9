//! Compile-time checks the derive emits so that a missing trait gives one error that names
//! the fix, rather than one error per bound that needs it.
//!
//! A check is a constant the generated code evaluates (`<T as UnitEnumTraits>::OK`), and the
//! types that need it are written through [`Checked`]: `<T as Checked<{ OK }>>::Type` is `T`
//! when the check holds. When it fails, the constant is an error, the types written through
//! it are errors too, and the compiler reports nothing more about them.

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt;

/// `Self`, once the constant `OK` has been evaluated: see the module docs.
pub trait Checked<const OK: usize> {
    /// `Self`.
    type Type: ?Sized;
}

impl<T: ?Sized, const OK: usize> Checked<OK> for T {
    type Type = T;
}

/// `0` for any type: `<Option<DraftOf<T>> as Zero>::ZERO` in a struct's check is an error
/// exactly where the draft struct's field of type `T` is, and only when that one is.
pub trait Zero {
    /// `0`.
    const ZERO: usize;
}

impl<T: ?Sized> Zero for T {
    const ZERO: usize = 0;
}

/// The traits a unit enum's value and draft need, checked in one bound.
#[diagnostic::on_unimplemented(
    message = "the unit enum `{Self}` needs `Clone`, `Debug`, `PartialEq`, `Serialize` and `Deserialize` to stream",
    label = "derive them: `#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]`",
    note = "settled shows a unit enum in the draft once it settles, as the value itself: it clones, compares, prints and serializes it there"
)]
pub trait UnitEnumTraits {
    /// Evaluates only when the traits are there.
    const OK: usize;
}

#[diagnostic::do_not_recommend]
impl<T> UnitEnumTraits for T
where
    T: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + 'static,
{
    const OK: usize = 0;
}

/// Every impl of a non-generic model's draft that flattens nothing: `Serialize` (its keys
/// as serde reads them, absent fields omitted), `Debug` (what it serializes to), `state`,
/// and the std traits of [`draft_traits!`](crate::__draft_traits):
/// `draft_impls!(ReviewDraft as __Draft of ReviewFieldName { title: "title" })`.
#[doc(hidden)]
#[macro_export]
macro_rules! __draft_impls {
    ($draft:ident as $checked:ident of $name:ident { $($field:ident: $key:literal),* }) => {
        #[automatically_derived]
        impl $crate::__private::serde::Serialize for $draft {
            fn serialize<__S: $crate::__private::serde::Serializer>(
                &self,
                __s: __S,
            ) -> ::core::result::Result<__S::Ok, __S::Error> {
                let __d: &$checked = self;
                $crate::__private::DraftMap::new(__s)
                    $(.entry($key, &__d.$field))*
                    .end()
            }
        }
        #[automatically_derived]
        impl ::core::fmt::Debug for $draft {
            fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                $crate::__private::debug_draft(::core::stringify!($draft), self, __f)
            }
        }
        #[automatically_derived]
        impl $draft {
            /// Whether `field` is pending, streaming or settled.
            pub fn state(&self, field: $name) -> $crate::FieldState {
                let __d: &$checked = self;
                __d.__settled.state_of(field as usize, &[$(__d.$field.is_some()),*])
            }
        }
        $crate::__draft_traits!($draft as $checked { $($field),* });
    };
}

/// `Default`, `Clone` and `PartialEq` for a derived model's draft (what `#[derive]` would
/// write), their bodies written against the draft as its check names it so that a field
/// type that cannot stream is reported once, at the field:
/// `draft_traits!(ReviewDraft as __Draft { title, score })`.
#[doc(hidden)]
#[macro_export]
macro_rules! __draft_traits {
    ($draft:ident as $checked:ident { $($field:ident),* }) => {
        #[automatically_derived]
        impl ::core::default::Default for $draft {
            fn default() -> Self {
                $checked {
                    $($field: ::core::option::Option::None,)*
                    __settled: ::core::default::Default::default(),
                }
            }
        }
        #[automatically_derived]
        impl ::core::clone::Clone for $draft {
            fn clone(&self) -> Self {
                let __d: &$checked = self;
                $checked {
                    $($field: ::core::clone::Clone::clone(&__d.$field),)*
                    __settled: __d.__settled,
                }
            }
        }
        #[automatically_derived]
        impl ::core::cmp::PartialEq for $draft {
            fn eq(&self, __other: &Self) -> bool {
                let (__a, __b): (&$checked, &$checked) = (self, __other);
                $(__a.$field == __b.$field &&)* __a.__settled == __b.__settled
            }
        }
    };
}
