//! Forgetting policies side by side: each policy's store after every event of the refund-desk
//! stream, worked out by hand from its rule; the long stream's rule; properties over random
//! capacities and stream lengths; and the README table, generated from the core.

use agent_memory_widgets::{
    Comparison, FactId, ForgettingPlayground, ForgettingPolicyId, StoreConfig, Stream, StreamId,
    StreamOp, Time, FORGETTING_POLICIES,
};
use proptest::prelude::*;

mod common;

fn ids(ids: &[u32]) -> Vec<FactId> {
    ids.iter().copied().map(FactId).collect()
}

/// The refund desk at capacity 4: the fee rule (1), Dana (2), the order (3) and the pending
/// refund (4) fit; Dana is read at t = 2 and the rule at t = 3. The approval (5) supersedes the
/// pending refund and takes the simple policies over capacity:
///
/// - FIFO evicts the oldest write, the rule (t = 0, lowest id); LRU the order, untouched since
///   t = 0; LFU the order too (no reads, the oldest); importance only Dana (0.4).
/// - Generative Agents, at t = 3: recency scaled 1, 2/3, 0, 1/3, 1 and importance scaled 0.7, 0,
///   0.3, 0.5, 1 sum lowest for the order (0.3). MemoryBank: the order has retention e^-3.
/// - Ours retires the pending refund, so it holds four without evicting.
///
/// Dana is read again at t = 5: importance only has evicted her. The question (6) then evicts
/// Dana under FIFO, the pending refund under LRU, LFU, Generative Agents and MemoryBank, the
/// order under importance only (0.55), and under ours the order, whose score 0.55 x 0.5^(5/4)
/// is the lowest (the rule 0.80, Dana 0.80 after two reads, the approval 0.64, the question 0.7).
#[test]
fn the_refund_desk_under_every_policy_event_by_event() {
    let stream = Stream::refund_desk();
    let comparison = Comparison::new(&stream, StoreConfig::default());
    assert_eq!(comparison.reads, [0, 0, 0, 0, 1, 2, 2, 3, 3]);
    let four = ids(&[1, 2, 3, 4]);
    let start = |last: &[u32]| {
        let mut active = vec![
            ids(&[1]),
            ids(&[1, 2]),
            ids(&[1, 2, 3]),
            four.clone(),
            four.clone(),
            four.clone(),
        ];
        active.push(ids(&last[..4]));
        active.push(ids(&last[..4]));
        active.push(ids(&last[4..]));
        active
    };
    let expected: [(&str, [u32; 8], u32, [u32; 9]); 7] = [
        (
            "fifo",
            [2, 3, 4, 5, 3, 4, 5, 6],
            3,
            [0, 0, 0, 0, 0, 0, 1, 1, 1],
        ),
        (
            "lru",
            [1, 2, 4, 5, 1, 2, 5, 6],
            3,
            [0, 0, 0, 0, 0, 0, 1, 1, 0],
        ),
        (
            "lfu",
            [1, 2, 4, 5, 1, 2, 5, 6],
            3,
            [0, 0, 0, 0, 0, 0, 1, 1, 0],
        ),
        (
            "importance",
            [1, 3, 4, 5, 1, 4, 5, 6],
            2,
            [0, 0, 0, 0, 0, 0, 1, 1, 1],
        ),
        (
            "generative-agents",
            [1, 2, 4, 5, 1, 2, 5, 6],
            3,
            [0, 0, 0, 0, 0, 0, 1, 1, 0],
        ),
        (
            "memorybank",
            [1, 2, 4, 5, 1, 2, 5, 6],
            3,
            [0, 0, 0, 0, 0, 0, 1, 1, 0],
        ),
        ("ours", [1, 2, 3, 5, 1, 2, 5, 6], 3, [0; 9]),
    ];
    assert_eq!(comparison.runs.len(), expected.len());
    for (run, (name, last, hits, stale)) in comparison.runs.iter().zip(expected) {
        assert_eq!(run.info.id.name(), name);
        assert_eq!(
            run.active,
            start(&last),
            "{name}: the facts held after each event"
        );
        assert_eq!(run.hits.last(), Some(&hits), "{name}: hits");
        assert_eq!(run.stale, stale, "{name}: stale facts held");
        assert_eq!(
            run.hit_rate(&comparison.reads, 8),
            Some(f64::from(hits) / 3.0)
        );
        assert_eq!(
            run.hit_rate(&comparison.reads, 3),
            None,
            "{name}: no read yet"
        );
    }
}

#[test]
fn the_long_stream_follows_its_rule() {
    let stream = Stream::long();
    let events = stream.events();
    assert_eq!(events.len(), 340);
    assert!(events.windows(2).all(|pair| pair[0].at <= pair[1].at));
    let (mut writes, mut reads, mut supersessions) = (0, 0, 0);
    for event in events {
        match &event.op {
            StreamOp::Write {
                fact, supersedes, ..
            } => {
                writes += 1;
                assert_eq!(fact.0, writes, "ids count writes from 1");
                supersessions += u32::from(supersedes.is_some());
            }
            StreamOp::Read { fact } => {
                reads += 1;
                assert!(fact.0 <= writes, "a read needs a fact already written");
            }
        }
    }
    // The rule, then per ticket 4 writes (5 on even tickets) and 4 reads (3 on the first).
    assert_eq!((writes, reads, supersessions), (181, 159, 40));
    let text = |i: usize| match &events[i].op {
        StreamOp::Write { text, .. } => text.as_str(),
        StreamOp::Read { .. } => "",
    };
    assert_eq!(text(1), "the user is Dana");
    assert_eq!(text(2), "order ORD-3300 was $200.00");
    assert_eq!(text(6), "refund approved for ORD-3300: $180.00");
    // Amounts and look-backs from the generator, recomputed here (x <- 1664525x + 1013904223
    // mod 2^32 from 2026, two draws a ticket): ticket 1 is $238.00, ticket 39 $378.00, and
    // ticket 39 looks back at ticket 11.
    let write_of = |wanted: &str| {
        events.iter().find_map(|event| match &event.op {
            StreamOp::Write { fact, text, .. } if text.starts_with(wanted) => {
                Some((*fact, text.as_str(), event.at))
            }
            _ => None,
        })
    };
    assert_eq!(
        write_of("order ORD-3301 ").map(|w| w.1),
        Some("order ORD-3301 was $238.00")
    );
    assert_eq!(
        write_of("refund approved for ORD-3301").map(|w| w.1),
        Some("refund approved for ORD-3301: $214.20")
    );
    assert_eq!(
        write_of("order ORD-3339 ").map(|w| (w.1, w.2.get())),
        Some(("order ORD-3339 was $378.00", 234.0))
    );
    assert_eq!(
        write_of("refund approved for ORD-3339").map(|w| w.1),
        Some("refund approved for ORD-3339: $340.20")
    );
    // Even tickets ask about a product, in turn: ticket 2 the second, ticket 38 the fifth.
    assert_eq!(
        write_of("Mei asks").map(|w| w.1),
        Some("Mei asks about the Initech kettle warranty")
    );
    assert_eq!(
        write_of("Tara asks").map(|w| w.1),
        Some("Tara asks about the Hooli watch warranty")
    );
    assert_eq!(write_of("Uma asks"), None, "odd tickets ask nothing");
    let ticket_11 = write_of("refund approved for ORD-3311").unwrap().0;
    let look_back = events.iter().find_map(|event| match event.op {
        StreamOp::Read { fact } if event.at.get() == 238.0 => Some(fact),
        _ => None,
    });
    assert_eq!(look_back, Some(ticket_11));
    assert_eq!(Stream::tickets(1), Stream::refund_desk());
    assert_eq!(&Stream::tickets(40), &stream);
    assert_eq!(Stream::tickets(99), stream, "at most 40 tickets");
}

/// The README's table: each policy's rule and source, and how often the fact was there when it
/// was needed, on both streams at the seed's capacity of 4.
fn readme_section() -> String {
    let desk = Comparison::new(&Stream::refund_desk(), StoreConfig::default());
    let long = Comparison::new(&Stream::long(), StoreConfig::default());
    let rate = |c: &Comparison, i: usize| {
        let last = c.reads.len() - 1;
        format!("{} of {}", c.runs[i].hits[last], c.reads[last])
    };
    let mut out = String::from(
        "| policy | evicts, at capacity | refund desk: needed and there | 40 tickets: needed and there | 40 tickets: stale facts held at the end, most at once | source |\n|---|---|---|---|---|---|\n",
    );
    for (i, info) in FORGETTING_POLICIES.iter().enumerate() {
        let run = &long.runs[i];
        let source = if info.url.is_empty() {
            info.source.to_owned()
        } else {
            format!("[{}]({})", info.source, info.url)
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {}, {} | {} |\n",
            info.name,
            info.rule,
            rate(&desk, i),
            rate(&long, i),
            run.stale.last().unwrap(),
            run.stale.iter().max().unwrap(),
            source
        ));
    }
    out
}

#[test]
fn the_readme_forgetting_comparison_is_generated_from_the_core() {
    common::readme_section(
        "forgetting-policies",
        &readme_section(),
        "forgetting_compare",
    );
}

#[test]
fn every_policy_has_a_name_a_rule_and_a_source() {
    for (i, info) in FORGETTING_POLICIES.iter().enumerate() {
        assert_eq!(info.id as usize, i);
        assert_eq!(
            info.id.name().parse::<ForgettingPolicyId>().unwrap(),
            info.id
        );
        assert!(info.rule.starts_with("Evicts "), "{}", info.id);
        assert!(!info.source.is_empty(), "{}", info.id);
    }
    assert!("lifo".parse::<ForgettingPolicyId>().is_err());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// No policy ever holds more than the capacity; the same stream gives the same runs; hits
    /// never pass reads; and ours never holds a superseded fact.
    #[test]
    fn no_policy_exceeds_the_capacity_and_every_run_repeats(tickets in 1u32..=40, capacity in 1u32..=8, half_life in 0.5f64..20.0) {
        let stream = Stream::tickets(tickets);
        let config = StoreConfig::new(half_life, capacity, 0.5).unwrap();
        let comparison = Comparison::new(&stream, config);
        prop_assert_eq!(&comparison, &Comparison::new(&stream, config));
        for run in &comparison.runs {
            prop_assert_eq!(run.active.len(), stream.events().len());
            for (i, active) in run.active.iter().enumerate() {
                prop_assert!(active.len() <= capacity as usize, "{} holds {} at event {}", run.info.id, active.len(), i);
                prop_assert!(active.windows(2).all(|pair| pair[0] < pair[1]));
                prop_assert!(run.hits[i] <= comparison.reads[i]);
            }
            if run.info.id == ForgettingPolicyId::Ours {
                prop_assert!(run.stale.iter().all(|&stale| stale == 0));
            }
        }
    }
}

/// The playground's snapshot on the refund desk, at a point between events and at the end.
#[test]
fn the_playground_state_at_a_time_is_the_runs_up_to_that_time() {
    let mut playground = ForgettingPlayground::new(StreamId::RefundDesk, StoreConfig::default());
    assert_eq!(playground.time(), Time::ZERO);
    let start = playground.state();
    // At t = 0 the first three writes have happened (all at t = 0).
    assert_eq!(
        (
            start.events,
            start.events_done,
            start.reads,
            start.total_reads
        ),
        (9, 3, 0, 3)
    );
    assert_eq!(start.until, Time::new(5.0).unwrap());
    assert_eq!(
        start.facts.iter().map(|f| f.id.0).collect::<Vec<_>>(),
        [1, 2, 3]
    );

    playground.set_time(Time::new(4.0).unwrap());
    assert_eq!(playground.time(), Time::new(4.0).unwrap());
    let state = playground.state();
    assert_eq!(
        (state.t, state.events_done, state.reads),
        (Time::new(4.0).unwrap(), 7, 2)
    );
    assert_eq!(
        (state.stream, state.capacity, state.half_life),
        (StreamId::RefundDesk, 4, 4.0)
    );
    // Every fact some policy holds at t = 4, by id: the pending refund (4) is stale, fact 5 says so.
    let facts: Vec<(u32, &str, Option<u32>)> = state
        .facts
        .iter()
        .map(|f| (f.id.0, f.text.as_str(), f.superseded_by.map(|id| id.0)))
        .collect();
    assert_eq!(
        facts,
        [
            (1, "returns after 30 days carry a 10% restocking fee", None),
            (2, "the user is Dana", None),
            (3, "order ORD-3300 was $200.00", None),
            (4, "the refund for ORD-3300 is pending", Some(5)),
            (5, "refund approved for ORD-3300: $180.00", None),
        ]
    );
    let held: Vec<Vec<u32>> = state
        .policies
        .iter()
        .map(|p| p.held.iter().map(|id| id.0).collect())
        .collect();
    assert_eq!(
        held,
        [
            vec![2, 3, 4, 5],
            vec![1, 2, 4, 5],
            vec![1, 2, 4, 5],
            vec![1, 3, 4, 5],
            vec![1, 2, 4, 5],
            vec![1, 2, 4, 5],
            vec![1, 2, 3, 5]
        ]
    );
    assert!(state.policies.iter().all(|p| p.hits == 2));
    assert_eq!(
        state.policies.iter().map(|p| p.stale).collect::<Vec<_>>(),
        [1, 1, 1, 1, 1, 1, 0]
    );
    // The series covers the whole stream, whatever the slider: one point per read.
    let importance = &state.policies[3];
    let series: Vec<(f64, f64)> = importance
        .series
        .iter()
        .map(|p| (p.at.get(), p.rate))
        .collect();
    assert_eq!(series, [(2.0, 1.0), (3.0, 1.0), (5.0, 2.0 / 3.0)]);

    // Past the end, the end.
    playground.set_time(Time::new(99.0).unwrap());
    let end = playground.state();
    assert_eq!((end.events_done, end.reads), (9, 3));
    assert_eq!(end.policies[3].hits, 2);
    assert_eq!(end.facts.last().map(|f| f.id.0), Some(6));

    // From options: the defaults, and each option checked.
    let tickets = ForgettingPlayground::from_options(None, None, None)
        .unwrap()
        .state();
    assert_eq!(
        (
            tickets.stream,
            tickets.events,
            tickets.capacity,
            tickets.half_life
        ),
        (StreamId::Tickets, 340, 4, 4.0)
    );
    let custom = ForgettingPlayground::from_options(Some(8.0), Some(6.0), Some("refund-desk"))
        .unwrap()
        .state();
    assert_eq!(
        (custom.stream, custom.capacity, custom.half_life),
        (StreamId::RefundDesk, 6, 8.0)
    );
    for (half_life, capacity, stream, message) in [
        (
            None,
            Some(0.0),
            None,
            "capacity must be a whole number of at least 1, got 0",
        ),
        (Some(0.0), None, None, "half_life must be"),
        (
            None,
            None,
            Some("all"),
            "unknown stream \"all\"; use refund-desk or tickets",
        ),
    ] {
        let err = ForgettingPlayground::from_options(half_life, capacity, stream).unwrap_err();
        assert!(err.to_string().starts_with(message), "{err}");
    }
}
