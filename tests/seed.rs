//! One test per "must hold" line of SPEC sections 2 and 3, plus the numbers the seed states.
//! Each test prints what it found, so `cargo test --test seed -- --nocapture` shows the story.

use agent_memory_widgets::{EventIndex, FactId, Status, Tokens};
use agent_memory_widgets::{
    FactStore, FactView, Kind, Script, Session, SessionConfig, SessionOptions, SessionState, Time,
    TurnSpec, BUDGET, CAPACITY, HALF_LIFE, HOT_N,
};

/// The refund-desk session's state after each of its ten turns.
fn refund_desk_states() -> Vec<SessionState> {
    let mut session = Session::default();
    let mut states = Vec::new();
    while session.add_turn().is_some() {
        states.push(session.state());
    }
    states
}

/// Every text the model sees, in window order.
fn window_text(state: &SessionState) -> String {
    let cold = state.cold.iter().map(|line| line.text());
    let warm = state.warm.iter().map(|line| line.text());
    let hot = state.hot.iter().map(|turn| turn.text.as_str());
    cold.chain(warm).chain(hot).collect::<Vec<_>>().join("\n")
}

fn store_at(t: f64) -> FactStore {
    let mut store = FactStore::default();
    store.set_time(Time::new(t).unwrap());
    store
}

fn fact<'a>(facts: &'a [FactView], text: &str) -> &'a FactView {
    facts.iter().find(|fact| fact.text == text).unwrap()
}

const DANA: &str = "the user is Dana";

#[test]
fn the_seed_constants_are_budget_40_hot_2_half_life_4_capacity_4() {
    assert_eq!((BUDGET.0, HOT_N, HALF_LIFE, CAPACITY), (40, 2, 4.0, 4));
    let state = Session::default().state();
    assert_eq!(
        (
            state.budget.0,
            state.hot_n,
            state.total_turns,
            state.tokens.0
        ),
        (40, 2, 10, 0)
    );
}

#[test]
fn crossings_happen_on_turns_4_6_8_9_and_10_and_on_no_other_turn() {
    let states = refund_desk_states();
    for state in &states {
        let step = state.log.last().unwrap();
        println!(
            "turn {:>2}: {:>2} -> {:>2} / 40 -> {:>2}{}",
            step.turn.0,
            step.tokens_before.0,
            step.peak_tokens.0,
            step.tokens_after.0,
            if step.crossed {
                "  over budget -> COMPACT"
            } else {
                ""
            }
        );
    }
    let last = states.last().unwrap();
    println!("crossings: {:?}", last.crossings);
    assert_eq!(last.crossings, [4, 6, 8, 9, 10]);
    let crossed: Vec<u32> = last
        .log
        .iter()
        .filter(|s| s.crossed)
        .map(|s| s.turn.0)
        .collect();
    assert_eq!(crossed, [4, 6, 8, 9, 10]);
    assert!(last.log.iter().all(|step| step.crossed == step.compacted));
}

#[test]
fn after_every_step_the_window_is_at_most_budget_tokens() {
    for state in refund_desk_states() {
        assert!(
            state.tokens <= BUDGET,
            "turn {}: {} tokens",
            state.turn,
            state.tokens
        );
        assert!(!state.over_budget);
        assert_eq!(state.over_budget_reason, None);
    }
}

#[test]
fn after_every_compaction_hot_holds_exactly_the_last_hot_n_turns_verbatim() {
    let script = Script::refund_desk();
    for state in refund_desk_states()
        .iter()
        .filter(|s| s.log.last().unwrap().compacted)
    {
        let turns: Vec<u32> = state.hot.iter().map(|hot| hot.turn.0).collect();
        assert_eq!(turns, [state.turn - 1, state.turn]);
        for hot in &state.hot {
            assert_eq!(hot.text, script.turn(hot.turn).unwrap().text());
        }
    }
}

#[test]
fn cold_is_at_most_one_line_and_non_empty_after_turn_10() {
    let states = refund_desk_states();
    for state in &states {
        if let Some(cold) = &state.cold {
            assert!(!cold.text().contains('\n'));
            assert!(cold.tokens().0 as usize <= agent_memory_widgets::GIST_TERMS);
        }
    }
    let cold = states.last().unwrap().cold.clone().unwrap();
    println!(
        "COLD after turn 10: {} (from turns {:?})",
        cold.text(),
        nums(cold.turns())
    );
    assert_eq!(
        cold.text(),
        "$200.00, ORD-3300, 30-day, 10%, $180.00, RF-7781, Dana"
    );
}

#[test]
fn no_chatter_text_is_in_the_window_after_the_compaction_that_folded_it() {
    let script = Script::refund_desk();
    let chatter: Vec<_> = script
        .turns()
        .iter()
        .filter(|t| t.kind() == Kind::Chatter)
        .collect();
    assert_eq!(chatter.len(), 2);
    for state in refund_desk_states() {
        for dropped in &state.dropped {
            assert!(
                !window_text(&state).contains(&dropped.text),
                "turn {}",
                state.turn
            );
        }
    }
    let last = refund_desk_states().pop().unwrap();
    let dropped: Vec<u32> = last.dropped.iter().map(|d| d.turn.0).collect();
    assert_eq!(dropped, [1, 5]);
}

#[test]
fn after_turn_10_the_window_still_names_dana_ord_3300_180_and_globex() {
    let text = window_text(refund_desk_states().last().unwrap());
    for name in ["Dana", "ORD-3300", "$180.00", "Globex"] {
        assert!(text.contains(name), "{name} missing from:\n{text}");
    }
}

#[test]
fn when_the_script_is_finished_add_next_turn_stops_and_reset_starts_over() {
    let mut session = Session::default();
    while session.add_turn().is_some() {}
    assert!(session.state().done);
    assert_eq!(session.add_turn(), None);
    session.reset();
    assert_eq!(session.state(), Session::default().state());
    assert_eq!(session.add_turn().map(|step| step.turn.0), Some(1));
}

#[test]
fn a_step_never_loses_the_record_of_what_happened() {
    let last = refund_desk_states().pop().unwrap();
    assert_eq!(last.log.len(), 10);
    let turn4 = &last.log[3];
    assert_eq!(
        (
            turn4.tokens_before.0,
            turn4.peak_tokens.0,
            turn4.tokens_after.0
        ),
        (29, 41, 30)
    );
    assert_eq!(
        (nums(&turn4.to_warm), nums(&turn4.dropped)),
        (vec![2], vec![1])
    );
    // Every turn that left the verbatim tail is accounted for exactly once: WARM or dropped.
    let mut folded: Vec<u32> = last
        .log
        .iter()
        .flat_map(|s| nums(&s.to_warm).into_iter().chain(nums(&s.dropped)))
        .collect();
    folded.sort_unstable();
    assert_eq!(folded, (1..=8).collect::<Vec<_>>());
    // And every WARM line that went COLD had gone WARM first.
    let to_cold: Vec<u32> = last.log.iter().flat_map(|s| nums(&s.to_cold)).collect();
    assert_eq!(to_cold, [2, 3, 4, 6, 7]);
    let warm: Vec<Vec<u32>> = last.warm.iter().map(|line| nums(line.turns())).collect();
    assert_eq!(warm, [vec![8]]);
}

#[test]
fn a_tiny_budget_says_plainly_that_it_is_over_budget_and_goes_on() {
    let mut session = Session::new(
        SessionConfig::new(Tokens(5), 2).unwrap(),
        Script::refund_desk(),
    );
    while session.add_turn().is_some() {}
    let state = session.state();
    assert!(state.over_budget);
    let reason = state.over_budget_reason.unwrap();
    println!("{reason}");
    assert!(reason.contains("budget of 5"), "{reason}");
    assert_eq!(state.turn, 10);
}

#[test]
fn a_huge_turn_is_over_budget_with_a_reason_not_a_panic() {
    let huge = TurnSpec {
        speaker: Some("tool".into()),
        kind: Some("tool".into()),
        text: Some("word ".repeat(100)),
        summary: Some("a long dump".into()),
        tokens: None,
        ..TurnSpec::default()
    };
    let script = Script::new(vec![huge]).unwrap();
    let mut session = Session::new(SessionConfig::default(), script);
    let step = session.add_turn().unwrap();
    assert!(step.crossed);
    let state = session.state();
    assert!(state.over_budget);
    assert_eq!(
        state.over_budget_reason.as_deref(),
        Some("The last turn must stay verbatim and alone take 100 tokens, more than the budget of 40, so no compaction can bring the window under it.")
    );
}

#[test]
fn bad_options_are_errors_that_name_the_field_and_the_rule() {
    let check = |options: SessionOptions, expect: &str| {
        assert_eq!(
            Session::from_options(options).unwrap_err().to_string(),
            expect
        );
    };
    check(
        SessionOptions {
            budget: Some(0.0),
            ..Default::default()
        },
        "budget must be a whole number of at least 1, got 0",
    );
    check(
        SessionOptions {
            budget: Some(2.5),
            ..Default::default()
        },
        "budget must be a whole number of at least 1, got 2.5",
    );
    check(
        SessionOptions {
            hot_n: Some(-1.0),
            ..Default::default()
        },
        "hot_n must be a whole number of at least 1, got -1",
    );
    check(
        SessionOptions {
            script: Some(vec![]),
            ..Default::default()
        },
        "script must have at least 1 turn, got 0",
    );
    let turn = |kind: &str, summary: Option<&str>| TurnSpec {
        speaker: Some("Dana".into()),
        kind: Some(kind.into()),
        text: Some("hello".into()),
        summary: summary.map(Into::into),
        tokens: None,
        ..TurnSpec::default()
    };
    check(
        SessionOptions { script: Some(vec![turn("chatter", None), turn("decision", Some("  "))]), ..Default::default() },
        "script[1].summary (turn 2): a decision turn needs a one-line summary (only chatter goes without)",
    );
    let mut empty = turn("chatter", None);
    empty.text = Some("   ".into());
    check(
        SessionOptions {
            script: Some(vec![empty]),
            ..Default::default()
        },
        "script[0].text (turn 1): must be a non-empty text",
    );
}

// --- Forgetting ---

#[test]
fn at_t_0_every_fact_is_fresh() {
    let state = store_at(0.0).state();
    assert_eq!(state.facts.len(), 4);
    for fact in &state.facts {
        assert_eq!(fact.recency, 1.0);
        assert_eq!(fact.score, fact.importance);
    }
    let dana = fact(&state.facts, DANA);
    assert!(state.facts.iter().all(|f| f.importance >= dana.importance));
    assert_eq!(state.facts.last().unwrap().text, DANA);
}

#[test]
fn at_t_6_every_score_has_decayed_and_dana_read_twice_ranks_first() {
    let fresh = store_at(0.0).state();
    let state = store_at(6.0).state();
    for f in &state.facts {
        println!(
            "t = 6: {:<50} importance {:.2} recency {:.4} reads {} score {:.4}",
            f.text, f.importance, f.recency, f.reads, f.score
        );
        assert!(f.recency < 1.0);
        assert!(f.score < fact(&fresh.facts, &f.text).score || f.reads > 0);
    }
    assert!(state
        .facts
        .iter()
        .all(|f| f.score < f.importance * f.access));
    assert_eq!(state.facts[0].text, DANA);
    assert_eq!(state.facts[0].reads, 2);
    assert_eq!(state.facts[0].recency, 0.5f64.powf(1.5));
}

#[test]
fn reads_rank_active_facts_by_score_and_raise_the_read_count() {
    for (t, reads) in [(1.0, 0), (2.0, 1), (4.9, 1), (5.0, 2), (12.0, 2)] {
        let state = store_at(t).state();
        assert_eq!(fact(&state.facts, DANA).reads, reads, "t = {t}");
        let scores: Vec<f64> = state.facts.iter().map(|f| f.score).collect();
        assert!(
            scores.windows(2).all(|w| w[0] >= w[1]),
            "t = {t}: {scores:?}"
        );
    }
}

#[test]
fn a_write_that_names_a_fact_it_supersedes_retires_that_fact() {
    let mut store = store_at(3.0);
    let change = store.fire(EventIndex(0)).unwrap();
    assert_eq!(change.superseded, Some(FactId(3)));
    let state = store.state();
    let pending = fact(&state.facts, "the refund for ORD-3300 is pending");
    assert_eq!(
        (pending.status, pending.superseded_by),
        (Status::Superseded { by: FactId(5) }, Some(FactId(5)))
    );
    assert_eq!(state.active_count, 4);
}

#[test]
fn which_fact_event_2_evicts_depends_on_when_it_fires() {
    let evicted_at = |t: f64| {
        let mut store = store_at(t);
        let change = store.fire(EventIndex(1)).unwrap();
        let state = store.state();
        let evicted = state
            .facts
            .iter()
            .find(|f| f.id == change.evicted.unwrap())
            .unwrap();
        assert_eq!(evicted.status.name(), "evicted");
        assert_eq!(state.active_count, 4);
        println!("event 2 at t = {t} evicts: {}", evicted.text);
        evicted.text.clone()
    };
    assert_eq!(evicted_at(0.0), DANA);
    assert_ne!(evicted_at(6.0), DANA);
}

#[test]
fn an_event_at_time_tau_is_part_of_the_state_at_t_exactly_when_tau_is_at_most_t() {
    let mut store = store_at(6.0);
    store.fire(EventIndex(1)).unwrap();
    let after = store.state();
    for (t, included) in [(5.9, false), (6.0, true), (9.0, true)] {
        store.set_time(Time::new(t).unwrap());
        let has = store
            .state()
            .facts
            .iter()
            .any(|f| f.text.contains("Globex"));
        assert_eq!(has, included, "t = {t}");
    }
    store.set_time(Time::new(3.0).unwrap());
    let (before, unfired) = (store.state(), store_at(3.0).state());
    assert_eq!((before.facts, before.log), (unfired.facts, unfired.log));
    store.set_time(Time::new(6.0).unwrap());
    assert_eq!(store.state(), after);
    // Dana's scheduled read at t = 2 counts at t = 2.
    assert_eq!(fact(&store_at(2.0).state().facts, DANA).reads, 1);
}

#[test]
fn firing_events_in_either_order_gives_the_same_states() {
    let fire = |order: [(u32, f64); 2]| {
        let mut store = FactStore::default();
        for (index, t) in order {
            store.set_time(Time::new(t).unwrap());
            store.fire(EventIndex(index)).unwrap();
        }
        (0..=12)
            .map(|t| {
                store.set_time(Time::new(f64::from(t)).unwrap());
                store.state()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(fire([(0, 4.0), (1, 7.0)]), fire([(1, 7.0), (0, 4.0)]));
    assert_eq!(fire([(0, 5.0), (1, 5.0)]), fire([(1, 5.0), (0, 5.0)]));
    // A fact written by event i has the same id whenever it is fired.
    let id = |t| {
        let mut store = store_at(t);
        store.fire(EventIndex(1)).unwrap().fact
    };
    assert_eq!(id(0.0), id(11.0));
}

#[test]
fn a_duplicate_write_refreshes_the_active_fact_instead_of_adding_a_copy() {
    use agent_memory_widgets::{EventSpec, Scenario, ScenarioSpec, SeedFactSpec, StoreConfig};
    let spec = ScenarioSpec {
        facts: vec![SeedFactSpec {
            text: Some("The user is Dana".into()),
            importance: Some(0.3),
        }],
        reads: vec![],
        events: vec![EventSpec {
            label: None,
            text: Some("  the user is dana ".into()),
            importance: Some(0.6),
            supersedes: None,
        }],
        consolidation: vec![],
    };
    let mut store = FactStore::new(StoreConfig::default(), Scenario::new(spec).unwrap());
    store.set_time(Time::new(4.0).unwrap());
    let change = store.fire(EventIndex(0)).unwrap();
    assert_eq!(
        (change.action, change.fact),
        (agent_memory_widgets::Action::Refresh, FactId(1))
    );
    let state = store.state();
    assert_eq!(state.facts.len(), 1);
    assert_eq!(
        (state.facts[0].importance, state.facts[0].last_touch.get()),
        (0.6, 4.0)
    );
}

#[test]
fn bad_times_ids_and_event_indices_are_errors_not_panics() {
    assert_eq!(
        Time::new(f64::NAN).unwrap_err().to_string(),
        "t must be a number from 0 to 10000000000000, got NaN"
    );
    let mut store = FactStore::default();
    assert_eq!(
        store.fire(EventIndex(2)).unwrap_err().to_string(),
        "there is no write event 2: events are numbered 0 to 1"
    );
    let first = store.fire(EventIndex(0)).unwrap();
    // Fired again at the same time: it stays where it is, and says what it did.
    let before = store.state();
    assert_eq!(store.fire(EventIndex(0)).unwrap(), first);
    assert_eq!(store.state(), before);
    assert_eq!(
        store.read(FactId(99)).unwrap_err().to_string(),
        "there is no fact 99"
    );
    assert_eq!(
        store.read(FactId(3)).unwrap_err().to_string(),
        "fact 3 is no longer active at t = 0; only active facts can be read"
    );
    store.reset();
    assert_eq!(
        store
            .events()
            .iter()
            .filter(|e| e.fired_at.is_some())
            .count(),
        0
    );
}

/// SPEC section 3: "a reader can remove a fired event or fire it again at another time".
#[test]
fn a_fired_event_can_be_removed_or_fired_again_at_another_time() {
    let mut store = store_at(6.0);
    store.fire(EventIndex(1)).unwrap();
    store.fire(EventIndex(0)).unwrap();
    let fired_at_six = store.state();

    // Removed: the timeline is as if it had never been fired, at every time.
    assert_eq!(store.unfire(EventIndex(1)).unwrap().get(), 6.0);
    assert_eq!(store.events()[1].fired_at, None);
    let mut only_refund = store_at(6.0);
    only_refund.fire(EventIndex(0)).unwrap();
    assert_eq!(store.state(), only_refund.state());
    assert_eq!(
        store.unfire(EventIndex(1)).unwrap_err().to_string(),
        "write event 1 has not been fired"
    );
    assert_eq!(
        store.unfire(EventIndex(7)).unwrap_err().to_string(),
        "there is no write event 7"
    );

    // Fired again at t = 0: now it evicts Dana, exactly as a first firing at t = 0 would.
    store.set_time(Time::new(0.0).unwrap());
    let change = store.fire(EventIndex(1)).unwrap();
    assert_eq!(change.evicted, Some(FactId(1)));
    assert_eq!(store.events()[1].fired_at, Some(Time::ZERO));
    let mut fresh = store_at(0.0);
    fresh.fire(EventIndex(1)).unwrap();
    fresh.set_time(Time::new(6.0).unwrap());
    fresh.fire(EventIndex(0)).unwrap();
    store.set_time(Time::new(6.0).unwrap());
    assert_eq!(store.state(), fresh.state());

    // And back to t = 6: the first timeline again.
    store.unfire(EventIndex(1)).unwrap();
    store.fire(EventIndex(1)).unwrap();
    assert_eq!(store.state(), fired_at_six);

    // Fired again without removing it first, at another time: it moves there, exactly as a
    // removal and a firing would (the JS API of SPEC section 4 has `fire` and no `unfire`).
    store.set_time(Time::ZERO);
    let change = store.fire(EventIndex(1)).unwrap();
    assert_eq!(change.evicted, Some(FactId(1)));
    assert_eq!(store.events()[1].fired_at, Some(Time::ZERO));
    store.set_time(Time::new(6.0).unwrap());
    assert_eq!(store.state(), fresh.state());
    store.fire(EventIndex(1)).unwrap();
    assert_eq!(store.state(), fired_at_six);

    // The consolidation pass moves the same way.
    store.consolidate().unwrap();
    let consolidated = store.state();
    assert_eq!(store.unconsolidate().unwrap().get(), 6.0);
    assert_eq!(store.state(), fired_at_six);
    assert_eq!(
        store.unconsolidate().unwrap_err().to_string(),
        "consolidation has not run"
    );
    store.consolidate().unwrap();
    assert_eq!(store.state(), consolidated);
}

#[test]
fn a_write_fired_at_a_scheduled_reads_time_comes_after_that_read() {
    // The store shown at t includes the read scheduled at t, so a write fired at t evicts the
    // fact that store ranks last, and the read still counts.
    for t in [2.0, 5.0] {
        let mut store = store_at(t);
        let shown = store.state();
        let weakest = shown
            .facts
            .iter()
            .filter(|f| f.status.name() == "active")
            .min_by(|a, b| a.score.total_cmp(&b.score))
            .unwrap()
            .id;
        let change = store.fire(EventIndex(1)).unwrap();
        assert_eq!(change.evicted, Some(weakest), "t = {t}");
        let state = store.state();
        assert_eq!(
            fact(&state.facts, DANA).reads,
            fact(&shown.facts, DANA).reads,
            "t = {t}"
        );
        assert!(
            state
                .log
                .iter()
                .all(|c| c.action != agent_memory_widgets::Action::MissedRead),
            "t = {t}: {:?}",
            state.log
        );
    }
}

#[test]
fn a_read_at_the_time_an_event_wrote_its_fact_counts() {
    let mut store = store_at(3.0);
    let written = store.fire(EventIndex(1)).unwrap().fact;
    store.read(written).unwrap();
    let state = store.state();
    assert_eq!(
        state.facts.iter().find(|f| f.id == written).unwrap().reads,
        1
    );
    assert_eq!(
        state.log.last().unwrap().action,
        agent_memory_widgets::Action::Read
    );
}

#[test]
fn an_event_that_supersedes_a_fact_not_yet_written_still_writes_its_own() {
    use agent_memory_widgets::{EventSpec, Scenario, ScenarioSpec, SeedFactSpec, StoreConfig};
    let event = |text: &str, supersedes| EventSpec {
        label: None,
        text: Some(text.into()),
        importance: Some(0.5),
        supersedes,
    };
    let spec = ScenarioSpec {
        facts: vec![SeedFactSpec {
            text: Some("a".into()),
            importance: Some(0.5),
        }],
        reads: vec![],
        events: vec![event("b", Some(3.0)), event("c", None)],
        consolidation: vec![],
    };
    let mut store = FactStore::new(StoreConfig::default(), Scenario::new(spec).unwrap());
    let change = store.fire(EventIndex(0)).unwrap();
    assert_eq!((change.fact, change.superseded), (FactId(2), None));
    store.set_time(Time::new(1.0).unwrap());
    // Once event 1 has written fact 3, nothing retroactively supersedes it: event 0 came first.
    assert_eq!(store.fire(EventIndex(1)).unwrap().superseded, None);
    assert_eq!(store.state().active_count, 3);
}

/// Turn numbers as plain numbers, for comparing with the test's own model.
fn nums(turns: &[agent_memory_widgets::TurnNumber]) -> Vec<u32> {
    turns.iter().map(|turn| turn.0).collect()
}
