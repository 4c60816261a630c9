//! Runs of a model's fields handled in one call over the tuple of their types (one to
//! twelve): generated code names each run's types once, and the per-field work is generic
//! code here, instead of a call per field.

use super::constraints::ObjectSchema;
use super::missing::take;
use super::object::{FieldSet, Object};
use super::protocol::Rejected;
use super::{Limits, StreamingModel};
use crate::json_schema::SchemaGen;

/// A run's fields as the derive describes them for the schema, by position in the run:
/// their keys; their descriptions (`""` for none, and the list may stop early); their
/// constraints (position, JSON Schema keyword, value); and the positions of the fields
/// serde does not require (a default). Plain arrays of literals: cheaper for rustc to check
/// than a tuple per field.
#[derive(Clone, Copy)]
pub struct RunMeta<'m> {
    /// The fields' keys.
    pub names: &'m [&'static str],
    /// The fields' descriptions, `""` for none.
    pub descriptions: &'m [&'static str],
    /// The fields' constraints: (position, keyword, value).
    pub constraints: &'m [(usize, &'static str, f64)],
    /// The positions of the fields with a default.
    pub optional: &'m [usize],
}

/// `R`'s limits, read through a call: a model's `LIMITS` that names its fields' limits
/// this way is evaluated only where it is used (a `#[settled(strict)]` check), not where
/// it is checked, so two models that refer to each other through a `Vec` compile.
pub const fn run_limits<R: Run>() -> Limits {
    R::LIMITS
}

/// `T`'s limits, read through a call (see [`run_limits`]).
pub const fn limits_of<T: super::StreamingModel>() -> Limits {
    T::LIMITS
}

/// A tuple of stream types: the fields of a run.
pub trait Run {
    /// The fields' drafts.
    type Drafts;
    /// The fields' values.
    type Values;
    /// The fields' limits, merged.
    const LIMITS: Limits;

    /// See [`take_run`].
    fn take_run(
        drafts: Self::Drafts,
        settled: FieldSet,
        first: usize,
        names: &'static [&'static str],
    ) -> Result<Self::Values, Rejected>;

    /// Adds each field's property to `object`, described by `meta`.
    fn schemas(object: &mut ObjectSchema, generator: &mut SchemaGen, meta: RunMeta<'_>);
}

/// A run of consecutive fields of model `M` taken apart as [`take`] takes each: `F` is the
/// tuple of their stream types, the first at field index `first`.
pub fn take_run<F: Run, M: Object>(
    drafts: F::Drafts,
    settled: FieldSet,
    first: usize,
) -> Result<F::Values, Rejected>
where
    M::Draft: Default,
{
    F::take_run(drafts, settled, first, M::KEYS.names)
}

/// Field `at` of a run: its property, if `meta` names it.
fn schema<F: StreamingModel>(
    object: &mut ObjectSchema,
    generator: &mut SchemaGen,
    meta: RunMeta<'_>,
    at: usize,
) {
    let Some(&name) = meta.names.get(at) else {
        return;
    };
    let description = meta.descriptions.get(at).copied().filter(|d| !d.is_empty());
    let constraints: Vec<(&str, f64)> = meta
        .constraints
        .iter()
        .filter(|c| c.0 == at)
        .map(|&(_, keyword, value)| (keyword, value))
        .collect();
    let required = meta.optional.contains(&at).then_some(false);
    object.field::<F>(generator, name, description, &constraints, required);
}

macro_rules! runs {
    ($(($($F:ident $d:ident $i:tt),+))+) => {$(
        impl<$($F: StreamingModel),+> Run for ($($F,)+) {
            type Drafts = ($(Option<$F::Draft>,)+);
            type Values = ($($F::Value,)+);
            const LIMITS: Limits = Limits::LEAF $(.with($F::LIMITS))+;

            fn take_run(
                drafts: Self::Drafts,
                settled: FieldSet,
                first: usize,
                names: &'static [&'static str],
            ) -> Result<Self::Values, Rejected> {
                let ($($d,)+) = drafts;
                Ok(($({
                    let index = first + $i;
                    let name = names.get(index).copied().unwrap_or_default();
                    take::<$F>($d, settled.contains(index), name)?
                },)+))
            }

            fn schemas(object: &mut ObjectSchema, generator: &mut SchemaGen, meta: RunMeta<'_>) {
                $(schema::<$F>(object, generator, meta, $i);)+
            }
        }
    )+};
}

runs! {
    (A a 0)
    (A a 0, B b 1)
    (A a 0, B b 1, C c 2)
    (A a 0, B b 1, C c 2, D d 3)
    (A a 0, B b 1, C c 2, D d 3, E e 4)
    (A a 0, B b 1, C c 2, D d 3, E e 4, G g 5)
    (A a 0, B b 1, C c 2, D d 3, E e 4, G g 5, H h 6)
    (A a 0, B b 1, C c 2, D d 3, E e 4, G g 5, H h 6, I i 7)
    (A a 0, B b 1, C c 2, D d 3, E e 4, G g 5, H h 6, I i 7, J j 8)
    (A a 0, B b 1, C c 2, D d 3, E e 4, G g 5, H h 6, I i 7, J j 8, K k 9)
    (A a 0, B b 1, C c 2, D d 3, E e 4, G g 5, H h 6, I i 7, J j 8, K k 9, L l 10)
    (A a 0, B b 1, C c 2, D d 3, E e 4, G g 5, H h 6, I i 7, J j 8, K k 9, L l 10, M m 11)
}

impl ObjectSchema {
    /// The properties of a run of plain fields, `F` the tuple of their types, described
    /// as [`RunMeta`] says.
    pub fn run<F: Run>(
        &mut self,
        generator: &mut SchemaGen,
        names: &[&'static str],
        descriptions: &[&'static str],
        constraints: &[(usize, &'static str, f64)],
        optional: &[usize],
    ) {
        let meta = RunMeta {
            names,
            descriptions,
            constraints,
            optional,
        };
        F::schemas(self, generator, meta);
    }
}
