//! `Vec<T>`: elements appear as they begin and report themselves as they settle.

use super::{Ctx, Depth, Event, PathSegment, Step, Streamable, from_raw};

/// What settles inside a `Vec<T>`.
#[derive(Debug, Clone, PartialEq)]
pub enum Item<V, F> {
    /// Element `index` settled with this strict value.
    Settled(usize, V),
    /// Inside element `index`, something settled (a field of a model element).
    Inner(usize, F),
}

/// The open element's draft: the vector's last element once pushed.
struct Tail<'s, D> {
    items: &'s mut Vec<D>,
    pushed: &'s mut bool,
}

impl<D> super::Slot<D> for Tail<'_, D> {
    fn get(&mut self) -> Option<&mut D> {
        if *self.pushed {
            self.items.last_mut()
        } else {
            None
        }
    }
    fn set(&mut self, draft: D) {
        match self.items.last_mut() {
            Some(last) if *self.pushed => *last = draft,
            _ => {
                self.items.push(draft);
                *self.pushed = true;
            }
        }
    }
}

/// The builder of a `Vec<T>`.
#[derive(Debug)]
pub struct VecBuilder<B> {
    phase: Phase,
    /// Index of the open (or next) element in the JSON array (for error paths).
    index: usize,
    /// Its position in the draft, which holds no element for a value serde rejected
    /// (`fail_fast(false)`): the index events report.
    position: usize,
    /// The open element's draft has been pushed onto the vector.
    pushed: bool,
    element: Option<Box<B>>,
    mismatch: Depth,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Start,
    Open,
    Element,
    Mismatch,
}

impl<B> Default for VecBuilder<B> {
    fn default() -> Self {
        VecBuilder {
            phase: Phase::Start,
            index: 0,
            position: 0,
            pushed: false,
            element: None,
            mismatch: Depth::default(),
        }
    }
}

impl<T: Streamable> Streamable for Vec<T> {
    type Value = Vec<T::Value>;
    type Draft = Vec<T::Draft>;
    type Field = Item<T::Value, T::Field>;
    type Builder = VecBuilder<T::Builder>;
    type Name = std::convert::Infallible;

    const SCHEMA_DEPTH: usize = T::SCHEMA_DEPTH;
    const SCHEMA_PROPERTIES: usize = T::SCHEMA_PROPERTIES;
    const SHAPE: super::Shape = super::Shape::Array;

    fn schema(generator: &mut crate::schema::SchemaGen) -> crate::schema::Schema {
        crate::schema::Schema::object([
            ("type", crate::schema::Schema::from("array")),
            ("items", T::schema(generator)),
        ])
    }

    fn check(value: &Self::Value, path: &mut Vec<String>) -> Result<(), super::Violation> {
        for (i, item) in value.iter().enumerate() {
            path.push(i.to_string());
            T::check(item, path)?;
            path.pop();
        }
        Ok(())
    }

    fn step(
        b: &mut Self::Builder,
        slot: &mut dyn super::Slot<Vec<T::Draft>>,
        event: Event<'_>,
        ctx: &mut Ctx<'_, Self::Field>,
    ) -> Step<Self::Value> {
        match (b.phase, event) {
            (Phase::Start, Event::BeginArray) => {
                slot.set(Vec::new());
                b.phase = Phase::Open;
                return Step::More;
            }
            (Phase::Start | Phase::Mismatch, _) => {
                b.phase = Phase::Mismatch;
                return b.mismatch.follow(&event);
            }
            (Phase::Open, Event::EndArray(raw)) => return Step::Done(from_raw(raw)),
            (Phase::Open, _) => {
                b.phase = Phase::Element;
                b.pushed = false;
                super::depth::fresh_element(&mut b.element);
            }
            (Phase::Element, _) => {}
        }
        let Some(items) = slot.get() else {
            return Step::More;
        };
        let Some(element) = b.element.as_deref_mut() else {
            return Step::More;
        };
        let (index, position) = (b.index, b.position);
        let mut tail = Tail {
            items,
            pushed: &mut b.pushed,
        };
        let step = ctx.nested(
            PathSegment::Index(index),
            |f| Item::Inner(position, f),
            |inner| T::step(element, &mut tail, event, inner),
        );
        if let Step::Done(value) = step {
            b.phase = Phase::Open;
            b.index += 1;
            if b.pushed {
                b.position += 1;
            }
            match value {
                Ok(value) => ctx.emit(Item::Settled(position, value)),
                Err(error) => ctx.reject(PathSegment::Index(index), error),
            }
        }
        Step::More
    }
}
