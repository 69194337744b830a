//! A reader's own conversation: the first-sentence summary rule, the kind rule, importing plain
//! lines and chat messages, and a session or playground built from them.

use agent_memory_widgets::{
    import_lines, import_messages, infer_kind, ChatMessage, Extractive, Kind, Playground, Script,
    Session, SessionOptions, Summarizer, Turn, TurnSpec, EXTRACT_WORDS, MAX_FACT_TERMS,
};
use proptest::prelude::*;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Words of every sort a conversation holds: plain, capitalised, with digits, with sentence
/// punctuation, a greeting, odd Unicode.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,8}",
        "[A-Z][a-z]{0,6}",
        "[A-Z]{2,4}-[0-9]{1,4}",
        "\\$[0-9]{1,3}\\.[0-9]{2}",
        "[a-z]{1,6}[.!?,;:]",
        Just("Thanks!".to_owned()),
        Just("hi".to_owned()),
        Just("naïve…".to_owned()),
        Just("日本".to_owned()),
    ]
}

fn text() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(word(), 1..40),
        prop::collection::vec(prop_oneof![Just(" "), Just("  "), Just("\t")], 40),
    )
        .prop_map(|(words, gaps)| {
            let mut text = String::new();
            for (i, word) in words.iter().enumerate() {
                if i > 0 {
                    text.push_str(gaps[i % gaps.len()]);
                }
                text.push_str(word);
            }
            text
        })
}

fn summary_of(text: &str) -> String {
    let turn = Turn::new("agent", Kind::Decision, text).unwrap();
    Extractive.summarize(&turn).unwrap()
}

proptest! {
    #![proptest_config(config(512))]

    /// A rule summary is at most EXTRACT_WORDS words, the text's own first words (never a word
    /// cut in two, never one from the middle), ends at the first sentence or with `…` where it
    /// was cut, and is the same every time.
    #[test]
    fn a_rule_summary_is_whole_words_within_its_cap_and_deterministic(text in text()) {
        let summary = summary_of(&text);
        prop_assert_eq!(&summary, &summary_of(&text));
        let cut = summary.ends_with('…') && !text.split_whitespace().any(|w| w.ends_with('…') && summary.ends_with(w));
        let kept: Vec<&str> = summary.trim_end_matches('…').split(' ').collect();
        let words: Vec<&str> = text.split_whitespace().collect();
        prop_assert!(kept.len() <= EXTRACT_WORDS, "{} words: {summary}", kept.len());
        prop_assert!(!kept.is_empty() && kept.iter().all(|w| !w.is_empty()));
        // Whole words, in order, from the first: its last word may only lose the `…` it ends in.
        for (i, word) in kept.iter().enumerate() {
            let whole = words[i] == *word || (i + 1 == kept.len() && words[i].trim_end_matches('…') == *word);
            prop_assert!(whole, "word {i} of {summary:?} is not word {i} of {text:?}");
        }
        // It stops at the first word that ends a sentence, or at the cap, or at the end.
        let stop = words
            .iter()
            .position(|w| matches!(w.chars().last(), Some('.' | '!' | '?')))
            .map_or(words.len(), |i| i + 1)
            .min(EXTRACT_WORDS);
        prop_assert_eq!(kept.len(), stop);
        if cut {
            prop_assert!(words.len() > EXTRACT_WORDS);
        }
    }

    /// The kind rule in its order: a tool speaker is a tool output; chatter needs a greeting, at
    /// most 12 words and no digit; then a question mark; then a decision. Deterministic.
    #[test]
    fn the_kind_rule_applies_in_order(text in text(), tool in any::<bool>()) {
        let speaker = if tool { "tool" } else { "Dana" };
        let kind = infer_kind(speaker, &text);
        prop_assert_eq!(kind, infer_kind(speaker, &text));
        let words: Vec<&str> = text.split_whitespace().collect();
        let greets = words.iter().any(|w| {
            let bare = w.trim_matches(|c: char| !c.is_ascii_alphanumeric()).to_lowercase();
            ["hi", "hello", "hey", "thanks", "thank", "bye", "goodbye", "cheers", "thx"].contains(&bare.as_str())
        });
        let chatter = greets && words.len() <= 12 && !text.chars().any(|c| c.is_ascii_digit());
        let expect = if tool {
            Kind::Tool
        } else if chatter {
            Kind::Chatter
        } else if text.contains('?') {
            Kind::Question
        } else {
            Kind::Decision
        };
        prop_assert_eq!(kind, expect);
    }

}

proptest! {
    #![proptest_config(config(96))]

    /// Turns written as `Speaker: text` lines import as those turns, and a session plays them:
    /// every non-chatter turn has the rule's summary, and the script goes back to the same specs.
    #[test]
    fn lines_import_as_the_turns_they_write(
        turns in prop::collection::vec((prop_oneof![Just("Dana"), Just("agent"), Just("tool"), Just("Ana Lima")], text()), 1..30),
        budget in 5u32..80,
    ) {
        // A line that happens to start like a speaker would start a turn of its own.
        let turns: Vec<(&str, String)> = turns
            .into_iter()
            .map(|(speaker, text)| (speaker, text.replace(':', ";")))
            .collect();
        let written: String = turns.iter().map(|(speaker, text)| format!("{speaker}: {text}\n")).collect();
        let specs = import_lines(&written).unwrap();
        prop_assert_eq!(specs.len(), turns.len());
        for (spec, (speaker, text)) in specs.iter().zip(&turns) {
            prop_assert_eq!(spec.speaker.as_deref(), Some(*speaker));
            prop_assert_eq!(spec.text.as_deref(), Some(text.trim()));
            let kind = infer_kind(speaker, text).to_string();
            prop_assert_eq!(spec.kind.as_deref(), Some(kind.as_str()));
            prop_assert_eq!(&spec.summary, &None);
        }
        let options = SessionOptions { budget: Some(f64::from(budget)), script: Some(specs.clone()), ..Default::default() };
        let mut session = Session::from_options(options).unwrap();
        prop_assert_eq!(session.script().to_specs(), specs);
        for turn in session.script().turns() {
            prop_assert_eq!(turn.summary_by_rule(), turn.kind() != Kind::Chatter);
            if turn.kind() != Kind::Chatter {
                prop_assert_eq!(turn.summary().unwrap(), summary_of(turn.text()));
            }
        }
        while session.add_turn().is_some() {}
        let state = session.state();
        prop_assert_eq!(state.turn as usize, turns.len());
        prop_assert!(state.transcript.iter().all(|t| t.summary_by_rule == t.summary.is_some()));
    }
}

#[test]
fn chat_messages_import_with_their_roles_as_speakers() {
    let message = ChatMessage::new;
    let specs = import_messages(vec![
        message("system", "You are the refund desk."),
        message("user", "Hello!"),
        message("user", "Where is ORD-7?"),
        message("assistant", "  "),
        message("tool", "ORD-7: shipped on day 3."),
        message("assistant", "It shipped on day 3."),
    ])
    .unwrap();
    let got: Vec<(&str, &str)> = specs
        .iter()
        .map(|s| (s.speaker.as_deref().unwrap(), s.kind.as_deref().unwrap()))
        .collect();
    assert_eq!(
        got,
        [
            ("system", "decision"),
            ("user", "chatter"),
            ("user", "question"),
            ("tool", "tool"),
            ("assistant", "decision"),
        ]
    );
    let empty = import_messages(vec![message("assistant", "")]).unwrap_err();
    assert_eq!(
        empty.message(),
        "conversation: no turn has any text; write lines like \"Dana: Hello\" or a JSON array of chat messages"
    );
}

#[test]
fn a_written_summary_is_kept_and_said_to_be_written() {
    let spec = |summary: Option<&str>| TurnSpec {
        speaker: Some("agent".into()),
        kind: Some("decision".into()),
        text: Some("Refund approved for ORD-7. It takes five days.".into()),
        summary: summary.map(Into::into),
        tokens: None,
        ..TurnSpec::default()
    };
    let script = Script::within_limits(vec![spec(Some("refund ok")), spec(None)]).unwrap();
    let [written, ruled] = script.turns() else {
        panic!("two turns")
    };
    assert_eq!(
        (written.summary(), written.summary_by_rule()),
        (Some("refund ok"), false)
    );
    assert_eq!(
        (ruled.summary(), ruled.summary_by_rule()),
        (Some("Refund approved for ORD-7."), true)
    );
    assert_eq!(script.to_specs(), vec![spec(Some("refund ok")), spec(None)]);
    // The library's own `Script::new` still asks for every summary.
    assert!(Script::new(vec![spec(None)]).is_err());
}

#[test]
fn the_playground_looks_for_a_conversation_s_own_key_terms() {
    let specs = import_lines(
        "Dana: Hi! I am Dana Reyes, order ORD-4410 for $75.00.\n\
         agent: The Parcelo courier lost it. Refund RF-2231 is on its way.\n\
         Dana: Great. Also A1 B2 C3 D4 E5 F6 are codes.",
    )
    .unwrap();
    let options = SessionOptions {
        script: Some(specs),
        ..Default::default()
    };
    let state = Playground::from_options(options).unwrap().state();
    // "Hi", "I", "The", "Refund", "Great", "Also" open a sentence or are one letter: no names.
    assert_eq!(
        state.facts,
        ["Dana", "Reyes", "ORD-4410", "$75.00", "Parcelo", "RF-2231", "A1", "B2"]
    );
    assert_eq!(state.facts.len(), MAX_FACT_TERMS);
    assert_eq!(state.facts_from, agent_memory_widgets::FactsFrom::KeyTerms);
    assert!(state
        .policies
        .iter()
        .all(|row| row.kept.len() == MAX_FACT_TERMS));
    // The refund desk keeps its seven facts.
    let desk = Playground::default().state();
    assert_eq!(desk.facts[3], "30-day window");
    assert_eq!(desk.facts_from, agent_memory_widgets::FactsFrom::RefundDesk);
}
