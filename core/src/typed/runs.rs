//! Runs of a model's fields handled in one call over the tuple of their types (one to
//! twelve): generated code names each run's types once, and the per-field work is generic
//! code here, instead of a call per field.

use super::constraints::ObjectSchema;
use super::missing::take;
use super::object::{FieldSet, Object};
use super::protocol::Rejected;
use super::{Limits, StreamingModel};
use crate::json_schema::SchemaGen;

/// A plain field's schema, as the derive writes it: its name, description, constraints
/// (JSON Schema keyword and value) and whether it is required (`None`: as serde requires
/// it).
pub type FieldMeta = (
    &'static str,
    Option<&'static str>,
    &'static [(&'static str, f64)],
    Option<bool>,
);

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
    fn schemas(object: &mut ObjectSchema, generator: &mut SchemaGen, meta: &[FieldMeta]);
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

/// One field of a run: its property, if `meta` describes it.
fn schema<F: StreamingModel>(
    object: &mut ObjectSchema,
    generator: &mut SchemaGen,
    meta: Option<&FieldMeta>,
) {
    if let Some(&(name, description, constraints, required)) = meta {
        object.field::<F>(generator, name, description, constraints, required);
    }
}

macro_rules! runs {
    ($(($($F:ident $d:ident $i:tt),+))+) => {$(
        impl<$($F: StreamingModel),+> Run for ($($F,)+) {
            type Drafts = ($(Option<$F::Draft>,)+);
            type Values = ($($F::Value,)+);
            const LIMITS: Limits = Limits::merge(&[$($F::LIMITS),+]);

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

            fn schemas(object: &mut ObjectSchema, generator: &mut SchemaGen, meta: &[FieldMeta]) {
                $(schema::<$F>(object, generator, meta.get($i));)+
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
    /// The properties of a run of plain fields, `F` the tuple of their types.
    pub fn run<F: Run>(&mut self, generator: &mut SchemaGen, meta: &[FieldMeta]) {
        F::schemas(self, generator, meta);
    }
}
