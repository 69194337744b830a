//! What each step took from the window ([`Step::lost`]): the seed's crossings, and a property
//! test of every policy against the rule computed from the whole windows before and after.

use std::collections::BTreeSet;

use agent_memory_widgets::{
    policy, Extractive, Kind, Lost, Playground, PolicyId, Session, SessionConfig, Step, Tokens,
    Turn, TurnNumber, Window, POLICIES,
};
use proptest::prelude::*;

fn turns(numbers: &[u32]) -> Vec<TurnNumber> {
    numbers.iter().map(|&n| TurnNumber(n)).collect()
}

/// The seed's crossings (turns 4, 6, 8, 9 and 10), each with what it took; every other step took
/// nothing.
#[test]
fn the_seed_s_crossings_say_what_each_lost() {
    let mut session = Session::default();
    let steps: Vec<Step> = std::iter::from_fn(|| session.add_turn()).collect();
    let expected: [(u32, &[u32], &[&str]); 5] = [
        // Turn 1 (chatter) is dropped, turn 2 folds into WARM: its terms are in its summary.
        (4, &[1, 2], &[]),
        // Turns 3 and 4 fold; turn 3's "day 41" is in neither summary.
        (6, &[3, 4], &["41"]),
        (8, &[5, 6], &[]),
        // Turn 7 folds, and the WARM lines of turns 2 to 4 go into the gist, which keeps their
        // key terms.
        (9, &[7], &[]),
        (10, &[8], &[]),
    ];
    for step in &steps {
        let want = expected.iter().find(|(turn, _, _)| *turn == step.turn.0);
        match want {
            Some((_, lost_turns, terms)) => {
                assert!(step.compacted, "turn {}", step.turn);
                assert_eq!(step.lost().turns, turns(lost_turns), "turn {}", step.turn);
                assert_eq!(step.lost().terms, *terms, "turn {}", step.turn);
            }
            None => assert_eq!(*step.lost(), Lost::default(), "turn {}", step.turn),
        }
    }
}

#[test]
fn a_step_serializes_with_what_it_lost() {
    let mut session = Session::default();
    session.go_to(6);
    let json = serde_json::to_value(&session.log()[5]).unwrap();
    assert_eq!(
        json["lost"],
        serde_json::json!({ "turns": [3, 4], "terms": ["41"] })
    );
    // A step that lost nothing leaves it out.
    let json = serde_json::to_value(&session.log()[4]).unwrap();
    assert_eq!(json.get("lost"), None);
}

/// A live session under Truncate: a dropped turn's terms are lost unless another turn names
/// them.
#[test]
fn a_dropped_turn_loses_the_terms_no_other_text_names() {
    let config = SessionConfig::new(Tokens(8), 1).unwrap();
    let mut session = Session::live(config, policy(PolicyId::Truncate));
    session
        .push(Turn::user("order ORD-7 for Dana").unwrap())
        .unwrap();
    session
        .push(Turn::assistant("hello Dana").unwrap())
        .unwrap();
    let step = session
        .push(Turn::user("now about RF-2 please").unwrap())
        .unwrap();
    // Turn 2 still names Dana.
    assert_eq!(step.lost().turns, turns(&[1]));
    assert_eq!(step.lost().terms, ["ORD-7"]);
}

// The rule, from the whole windows: what a step lost is what the window before it and the new
// turn held, less what the window after it holds.

/// The key terms of `text` by KEY_TERMS_RULE, written out again for prose (the generated texts
/// have no JSON brackets).
fn key_terms(text: &str, into: &mut BTreeSet<String>) {
    let mut opening = true;
    for word in text.split_whitespace() {
        let was_opening = opening;
        opening = matches!(word.bytes().last(), Some(b'.' | b'!' | b'?' | b':'));
        let term = word.trim_matches(|c| {
            matches!(
                c,
                '.' | ',' | ';' | ':' | '!' | '?' | '(' | ')' | '"' | '\'' | '{' | '}' | '[' | ']'
            )
        });
        let digit = term.bytes().any(|b| b.is_ascii_digit());
        let capital = term.chars().next().is_some_and(char::is_uppercase);
        let opens_without_digit = was_opening && !digit;
        if (digit || capital) && !opens_without_digit && term.chars().count() > 1 {
            into.insert(term.to_owned());
        }
    }
}

struct Seen {
    verbatim: BTreeSet<TurnNumber>,
    whole: BTreeSet<TurnNumber>,
    in_lines: BTreeSet<TurnNumber>,
    terms: BTreeSet<String>,
}

fn seen(window: &Window, session: &Session, new: Option<TurnNumber>) -> Seen {
    let text_of = |turn: TurnNumber| session.script().turn(turn).unwrap().text().to_owned();
    let mut seen = Seen {
        verbatim: BTreeSet::new(),
        whole: BTreeSet::new(),
        in_lines: BTreeSet::new(),
        terms: BTreeSet::new(),
    };
    for (turn, cut) in window.held().chain(new.map(|turn| (turn, None))) {
        seen.verbatim.insert(turn);
        match cut {
            Some(text) => key_terms(text, &mut seen.terms),
            None => {
                seen.whole.insert(turn);
                key_terms(&text_of(turn), &mut seen.terms);
            }
        }
    }
    for line in window.cold().into_iter().chain(window.warm()) {
        seen.in_lines.extend(line.turns());
        key_terms(line.text(), &mut seen.terms);
    }
    seen
}

fn expected(peak: &Seen, after: &Seen) -> (Vec<TurnNumber>, BTreeSet<String>) {
    let mut lost = BTreeSet::new();
    for &turn in &peak.whole {
        if !after.whole.contains(&turn) {
            lost.insert(turn);
        }
    }
    for &turn in &peak.verbatim {
        if !after.verbatim.contains(&turn) {
            lost.insert(turn);
        }
    }
    for &turn in &peak.in_lines {
        if !after.in_lines.contains(&turn) && !after.verbatim.contains(&turn) {
            lost.insert(turn);
        }
    }
    let terms = peak.terms.difference(&after.terms).cloned().collect();
    (lost.into_iter().collect(), terms)
}

const VOCABULARY: [&str; 16] = [
    "refund", "Dana", "ORD-3300", "$200.00", "the", "The", "day", "41.", "Globex", "ok:", "RF-7",
    "X", "Sure,", "window", "30-day", "earbuds",
];

fn text_of(words: &[usize]) -> String {
    let mut text = String::new();
    for &word in words {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(VOCABULARY[word % VOCABULARY.len()]);
    }
    text
}

/// A turn: its kind (0 user, 1 assistant, 2 tool call and result, 3 chatter) and its words.
fn arb_turns() -> impl Strategy<Value = Vec<(u8, Vec<usize>, Vec<usize>)>> {
    prop::collection::vec(
        (
            0u8..4,
            prop::collection::vec(0usize..64, 1..9),
            prop::collection::vec(0usize..64, 1..9),
        ),
        1..40,
    )
}

fn pushed(moves: &[(u8, Vec<usize>, Vec<usize>)]) -> Vec<Turn> {
    let mut turns = Vec::new();
    for (i, (kind, words, more)) in moves.iter().enumerate() {
        let (text, other) = (text_of(words), text_of(more));
        match kind {
            0 => turns.push(Turn::user(&text).unwrap()),
            1 => turns.push(Turn::assistant(&text).unwrap()),
            2 => {
                let id = format!("call_{i}");
                turns.push(Turn::tool_call(&id, &text).unwrap());
                turns.push(Turn::tool(&id, &other).unwrap());
            }
            _ => turns.push(Turn::new("assistant", Kind::Chatter, &text).unwrap()),
        }
    }
    turns
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every step of every policy, pushed live, lost exactly what the whole windows say.
    #[test]
    fn every_step_loses_what_the_windows_say(
        moves in arb_turns(),
        budget in 4u32..60,
        hot_n in 1u32..4,
        hard in any::<bool>(),
    ) {
        let mut config = SessionConfig::new(Tokens(budget), hot_n).unwrap();
        if hard {
            // What the hard budget trims is lost too.
            config = config.with_hard_budget();
        }
        for info in POLICIES {
            let mut session = Session::live(config, policy(info.id))
                .with_summarizer(Box::new(Extractive));
            for turn in pushed(&moves) {
                let before = session.window().clone();
                let number = TurnNumber(session.turn_count() + 1);
                let step = session.push(turn).unwrap();
                let peak = seen(&before, &session, Some(number));
                let after = seen(session.window(), &session, None);
                let (turns, terms) = expected(&peak, &after);
                prop_assert_eq!(&step.lost().turns, &turns, "{:?} turn {}", info.id, number);
                let got: BTreeSet<String> = step.lost().terms.iter().cloned().collect();
                prop_assert_eq!(got.len(), step.lost().terms.len(), "a term twice");
                prop_assert_eq!(got, terms, "{:?} turn {}", info.id, number);
                if !step.compacted && step.trimmed().is_empty() {
                    prop_assert_eq!(step.lost(), &Lost::default());
                }
            }
            // Loaded, the session replays its turns in place, and tells the same losses.
            let loaded = Session::load(session.save(), policy(info.id), Box::new(Extractive)).unwrap();
            prop_assert_eq!(loaded.log(), session.log(), "{:?}", info.id);
        }
    }
}

/// The playground's per-step diff and a session's `lost` follow one rule: the turns each
/// compaction of each policy took are the same. (The playground's own sessions keep no `lost`:
/// its replay tells what each compaction lost.)
#[test]
fn the_playground_s_losses_name_the_turns_each_step_lost() {
    let mut playground = Playground::default();
    playground.go_to(10);
    let state = playground.state();
    for row in &state.policies {
        assert!(row.window.log.iter().all(|step| step.lost().is_empty()));
        let mut session = Session::with_policy(
            SessionConfig::default(),
            agent_memory_widgets::Script::refund_desk(),
            policy(row.info.id),
        );
        session.go_to(10);
        let mut compactions = 0;
        for step in session.log().iter().filter(|step| step.compacted) {
            let loss = row
                .losses
                .iter()
                .find(|loss| loss.turn == step.turn)
                .unwrap();
            let mut took: Vec<TurnNumber> = loss.left_verbatim.clone();
            for list in [&loss.masked, &loss.cut, &loss.summaries_dropped] {
                took.extend(list);
            }
            took.sort();
            took.dedup();
            assert_eq!(
                step.lost().turns,
                took,
                "{:?} turn {}",
                row.info.id,
                step.turn
            );
            compactions += 1;
        }
        assert_eq!(compactions, row.losses.len(), "{:?}", row.info.id);
    }
}

/// A step that lost nothing and trimmed nothing holds a pointer for them, not the lists: a
/// 1,000,000-turn session's log is about 104 MB of steps, not 168 (`cargo bench --bench memory`).
#[test]
fn a_step_is_at_most_104_bytes_and_a_quiet_one_holds_no_loss_report() {
    let size = std::mem::size_of::<agent_memory_widgets::Step>();
    assert!(size <= 104, "a Step is {size} bytes");
    let mut session = agent_memory_widgets::Session::default();
    let quiet = session.add_turn().unwrap();
    assert!(!quiet.compacted && quiet.lost().is_empty() && quiet.trimmed().is_empty());
    let json = serde_json::to_value(&quiet).unwrap();
    assert!(json.get("lost").is_none() && json.get("trimmed").is_none());
}
