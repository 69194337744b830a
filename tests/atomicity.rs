//! Failure atomicity: a call that returns `Err` leaves its object exactly as it was, for every
//! fallible method of `LiveStore`, `FactStore` and `Session`.

use agent_memory_widgets::{
    Distilled, Distiller, Error, ErrorKind, FactKind, FactStore, LiveStore, StoreConfig, Time,
};
use agent_memory_widgets::{EventIndex, FactId};
use proptest::prelude::*;

/// A distiller that returns what it is given, or fails.
struct Fixed(Option<Vec<Distilled>>);

impl Distiller for Fixed {
    fn distill(&self, _: &LiveStore) -> Result<Vec<Distilled>, Error> {
        match &self.0 {
            Some(facts) => Ok(facts.clone()),
            None => Err(Error::new(ErrorKind::Other, "the distiller is down")),
        }
    }
}

#[test]
fn regression_a_distilled_fact_with_no_text_supersedes_nothing() {
    // The reproduction: fact 1 was left superseded by a fact 9 that was never written.
    let mut store = LiveStore::new(StoreConfig::default());
    store.write(FactId(1), "refund pending", 0.5, None).unwrap();
    let before = store.clone();
    let bad = Distilled {
        id: FactId(9),
        kind: FactKind::Semantic,
        text: "  ".into(),
        importance: 0.5,
        sources: vec![FactId(1)],
    };
    assert!(store.consolidate(&Fixed(Some(vec![bad]))).is_err());
    assert_eq!(store, before);
    assert!(store.get(FactId(9)).is_none());
}

#[test]
fn a_pass_that_names_one_id_twice_writes_nothing() {
    let mut store = LiveStore::new(StoreConfig::default());
    store.write(FactId(1), "episode", 0.5, None).unwrap();
    let before = store.clone();
    let fact = |text: &str| Distilled {
        id: FactId(9),
        kind: FactKind::Semantic,
        text: text.into(),
        importance: 0.5,
        sources: vec![FactId(1)],
    };
    let err = store
        .consolidate(&Fixed(Some(vec![fact("one"), fact("two")])))
        .unwrap_err();
    assert_eq!(err.message(), "fact 9 already exists; ids must be unique");
    assert_eq!(*err.kind(), ErrorKind::DuplicateId { id: FactId(9) });
    assert_eq!(store, before);
}

/// A distilled fact as generated: id, text, importance, sources.
type RawDistilled = (u32, &'static str, f64, Vec<u32>);

#[derive(Clone, Debug)]
enum LiveOp {
    Write(u32, &'static str, f64, Option<u32>),
    Read(u32),
    Advance(f64),
    Consolidate(Option<Vec<RawDistilled>>),
}

fn wild_importance() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => 0.01f64..=1.0,
        1 => Just(0.0),
        1 => Just(1.5),
        1 => Just(f64::NAN),
    ]
}

fn text() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["a", "b", "c", "d", " A ", "", "  "])
}

fn live_op() -> impl Strategy<Value = LiveOp> {
    let id = 0u32..12;
    let distilled = prop::collection::vec(
        (
            0u32..12,
            text(),
            wild_importance(),
            prop::collection::vec(0u32..12, 0..4),
        ),
        0..4,
    );
    prop_oneof![
        4 => (id.clone(), text(), wild_importance(), prop::option::of(0u32..12))
            .prop_map(|(id, text, importance, sup)| LiveOp::Write(id, text, importance, sup)),
        2 => id.prop_map(LiveOp::Read),
        2 => (0.0f64..8.0).prop_map(LiveOp::Advance),
        2 => prop::option::weighted(0.9, distilled).prop_map(LiveOp::Consolidate),
    ]
}

#[derive(Clone, Debug)]
enum TimelineOp {
    SetTime(f64),
    Fire(u32),
    Unfire(u32),
    Read(u32),
    Consolidate,
    Unconsolidate,
    Chart(f64, f64),
}

fn timeline_op() -> impl Strategy<Value = TimelineOp> {
    prop_oneof![
        3 => (0.0f64..12.0).prop_map(TimelineOp::SetTime),
        3 => (0u32..4).prop_map(TimelineOp::Fire),
        2 => (0u32..4).prop_map(TimelineOp::Unfire),
        3 => (0u32..12).prop_map(TimelineOp::Read),
        1 => Just(TimelineOp::Consolidate),
        1 => Just(TimelineOp::Unconsolidate),
        1 => (0.0f64..12.0, -1.0f64..2.0).prop_map(|(u, s)| TimelineOp::Chart(u, s)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// Writes, reads, time and consolidation passes with bad input mixed in: each call that
    /// fails leaves the store equal to a copy taken before it.
    #[test]
    fn a_failed_live_store_call_changes_nothing(
        capacity in 1u32..5,
        ops in prop::collection::vec(live_op(), 1..40),
    ) {
        let mut store = LiveStore::new(StoreConfig::new(4.0, capacity, 0.5).unwrap());
        for op in ops {
            let before = store.clone();
            let failed = match op.clone() {
                LiveOp::Write(id, text, importance, sup) => store.write(FactId(id), text, importance, sup.map(FactId)).is_err(),
                LiveOp::Read(id) => store.read(FactId(id)).is_err(),
                LiveOp::Advance(t) => store.advance_to(Time::new(t).unwrap()).is_err(),
                LiveOp::Consolidate(facts) => {
                    let facts = facts.map(|facts| {
                        facts
                            .into_iter()
                            .map(|(id, text, importance, sources)| Distilled {
                                id: FactId(id),
                                kind: FactKind::Semantic,
                                text: text.into(),
                                importance,
                                sources: sources.into_iter().map(FactId).collect(),
                            })
                            .collect()
                    });
                    store.consolidate(&Fixed(facts)).is_err()
                }
            };
            if failed {
                prop_assert_eq!(&store, &before, "{:?} failed and changed the store", op);
            }
        }
    }

    /// The timeline's calls in any order, at any time, with ids and indexes out of range: each
    /// call that fails leaves the timeline as it was.
    #[test]
    fn a_failed_fact_store_call_changes_nothing(
        ops in prop::collection::vec(timeline_op(), 1..30),
    ) {
        let mut store = FactStore::default();
        for op in ops {
            let before = store.clone();
            let failed = match op {
                TimelineOp::SetTime(t) => {
                    store.set_time(Time::new(t).unwrap());
                    false
                }
                TimelineOp::Fire(i) => store.fire(EventIndex(i)).is_err(),
                TimelineOp::Unfire(i) => store.unfire(EventIndex(i)).is_err(),
                TimelineOp::Read(id) => store.read(FactId(id)).is_err(),
                TimelineOp::Consolidate => store.consolidate().is_err(),
                TimelineOp::Unconsolidate => store.unconsolidate().is_err(),
                TimelineOp::Chart(until, step) => store.chart(Time::new(until).unwrap(), step).is_err(),
            };
            if failed {
                prop_assert_eq!(&store, &before, "{:?} failed and changed the timeline", op);
            }
        }
    }
}
