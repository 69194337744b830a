//! Shared setup for the store's tests: times and a distiller that hands back a fixed list.

use agent_memory_widgets::{Distilled, Distiller, Error, FactId, FactKind, LiveStore, Time};

/// A distiller that hands back a fixed list.
#[allow(dead_code)] // Not every test file that shares this module consolidates.
pub struct Fixed(pub Vec<Distilled>);

impl Distiller for Fixed {
    fn distill(&self, _: &LiveStore) -> Result<Vec<Distilled>, Error> {
        Ok(self.0.clone())
    }
}

/// The time `t`, which every test writes as a valid one.
#[allow(dead_code)] // Not every test file that shares this module sets times.
pub fn at(t: f64) -> Time {
    Time::new(t).unwrap()
}

/// A semantic fact of importance 0.9 distilled from the episodes `sources`, as an agent's
/// distiller writes one.
#[allow(dead_code)] // Not every test file that shares this module consolidates.
pub fn semantic(id: u32, text: &str, sources: &[u32]) -> Distilled {
    Distilled {
        id: FactId(id),
        kind: FactKind::Semantic,
        text: text.into(),
        importance: 0.9,
        sources: sources.iter().copied().map(FactId).collect(),
    }
}
