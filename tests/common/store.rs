//! Shared setup for the store's tests: times and a distiller that hands back a fixed list.

use agent_memory_widgets::{Distilled, Distiller, Error, LiveStore, Time};

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
