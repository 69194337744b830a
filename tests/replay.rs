//! A fact store's timeline replayed under other settings by the core (`FactStore::timeline`,
//! `FactStore::replay_timeline`), as the forgetting widget does when a knob turns: the same
//! store as applying each write, pass and read at its time, in time order, one call at a time.

use agent_memory_widgets::{EventIndex, FactId, FactStore, Scenario, StoreConfig, Time};
use proptest::prelude::*;

/// One thing a reader does: fire an event, run the pass or read a fact, at a time.
#[derive(Clone, Debug)]
enum Act {
    Fire(u32),
    Consolidate,
    Read(u32),
}

fn act() -> impl Strategy<Value = (f64, Act)> {
    let time = (0u32..=24).prop_map(|half| f64::from(half) / 2.0);
    let what = prop_oneof![
        (0u32..3).prop_map(Act::Fire),
        Just(Act::Consolidate),
        (1u32..10).prop_map(Act::Read),
    ];
    (time, what)
}

fn store(half_life: f64, capacity: u32) -> FactStore {
    FactStore::new(
        StoreConfig::new(half_life, capacity, 0.5).unwrap(),
        Scenario::refund_desk(),
    )
}

/// The replay one call at a time, as the page once wrote it: writes by index, the pass, then
/// the reads as made, sorted by time (stably), each at its time; what fails is counted.
fn by_hand(into: &mut FactStore, from: &FactStore) -> (u32, u32) {
    let timeline = from.timeline();
    type Apply<'a> = Box<dyn Fn(&mut FactStore) -> bool + 'a>;
    let mut actions: Vec<(f64, Apply)> = Vec::new();
    for event in &timeline.events {
        let index = event.index;
        actions.push((
            event.fired_at.get(),
            Box::new(move |s| s.fire(index).is_ok()),
        ));
    }
    if let Some(at) = timeline.consolidated_at {
        actions.push((at.get(), Box::new(|s| s.consolidate().is_ok())));
    }
    for read in &timeline.reads {
        let fact = read.fact;
        actions.push((read.at.get(), Box::new(move |s| s.read(fact).is_ok())));
    }
    actions.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut done, mut missed) = (0, 0);
    for (at, apply) in actions {
        into.set_time(Time::new(at).unwrap());
        if apply(into) {
            done += 1;
        } else {
            missed += 1;
        }
    }
    into.set_time(timeline.t);
    (done, missed)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_replayed_timeline_is_the_timeline_applied_one_call_at_a_time(
        acts in prop::collection::vec(act(), 0..12),
        at in 0u32..=12,
        from in (1u32..=16, 1u32..=5),
        to in (1u32..=16, 1u32..=5),
    ) {
        let mut reader = store(f64::from(from.0) / 2.0, from.1);
        for (time, act) in &acts {
            reader.set_time(Time::new(*time).unwrap());
            let _ = match act {
                Act::Fire(i) => reader.fire(EventIndex(*i)).map(|_| ()),
                Act::Consolidate => reader.consolidate().map(|_| ()),
                Act::Read(id) => reader.read(FactId(*id)).map(|_| ()),
            };
        }
        reader.set_time(Time::new(f64::from(at)).unwrap());

        let (half_life, capacity) = (f64::from(to.0) / 2.0, to.1);
        let mut core = store(half_life, capacity);
        let replayed = core.replay_timeline(&reader.timeline());
        let mut hand = store(half_life, capacity);
        let (done, missed) = by_hand(&mut hand, &reader);
        prop_assert_eq!((replayed.done, replayed.missed), (done, missed));
        prop_assert_eq!(core.state(), hand.state());
        prop_assert_eq!(core.timeline(), hand.timeline());

        // Under its own settings, a timeline whose reads all still apply comes back whole (its
        // reads listed in time order, where the reader's are in the order made).
        let mut same = store(f64::from(from.0) / 2.0, from.1);
        if same.replay_timeline(&reader.timeline()).missed == 0 {
            prop_assert_eq!(same.state().facts, reader.state().facts);
        }
    }
}
