//! Regression tests for what an outside fuzz of the release package found, and the properties
//! that would have caught it: ranking across fact kinds, limits on every input, and finite
//! numbers in every state. The wasm-only defects (traps, a poisoned instance) are tested by
//! `tests/fuzz.test.mjs` against the release build.

use agent_memory_widgets::limits::{
    MAX_CHART_POINTS, MAX_EVENTS, MAX_FACTS, MAX_HALF_LIFE, MAX_PAGE_TEXT_CHARS, MAX_READS,
    MAX_RULES, MAX_TEXT_CHARS, MAX_TIME, MAX_TURNS,
};
#[path = "common/store.rs"]
mod store;
use agent_memory_widgets::EventIndex;
use agent_memory_widgets::{
    Distilled, FactId, FactKind, FactStore, FactStoreState, LiveStore, ReadSpec, RuleSpec,
    Scenario, ScenarioSpec, Script, SeedFactSpec, Session, SessionOptions, StoreConfig,
    StoreOptions, Time, TurnSpec,
};
use proptest::prelude::*;
use store::{at, Fixed};

/// Active facts come by score, best first; equal within rounding counts as in order, since
/// each kind's order comes from exact keys and the score is a product of rounded factors.
fn assert_ranked(state: &FactStoreState) {
    let active: Vec<_> = state
        .facts
        .iter()
        .filter(|f| f.status.name() == "active")
        .collect();
    for pair in active.windows(2) {
        let (a, b) = (pair[0].score, pair[1].score);
        assert!(
            a >= b || (b - a) <= 1e-12 * b,
            "at t = {}: fact {} ({a}) is ranked above fact {} ({b})",
            state.t.get(),
            pair[0].id,
            pair[1].id
        );
    }
}

#[test]
fn regression_active_facts_rank_by_score_across_kinds() {
    // The fuzz's reproduction: consolidated semantic and procedural facts cross each other as
    // time passes, and the store ranked them by their order at the last event (t = 6).
    let mut store = FactStore::default();
    store.set_time(at(6.0));
    store.fire(EventIndex(0)).unwrap();
    store.fire(EventIndex(1)).unwrap();
    store.consolidate().unwrap();
    store.set_time(at(12.0));
    let state = store.state();
    let active: Vec<FactId> = state
        .facts
        .iter()
        .filter(|f| f.status.name() == "active")
        .map(|f| f.id)
        .collect();
    assert_eq!(active, [9, 7, 8]);
    assert_ranked(&state);
    // Every time on the slider, not just the one in the report.
    for tenth in 0..=120 {
        store.set_time(at(f64::from(tenth) / 10.0));
        assert_ranked(&store.state());
    }
}

#[test]
fn regression_half_lives_that_would_overflow_are_rejected() {
    let options = |half_life: f64| StoreOptions {
        half_life: Some(half_life),
        ..StoreOptions::default()
    };
    let err = FactStore::from_options(options(1e308)).unwrap_err();
    assert_eq!(
        err.message(),
        "half_life must be a number from 0.001 to 10000000000000, got 1e308"
    );
    let err = FactStore::from_options(StoreOptions {
        procedural_half_life: Some(f64::INFINITY),
        ..StoreOptions::default()
    })
    .unwrap_err();
    assert_eq!(
        err.message(),
        "procedural_half_life must be a number from 0.001 to 10000000000000, got Infinity"
    );
    // At the limits every number in the state, forecasts included, is finite.
    for half_life in [MAX_HALF_LIFE, 1e-3] {
        let mut store = FactStore::from_options(options(half_life)).unwrap();
        store.set_time(at(MAX_TIME));
        store.fire(EventIndex(0)).unwrap();
        store.fire(EventIndex(1)).unwrap();
        store.consolidate().unwrap();
        let json = serde_json::to_value(store.state()).unwrap();
        assert_all_finite(&json, "state");
    }
}

/// Every number in `value` is finite (serde_json writes a non-finite f64 as null, so a number
/// that should be there and is null counts as a failure too).
fn assert_all_finite(value: &serde_json::Value, path: &str) {
    match value {
        serde_json::Value::Number(n) => assert!(n.as_f64().is_some_and(f64::is_finite), "{path}"),
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                assert_all_finite(item, &format!("{path}[{i}]"));
            }
        }
        serde_json::Value::Object(fields) => {
            for (key, item) in fields {
                let nullable = ["supersededBy", "consolidatedAt", "firedAt", "forecast"];
                let optional = ["weakestAt", "event", "superseded", "evicted"];
                if item.is_null() {
                    assert!(
                        nullable.contains(&key.as_str()) || optional.contains(&key.as_str()),
                        "{path}.{key} is null"
                    );
                }
                assert_all_finite(item, &format!("{path}.{key}"));
            }
        }
        _ => {}
    }
}

#[test]
fn every_list_and_text_has_a_limit_named_in_its_error() {
    let turn = |text: String| TurnSpec {
        speaker: Some("Dana".into()),
        kind: Some("chatter".into()),
        text: Some(text),
        summary: None,
        tokens: None,
        ..TurnSpec::default()
    };
    let err = Script::within_limits(vec![turn("hi".into()); MAX_TURNS + 1]).unwrap_err();
    assert_eq!(
        err.message(),
        "script must have at most 100000 items, got 100001"
    );
    assert!(Script::within_limits(vec![turn("hi".into()); MAX_TURNS]).is_ok());
    // A native script may be longer: long sessions are the library's business.
    assert!(Script::new(vec![turn("hi".into()); MAX_TURNS + 1]).is_ok());
    // All texts together are limited too.
    let long = "word ".repeat(MAX_PAGE_TEXT_CHARS / 5);
    let err = Script::within_limits(vec![turn(long.clone()); 6_800]).unwrap_err();
    assert_eq!(
        err.message(),
        "script[6708].text (turn 6709): all texts together must have at most 67108864 characters"
    );
    let err = Script::new(vec![turn("é".repeat(MAX_TEXT_CHARS + 1))]).unwrap_err();
    assert_eq!(
        err.message(),
        "script[0].text (turn 1): must have at most 1000000 characters, got 1000001"
    );
    assert!(Script::new(vec![turn("é".repeat(MAX_TEXT_CHARS))]).is_ok());

    let fact = || SeedFactSpec {
        text: Some("a fact".into()),
        importance: Some(0.5),
    };
    let check = |spec: ScenarioSpec, expect: &str| {
        assert_eq!(Scenario::new(spec).unwrap_err().message(), expect);
    };
    check(
        ScenarioSpec {
            facts: vec![fact(); MAX_FACTS + 1],
            ..ScenarioSpec::default()
        },
        "facts must have at most 1000 items, got 1001",
    );
    check(
        ScenarioSpec {
            facts: vec![fact()],
            reads: vec![ReadSpec::default(); MAX_READS + 1],
            ..ScenarioSpec::default()
        },
        "reads must have at most 10000 items, got 10001",
    );
    check(
        ScenarioSpec {
            facts: vec![fact()],
            consolidation: vec![RuleSpec::default(); MAX_RULES + 1],
            ..ScenarioSpec::default()
        },
        "consolidation must have at most 1000 items, got 1001",
    );
    check(
        ScenarioSpec {
            events: vec![Default::default(); MAX_EVENTS + 1],
            ..ScenarioSpec::default()
        },
        "events must have at most 1000 items, got 1001",
    );
    check(
        ScenarioSpec {
            facts: vec![SeedFactSpec {
                text: Some("x".repeat(MAX_PAGE_TEXT_CHARS + 1)),
                importance: Some(0.5),
            }],
            ..ScenarioSpec::default()
        },
        "facts[0].text: must have at most 10000 characters, got 10001",
    );
}

#[test]
fn times_beyond_the_timeline_are_rejected() {
    assert!(Time::new(MAX_TIME).is_ok());
    assert_eq!(
        Time::new(MAX_TIME * 2.0).unwrap_err().message(),
        "t must be a number from 0 to 10000000000000, got 20000000000000"
    );
}

#[test]
fn the_readers_reads_are_limited_too() {
    // The scenario's reads and the reader's count together.
    let mut store = FactStore::from_options(StoreOptions {
        scenario: Some(ScenarioSpec {
            facts: vec![SeedFactSpec {
                text: Some("the user is Dana".into()),
                importance: Some(0.4),
            }],
            reads: vec![
                ReadSpec {
                    fact: Some(1.0),
                    at: Some(1.0),
                };
                MAX_READS - 1
            ],
            ..ScenarioSpec::default()
        }),
        ..StoreOptions::default()
    })
    .unwrap();
    store.read(FactId(1)).unwrap();
    let before = store.state();
    assert_eq!(
        store.read(FactId(1)).unwrap_err().message(),
        "a timeline holds at most 10000 reads; reset to read again"
    );
    assert_eq!(store.state(), before);
}

#[test]
fn the_chart_is_bounded_by_its_points() {
    let store = FactStore::default();
    // 9 facts can ever exist in the refund desk: 10,001 samples would be 90,009 points.
    assert!(store.chart(at(10_000.0), 1.0).is_ok());
    let big = FactStore::from_options(StoreOptions {
        scenario: Some(ScenarioSpec {
            facts: vec![
                SeedFactSpec {
                    text: Some("a fact".into()),
                    importance: Some(0.5),
                };
                1
            ]
            .into_iter()
            .cycle()
            .take(100)
            .enumerate()
            .map(|(i, mut f)| {
                f.text = Some(format!("fact {i}"));
                f
            })
            .collect(),
            ..ScenarioSpec::default()
        }),
        ..StoreOptions::default()
    })
    .unwrap();
    assert!(big.chart(at(999.0), 1.0).is_ok()); // 1,000 × 100 = MAX_CHART_POINTS
    assert_eq!(MAX_CHART_POINTS, 100_000);
    assert_eq!(
        big.chart(at(1000.0), 1.0).unwrap_err().message(),
        "step 1 draws 100100 points, more than 100000; use a larger step"
    );
    for step in [-1.0, 0.0, f64::NAN, 1e-9] {
        let err = store.chart(at(12.0), step).unwrap_err();
        assert!(err.message().starts_with("step must be above 0"), "{err}");
    }
}

#[test]
fn a_session_at_the_turn_limit_runs() {
    let turn = TurnSpec {
        speaker: Some("Dana".into()),
        kind: Some("decision".into()),
        text: Some("one two three four five".into()),
        summary: Some("five".into()),
        tokens: None,
        ..TurnSpec::default()
    };
    let mut session = Session::from_options(SessionOptions {
        script: Some(vec![turn; MAX_TURNS]),
        ..SessionOptions::default()
    })
    .unwrap();
    session.go_to(MAX_TURNS as u32);
    let state = session.state();
    assert!(state.done);
    assert!(state.tokens.0 <= 40);
}

/// A distiller that writes the facts it is given, to put every kind into a `LiveStore`.
#[derive(Clone, Debug)]
enum Op {
    Write(f64),
    Distill(FactKind, f64),
    Read(usize),
    Advance(f64),
}

fn op() -> impl Strategy<Value = Op> {
    let importance = 0.01f64..=1.0;
    prop_oneof![
        3 => importance.clone().prop_map(Op::Write),
        2 => (prop::sample::select(FactKind::ALL.to_vec()), importance).prop_map(|(k, i)| Op::Distill(k, i)),
        2 => (0usize..64).prop_map(Op::Read),
        2 => (0.0f64..6.0).prop_map(Op::Advance),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random stores holding all three kinds with random half-lives, at random times: the
    /// ranking is by score, `top_k` agrees with a full sort, and every eviction takes the
    /// weakest fact across kinds.
    #[test]
    fn ranking_and_eviction_compare_scores_across_kinds(
        half_lives in (0.5f64..20.0, 0.5f64..80.0, 0.5f64..80.0),
        capacity in 1u32..8,
        ops in prop::collection::vec(op(), 1..60),
    ) {
        let config = StoreConfig::new(half_lives.0, capacity, 0.5)
            .unwrap()
            .with_lasting_half_lives(half_lives.1, half_lives.2)
            .unwrap();
        let mut store = LiveStore::new(config);
        let mut next_id = 1;
        for op in ops {
            let before: Vec<(FactId, f64)> = store
                .ranked()
                .map(|id| (id, store.score(id).unwrap()))
                .collect();
            let outcome = match op {
                Op::Write(importance) => {
                    next_id += 1;
                    Some(store.write(FactId(next_id), &format!("fact {next_id}"), importance, None).unwrap())
                }
                Op::Distill(kind, importance) => {
                    next_id += 1;
                    let fact = Distilled { id: FactId(next_id), kind, text: format!("fact {next_id}"), importance, sources: vec![] };
                    store.consolidate(&Fixed(vec![fact])).unwrap().pop()
                }
                Op::Read(i) => {
                    if let Some(&(id, _)) = before.get(i % before.len().max(1)) {
                        store.read(id).unwrap();
                    }
                    None
                }
                Op::Advance(dt) => {
                    store.advance_to(Time::new(store.time().get() + dt).unwrap()).unwrap();
                    None
                }
            };
            if let Some(evicted) = outcome.and_then(|o| o.evicted) {
                // The evicted fact scored lowest among those active after the write.
                let evicted_score = store.score(evicted).unwrap();
                for id in store.ranked() {
                    prop_assert!(store.score(id).unwrap() >= evicted_score * (1.0 - 1e-12),
                        "evicted {} ({}) but {} scores {}", evicted, evicted_score, id, store.score(id).unwrap());
                }
            }
            let ranked: Vec<FactId> = store.ranked().collect();
            prop_assert!(ranked.len() <= capacity as usize);
            let scores: Vec<f64> = ranked.iter().map(|&id| store.score(id).unwrap()).collect();
            for pair in scores.windows(2) {
                prop_assert!(pair[0] >= pair[1] * (1.0 - 1e-12), "not by score: {:?}", scores);
            }
            let mut sorted = scores.clone();
            sorted.sort_by(|a, b| b.total_cmp(a));
            for k in 0..=ranked.len() {
                let top: Vec<f64> = store.top_k(k).iter().map(|&id| store.score(id).unwrap()).collect();
                for (a, b) in top.iter().zip(&sorted) {
                    prop_assert!((a - b).abs() <= 1e-12 * b.abs(), "top_k({}) {:?} vs {:?}", k, top, sorted);
                }
            }
        }
    }

    /// The refund desk with consolidation at random times and random lasting half-lives: the
    /// table is ranked by score at every slider position.
    #[test]
    fn the_widget_table_is_ranked_at_every_time(
        semantic in 0.5f64..64.0,
        procedural in 0.5f64..64.0,
        times in (0.0f64..12.0, 0.0f64..12.0, 0.0f64..12.0),
        probes in prop::collection::vec(0.0f64..24.0, 1..8),
    ) {
        let mut store = FactStore::from_options(StoreOptions {
            semantic_half_life: Some(semantic),
            procedural_half_life: Some(procedural),
            ..StoreOptions::default()
        }).unwrap();
        store.set_time(at(times.0));
        store.fire(EventIndex(0)).unwrap();
        store.set_time(at(times.1));
        store.fire(EventIndex(1)).unwrap();
        store.set_time(at(times.2));
        store.consolidate().unwrap();
        for t in probes {
            store.set_time(at(t));
            assert_ranked(&store.state());
        }
    }
}

#[test]
fn regression_over_budget_reasons_are_clean_sentences() {
    // SummaryBuffer's reason once held a backslash, a newline and 13 spaces: `\\` inside
    // `format!` is not a line continuation.
    let mut playground = agent_memory_widgets::Playground::default();
    playground.go_to(10);
    let mut reasons = 0;
    for row in playground.state().policies {
        if let Some(reason) = row.window.over_budget_reason {
            reasons += 1;
            assert!(
                !reason.contains('\\') && !reason.contains("  ") && !reason.contains('\n'),
                "{}: {reason:?}",
                row.info.name
            );
            assert!(reason.ends_with('.'), "{reason:?}");
        }
    }
    assert!(reasons >= 3, "the frameworks that end over budget say why");
}

#[test]
fn regression_messages_read_as_a_person_writes_them() {
    // 1e-300 once printed as "10e-301".
    let err = FactStore::from_options(StoreOptions {
        half_life: Some(1e-300),
        ..StoreOptions::default()
    })
    .unwrap_err();
    assert_eq!(
        err.message(),
        "half_life must be a number from 0.001 to 10000000000000, got 1e-300"
    );
}
