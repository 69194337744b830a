//! Memory saved between runs: a `LiveStore` and the configs through JSON and back, with the same
//! behaviour afterwards, and a saved store that breaks an invariant refused with an error to
//! match.
//!
//! Loading is what the `deserialize` feature adds, so this file needs it; every other test runs
//! with and without it (`make test-native`).

#![cfg(feature = "deserialize")]

use agent_memory_widgets::{
    Distilled, Distiller, Error, ErrorKind, FactId, FactKind, LiveStore, SavedStore, SessionConfig,
    StoreConfig, Time, Tokens,
};
use proptest::prelude::*;

/// A distiller that hands back a fixed list.
struct Fixed(Vec<Distilled>);

impl Distiller for Fixed {
    fn distill(&self, _: &LiveStore) -> Result<Vec<Distilled>, Error> {
        Ok(self.0.clone())
    }
}

fn at(t: f64) -> Time {
    Time::new(t).unwrap()
}

/// A store with every status and kind in it: active, superseded, evicted, refreshed, read, and a
/// distilled fact citing its episodes.
fn busy_store() -> LiveStore {
    let config = StoreConfig::new(4.0, 3, 0.5)
        .unwrap()
        .with_lasting_half_lives(10.0, 20.0)
        .unwrap();
    let mut store = LiveStore::new(config);
    store
        .write(FactId(1), "the user is Dana", 0.4, None)
        .unwrap();
    store
        .write(FactId(2), "order ORD-3300 was $200.00", 0.55, None)
        .unwrap();
    store
        .write(FactId(3), "the refund is pending", 0.65, None)
        .unwrap();
    store.advance_to(at(2.0)).unwrap();
    store.read(FactId(1)).unwrap();
    store
        .write(FactId(4), "refund approved: $180.00", 0.9, Some(FactId(3)))
        .unwrap();
    store.advance_to(at(5.5)).unwrap();
    store
        .write(FactId(5), "THE USER IS DANA ", 0.5, None)
        .unwrap(); // a refresh of fact 1
    store
        .write(FactId(6), "Dana asks about the Globex warranty", 0.7, None)
        .unwrap(); // evicts
    let distilled = Distilled {
        id: FactId(7),
        kind: FactKind::Semantic,
        text: "Dana's order ORD-3300 was refunded $180.00".into(),
        importance: 0.9,
        sources: vec![FactId(2), FactId(3), FactId(4)],
    };
    store.consolidate(&Fixed(vec![distilled])).unwrap();
    store
}

/// The same writes and reads on both stores give the same outcomes and the same store.
fn same_behaviour(mut a: LiveStore, mut b: LiveStore) {
    let t = a.time().get();
    for (i, (text, importance)) in [
        ("a new fact", 0.3),
        ("the user is dana", 0.2),
        ("another", 0.95),
    ]
    .into_iter()
    .enumerate()
    {
        let id = FactId(100 + i as u32);
        let when = at(t + i as f64);
        a.advance_to(when).unwrap();
        b.advance_to(when).unwrap();
        assert_eq!(
            a.write(id, text, importance, None),
            b.write(id, text, importance, None)
        );
        let top = a.top_k(1);
        assert_eq!(top, b.top_k(1));
        assert_eq!(a.read(top[0]), b.read(top[0]));
        assert_eq!(a.top_k(10), b.top_k(10));
    }
    assert_eq!(a, b);
}

#[test]
fn a_saved_store_loads_as_the_same_store_and_behaves_the_same() {
    let store = busy_store();
    let json = serde_json::to_string(&store).unwrap();
    let loaded: LiveStore = serde_json::from_str(&json).unwrap();
    // Equal includes the rebuilt ranking and the index of active texts.
    assert_eq!(loaded, store);
    assert_eq!(serde_json::to_string(&loaded).unwrap(), json);
    same_behaviour(store, loaded);
}

#[test]
fn a_saved_store_is_plain_json() {
    let mut store = LiveStore::new(StoreConfig::default());
    store
        .write(FactId(1), "the user is Dana", 0.5, None)
        .unwrap();
    store
        .write(FactId(2), "Dana is a user", 0.5, Some(FactId(1)))
        .unwrap();
    assert_eq!(
        serde_json::to_string(&store).unwrap(),
        r#"{"config":{"halfLife":4.0,"capacity":4,"accessBoost":0.5,"semanticHalfLife":16.0,"proceduralHalfLife":32.0},"time":0.0,"facts":[{"id":1,"text":"the user is Dana","kind":"episodic","importance":0.5,"lastTouch":0.0,"reads":0,"status":{"superseded":{"by":2}},"sources":[]},{"id":2,"text":"Dana is a user","kind":"episodic","importance":0.5,"lastTouch":0.0,"reads":0,"status":"active","sources":[]}]}"#
    );
}

#[test]
fn the_configs_round_trip_and_are_checked_when_read() {
    let config = SessionConfig::new(Tokens(60), 3).unwrap();
    let json = serde_json::to_string(&config).unwrap();
    assert_eq!(json, r#"{"budget":60,"hotN":3}"#);
    assert_eq!(
        serde_json::from_str::<SessionConfig>(&json).unwrap(),
        config
    );
    let err = serde_json::from_str::<SessionConfig>(r#"{"budget":60,"hotN":0}"#).unwrap_err();
    assert!(err
        .to_string()
        .starts_with("hot_n must be a whole number of at least 1, got 0"));
    let early = config.with_compact_at(Some(70)).unwrap();
    let json = serde_json::to_string(&early).unwrap();
    assert_eq!(json, r#"{"budget":60,"hotN":3,"compactAt":70}"#);
    assert_eq!(serde_json::from_str::<SessionConfig>(&json).unwrap(), early);
    let err = serde_json::from_str::<SessionConfig>(&json.replace("70", "101")).unwrap_err();
    assert!(err
        .to_string()
        .starts_with("compact_at must be a whole number of at most 100, got 101"));

    let config = busy_store().config();
    let json = serde_json::to_string(&config).unwrap();
    assert_eq!(serde_json::from_str::<StoreConfig>(&json).unwrap(), config);
    let bad = json.replace("\"halfLife\":4.0", "\"halfLife\":0.0");
    let err = serde_json::from_str::<StoreConfig>(&bad).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("half_life must be a number from 0.001"),
        "{err}"
    );
}

/// The saved form of `busy_store`, changed by `edit`, loaded.
fn load_edited(edit: impl FnOnce(&mut SavedStore)) -> Result<LiveStore, Error> {
    let json = serde_json::to_string(&busy_store()).unwrap();
    let mut saved: SavedStore = serde_json::from_str(&json).unwrap();
    edit(&mut saved);
    LiveStore::try_from(saved)
}

#[test]
fn a_saved_store_that_breaks_an_invariant_is_refused_with_an_error_to_match() {
    let field = |err: Error| match err.kind() {
        ErrorKind::InvalidOption { field } => field.clone(),
        other => panic!("expected an invalid option, got {other:?}: {err}"),
    };
    // Fact ids are 1, 2, 3, 4, 6 and 7 in order (fact 5 refreshed fact 1), at positions 0..=5.
    let err = load_edited(|s| s.facts[0].importance = 0.0).unwrap_err();
    assert_eq!(field(err), "facts[0].importance");
    let err = load_edited(|s| s.facts[1].importance = f64::NAN).unwrap_err();
    assert_eq!(field(err), "facts[1].importance");
    let err = load_edited(|s| s.facts[2].text = "  ".into()).unwrap_err();
    assert_eq!(field(err), "facts[2].text");
    let err = load_edited(|s| s.facts[3].last_touch = at(9.0)).unwrap_err();
    assert_eq!(
        err.message(),
        "facts[3].lastTouch must not be after the store's time 5.5, got 9"
    );
    // Fact 6 is active; give it the text of active fact 1.
    let err = load_edited(|s| s.facts[4].text = "The user is Dana".into()).unwrap_err();
    assert_eq!(
        err.message(),
        "facts[4].text repeats the text of active fact 1"
    );
    let err = load_edited(|s| s.facts[5].id = FactId(1)).unwrap_err();
    assert_eq!(*err.kind(), ErrorKind::DuplicateId { id: FactId(1) });
    let err = load_edited(|s| {
        s.facts.retain(|fact| fact.id != FactId(4));
    })
    .unwrap_err();
    assert_eq!(*err.kind(), ErrorKind::NoSuchFact { id: FactId(4) });
    let err = load_edited(|s| s.config = StoreConfig::new(4.0, 1, 0.5).unwrap()).unwrap_err();
    assert_eq!(field(err), "facts");
    // Through serde the same checks hold; the message comes through.
    let json = serde_json::to_string(&busy_store()).unwrap().replacen(
        "\"importance\":0.5",
        "\"importance\":4.0",
        1,
    );
    let err = serde_json::from_str::<LiveStore>(&json).unwrap_err();
    assert!(
        err.to_string().starts_with("facts[0].importance must be"),
        "{err}"
    );
    // An unknown field is refused, not ignored.
    let json = serde_json::to_string(&busy_store()).unwrap().replacen(
        "{\"config\"",
        "{\"extra\":1,\"config\"",
        1,
    );
    assert!(serde_json::from_str::<LiveStore>(&json).is_err());
}

#[derive(Clone, Debug)]
enum Op {
    Write(u32, f64, Option<u32>),
    Read(u32),
    Advance(f64),
    Distill(u32, Vec<u32>),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0u32..6, 0.05f64..=1.0, prop::option::of(1u32..30)).prop_map(|(t, i, s)| Op::Write(t, i, s)),
        2 => (1u32..30).prop_map(Op::Read),
        2 => (0.0f64..3.0).prop_map(Op::Advance),
        1 => (0u32..6, prop::collection::vec(1u32..30, 0..3)).prop_map(|(t, s)| Op::Distill(t, s)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    /// Whatever the store went through, saving and loading it changes nothing, now or later.
    #[test]
    fn any_store_round_trips(capacity in 1u32..6, ops in prop::collection::vec(op(), 0..40)) {
        let mut store = LiveStore::new(StoreConfig::new(3.0, capacity, 0.5).unwrap());
        let mut next = 1;
        for op in ops {
            match op {
                Op::Write(text, importance, supersedes) => {
                    let _ = store.write(FactId(next), &format!("fact {text}"), importance, supersedes.map(FactId));
                    next += 1;
                }
                Op::Read(id) => { let _ = store.read(FactId(id)); }
                Op::Advance(dt) => { let _ = store.advance_to(at(store.time().get() + dt)); }
                Op::Distill(text, sources) => {
                    let fact = Distilled {
                        id: FactId(next),
                        kind: FactKind::Procedural,
                        text: format!("rule {text}"),
                        importance: 0.8,
                        sources: sources.into_iter().map(FactId).collect(),
                    };
                    let _ = store.consolidate(&Fixed(vec![fact]));
                    next += 1;
                }
            }
        }
        let json = serde_json::to_string(&store).unwrap();
        let loaded: LiveStore = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&loaded, &store);
        same_behaviour(store, loaded);
    }
}

/// Found by `any_store_round_trips`: a distilled fact whose text repeats an active fact refreshes
/// that fact, so its episodes are superseded by it, never by an id the store does not hold.
#[test]
fn a_distilled_fact_that_repeats_an_active_fact_supersedes_by_that_fact() {
    let mut store = LiveStore::new(StoreConfig::default());
    store
        .write(FactId(1), "refund approved", 0.5, None)
        .unwrap();
    store
        .write(FactId(2), "Dana asked for a refund", 0.5, None)
        .unwrap();
    let distilled = Distilled {
        id: FactId(3),
        kind: FactKind::Semantic,
        text: "Refund approved".into(),
        importance: 0.9,
        sources: vec![FactId(2)],
    };
    let outcomes = store.consolidate(&Fixed(vec![distilled])).unwrap();
    assert_eq!((outcomes[0].fact, outcomes[0].refreshed), (FactId(1), true));
    assert_eq!(
        store.get(FactId(2)).unwrap().status,
        agent_memory_widgets::Status::Superseded { by: FactId(1) }
    );
    assert_eq!(store.get(FactId(3)), None);
    let json = serde_json::to_string(&store).unwrap();
    assert_eq!(serde_json::from_str::<LiveStore>(&json).unwrap(), store);
}

/// The other side of the rule above: when the fact whose text the distilled one repeats is itself
/// one of the episodes being folded, it is retired with the rest, so every episode is superseded
/// by the new distilled fact.
#[test]
fn a_distilled_fact_that_repeats_one_of_its_own_episodes_supersedes_by_itself() {
    let mut store = LiveStore::new(StoreConfig::default());
    store
        .write(FactId(1), "refund approved", 0.5, None)
        .unwrap();
    store
        .write(FactId(2), "Dana asked for a refund", 0.5, None)
        .unwrap();
    let distilled = Distilled {
        id: FactId(3),
        kind: FactKind::Semantic,
        text: "Refund approved".into(),
        importance: 0.9,
        sources: vec![FactId(1), FactId(2)],
    };
    let outcomes = store.consolidate(&Fixed(vec![distilled])).unwrap();
    assert_eq!(
        (outcomes[0].fact, outcomes[0].refreshed),
        (FactId(3), false)
    );
    for episode in [FactId(1), FactId(2)] {
        assert_eq!(
            store.get(episode).unwrap().status,
            agent_memory_widgets::Status::Superseded { by: FactId(3) }
        );
    }
    assert_eq!(store.get(FactId(3)).unwrap().kind, FactKind::Semantic);
    let json = serde_json::to_string(&store).unwrap();
    assert_eq!(serde_json::from_str::<LiveStore>(&json).unwrap(), store);
}
