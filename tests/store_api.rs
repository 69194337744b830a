//! The store a real agent needs (issue 39): writes of any kind, `read` returning the fact,
//! `set_importance`, `forget`, a retention that bounds memory, times in Unix seconds or
//! milliseconds, and errors that carry their cause. Each call keeps the store's invariants, and
//! a failed call changes nothing (as tests/atomicity.rs checks for the others).

use agent_memory_widgets::{
    Distilled, Distiller, Error, ErrorKind, Fact, FactId, FactKind, LiveStore, Status, StoreConfig,
    Time,
};
#[path = "common/store.rs"]
mod store;
use proptest::prelude::*;
use store::{at, semantic, Fixed};

fn ids(store: &LiveStore) -> Vec<u32> {
    store.facts().map(|fact| fact.id.0).collect()
}

#[test]
fn a_write_can_be_of_any_kind_and_fades_with_its_kinds_half_life() {
    let config = StoreConfig::new(2.0, 10, 0.5)
        .unwrap()
        .with_lasting_half_lives(4.0, 8.0)
        .unwrap();
    let mut store = LiveStore::new(config);
    store
        .write_as(FactKind::Episodic, FactId(1), "Dana called", 0.8, None)
        .unwrap();
    store
        .write_as(
            FactKind::Semantic,
            FactId(2),
            "Dana prefers email",
            0.8,
            None,
        )
        .unwrap();
    store
        .write_as(
            FactKind::Procedural,
            FactId(3),
            "refunds over $100 need approval",
            0.8,
            None,
        )
        .unwrap();
    store.advance_to(at(8.0)).unwrap();
    let kinds: Vec<FactKind> = store.facts().map(|fact| fact.kind).collect();
    assert_eq!(
        kinds,
        [FactKind::Episodic, FactKind::Semantic, FactKind::Procedural]
    );
    assert_eq!(store.score(FactId(1)), Some(0.8 / 16.0));
    assert_eq!(store.score(FactId(2)), Some(0.8 / 4.0));
    assert_eq!(store.score(FactId(3)), Some(0.8 / 2.0));
    assert_eq!(store.top_k(3), [FactId(3), FactId(2), FactId(1)]);

    // `write` is an episodic `write_as`; a repeated text refreshes the fact, which keeps its kind.
    let outcome = store
        .write_as(
            FactKind::Procedural,
            FactId(4),
            "dana PREFERS email ",
            0.5,
            None,
        )
        .unwrap();
    assert_eq!((outcome.fact, outcome.refreshed), (FactId(2), true));
    assert_eq!(store.get(FactId(2)).unwrap().kind, FactKind::Semantic);
    assert_eq!(store.get(FactId(2)).unwrap().last_touch, 8.0);

    // It supersedes and evicts as `write` does, and fails as it does, changing nothing.
    let outcome = store
        .write_as(
            FactKind::Semantic,
            FactId(5),
            "Dana prefers phone",
            0.9,
            Some(FactId(2)),
        )
        .unwrap();
    assert_eq!(outcome.superseded, Some(FactId(2)));
    let before = store.clone();
    let err = store
        .write_as(FactKind::Semantic, FactId(5), "another", 0.5, None)
        .unwrap_err();
    assert_eq!(*err.kind(), ErrorKind::DuplicateId { id: FactId(5) });
    assert!(store
        .write_as(FactKind::Semantic, FactId(6), "x", 1.5, None)
        .is_err());
    assert_eq!(store, before);
}

#[test]
fn read_returns_the_fact_it_read() {
    let mut store = LiveStore::new(StoreConfig::default());
    store
        .write(FactId(1), "the user is Dana", 0.4, None)
        .unwrap();
    let fact: &Fact = store.read(FactId(1)).unwrap();
    assert_eq!((fact.id, fact.reads), (FactId(1), 1));
    assert_eq!(store.read(FactId(1)).unwrap().reads, 2);
    assert_eq!(
        *store.read(FactId(9)).unwrap_err().kind(),
        ErrorKind::NoSuchFact { id: FactId(9) }
    );
    store
        .write(FactId(2), "Dana", 0.5, Some(FactId(1)))
        .unwrap();
    assert_eq!(
        *store.read(FactId(1)).unwrap_err().kind(),
        ErrorKind::FactNotActive { id: FactId(1) }
    );
}

#[test]
fn set_importance_reranks_and_changes_nothing_else() {
    let mut store = LiveStore::new(StoreConfig::new(4.0, 3, 0.5).unwrap());
    store.write(FactId(1), "one", 0.2, None).unwrap();
    store.write(FactId(2), "two", 0.5, None).unwrap();
    store.write(FactId(3), "three", 0.6, None).unwrap();
    store.advance_to(at(2.0)).unwrap();
    assert_eq!(store.top_k(3), [FactId(3), FactId(2), FactId(1)]);
    let fact = store.set_importance(FactId(1), 1.0).unwrap();
    assert_eq!((fact.importance, fact.last_touch.get()), (1.0, 0.0));
    assert_eq!(store.top_k(3), [FactId(1), FactId(3), FactId(2)]);
    // Lower, too (a refresh would keep the larger).
    store.set_importance(FactId(3), 0.1).unwrap();
    assert_eq!(store.top_k(3), [FactId(1), FactId(2), FactId(3)]);
    assert_eq!(store.score(FactId(3)), Some(0.1 * 0.5f64.powf(0.5)));
    // The next write over capacity evicts the fact that is now weakest.
    let outcome = store.write(FactId(4), "four", 0.3, None).unwrap();
    assert_eq!(outcome.evicted, Some(FactId(3)));

    let before = store.clone();
    for (id, importance, kind) in [
        (FactId(2), 0.0, "importance"),
        (FactId(2), f64::NAN, "importance"),
        (FactId(3), 0.5, "not active"),
        (FactId(9), 0.5, "no such fact"),
    ] {
        let err = store.set_importance(id, importance).unwrap_err();
        let expected = match kind {
            "importance" => ErrorKind::InvalidOption {
                field: "importance".into(),
            },
            "not active" => ErrorKind::FactNotActive { id },
            _ => ErrorKind::NoSuchFact { id },
        };
        assert_eq!(*err.kind(), expected, "{err}");
        assert_eq!(store, before);
    }
}

#[test]
fn forget_removes_a_fact_for_good_with_its_earlier_versions() {
    let mut store = LiveStore::new(StoreConfig::new(4.0, 3, 0.5).unwrap());
    store
        .write(FactId(1), "Dana lives at 12 Elm St", 0.5, None)
        .unwrap();
    store
        .write(FactId(2), "Dana lives at 4 Oak Ave", 0.5, Some(FactId(1)))
        .unwrap();
    store
        .write(FactId(3), "Dana lives at 9 Pine Rd", 0.5, Some(FactId(2)))
        .unwrap();
    store
        .write(FactId(4), "Dana likes jazz", 0.5, None)
        .unwrap();
    let forgotten = store.forget(FactId(3)).unwrap();
    assert_eq!(forgotten.text, "Dana lives at 9 Pine Rd");
    assert_eq!(forgotten.status, Status::Active);
    // Fact 3 superseded 2, which superseded 1: the chain goes with it.
    assert_eq!(ids(&store), [4]);
    assert_eq!(store.top_k(5), [FactId(4)]);
    assert_eq!(store.active_count(), 1);
    assert!(store.facts().all(|fact| !fact.text.contains("lives at")));
    // The text is free again, and so is the id.
    store
        .write(FactId(3), "Dana lives at 9 Pine Rd", 0.5, None)
        .unwrap();
    assert_eq!(ids(&store), [3, 4]);

    let before = store.clone();
    let err = store.forget(FactId(99)).unwrap_err();
    assert_eq!(*err.kind(), ErrorKind::NoSuchFact { id: FactId(99) });
    assert_eq!(err.message(), "there is no fact 99");
    assert_eq!(store, before);
}

#[test]
fn forgetting_an_episode_takes_it_out_of_the_sources_that_cite_it() {
    let mut store = LiveStore::new(StoreConfig::default());
    store
        .write(FactId(1), "Dana asked for a refund", 0.5, None)
        .unwrap();
    store
        .write(FactId(2), "the refund was approved", 0.5, None)
        .unwrap();
    let distilled = semantic(3, "Dana was refunded", &[1, 2]);
    store.consolidate(&Fixed(vec![distilled])).unwrap();
    assert_eq!(
        store.get(FactId(3)).unwrap().sources,
        [FactId(1), FactId(2)]
    );
    let episode = store.forget(FactId(1)).unwrap();
    assert_eq!(episode.status, Status::Superseded { by: FactId(3) });
    assert_eq!(store.get(FactId(3)).unwrap().sources, [FactId(2)]);
    // Forgetting the distilled fact takes the episodes it folded (superseded by it) along.
    store.forget(FactId(3)).unwrap();
    assert_eq!(ids(&store), Vec::<u32>::new());
}

#[test]
fn a_retention_keeps_the_retired_facts_touched_last() {
    let config = StoreConfig::new(4.0, 2, 0.5).unwrap().with_retention(2);
    let mut store = LiveStore::new(config);
    for id in 1..=6 {
        store.advance_to(at(f64::from(id))).unwrap();
        store
            .write(FactId(id), &format!("fact {id}"), 0.5, None)
            .unwrap();
    }
    // Facts 1 to 4 were evicted in turn; the two touched last of them are kept.
    assert_eq!(ids(&store), [3, 4, 5, 6]);
    assert_eq!(store.get(FactId(4)).unwrap().status, Status::Evicted);
    // A supersession retires too (fact 6, touched last), and the oldest retired fact (3) goes.
    store
        .write(FactId(7), "fact 6, corrected", 0.9, Some(FactId(6)))
        .unwrap();
    assert_eq!(ids(&store), [4, 5, 6, 7]);
    assert_eq!(store.top_k(2), [FactId(7), FactId(5)]);
    // Retention 0 keeps no retired fact at all.
    let mut store = LiveStore::new(StoreConfig::new(4.0, 1, 0.5).unwrap().with_retention(0));
    for id in 1..=5 {
        store
            .write(FactId(id), &format!("fact {id}"), 0.5, None)
            .unwrap();
    }
    assert_eq!(store.facts().count(), 1);
    // Without one, every retired fact is kept, as before.
    let mut store = LiveStore::new(StoreConfig::new(4.0, 1, 0.5).unwrap());
    for id in 1..=5 {
        store
            .write(FactId(id), &format!("fact {id}"), 0.5, None)
            .unwrap();
    }
    assert_eq!(store.facts().count(), 5);
}

#[test]
fn a_store_at_capacity_with_a_retention_stays_bounded() {
    let (capacity, keep) = (50, 20);
    let config = StoreConfig::new(100.0, capacity, 0.5)
        .unwrap()
        .with_retention(keep);
    let mut store = LiveStore::new(config);
    for id in 1..=20_000u32 {
        if id % 7 == 0 {
            store.advance_to(at(f64::from(id))).unwrap();
        }
        let supersedes = (id % 5 == 0).then(|| FactId(id - 1));
        let importance = f64::from(id % 97 + 1) / 98.0;
        store
            .write(FactId(id), &format!("fact {id}"), importance, supersedes)
            .unwrap();
        if id % 11 == 0 {
            let top = store.top_k(1)[0];
            store.read(top).unwrap();
        }
        assert!(store.facts().count() <= (capacity + keep) as usize);
    }
    assert_eq!(store.active_count(), capacity as usize);
}

/// Times in Unix milliseconds (about 1.8e12 today) with half-lives in milliseconds: scores and
/// the ranking are as precise as at small times.
#[test]
fn unix_milliseconds_rank_and_score_correctly() {
    let hour = 3_600_000.0;
    let now = 1_800_000_000_000.0;
    let config = StoreConfig::new(hour, 100, 0.5).unwrap();
    let mut store = LiveStore::new(config);
    store.advance_to(at(now)).unwrap();
    store
        .write(FactId(1), "written an hour earlier", 0.9, None)
        .unwrap();
    store.advance_to(at(now + hour)).unwrap();
    store.write(FactId(2), "written now", 0.5, None).unwrap();
    store.advance_to(at(now + hour + 1.0)).unwrap(); // one millisecond later
    let (old, new) = (
        store.score(FactId(1)).unwrap(),
        store.score(FactId(2)).unwrap(),
    );
    let ms = 0.5f64.powf(1.0 / hour);
    assert!((old - 0.45 * ms).abs() < 1e-12, "{old}");
    assert!((new - 0.5 * ms).abs() < 1e-12, "{new}");
    assert_eq!(store.top_k(2), [FactId(2), FactId(1)]);
    // A read of the older one lifts it above (0.45 * 1.5 > 0.5).
    store.read(FactId(1)).unwrap();
    assert_eq!(store.top_k(2), [FactId(1), FactId(2)]);
    // Unix seconds, a decade of milliseconds and the limit are all times; past it is not.
    for t in [1.8e9, 3.2e11, 1.8e12, 1e13] {
        assert!(Time::new(t).is_ok(), "{t}");
    }
    assert_eq!(
        Time::new(1.1e13).unwrap_err().message(),
        "t must be a number from 0 to 10000000000000, got 11000000000000"
    );
    assert!(StoreConfig::new(1e13, 4, 0.5).is_ok());
    assert_eq!(
        StoreConfig::new(2e13, 4, 0.5).unwrap_err().message(),
        "half_life must be a number from 0.001 to 10000000000000, got 20000000000000"
    );
}

/// Scores are finite and positive across the whole range, at both ends of the half-life.
#[test]
fn scores_stay_finite_at_the_edges_of_the_range() {
    for half_life in [1e-3, 1.0, 1e13] {
        let mut store = LiveStore::new(StoreConfig::new(half_life, 4, 1000.0).unwrap());
        store.write(FactId(1), "at zero", 1.0, None).unwrap();
        store.advance_to(at(1e13)).unwrap();
        store.write(FactId(2), "at the end", 1e-300, None).unwrap();
        for _ in 0..3 {
            store.read(FactId(2)).unwrap();
        }
        for id in [FactId(1), FactId(2)] {
            let score = store.score(id).unwrap();
            assert!(score.is_finite() && score >= 0.0, "{half_life}: {score}");
        }
        assert_eq!(store.top_k(2).len(), 2);
    }
}

#[derive(Debug)]
struct Timeout;

impl core::fmt::Display for Timeout {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("the model timed out")
    }
}

impl std::error::Error for Timeout {}

#[test]
fn an_error_carries_its_source() {
    use std::error::Error as _;
    let plain = Error::new(ErrorKind::Other, "the distiller failed");
    assert!(plain.source().is_none());
    let err = plain.clone().with_source(Timeout);
    assert_eq!(err.source().unwrap().to_string(), "the model timed out");
    assert!(err.source().unwrap().downcast_ref::<Timeout>().is_some());
    assert_eq!(err.to_string(), "the distiller failed");
    let copy = err.clone();
    assert_eq!(copy.source().unwrap().to_string(), "the model timed out");
    // Equal on kind and message; the source takes no part.
    assert_eq!(err, plain);
    assert_ne!(err, Error::new(ErrorKind::Other, "something else"));
    // An IO error, boxed as `dyn Error + Send + Sync` by the caller.
    let io = std::io::Error::other("connection reset");
    let err = Error::new(ErrorKind::Other, "the summarizer failed").with_source(io);
    assert_eq!(err.source().unwrap().to_string(), "connection reset");
    // It passes through a distiller and `consolidate` untouched.
    struct Failing;
    impl Distiller for Failing {
        fn distill(&self, _: &LiveStore) -> Result<Vec<Distilled>, Error> {
            Err(Error::new(ErrorKind::Other, "the distiller failed").with_source(Timeout))
        }
    }
    let mut store = LiveStore::new(StoreConfig::default());
    let err = store.consolidate(&Failing).unwrap_err();
    assert_eq!(err.source().unwrap().to_string(), "the model timed out");
}

#[test]
fn the_store_its_errors_and_distillers_are_send_and_sync() {
    fn send_sync<T: Send + Sync + ?Sized>() {}
    send_sync::<Error>();
    send_sync::<LiveStore>();
    send_sync::<dyn Distiller>();
    send_sync::<Box<dyn Distiller>>();
    // A distiller can move to another thread with the store it consolidates.
    let distiller: Box<dyn Distiller> = Box::new(Fixed(vec![]));
    let mut store = LiveStore::new(StoreConfig::default());
    std::thread::spawn(move || store.consolidate(&*distiller).map(|o| o.len()))
        .join()
        .unwrap()
        .unwrap();
}

/// One call on a store, with ids and values that may be bad.
#[derive(Clone, Debug)]
enum Call {
    Write(u8, u32, u8, f64, Option<u32>),
    Read(u32),
    SetImportance(u32, f64),
    Forget(u32),
    Advance(f64),
    Consolidate(u32, u8, Vec<u32>),
}

fn wild_importance() -> impl Strategy<Value = f64> {
    prop_oneof![
        6 => 0.01f64..=1.0,
        1 => Just(0.0),
        1 => Just(1.5),
        1 => Just(f64::NAN),
    ]
}

fn call() -> impl Strategy<Value = Call> {
    let id = 0u32..16;
    prop_oneof![
        5 => (0u8..3, id.clone(), 0u8..8, wild_importance(), prop::option::of(0u32..16))
            .prop_map(|(k, id, t, i, s)| Call::Write(k, id, t, i, s)),
        2 => id.clone().prop_map(Call::Read),
        2 => (id.clone(), wild_importance()).prop_map(|(id, i)| Call::SetImportance(id, i)),
        2 => id.clone().prop_map(Call::Forget),
        2 => (0.0f64..6.0).prop_map(Call::Advance),
        1 => (id, 0u8..8, prop::collection::vec(0u32..16, 0..4))
            .prop_map(|(id, t, s)| Call::Consolidate(id, t, s)),
    ]
}

/// What every store holds to after every call: the ranking is a full sort of the active facts
/// by score (`top_k` its prefix), at most `capacity` are active and at most the retention are
/// retired, and every fact a status or a source names is held (which loading checks).
fn check_invariants(store: &LiveStore) -> Result<(), TestCaseError> {
    let config = store.config();
    let ranked: Vec<FactId> = store.ranked().collect();
    let mut active: Vec<&Fact> = store
        .facts()
        .filter(|fact| fact.status == Status::Active)
        .collect();
    prop_assert_eq!(ranked.len(), active.len());
    prop_assert_eq!(store.active_count(), active.len());
    prop_assert!(active.len() <= config.capacity() as usize);
    let retired = store.facts().count() - active.len();
    if let Some(keep) = config.retention() {
        prop_assert!(
            retired <= keep as usize,
            "{} retired, retention {}",
            retired,
            keep
        );
    }
    // The brute-force ranking: every active fact scored now, sorted.
    let score = |fact: &Fact| config.score(fact, store.time());
    active.sort_by(|a, b| score(b).total_cmp(&score(a)));
    for (got, want) in ranked.iter().zip(&active) {
        let (got, want) = (store.score(*got).unwrap(), score(want));
        prop_assert!(
            (got - want).abs() <= 1e-12 * want.abs(),
            "ranked {:?}",
            ranked
        );
    }
    for k in 0..=ranked.len() {
        prop_assert_eq!(&store.top_k(k)[..], &ranked[..k]);
    }
    for fact in store.facts() {
        for named in fact.status.superseded_by().iter().chain(&fact.sources) {
            prop_assert!(
                store.get(*named).is_some(),
                "fact {} names {}, gone",
                fact.id,
                named
            );
        }
    }
    Ok(())
}

const TEXTS: [&str; 8] = ["a", "b", "c", "d", " A ", "e", "", "  "];

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// Writes of every kind, reads, importance changes, forgets, time and consolidation passes,
    /// bad input mixed in, with or without a retention: each call keeps the invariants, a failed
    /// one leaves the store equal to a copy taken before it, and a successful `read`,
    /// `set_importance` or `forget` did what it says.
    #[test]
    fn calls_keep_the_invariants_and_failed_calls_change_nothing(
        capacity in 1u32..5,
        retention in prop::option::of(0u32..4),
        calls in prop::collection::vec(call(), 1..50),
    ) {
        let mut config = StoreConfig::new(3.0, capacity, 0.5).unwrap();
        if let Some(keep) = retention {
            config = config.with_retention(keep);
        }
        let kinds = [FactKind::Episodic, FactKind::Semantic, FactKind::Procedural];
        let mut store = LiveStore::new(config);
        for call in calls {
            let before = store.clone();
            let failed = match call.clone() {
                Call::Write(kind, id, text, importance, sup) => store
                    .write_as(kinds[kind as usize], FactId(id), TEXTS[text as usize], importance, sup.map(FactId))
                    .is_err(),
                Call::Read(id) => match store.read(FactId(id)) {
                    Ok(fact) => {
                        let (fact_id, reads) = (fact.id, fact.reads);
                        prop_assert_eq!(fact_id, FactId(id));
                        prop_assert_eq!(reads, before.get(FactId(id)).unwrap().reads + 1);
                        false
                    }
                    Err(_) => true,
                },
                Call::SetImportance(id, importance) => match store.set_importance(FactId(id), importance) {
                    Ok(fact) => {
                        prop_assert_eq!(fact.importance, importance);
                        prop_assert_eq!(fact.last_touch, before.get(FactId(id)).unwrap().last_touch);
                        false
                    }
                    Err(_) => true,
                },
                Call::Forget(id) => match store.forget(FactId(id)) {
                    Ok(fact) => {
                        prop_assert_eq!(Some(&fact), before.get(FactId(id)));
                        prop_assert!(store.get(FactId(id)).is_none());
                        // Gone too: exactly the facts superseded by a fact that went.
                        for old in before.facts() {
                            let kept = store.get(old.id).is_some();
                            let by_gone = old.status.superseded_by().is_some_and(|by| store.get(by).is_none());
                            prop_assert_eq!(kept, old.id != FactId(id) && !by_gone, "fact {}", old.id);
                        }
                        false
                    }
                    Err(_) => true,
                },
                Call::Advance(dt) => store.advance_to(Time::new(store.time().get() + dt).unwrap()).is_err(),
                Call::Consolidate(id, text, sources) => {
                    let fact = Distilled {
                        id: FactId(id),
                        kind: FactKind::Semantic,
                        text: TEXTS[text as usize].into(),
                        importance: 0.7,
                        sources: sources.into_iter().map(FactId).collect(),
                    };
                    store.consolidate(&Fixed(vec![fact])).is_err()
                }
            };
            if failed {
                prop_assert_eq!(&store, &before, "{:?} failed and changed the store", call);
            }
            check_invariants(&store)?;
        }
    }
}
