//! The fine print of forgetting that the seed and property tests leave open: custom lasting
//! half-lives, the bounds of the forget forecast, the chart's sampling rule, and what each
//! accessor returns on a store that is not the seed's. Each value is exact, worked out by hand
//! from the formulas in SPEC section 3, so that a planted bug (`make mutants`) shows up here.

use agent_memory_widgets::{
    FactKind, FactStore, FactView, LiveStore, RuleSpec, Scenario, ScenarioSpec, SeedFactSpec,
    StoreConfig, StoreOptions, Time,
};

fn at(t: f64) -> Time {
    Time::new(t).unwrap()
}

fn fact(facts: &[FactView], id: u32) -> &FactView {
    facts.iter().find(|fact| fact.id == id).unwrap()
}

fn seed(text: &str, importance: f64) -> SeedFactSpec {
    SeedFactSpec {
        text: Some(text.into()),
        importance: Some(importance),
    }
}

fn rule(kind: &str, text: &str, importance: f64, sources: &[f64]) -> RuleSpec {
    RuleSpec {
        kind: Some(kind.into()),
        text: Some(text.into()),
        importance: Some(importance),
        sources: sources.to_vec(),
    }
}

// ---------------------------------------------------------------------------------------------
// Lasting half-lives.

#[test]
fn lasting_half_lives_can_be_set_and_are_checked_one_by_one() {
    let base = StoreConfig::new(2.0, 4, 0.5).unwrap();
    assert_eq!(base.half_life_of(FactKind::Episodic), 2.0);
    assert_eq!(base.half_life_of(FactKind::Semantic), 8.0);
    assert_eq!(base.half_life_of(FactKind::Procedural), 16.0);

    let config = base.with_lasting_half_lives(3.0, 5.0).unwrap();
    assert_eq!(config.half_life_of(FactKind::Episodic), 2.0);
    assert_eq!(config.half_life_of(FactKind::Semantic), 3.0);
    assert_eq!(config.half_life_of(FactKind::Procedural), 5.0);
    assert_eq!(
        (config.half_life(), config.capacity(), config.access_boost()),
        (2.0, 4, 0.5)
    );
    // The smallest positive number is above 0.
    assert!(base.with_lasting_half_lives(5e-324, 5e-324).is_ok());

    let check = |semantic: f64, procedural: f64, expect: &str| {
        let err = base
            .with_lasting_half_lives(semantic, procedural)
            .unwrap_err();
        assert_eq!(err.message(), expect, "({semantic}, {procedural})");
    };
    check(
        0.0,
        1.0,
        "semanticHalfLife must be a finite number above 0, got 0",
    );
    check(
        -1.0,
        1.0,
        "semanticHalfLife must be a finite number above 0, got -1",
    );
    check(
        f64::INFINITY,
        1.0,
        "semanticHalfLife must be a finite number above 0, got Infinity",
    );
    check(
        f64::NAN,
        1.0,
        "semanticHalfLife must be a finite number above 0, got NaN",
    );
    check(
        1.0,
        0.0,
        "proceduralHalfLife must be a finite number above 0, got 0",
    );
    check(
        1.0,
        -0.5,
        "proceduralHalfLife must be a finite number above 0, got -0.5",
    );
    check(
        1.0,
        f64::NEG_INFINITY,
        "proceduralHalfLife must be a finite number above 0, got -Infinity",
    );
}

#[test]
fn options_set_either_lasting_half_life_alone_and_default_the_other() {
    let check = |options: StoreOptions, expect: (f64, f64, f64)| {
        let state = FactStore::from_options(options.clone()).unwrap().state();
        assert_eq!(
            (
                state.half_life,
                state.semantic_half_life,
                state.procedural_half_life
            ),
            expect,
            "{options:?}"
        );
    };
    let options = |half_life, semantic, procedural| StoreOptions {
        half_life,
        semantic_half_life: semantic,
        procedural_half_life: procedural,
        ..StoreOptions::default()
    };
    check(options(None, None, None), (4.0, 16.0, 32.0));
    check(options(Some(2.0), None, None), (2.0, 8.0, 16.0));
    check(options(Some(2.0), Some(3.0), None), (2.0, 3.0, 16.0));
    check(options(Some(2.0), None, Some(5.0)), (2.0, 8.0, 5.0));
    check(options(None, Some(6.0), Some(7.0)), (4.0, 6.0, 7.0));

    let err = FactStore::from_options(options(None, None, Some(0.0))).unwrap_err();
    assert_eq!(
        err.message(),
        "proceduralHalfLife must be a finite number above 0, got 0"
    );
}

#[test]
fn a_live_store_gives_back_the_config_it_was_made_with() {
    let config = StoreConfig::new(3.0, 7, 0.25)
        .unwrap()
        .with_lasting_half_lives(9.0, 11.0)
        .unwrap();
    assert_eq!(LiveStore::new(config).config(), config);
    let store = FactStore::new(config, Scenario::refund_desk());
    assert_eq!(store.config(), config);
    let state = store.state();
    assert_eq!(
        (
            state.half_life,
            state.capacity,
            state.access_boost,
            state.semantic_half_life,
            state.procedural_half_life
        ),
        (3.0, 7, 0.25, 9.0, 11.0)
    );
}

#[test]
fn fact_kinds_have_the_names_a_scenario_uses() {
    let names: Vec<_> = FactKind::ALL.iter().map(|kind| kind.name()).collect();
    assert_eq!(names, ["episodic", "semantic", "procedural"]);
    let indices: Vec<_> = FactKind::ALL.iter().map(|kind| kind.index()).collect();
    assert_eq!(indices, [0, 1, 2]);
}

// ---------------------------------------------------------------------------------------------
// The forget forecast.

/// Half-lives 1 (episodic), 2 (semantic) and 4 (procedural), and access boost 1, so that every
/// log score below is a whole number: importance 1/2 is -1, 1/4 is -2, 4 reads give access 5.
fn three_kinds(reads_of_episode: usize) -> FactStore {
    let spec = ScenarioSpec {
        facts: vec![
            seed("a lasting episode", 1.0),
            seed("what it meant", 1.0),
            seed("how to act on it", 1.0),
        ],
        consolidation: vec![
            rule("semantic", "a semantic fact", 0.5, &[2.0]),
            rule("procedural", "a procedural rule", 0.25, &[3.0]),
        ],
        ..ScenarioSpec::default()
    };
    let config = StoreConfig::new(1.0, 10, 1.0)
        .unwrap()
        .with_lasting_half_lives(2.0, 4.0)
        .unwrap();
    let mut store = FactStore::new(config, Scenario::new(spec).unwrap());
    store.consolidate().unwrap(); // fact 4 (semantic) replaces 2, fact 5 (procedural) replaces 3
    for _ in 0..reads_of_episode {
        store.read(1).unwrap();
    }
    store
}

#[test]
fn the_forecast_is_bounded_on_both_sides_by_facts_of_other_kinds() {
    // At t = 0: the episode scores log2(1 + reads), the semantic fact -1, the rule -2.
    // The semantic fact (rate 1/2) falls below the rule (rate 1/4) after Δ = (-1 + 2) / (1/4) = 4,
    // and the episode (rate 1) falls below the semantic fact after Δ = (e + 1) / (1/2) = 2e + 2,
    // where e is the episode's log score. So the semantic fact is the weakest from 4 to 2e + 2.
    let check = |reads: usize, at_t: f64, expect: Option<f64>| {
        let mut store = three_kinds(reads);
        store.set_time(at(at_t));
        let state = store.state();
        let semantic = fact(&state.facts, 4);
        assert_eq!(semantic.kind, FactKind::Semantic);
        assert_eq!(
            semantic.forecast.unwrap().weakest_at,
            expect,
            "{reads} reads, t = {at_t}"
        );
    };
    check(3, 0.0, Some(4.0)); // e = 2: weakest from 4 to 6
    check(1, 0.0, Some(4.0)); // e = 1: weakest from 4 to 4, a single moment
    check(0, 0.0, None); // e = 0: the episode is below it before it gets below the rule
    check(3, 1.0, Some(4.0)); // the same moment, seen from t = 1
    check(3, 5.0, Some(5.0)); // already the weakest
    check(3, 7.0, None); // past 6 the episode is weaker, for good

    // The rule, slowest of all, is the weakest now and never again once the semantic fact passes it.
    let state = three_kinds(3).state();
    let rule = fact(&state.facts, 5).forecast.unwrap();
    assert_eq!((rule.half_at, rule.weakest_at), (4.0, Some(0.0)));
    let episode = fact(&state.facts, 1).forecast.unwrap();
    assert_eq!((episode.half_at, episode.weakest_at), (1.0, Some(6.0)));
}

#[test]
fn facts_of_one_kind_tied_on_score_are_both_the_weakest_now() {
    let spec = ScenarioSpec {
        facts: vec![seed("one", 0.5), seed("two", 0.5), seed("three", 0.75)],
        ..ScenarioSpec::default()
    };
    let mut store = FactStore::new(StoreConfig::default(), Scenario::new(spec).unwrap());
    store.set_time(at(3.0));
    let state = store.state();
    let weakest = |id| fact(&state.facts, id).forecast.unwrap().weakest_at;
    assert_eq!(
        (weakest(1), weakest(2), weakest(3)),
        (Some(3.0), Some(3.0), None)
    );
}

// ---------------------------------------------------------------------------------------------
// The decay chart.

#[test]
fn the_chart_samples_every_step_up_to_and_including_until() {
    let store = FactStore::default();
    let times = |until: f64, step: f64| {
        let lines = store.chart(at(until), step).unwrap();
        let line = lines.iter().find(|line| line.id == 1).unwrap();
        line.points.iter().map(|p| p[0]).collect::<Vec<_>>()
    };
    assert_eq!(times(12.0, 5.0), [0.0, 5.0, 10.0]);
    assert_eq!(times(10.0, 5.0), [0.0, 5.0, 10.0]);
    assert_eq!(times(4.0, 2.5), [0.0, 2.5]);
    assert_eq!(times(0.0, 1.0), [0.0]);
    assert_eq!(times(1.0, 3.0), [0.0]);

    // The scores are the formula's, read at t = 2 and t = 5 included (importance 0.4).
    let lines = store.chart(at(4.0), 2.0).unwrap();
    let dana: Vec<[f64; 2]> = lines[0].points.clone();
    assert_eq!(
        dana,
        [
            [0.0, 0.4],
            [2.0, 0.4 * 0.5f64.sqrt() * 1.5],
            [4.0, 0.4 * 0.5 * 1.5]
        ]
    );
    let ids: Vec<_> = lines.iter().map(|line| line.id).collect();
    assert_eq!(ids, [1, 2, 3, 4]);
    assert_eq!(lines[1].text, "order ORD-3300 was $200.00");
    assert_eq!(lines[1].kind, FactKind::Episodic);
}

#[test]
fn the_chart_takes_at_most_ten_thousand_samples() {
    let store = FactStore::default();
    // 10,000 steps of 1 up to 10,000: 10,001 points, the cap exactly.
    let lines = store.chart(at(10_000.0), 1.0).unwrap();
    assert_eq!(lines[0].points.len(), 10_001);
    assert_eq!(lines[0].points[10_000][0], 10_000.0);

    let check = |until: f64, step: f64, expect: &str| {
        let err = store.chart(at(until), step).unwrap_err();
        assert_eq!(err.message(), expect, "until {until}, step {step}");
    };
    check(
        10_001.0,
        1.0,
        "step must be above 0 and give at most 10000 samples up to 10001, got 1",
    );
    // 12 / 0.0011 is 10,909 samples, though 12 % 0.0011 is small.
    check(
        12.0,
        0.0011,
        "step must be above 0 and give at most 10000 samples up to 12, got 0.0011",
    );
    check(
        12.0,
        -1.0,
        "step must be above 0 and give at most 10000 samples up to 12, got -1",
    );
    check(
        12.0,
        -0.0,
        "step must be above 0 and give at most 10000 samples up to 12, got 0",
    );
    check(
        12.0,
        f64::NAN,
        "step must be above 0 and give at most 10000 samples up to 12, got NaN",
    );
    check(
        12.0,
        f64::INFINITY,
        "step must be above 0 and give at most 10000 samples up to 12, got Infinity",
    );
}
