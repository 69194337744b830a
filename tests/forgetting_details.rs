//! The fine print of forgetting that the seed and property tests leave open: custom lasting
//! half-lives, the bounds of the forget forecast, the chart's sampling rule, and what each
//! accessor returns on a store that is not the seed's. Each value is exact, worked out by hand
//! from the formulas in SPEC section 3, so that a planted bug (`make mutants`) shows up here.

use agent_memory_widgets::{
    Action, Change, Distilled, EventSpec, FactKind, FactStore, FactView, LiveStore, ReadSpec,
    RuleSpec, Scenario, ScenarioSpec, SeedFactSpec, Status, StoreConfig, StoreOptions, Time,
    WriteOutcome,
};
#[path = "common/store.rs"]
mod store;
use agent_memory_widgets::{EventIndex, FactId};
use store::{at, Fixed};

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
    // The limits are inclusive.
    assert!(base.with_lasting_half_lives(1e-3, 1e6).is_ok());

    let check = |semantic: f64, procedural: f64, expect: &str| {
        let err = base
            .with_lasting_half_lives(semantic, procedural)
            .unwrap_err();
        assert_eq!(err.message(), expect, "({semantic}, {procedural})");
    };
    check(
        0.0,
        1.0,
        "semantic_half_life must be a number from 0.001 to 10000000000000, got 0",
    );
    check(
        -1.0,
        1.0,
        "semantic_half_life must be a number from 0.001 to 10000000000000, got -1",
    );
    check(
        f64::INFINITY,
        1.0,
        "semantic_half_life must be a number from 0.001 to 10000000000000, got Infinity",
    );
    check(
        f64::NAN,
        1.0,
        "semantic_half_life must be a number from 0.001 to 10000000000000, got NaN",
    );
    check(
        1.0,
        0.0,
        "procedural_half_life must be a number from 0.001 to 10000000000000, got 0",
    );
    check(
        1.0,
        -0.5,
        "procedural_half_life must be a number from 0.001 to 10000000000000, got -0.5",
    );
    check(
        1.0,
        f64::NEG_INFINITY,
        "procedural_half_life must be a number from 0.001 to 10000000000000, got -Infinity",
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
        "procedural_half_life must be a number from 0.001 to 10000000000000, got 0"
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
/// The pass runs at `distilled_at`, and the episode is read `reads_of_episode` times after it.
fn three_kinds_at(distilled_at: f64, reads_of_episode: usize) -> FactStore {
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
    store.set_time(at(distilled_at));
    store.consolidate().unwrap(); // fact 4 (semantic) replaces 2, fact 5 (procedural) replaces 3
    for _ in 0..reads_of_episode {
        store.read(FactId(1)).unwrap();
    }
    store
}

fn three_kinds(reads_of_episode: usize) -> FactStore {
    three_kinds_at(0.0, reads_of_episode)
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
            semantic.forecast.unwrap().weakest_at.map(|t| t.get()),
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
    assert_eq!(
        (rule.half_at.get(), rule.weakest_at.map(|t| t.get())),
        (4.0, Some(0.0))
    );
    let episode = fact(&state.facts, 1).forecast.unwrap();
    assert_eq!(
        (episode.half_at.get(), episode.weakest_at.map(|t| t.get())),
        (1.0, Some(6.0))
    );
}

#[test]
fn the_forecast_counts_each_facts_age_from_its_own_last_touch() {
    // The same three facts, but distilled at t = 2 and the episode read 7 times (access 8).
    // At t = 2 the log scores are: episode 3 - 2 = 1, semantic -1, rule -2.
    let state = three_kinds_at(2.0, 7).state();
    let forecast = |id| fact(&state.facts, id).forecast.unwrap();
    assert_eq!(
        (
            fact(&state.facts, 1).last_touch,
            fact(&state.facts, 4).last_touch
        ),
        (at(0.0), at(2.0))
    );
    // The episode falls below the semantic fact after (1 + 1) / (1 - 1/2) = 4, and below the
    // rule after (1 + 2) / (1 - 1/4) = 4: it is the weakest from t = 6.
    assert_eq!(forecast(1).weakest_at.map(|t| t.get()), Some(6.0));
    // The semantic fact passes below the rule after 1 / (1/2 - 1/4) = 4, just as the episode
    // passes below it: t = 6 again, for a moment.
    assert_eq!(forecast(4).weakest_at.map(|t| t.get()), Some(6.0));
    // The rule is the weakest now, and until t = 6.
    assert_eq!(forecast(5).weakest_at.map(|t| t.get()), Some(2.0));
    assert_eq!(
        (
            forecast(1).half_at.get(),
            forecast(4).half_at.get(),
            forecast(5).half_at.get()
        ),
        (3.0, 4.0, 6.0)
    );
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
    let weakest = |id| {
        fact(&state.facts, id)
            .forecast
            .unwrap()
            .weakest_at
            .map(|t| t.get())
    };
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
    // The sampled times of fact 1's line, leaving out the breakpoints at its reads (2 and 5).
    let times = |until: f64, step: f64| {
        let lines = store.chart(at(until), step).unwrap();
        let line = lines.iter().find(|line| line.id == 1).unwrap();
        let mut times: Vec<f64> = line.points.iter().map(|p| p[0]).collect();
        times.retain(|t| (t / step).fract() == 0.0);
        times.dedup();
        times
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
            [2.0, 0.4 * 0.5f64.sqrt()], // just before the read: a vertical jump at t = 2
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
    // Fact 4 is never read, so its line has exactly the samples.
    let lines = store.chart(at(10_000.0), 1.0).unwrap();
    assert_eq!(lines[3].id, 4);
    assert_eq!(lines[3].points.len(), 10_001);
    assert_eq!(lines[3].points[10_000][0], 10_000.0);

    let check = |until: f64, step: f64, expect: &str| {
        let err = store.chart(at(until), step).unwrap_err();
        assert_eq!(err.message(), expect, "until {until}, step {step}");
    };
    check(
        10_001.0,
        1.0,
        "step must be above 0 and give at most 10001 samples up to 10001, got 1",
    );
    // 12 / 0.0011 is 10,909 samples, though 12 % 0.0011 is small.
    check(
        12.0,
        0.0011,
        "step must be above 0 and give at most 10001 samples up to 12, got 0.0011",
    );
    check(
        12.0,
        -1.0,
        "step must be above 0 and give at most 10001 samples up to 12, got -1",
    );
    check(
        12.0,
        -0.0,
        "step must be above 0 and give at most 10001 samples up to 12, got 0",
    );
    check(
        12.0,
        f64::NAN,
        "step must be above 0 and give at most 10001 samples up to 12, got NaN",
    );
    check(
        12.0,
        f64::INFINITY,
        "step must be above 0 and give at most 10001 samples up to 12, got Infinity",
    );
}

// ---------------------------------------------------------------------------------------------
// Time.

#[test]
fn times_are_finite_and_at_least_0_and_minus_0_is_0() {
    assert_eq!(Time::new(0.0).unwrap().get(), 0.0);
    assert_eq!(Time::new(6.5).unwrap().get(), 6.5);
    assert!(Time::new(-0.0).unwrap().get().is_sign_positive());
    assert_eq!(Time::new(-0.0).unwrap().to_string(), "0");
    assert_eq!(Time::new(9.25).unwrap().to_string(), "9.25");
    assert_eq!(Time::ZERO, Time::new(0.0).unwrap());
    let check = |t: f64, expect: &str| {
        assert_eq!(Time::new(t).unwrap_err().message(), expect, "{t}");
    };
    check(-1.0, "t must be a number from 0 to 10000000000000, got -1");
    check(
        -1e-9,
        "t must be a number from 0 to 10000000000000, got -1e-9",
    );
    check(
        f64::INFINITY,
        "t must be a number from 0 to 10000000000000, got Infinity",
    );
    check(
        f64::NAN,
        "t must be a number from 0 to 10000000000000, got NaN",
    );
}

// ---------------------------------------------------------------------------------------------
// Scenarios.

fn event(text: &str, importance: f64, supersedes: Option<f64>) -> EventSpec {
    EventSpec {
        label: None,
        text: Some(text.into()),
        importance: Some(importance),
        supersedes,
    }
}

/// Two facts, two events and a rule: facts 1 and 2, events write 3 and 4, the rule writes 5.
fn small_spec() -> ScenarioSpec {
    ScenarioSpec {
        facts: vec![seed("one", 0.5), seed("two", 0.5)],
        reads: vec![ReadSpec {
            fact: Some(2.0),
            at: Some(1.5),
        }],
        events: vec![event("three", 0.5, Some(1.0)), event("four", 0.5, None)],
        consolidation: vec![rule("semantic", "five", 0.5, &[1.0, 3.0])],
    }
}

#[test]
fn a_scenario_numbers_facts_then_events_then_rules() {
    let scenario = Scenario::new(small_spec()).unwrap();
    assert_eq!(scenario.facts().len(), 2);
    assert_eq!(scenario.facts()[1].text, "two");
    assert_eq!(scenario.facts()[1].importance, 0.5);
    assert_eq!(scenario.reads()[0].fact, 2);
    assert_eq!(scenario.reads()[0].at, at(1.5));
    assert_eq!(scenario.events()[0].label, "three"); // the label defaults to the text
    assert_eq!(scenario.events()[0].supersedes, Some(FactId(1)));
    assert_eq!(scenario.events()[1].supersedes, None);
    assert_eq!(scenario.consolidation()[0].kind, FactKind::Semantic);
    assert_eq!(scenario.consolidation()[0].sources, [1, 3]);
    let ids = |f: &dyn Fn(usize) -> Option<FactId>| (0..3).map(f).collect::<Vec<_>>();
    assert_eq!(
        ids(&|i| scenario.event_fact(EventIndex(i as u32))),
        [Some(FactId(3)), Some(FactId(4)), None]
    );
    assert_eq!(
        ids(&|i| scenario.rule_fact(i)),
        [Some(FactId(5)), None, None]
    );
    let known: Vec<bool> = (0..=6).map(|id| scenario.has_fact(FactId(id))).collect();
    assert_eq!(known, [false, true, true, true, true, true, false]);

    let desk = Scenario::refund_desk();
    assert_eq!(Scenario::default(), desk);
    assert_eq!(
        (
            desk.event_fact(EventIndex(0)),
            desk.event_fact(EventIndex(2))
        ),
        (Some(FactId(5)), None)
    );
    assert_eq!(
        (desk.rule_fact(2), desk.rule_fact(3)),
        (Some(FactId(9)), None)
    );
    assert_eq!(
        (desk.has_fact(FactId(9)), desk.has_fact(FactId(10))),
        (true, false)
    );

    let mut labelled = small_spec();
    labelled.events[1].label = Some("Ask about earbuds".into());
    let scenario = Scenario::new(labelled).unwrap();
    assert_eq!(scenario.events()[1].label, "Ask about earbuds");
    assert_eq!(scenario.events()[1].text, "four");
    assert_eq!(scenario.events()[1].importance, 0.5);
}

#[test]
fn bad_scenarios_are_errors_that_give_the_path_of_the_field() {
    let check = |change: &dyn Fn(&mut ScenarioSpec), expect: &str| {
        let mut spec = small_spec();
        change(&mut spec);
        assert_eq!(Scenario::new(spec).unwrap_err().message(), expect);
    };
    check(
        &|s| *s = ScenarioSpec::default(),
        "scenario must have at least 1 fact or write event",
    );
    check(
        &|s| s.facts[1].text = Some(" ".into()),
        "facts[1].text: must be a non-empty text",
    );
    check(
        &|s| s.facts[0].importance = None,
        "facts[0].importance: required",
    );
    check(
        &|s| s.facts[0].importance = Some(0.0),
        "facts[0].importance must be a number above 0 and at most 1, got 0",
    );
    check(
        &|s| s.facts[0].importance = Some(1.5),
        "facts[0].importance must be a number above 0 and at most 1, got 1.5",
    );
    check(&|s| s.reads[0].at = None, "reads[0].at: required");
    check(
        &|s| s.reads[0].at = Some(-2.0),
        "reads[0].at must be a number from 0 to 10000000000000, got -2",
    );
    check(&|s| s.reads[0].fact = None, "reads[0].fact: required");
    check(
        &|s| s.reads[0].fact = Some(0.0),
        "reads[0].fact must be a whole number of at least 1, got 0; facts and events number 1 to 5",
    );
    check(
        &|s| s.reads[0].fact = Some(6.0),
        "reads[0].fact must be a whole number of at most 5, got 6; facts and events number 1 to 5",
    );
    check(
        &|s| s.events[1].text = None,
        "events[1].text: must be a non-empty text",
    );
    check(
        &|s| s.events[1].label = Some("".into()),
        "events[1].label: must be a non-empty text",
    );
    check(
        &|s| s.events[0].importance = Some(f64::NAN),
        "events[0].importance must be a number above 0 and at most 1, got NaN",
    );
    check(
        &|s| s.events[0].supersedes = Some(2.5),
        "events[0].supersedes must be a whole number of at least 1, got 2.5; facts and events number 1 to 5",
    );
    check(
        &|s| s.events[0].supersedes = Some(3.0),
        "events[0].supersedes: an event cannot supersede its own fact",
    );
    check(
        &|s| s.events[1].supersedes = Some(4.0),
        "events[1].supersedes: an event cannot supersede its own fact",
    );
    check(
        &|s| s.consolidation[0].kind = None,
        "consolidation[0].kind: must be \"semantic\" or \"procedural\", got nothing",
    );
    check(
        &|s| s.consolidation[0].kind = Some("episodic".into()),
        "consolidation[0].kind: must be \"semantic\" or \"procedural\", got \"episodic\"",
    );
    check(
        &|s| s.consolidation[0].sources.clear(),
        "consolidation[0].sources: name at least one episode",
    );
    check(
        &|s| s.consolidation[0].sources[1] = 9.0,
        "consolidation[0].sources[1] must be a whole number of at most 5, got 9; facts and events number 1 to 5",
    );
    check(
        &|s| s.consolidation[0].text = None,
        "consolidation[0].text: must be a non-empty text",
    );
    check(
        &|s| s.consolidation[0].importance = Some(-1.0),
        "consolidation[0].importance must be a number above 0 and at most 1, got -1",
    );

    // Events alone make a scenario, and an event may supersede another event's fact.
    let spec = ScenarioSpec {
        events: vec![event("a", 1.0, Some(2.0)), event("b", 1.0, Some(1.0))],
        ..ScenarioSpec::default()
    };
    let scenario = Scenario::new(spec).unwrap();
    assert_eq!(scenario.event_fact(EventIndex(0)), Some(FactId(1)));
    // A procedural rule.
    let mut spec = small_spec();
    spec.consolidation[0].kind = Some("procedural".into());
    let scenario = Scenario::new(spec).unwrap();
    assert_eq!(scenario.consolidation()[0].kind, FactKind::Procedural);
}

// ---------------------------------------------------------------------------------------------
// The live store: errors, refreshes and ties.

fn distilled(id: u32, kind: FactKind, importance: f64, sources: &[u32]) -> Distilled {
    Distilled {
        id: FactId(id),
        kind,
        text: format!("distilled {id}"),
        importance,
        sources: sources.iter().copied().map(FactId).collect(),
    }
}

fn live(capacity: u32) -> LiveStore {
    LiveStore::new(StoreConfig::new(4.0, capacity, 0.5).unwrap())
}

#[test]
fn bad_writes_reads_and_moves_back_in_time_are_errors() {
    let mut store = live(4);
    let check = |result: Result<WriteOutcome, agent_memory_widgets::Error>, expect: &str| {
        assert_eq!(result.unwrap_err().message(), expect);
    };
    check(
        store.write(FactId(1), "a fact", 0.0, None),
        "importance must be a number above 0 and at most 1, got 0",
    );
    check(
        store.write(FactId(1), "a fact", 1.0 + f64::EPSILON, None),
        "importance must be a number above 0 and at most 1, got 1",
    );
    check(
        store.write(FactId(1), " \n", 0.5, None),
        "text must be a non-empty text",
    );
    check(
        store.write(FactId(1), "a fact", 0.5, Some(FactId(7))),
        "supersedes names fact 7, which does not exist",
    );
    assert_eq!(store.facts().count(), 0);
    store.write(FactId(1), "a fact", 1.0, None).unwrap(); // 1 is in range
    check(
        store.write(FactId(1), "another fact", 0.5, None),
        "fact 1 already exists; ids must be unique",
    );

    store.advance_to(at(4.0)).unwrap();
    store.advance_to(at(4.0)).unwrap(); // staying put is fine
    assert_eq!(store.time(), at(4.0));
    assert_eq!(
        store.advance_to(at(3.5)).unwrap_err().message(),
        "t must not go back in a LiveStore (now 4, got 3.5); replay into a new store instead"
    );
    assert_eq!(store.time(), at(4.0));

    store
        .write(FactId(2), "a newer fact", 0.5, Some(FactId(1)))
        .unwrap();
    assert_eq!(
        store.read(FactId(1)).unwrap_err().message(),
        "fact 1 is no longer active at t = 4; only active facts can be read"
    );
    assert_eq!(
        store.read(FactId(3)).unwrap_err().message(),
        "there is no fact 3"
    );
    assert_eq!((store.score(FactId(3)), store.get(FactId(3))), (None, None));
    store.read(FactId(2)).unwrap();
    store.read(FactId(2)).unwrap();
    assert_eq!(store.get(FactId(2)).unwrap().reads, 2);
    assert_eq!(store.score(FactId(2)), Some(0.5 * 2.0));
    assert_eq!(store.score(FactId(1)), Some(0.5)); // a retired fact keeps its score: 1 × 0.5 × 1
}

#[test]
fn a_duplicate_write_keeps_the_larger_importance_and_never_supersedes_itself() {
    let mut store = live(4);
    store
        .write(FactId(1), "Dana prefers email", 0.6, None)
        .unwrap();
    store.advance_to(at(2.0)).unwrap();
    let outcome = store
        .write(FactId(2), "  dana PREFERS email ", 0.3, Some(FactId(1)))
        .unwrap();
    assert_eq!(
        (
            outcome.fact,
            outcome.refreshed,
            outcome.superseded,
            outcome.evicted
        ),
        (FactId(1), true, None, None)
    );
    let fact = store.get(FactId(1)).unwrap();
    assert_eq!(
        (fact.importance, fact.last_touch, fact.status),
        (0.6, at(2.0), Status::Active)
    );
    assert_eq!(store.get(FactId(2)), None);
    store
        .write(FactId(3), "Dana prefers email", 0.8, None)
        .unwrap();
    assert_eq!(store.get(FactId(1)).unwrap().importance, 0.8);
    assert_eq!(store.active_count(), 1);

    // Once retired, the same text is a new fact.
    store
        .write(FactId(4), "Dana now prefers phone", 0.5, Some(FactId(1)))
        .unwrap();
    let outcome = store
        .write(FactId(5), "Dana prefers email", 0.5, None)
        .unwrap();
    assert_eq!((outcome.fact, outcome.refreshed), (FactId(5), false));
}

/// SPEC §3: "ignoring case", beyond ASCII: Unicode's simple case folding, letter by letter.
#[test]
fn a_duplicate_ignores_case_in_any_script() {
    let mut store = live(8);
    for (id, text) in [
        (1, "École fermée"),
        (2, "ΟΔΟΣ"),
        (3, "Жёлтый"),
        (4, "Straße"),
    ] {
        store.write(FactId(id), text, 0.5, None).unwrap();
    }
    for (id, text, same) in [
        (5, " école FERMÉE ", FactId(1)),
        (6, "οδος", FactId(2)), // a final sigma folds as Σ and σ do
        (7, "жЁЛТЫЙ", FactId(3)),
        (8, "STRAẞE", FactId(4)),
    ] {
        let outcome = store.write(FactId(id), text, 0.5, None).unwrap();
        assert_eq!((outcome.fact, outcome.refreshed), (same, true), "{text}");
    }
    assert_eq!(store.active_count(), 4);
    // Other letters stay other facts: ß is not ss (that is full folding), and the dotted and
    // dotless i fold to i only in Turkic languages.
    for (id, text) in [(9, "Strasse"), (10, "İzmir"), (11, "izmir")] {
        assert!(
            !store.write(FactId(id), text, 0.5, None).unwrap().refreshed,
            "{text}"
        );
    }
    assert_eq!(store.active_count(), 7);
}

#[test]
fn score_ties_evict_the_oldest_last_touch_then_the_lowest_id() {
    // Same kind: 0.5 written at t = 0 and 0.25 written at t = 4 both score 0.25 at t = 4.
    let mut store = live(2);
    store.write(FactId(1), "older", 0.5, None).unwrap();
    store.advance_to(at(4.0)).unwrap();
    store.write(FactId(2), "newer", 0.25, None).unwrap();
    assert_eq!(store.score(FactId(1)), store.score(FactId(2)));
    let outcome = store.write(FactId(3), "strong", 1.0, None).unwrap();
    assert_eq!(outcome.evicted, Some(FactId(1)));
    assert_eq!(store.top_k(5), [3, 2]);

    // Same kind, same time, same score: the lowest id goes.
    let mut store = live(2);
    store.write(FactId(2), "b", 0.5, None).unwrap();
    store.write(FactId(1), "a", 0.5, None).unwrap();
    assert_eq!(store.top_k(2), [2, 1]); // best first: the higher id
    assert_eq!(
        store.write(FactId(3), "c", 0.75, None).unwrap().evicted,
        Some(FactId(1))
    );

    // Across kinds, the same rules. An episode of 0.5 at t = 0 and a semantic fact of 0.25 at
    // t = 4 both score 0.25 at t = 4: the episode is older, so it goes.
    let mut store = live(2);
    store.write(FactId(1), "episode", 0.5, None).unwrap();
    store.advance_to(at(4.0)).unwrap();
    let semantic = distilled(2, FactKind::Semantic, 0.25, &[]);
    store.consolidate(&Fixed(vec![semantic])).unwrap();
    assert_eq!(store.score(FactId(1)), store.score(FactId(2)));
    assert_eq!(store.top_k(2), [2, 1]); // ties rank the newest first
    assert_eq!(
        store.write(FactId(3), "strong", 1.0, None).unwrap().evicted,
        Some(FactId(1))
    );

    // Across kinds at the same time and score, the lowest id goes, and ranks last.
    let mut store = live(3);
    let rules = vec![
        distilled(1, FactKind::Procedural, 0.5, &[]),
        distilled(2, FactKind::Semantic, 0.5, &[]),
    ];
    store.consolidate(&Fixed(rules)).unwrap();
    store.write(FactId(3), "episode", 0.5, None).unwrap();
    assert_eq!(store.top_k(3), [3, 2, 1]);
    assert_eq!(
        store.write(FactId(4), "strong", 1.0, None).unwrap().evicted,
        Some(FactId(1))
    );
    assert_eq!(store.top_k(3), [4, 3, 2]);
}

#[test]
fn consolidation_supersedes_only_the_episodes_it_cites() {
    let mut store = live(10);
    store.write(FactId(1), "an episode", 0.5, None).unwrap();
    store
        .write(FactId(2), "another episode", 0.5, None)
        .unwrap();
    let first = vec![distilled(3, FactKind::Semantic, 0.5, &[1])];
    let outcomes = store.consolidate(&Fixed(first)).unwrap();
    assert_eq!(outcomes.len(), 1);
    assert_eq!(outcomes[0].fact, 3);
    // A rule citing a semantic fact leaves it active.
    let second = vec![distilled(4, FactKind::Procedural, 0.5, &[3, 2])];
    store.consolidate(&Fixed(second)).unwrap();
    let status = |store: &LiveStore, id| store.get(id).unwrap().status;
    assert_eq!(
        status(&store, FactId(1)),
        Status::Superseded { by: FactId(3) }
    );
    assert_eq!(
        status(&store, FactId(2)),
        Status::Superseded { by: FactId(4) }
    );
    assert_eq!(status(&store, FactId(3)), Status::Active);
    assert_eq!(store.get(FactId(4)).unwrap().sources, [3, 2]);
    assert_eq!(store.get(FactId(4)).unwrap().kind, FactKind::Procedural);

    let bad = vec![distilled(5, FactKind::Semantic, 1.5, &[3])];
    assert_eq!(
        store.consolidate(&Fixed(bad)).unwrap_err().message(),
        "importance must be a number above 0 and at most 1, got 1.5"
    );
    assert_eq!(status(&store, FactId(3)), Status::Active);
}

// ---------------------------------------------------------------------------------------------
// The timeline: events, reads, consolidation and reset.

#[test]
fn store_config_rejects_each_bad_value_with_its_name() {
    let check = |half_life: f64, capacity: u32, boost: f64, expect: &str| {
        let err = StoreConfig::new(half_life, capacity, boost).unwrap_err();
        assert_eq!(err.message(), expect);
    };
    check(
        0.0,
        4,
        0.5,
        "half_life must be a number from 0.001 to 10000000000000, got 0",
    );
    check(
        -4.0,
        4,
        0.5,
        "half_life must be a number from 0.001 to 10000000000000, got -4",
    );
    check(
        f64::INFINITY,
        4,
        0.5,
        "half_life must be a number from 0.001 to 10000000000000, got Infinity",
    );
    check(
        f64::NAN,
        4,
        0.5,
        "half_life must be a number from 0.001 to 10000000000000, got NaN",
    );
    check(
        4.0,
        0,
        0.5,
        "capacity must be a whole number of at least 1, got 0",
    );
    check(
        4.0,
        4,
        -0.5,
        "access_boost must be a number from 0 to 1000, got -0.5",
    );
    check(
        4.0,
        4,
        1000.5,
        "access_boost must be a number from 0 to 1000, got 1000.5",
    );
    check(
        4.0,
        4,
        f64::NAN,
        "access_boost must be a number from 0 to 1000, got NaN",
    );
    // The edges are in.
    let config = StoreConfig::new(1e-3, 1, 0.0).unwrap();
    assert_eq!(
        (config.half_life(), config.capacity(), config.access_boost()),
        (1e-3, 1, 0.0)
    );
    assert_eq!(config.half_life_of(FactKind::Semantic), 4e-3);
    assert_eq!(
        StoreConfig::new(4.0, 4, 1000.0).unwrap().access_boost(),
        1000.0
    );
    assert_eq!(
        StoreConfig::new(4.0, 4, 0.5).unwrap(),
        StoreConfig::default()
    );
}

#[test]
fn store_options_default_to_the_seed_and_check_each_value() {
    let state = FactStore::from_options(StoreOptions::default())
        .unwrap()
        .state();
    assert_eq!(
        (state.half_life, state.capacity, state.access_boost),
        (4.0, 4, 0.5)
    );
    let options = StoreOptions {
        half_life: Some(3.0),
        capacity: Some(2.0),
        access_boost: Some(0.25),
        scenario: Some(small_spec()),
        ..StoreOptions::default()
    };
    let store = FactStore::from_options(options).unwrap();
    assert_eq!(store.config(), StoreConfig::new(3.0, 2, 0.25).unwrap());
    assert_eq!(store.scenario(), &Scenario::new(small_spec()).unwrap());
    let check = |options: StoreOptions, expect: &str| {
        assert_eq!(
            FactStore::from_options(options).unwrap_err().message(),
            expect
        );
    };
    check(
        StoreOptions {
            capacity: Some(2.5),
            ..StoreOptions::default()
        },
        "capacity must be a whole number of at least 1, got 2.5",
    );
    check(
        StoreOptions {
            half_life: Some(-1.0),
            ..StoreOptions::default()
        },
        "half_life must be a number from 0.001 to 10000000000000, got -1",
    );
    check(
        StoreOptions {
            access_boost: Some(2000.0),
            ..StoreOptions::default()
        },
        "access_boost must be a number from 0 to 1000, got 2000",
    );
    check(
        StoreOptions {
            scenario: Some(ScenarioSpec::default()),
            ..StoreOptions::default()
        },
        "scenario must have at least 1 fact or write event",
    );
}

#[test]
fn events_say_which_fact_they_write_and_when_they_were_fired() {
    let mut store = FactStore::default();
    store.set_time(at(3.0));
    assert_eq!(store.time(), at(3.0));
    let change = store.fire(EventIndex(0)).unwrap();
    assert_eq!(change, {
        let mut expect = Change::new(at(3.0), Action::Write, FactId(5));
        expect.event = Some(EventIndex(0));
        expect.superseded = Some(FactId(3));
        expect
    });
    let events = store.events();
    let summary: Vec<_> = events
        .iter()
        .map(|e| (e.index, e.label.as_str(), e.fact, e.fired_at))
        .collect();
    assert_eq!(
        summary,
        [
            (
                EventIndex(0),
                "refund approved: $180.00",
                FactId(5),
                Some(at(3.0))
            ),
            (
                EventIndex(1),
                "Dana asks about the Globex earbuds warranty",
                FactId(6),
                None
            ),
        ]
    );
    assert_eq!(store.state().events, events);

    // A scenario without events says so.
    let spec = ScenarioSpec {
        facts: vec![seed("only fact", 0.5)],
        ..ScenarioSpec::default()
    };
    let mut store = FactStore::new(StoreConfig::default(), Scenario::new(spec).unwrap());
    assert_eq!(
        store.fire(EventIndex(0)).unwrap_err().message(),
        "there is no write event 0: this scenario has none"
    );
    assert_eq!(store.events(), []);
    let state = store.state();
    assert!(!state.can_consolidate);
    assert_eq!(
        store.consolidate().unwrap_err().message(),
        "this scenario has no consolidation rules"
    );
    assert!(FactStore::default().state().can_consolidate);
}

#[test]
fn the_state_lists_every_read_and_logs_refreshes_and_missed_reads() {
    // At t = 0 the Globex question evicts Dana, so her scheduled reads at 2 and 5 miss.
    let mut store = FactStore::default();
    store.fire(EventIndex(1)).unwrap();
    store.set_time(at(2.5));
    let change = store.read(FactId(2)).unwrap();
    assert_eq!(change, Change::new(at(2.5), Action::Read, FactId(2)));
    // At t = 3 the read at 2 has missed, and the one at 5 has not come yet.
    store.set_time(at(3.0));
    let missed: Vec<bool> = store.state().reads.iter().map(|read| read.missed).collect();
    assert_eq!(missed, [true, false, false]);
    store.set_time(at(6.0));
    let state = store.state();
    let reads: Vec<(u32, f64, bool, bool)> = state
        .reads
        .iter()
        .map(|read| (read.fact.0, read.at.get(), read.scheduled, read.missed))
        .collect();
    assert_eq!(
        reads,
        [
            (1, 2.0, true, true),
            (1, 5.0, true, true),
            (2, 2.5, false, false)
        ]
    );
    // Without the eviction, every read finds its fact.
    store.unfire(EventIndex(1)).unwrap();
    assert!(store.state().reads.iter().all(|read| !read.missed));
    let log: Vec<(f64, Action, u32, Option<u32>)> = state
        .log
        .iter()
        .map(|c| (c.at.get(), c.action, c.fact.0, c.evicted.map(|id| id.0)))
        .collect();
    assert_eq!(
        log,
        [
            (0.0, Action::Write, 1, None),
            (0.0, Action::Write, 2, None),
            (0.0, Action::Write, 3, None),
            (0.0, Action::Write, 4, None),
            (0.0, Action::Write, 6, Some(1)),
            (2.0, Action::MissedRead, 1, None),
            (2.5, Action::Read, 2, None),
            (5.0, Action::MissedRead, 1, None),
        ]
    );
    assert_eq!(fact(&state.facts, 2).reads, 1);

    // A write event that repeats a fact's text refreshes it.
    let spec = ScenarioSpec {
        facts: vec![seed("Dana prefers email", 0.5)],
        events: vec![event("dana prefers EMAIL", 0.75, None)],
        ..ScenarioSpec::default()
    };
    let mut store = FactStore::new(StoreConfig::default(), Scenario::new(spec).unwrap());
    store.set_time(at(2.0));
    let change = store.fire(EventIndex(0)).unwrap();
    assert_eq!(
        (change.action, change.fact, change.event),
        (Action::Refresh, FactId(1), Some(EventIndex(0)))
    );
    let state = store.state();
    assert_eq!(state.facts.len(), 1);
    assert_eq!(
        (state.facts[0].importance, state.facts[0].last_touch),
        (0.75, at(2.0))
    );
}

#[test]
fn reset_forgets_events_reads_consolidation_and_time() {
    let mut store = FactStore::default();
    store.set_time(at(6.0));
    store.fire(EventIndex(0)).unwrap();
    store.read(FactId(1)).unwrap();
    store.consolidate().unwrap();
    assert_eq!(store.state().consolidated_at, Some(at(6.0)));
    store.reset();
    assert_eq!(store.time(), Time::ZERO);
    assert_eq!(store.state(), FactStore::default().state());
    assert!(store.consolidate().is_ok());
}

#[test]
fn a_rule_distills_only_once_its_episodes_are_written_and_one_is_still_active() {
    // At t = 0 only the fee rule's episode (fact 4) exists: the refund (needs event 0's fact 5)
    // and the warranty question (needs event 1's fact 6) wait.
    let mut store = FactStore::default();
    let facts: Vec<FactId> = store
        .consolidate()
        .unwrap()
        .iter()
        .map(|c| c.fact)
        .collect();
    assert_eq!(facts, [9]);

    // An episode superseded before the pass gives nothing to distill.
    let spec = ScenarioSpec {
        facts: vec![seed("the order is late", 0.5), seed("Dana is Dana", 0.5)],
        events: vec![event("the order arrived", 0.5, Some(1.0))],
        consolidation: vec![rule("semantic", "orders can be late", 0.5, &[1.0])],
        ..ScenarioSpec::default()
    };
    let mut store = FactStore::new(StoreConfig::default(), Scenario::new(spec).unwrap());
    store.fire(EventIndex(0)).unwrap();
    store.set_time(at(1.0));
    assert_eq!(store.consolidate().unwrap(), []);
    assert_eq!(store.state().facts.len(), 3);
}

#[test]
fn a_distilled_fact_cites_only_what_the_store_still_holds() {
    let mut store = live(2);
    store
        .write(FactId(1), "a weak episode", 0.25, None)
        .unwrap();
    store.write(FactId(2), "an episode", 0.5, None).unwrap();
    let outcome = store
        .write(FactId(3), "a strong episode", 1.0, None)
        .unwrap();
    assert_eq!(outcome.evicted, Some(FactId(1)));
    // Fact 1 is evicted and fact 99 was never written: neither is cited.
    let rule = vec![distilled(4, FactKind::Semantic, 0.5, &[1, 2, 99])];
    store.consolidate(&Fixed(rule)).unwrap();
    let fact = store.get(FactId(4)).unwrap();
    assert_eq!(fact.sources, [2]);
    assert_eq!(store.get(FactId(1)).unwrap().status, Status::Evicted);
    assert_eq!(
        store.get(FactId(2)).unwrap().status,
        Status::Superseded { by: FactId(4) }
    );
    assert_eq!(store.top_k(3), [3, 4]);
}

#[test]
fn a_consolidation_pass_that_overfills_the_store_logs_what_it_evicted() {
    // Two rules distill the same episode: the first supersedes it, the second adds a fact.
    let spec = ScenarioSpec {
        facts: vec![seed("the order is late", 0.5), seed("Dana is in Oslo", 0.2)],
        consolidation: vec![
            rule("semantic", "orders can be late", 0.8, &[1.0]),
            rule("procedural", "apologise for late orders", 0.9, &[1.0]),
        ],
        ..ScenarioSpec::default()
    };
    let config = StoreConfig::new(4.0, 2, 0.5).unwrap();
    let mut store = FactStore::new(config, Scenario::new(spec).unwrap());
    let changes = store.consolidate().unwrap();
    let summary: Vec<(Action, u32, Option<u32>)> = changes
        .iter()
        .map(|c| (c.action, c.fact.0, c.evicted.map(|id| id.0)))
        .collect();
    assert_eq!(
        summary,
        [(Action::Distill, 3, None), (Action::Distill, 4, Some(2))]
    );
    let state = store.state();
    assert_eq!(state.log.last().unwrap().evicted, Some(FactId(2)));
    assert_eq!(fact(&state.facts, 2).status, Status::Evicted);
    assert_eq!(fact(&state.facts, 1).superseded_by, Some(FactId(3)));
}

#[test]
fn a_status_reads_as_its_name() {
    assert_eq!(Status::Active.to_string(), "active");
    assert_eq!(
        Status::Superseded { by: FactId(5) }.to_string(),
        "superseded"
    );
    assert_eq!(Status::Evicted.to_string(), "evicted");
}

/// Two live stores are equal when they hold the same facts in the same state, in whatever order
/// they were written; a fact more, or one changed, makes them differ.
#[test]
fn live_stores_compare_by_their_facts_not_their_order() {
    let config = StoreConfig::default();
    let mut one = LiveStore::new(config);
    let mut other = LiveStore::new(config);
    one.write(FactId(1), "the user is Dana", 0.4, None).unwrap();
    one.write(FactId(2), "order ORD-3300 was $200.00", 0.55, None)
        .unwrap();
    other
        .write(FactId(2), "order ORD-3300 was $200.00", 0.55, None)
        .unwrap();
    other
        .write(FactId(1), "the user is Dana", 0.4, None)
        .unwrap();
    assert_eq!(one, other);
    other
        .write(FactId(3), "the refund is pending", 0.65, None)
        .unwrap();
    assert_ne!(one, other);
    one.write(FactId(3), "the refund is pending", 0.7, None)
        .unwrap();
    assert_ne!(one, other, "the same ids, one importance differs");

    // Only an evicted fact differs: the rankings are the same, the stores are not.
    let evicted = |importance| {
        let mut store = LiveStore::new(StoreConfig::new(4.0, 1, 0.5).unwrap());
        store
            .write(FactId(1), "the user is Dana", importance, None)
            .unwrap();
        store
            .write(FactId(2), "refund approved", 0.9, None)
            .unwrap();
        store
    };
    assert_eq!(evicted(0.1), evicted(0.1));
    assert_ne!(evicted(0.1), evicted(0.2));
}
