//! Sleep-time consolidation: distilled semantic facts and procedural rules, with their sources,
//! slower half-lives, and a place on the timeline like any write.

use agent_memory_widgets::{
    Action, Distilled, Distiller, Error, FactKind, FactStore, FactView, LiveStore, StoreConfig,
    Time,
};
use agent_memory_widgets::{EventIndex, FactId, Status};
use proptest::prelude::*;

fn at(store: &mut FactStore, t: f64) {
    store.set_time(Time::new(t).unwrap());
}

fn fact(facts: &[FactView], id: u32) -> &FactView {
    facts.iter().find(|f| f.id == id).unwrap()
}

#[test]
fn the_refund_desk_consolidates_into_two_facts_and_a_rule_that_cite_their_episodes() {
    let mut store = FactStore::default();
    at(&mut store, 6.0);
    store.fire(EventIndex(0)).unwrap();
    store.fire(EventIndex(1)).unwrap(); // evicts fact 2, the order, as the weakest
    at(&mut store, 8.0);
    let distilled = store.consolidate().unwrap();
    let ids: Vec<FactId> = distilled.iter().map(|c| c.fact).collect();
    assert_eq!(ids, [7, 8, 9]);
    assert!(distilled
        .iter()
        .all(|c| c.action == Action::Distill && c.evicted.is_none()));

    let state = store.state();
    let active: Vec<(u32, FactKind, &str, Vec<u32>)> = state
        .facts
        .iter()
        .filter(|f| f.status.name() == "active")
        .map(|f| {
            let sources = f.sources.iter().map(|id| id.0).collect();
            (f.id.0, f.kind, f.text.as_str(), sources)
        })
        .collect();
    assert_eq!(
        active,
        [
            (
                7,
                FactKind::Semantic,
                "Dana's order ORD-3300 was refunded $180.00",
                vec![1, 3, 5]
            ),
            (
                9,
                FactKind::Procedural,
                "for a return past 30 days, refund the price minus a 10% restocking fee",
                vec![4]
            ),
            (
                8,
                FactKind::Semantic,
                "Dana has an open question on the Globex earbuds warranty",
                vec![6]
            ),
        ]
    );
    // The episodes they cover are superseded, not deleted. The order was evicted at t = 6, so it
    // is forgotten: the rule names it, but the distilled fact does not cite it, and it stays
    // evicted. The pending refund, superseded at t = 6, is still held, so it is cited.
    for (episode, by) in [(1, 7), (5, 7), (6, 8), (4, 9), (3, 5)] {
        let f = fact(&state.facts, episode);
        assert_eq!(
            (f.status.name(), f.superseded_by),
            ("superseded", Some(FactId(by))),
            "fact {episode}"
        );
    }
    assert_eq!(fact(&state.facts, 2).status, Status::Evicted);
    assert_eq!(
        (state.semantic_half_life, state.procedural_half_life),
        (16.0, 32.0)
    );
    assert_eq!(
        (
            fact(&state.facts, 7).half_life,
            fact(&state.facts, 9).half_life
        ),
        (16.0, 32.0)
    );
    assert_eq!(state.consolidated_at.map(Time::get), Some(8.0));

    // Dragging time back before the pass undoes it; forward again redoes it.
    at(&mut store, 7.0);
    let before = store.state();
    assert!(before.facts.iter().all(|f| f.kind == FactKind::Episodic));
    assert_eq!(before.active_count, 4);
    at(&mut store, 8.0);
    assert_eq!(store.state(), state);
}

#[test]
fn distilled_knowledge_fades_more_slowly_than_episodes() {
    let mut store = FactStore::default();
    store.consolidate().unwrap(); // at t = 0 only the fee rule applies: its episode is written
    at(&mut store, 8.0);
    let state = store.state();
    let rule = fact(&state.facts, 9);
    assert_eq!(
        (rule.kind, rule.recency),
        (FactKind::Procedural, 0.5f64.powf(8.0 / 32.0))
    );
    let episode = fact(&state.facts, 1);
    assert_eq!(episode.recency, 0.25);
    // Run again at t = 8, the pass moves there: as if it had only ever run at t = 8.
    store.consolidate().unwrap();
    let mut moved = FactStore::default();
    at(&mut moved, 8.0);
    moved.consolidate().unwrap();
    assert_eq!(store.state(), moved.state());
    assert_eq!(store.state().consolidated_at.map(|t| t.get()), Some(8.0));
}

/// Evicts across kinds by score now: the semantic fact outlives a fresher-looking episode.
#[test]
fn eviction_compares_the_weakest_of_each_kind_at_the_current_time() {
    struct One;
    impl Distiller for One {
        fn distill(&self, _: &LiveStore) -> Result<Vec<Distilled>, Error> {
            Ok(vec![Distilled {
                id: FactId(10),
                kind: FactKind::Semantic,
                text: "lasting".into(),
                importance: 0.5,
                sources: vec![FactId(1)],
            }])
        }
    }
    let mut store = LiveStore::new(StoreConfig::new(1.0, 2, 0.0).unwrap());
    store.write(FactId(1), "episode a", 0.9, None).unwrap();
    store.consolidate(&One).unwrap(); // semantic, half-life 4
    store.write(FactId(2), "episode b", 0.9, None).unwrap();
    store.advance_to(Time::new(4.0).unwrap()).unwrap();
    // Now: lasting 0.5 * 0.5 = 0.25, episode b 0.9 / 16 = 0.056; a new write evicts episode b.
    let outcome = store.write(FactId(3), "episode c", 0.1, None).unwrap();
    assert_eq!(outcome.evicted, Some(FactId(2)));
    assert_eq!(store.top_k(2), [10, 3]);
}

/// An evicted episode is forgotten: whatever a distiller names, it is not cited and stays evicted.
#[test]
fn a_distilled_fact_never_cites_an_evicted_episode() {
    struct All;
    impl Distiller for All {
        fn distill(&self, _: &LiveStore) -> Result<Vec<Distilled>, Error> {
            Ok(vec![Distilled {
                id: FactId(10),
                kind: FactKind::Semantic,
                text: "what happened".into(),
                importance: 0.5,
                sources: vec![FactId(1), FactId(2), FactId(3), FactId(99)],
            }])
        }
    }
    let mut store = LiveStore::new(StoreConfig::new(4.0, 2, 0.0).unwrap());
    store.write(FactId(1), "a weak episode", 0.1, None).unwrap();
    store.write(FactId(2), "an episode", 0.8, None).unwrap();
    store
        .write(FactId(3), "a newer episode", 0.9, None)
        .unwrap(); // over capacity: evicts fact 1
    store.consolidate(&All).unwrap();
    let distilled = store.get(FactId(10)).unwrap();
    assert_eq!(distilled.sources, [2, 3]);
    assert_eq!(
        store.get(FactId(1)).unwrap().status,
        agent_memory_widgets::Status::Evicted
    );
    assert_eq!(
        store.get(FactId(2)).unwrap().status,
        agent_memory_widgets::Status::Superseded { by: FactId(10) }
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn consolidation_never_loses_a_record_and_is_deterministic(
        fire0 in proptest::option::of(0u8..=12),
        fire1 in proptest::option::of(0u8..=12),
        pass in 0u8..=12,
        capacity in 1u32..6,
    ) {
        let run = || {
            let config = StoreConfig::new(4.0, capacity, 0.5).unwrap();
            let mut store = FactStore::new(config, agent_memory_widgets::Scenario::refund_desk());
            let mut plan: Vec<(u8, u8)> = [(fire0, 0), (fire1, 1)].into_iter().filter_map(|(t, i)| t.map(|t| (t, i))).collect();
            plan.push((pass, 2));
            plan.sort();
            for (t, what) in plan {
                at(&mut store, f64::from(t));
                if what == 2 { store.consolidate().unwrap(); } else { store.fire(EventIndex(u32::from(what))).unwrap(); }
            }
            at(&mut store, 12.0);
            store.state()
        };
        let state = run();
        // Every fact written stays in the record, and every distilled fact's sources are there,
        // superseded rather than missing; an evicted episode is forgotten and never cited.
        for distilled in state.facts.iter().filter(|f| f.kind != FactKind::Episodic) {
            for source in &distilled.sources {
                let episode = state.facts.iter().find(|f| f.id == *source);
                prop_assert!(episode.is_some(), "source {} of {} is missing", source, distilled.id);
                prop_assert_eq!(episode.unwrap().status.name(), "superseded", "source {} of {}", source, distilled.id);
            }
        }
        let written = state.log.iter().filter(|c| matches!(c.action, Action::Write | Action::Distill)).count();
        prop_assert_eq!(written, state.facts.len());
        prop_assert!(state.active_count <= capacity);
        prop_assert_eq!(serde_json::to_string(&state).unwrap(), serde_json::to_string(&run()).unwrap());
    }
}

#[test]
fn the_forecast_says_when_a_fact_becomes_the_weakest() {
    use agent_memory_widgets::{RuleSpec, Scenario, ScenarioSpec, SeedFactSpec};
    // At t = 0 the refund desk's facts share one half-life: only Dana is (and stays) weakest.
    let mut store = FactStore::default();
    store.consolidate().unwrap(); // the fee rule, procedural, replaces fact 4
    let state = store.state();
    let forecast = |id| fact(&state.facts, id).forecast.unwrap();
    assert_eq!(forecast(1).weakest_at.map(|t| t.get()), Some(0.0));
    assert_eq!(forecast(2).weakest_at.map(|t| t.get()), None);
    assert_eq!(forecast(9).weakest_at.map(|t| t.get()), None);
    assert_eq!(
        (forecast(1).half_at.get(), forecast(9).half_at.get()),
        (4.0, 32.0)
    );
    assert_eq!(fact(&state.facts, 4).forecast, None);

    // A strong episode fades past a weak but lasting semantic fact: 0.9 · 2^(−Δ/4) = 0.3 · 2^(−Δ/16)
    // at Δ = 16 · log2(3) / 3.
    let seed = |text: &str, importance| SeedFactSpec {
        text: Some(text.into()),
        importance: Some(importance),
    };
    let spec = ScenarioSpec {
        facts: vec![seed("a strong episode", 0.9), seed("a weak episode", 0.2)],
        consolidation: vec![RuleSpec {
            kind: Some("semantic".into()),
            text: Some("what the weak episode meant".into()),
            importance: Some(0.3),
            sources: vec![2.0],
        }],
        ..ScenarioSpec::default()
    };
    let mut store = FactStore::new(StoreConfig::default(), Scenario::new(spec).unwrap());
    store.consolidate().unwrap();
    let state = store.state();
    let when = fact(&state.facts, 1)
        .forecast
        .unwrap()
        .weakest_at
        .map(|t| t.get())
        .unwrap();
    assert!((when - 16.0 * 3f64.log2() / 3.0).abs() < 1e-12, "{when}");
    assert_eq!(
        fact(&state.facts, 3)
            .forecast
            .unwrap()
            .weakest_at
            .map(|t| t.get()),
        Some(0.0)
    );
}

#[test]
fn the_chart_falls_jumps_at_reads_and_ends_at_an_eviction() {
    let mut store = FactStore::default();
    at(&mut store, 6.0);
    store.fire(EventIndex(1)).unwrap(); // evicts the order (fact 2) at t = 6
    let lines = store.chart(Time::new(12.0).unwrap(), 1.0).unwrap();
    let line = |id| lines.iter().find(|l| l.id == id).unwrap();
    let times = |id| line(id).points.iter().map(|p| p[0]).collect::<Vec<_>>();
    // The order ends exactly at t = 6, with its score just before the eviction.
    assert_eq!(times(2), [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(line(2).points[6][1], 0.55 * 0.5f64.powf(1.5));
    assert_eq!(line(2).retired_at, Some(6.0));
    assert_eq!(times(6), [6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0]);
    assert_eq!(line(6).retired_at, None);
    // Dana falls, then rises straight up at the reads at t = 2 and t = 5: two points at each.
    let dana = &line(1).points;
    assert_eq!(
        times(1),
        [0.0, 1.0, 2.0, 2.0, 3.0, 4.0, 5.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0]
    );
    assert_eq!(dana[2], [2.0, 0.4 * 0.5f64.powf(0.5)]);
    assert_eq!(dana[3], [2.0, 0.4 * 0.5f64.powf(0.5) * 1.5]);
    assert!(dana[1][1] > dana[2][1], "falls until the read");

    // A fact a write evicts at t = 0, as it fires, still has its line: one point, at t = 0.
    let mut store = FactStore::default();
    store.fire(EventIndex(1)).unwrap(); // evicts Dana (fact 1) at t = 0
    let lines = store.chart(Time::new(12.0).unwrap(), 1.0).unwrap();
    let dana = lines.iter().find(|l| l.id == FactId(1)).unwrap();
    assert_eq!(
        (dana.points.as_slice(), dana.retired_at),
        (&[[0.0, 0.4]][..], Some(0.0))
    );
    assert_eq!(lines.len(), 5);

    // The breakpoints are exact at any step: an event at t = 5.75 with samples every 0.5.
    let mut store = FactStore::default();
    at(&mut store, 5.75);
    store.fire(EventIndex(0)).unwrap(); // supersedes the pending refund (fact 3)
    let lines = store.chart(Time::new(12.0).unwrap(), 0.5).unwrap();
    let pending = lines.iter().find(|l| l.id == 3).unwrap();
    assert_eq!(pending.points.last().unwrap()[0], 5.75);
    assert_eq!(pending.retired_at, Some(5.75));
    let refund = lines.iter().find(|l| l.id == 5).unwrap();
    assert_eq!(refund.points[0], [5.75, 0.9]);
    assert_eq!(
        store
            .chart(Time::new(12.0).unwrap(), 0.0)
            .unwrap_err()
            .to_string(),
        "step must be above 0 and give at most 10001 samples up to 12, got 0"
    );
}

#[test]
fn a_fact_written_and_retired_at_one_time_keeps_its_point_on_the_chart() {
    // Both writes and Consolidate at t = 6: the store is full, so distilling evicts or
    // supersedes facts written at t = 6 itself. Each still has its point, and ends there.
    let mut store = FactStore::default();
    at(&mut store, 6.0);
    store.fire(EventIndex(0)).unwrap();
    store.fire(EventIndex(1)).unwrap();
    store.consolidate().unwrap();
    let lines = store.chart(Time::new(12.0).unwrap(), 1.0).unwrap();
    let state = store.state();
    let charted: Vec<u32> = lines.iter().map(|l| l.id.0).collect();
    let mut held: Vec<u32> = state.facts.iter().map(|f| f.id.0).collect();
    held.sort_unstable();
    assert_eq!(charted, held, "every fact the store held is on the chart");
    let at_six: Vec<u32> = lines
        .iter()
        .filter(|l| l.points == [[6.0, l.points[0][1]]] && l.retired_at == Some(6.0))
        .map(|l| l.id.0)
        .collect();
    assert!(
        !at_six.is_empty(),
        "some fact was written and retired at t = 6"
    );
}

#[test]
fn the_transcript_says_where_each_turn_lives_now() {
    let mut session = agent_memory_widgets::Session::default();
    session.go_to(10);
    let places: Vec<&str> = session
        .state()
        .transcript
        .iter()
        .map(|t| t.place.name())
        .collect();
    assert_eq!(
        places,
        ["dropped", "cold", "cold", "cold", "dropped", "cold", "cold", "warm", "hot", "hot"]
    );
}
