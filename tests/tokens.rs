//! Token counting (#39): the estimator's exact counts, a session that counts with its counter
//! (built-in or a closure), a turn's own count that no counter replaces, the `tokens` option
//! and spec field as JS and JSON give them, and imported messages' counts.

use std::sync::{Arc, Mutex};

use agent_memory_widgets::{
    import_messages, policy, ChatMessage, ErrorKind, Estimate, HotWarmCold, Kind, Playground,
    Script, Session, SessionConfig, SessionOptions, TokenCounter, Tokens, Turn, TurnSpec, Words,
    POLICIES,
};
use proptest::prelude::*;
use proptest::sample::select;

fn estimate(text: &str) -> u32 {
    Estimate.count(text).0
}

// ---------------------------------------------------------------------------------------------
// The estimator
// ---------------------------------------------------------------------------------------------

#[test]
fn the_estimate_of_english_is_a_quarter_token_a_character_per_word_rounded_up() {
    assert_eq!(estimate(""), 0);
    assert_eq!(estimate(" \n\t\u{3000} "), 0);
    assert_eq!(estimate("a"), 1);
    assert_eq!(estimate("abcd"), 1);
    assert_eq!(estimate("abcde"), 2);
    assert_eq!(estimate("Hi there, hope you're having a good day!"), 11);
    assert_eq!(
        estimate("Late returns carry a 10% restocking fee, so your refund is $180.00."),
        18
    );
    // Characters, not bytes: "café" is four characters in five bytes.
    assert_eq!(estimate("café"), 1);
    // Whitespace of any kind separates words and is not counted.
    assert_eq!(estimate("abcde\u{a0}abcde"), 4);
}

#[test]
fn the_estimate_of_chinese_japanese_and_korean_is_one_token_a_character() {
    assert_eq!(estimate("您的退款已经批准，五个工作日内到账。"), 18);
    assert_eq!(estimate("我退回了订单"), 6);
    assert_eq!(
        estimate("返金は承認されました。5営業日以内に届きます。"),
        23
    );
    assert_eq!(estimate("カタカナ ひらがな"), 8);
    assert_eq!(estimate("환불이 승인되었습니다."), 3 + 7 + 1); // the full stop is not CJK
                                                               // Extension B, outside the Basic Multilingual Plane.
    assert_eq!(estimate("\u{20000}\u{2A6D6}"), 2);
}

#[test]
fn the_estimate_of_mixed_text_adds_both_parts_of_each_word() {
    assert_eq!(
        estimate("注文ORD-3300を返品しました。200ドルは返金されますか？"),
        24
    );
    // "Dana说：我的Globex耳机坏了。": 9 CJK characters and 9 others (3 tokens).
    assert_eq!(estimate("Dana说：我的Globex耳机坏了。"), 12);
    assert_eq!(estimate("ORD-3300 订单"), 2 + 2);
}

#[test]
fn the_refund_desk_estimates_what_the_estimator_doc_says() {
    let total: u32 = Script::refund_desk()
        .turns()
        .iter()
        .map(|turn| estimate(turn.text()))
        .sum();
    assert_eq!(total, 161);
    let words: u32 = Script::refund_desk()
        .turns()
        .iter()
        .map(|turn| turn.tokens().0)
        .sum();
    assert_eq!(words, 94);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// Two texts joined by whitespace count what they counted apart, and no word counts 0.
    #[test]
    fn the_estimate_adds_up_over_words(a in "[a-zé语か한 .,0-9]{0,20}", b in "[a-zé语か한 .,0-9]{0,20}") {
        prop_assert_eq!(estimate(&format!("{a} {b}")), estimate(&a) + estimate(&b));
        prop_assert!(estimate(&a) >= Words.count(&a).0);
    }
}

// ---------------------------------------------------------------------------------------------
// A session counts with its counter
// ---------------------------------------------------------------------------------------------

#[test]
fn a_session_with_the_estimate_crosses_where_the_estimate_says() {
    let config = SessionConfig::default(); // budget 40
    let script = Script::refund_desk();
    let texts: Vec<&str> = script.turns().iter().map(Turn::text).collect();
    // The refund desk's first turns: 11, 16, 19 tokens by the estimate, 8, 10, 11 in words.
    let first_over = |count: &dyn Fn(&str) -> u32| {
        let mut sum = 0;
        texts
            .iter()
            .position(|text| {
                sum += count(text);
                sum > config.budget().0
            })
            .map(|at| at as u32 + 1)
    };
    assert_eq!(first_over(&estimate), Some(3));
    assert_eq!(first_over(&|text| Words.count(text).0), Some(4));

    let mut session = Session::default().with_token_counter(Estimate);
    let mut peak = 0;
    for (i, text) in texts.iter().take(3).enumerate() {
        let step = session.add_turn().unwrap();
        peak += estimate(text);
        assert_eq!(step.peak_tokens, Tokens(peak), "turn {}", i + 1);
    }
    let state = session.state();
    assert_eq!(state.crossings, [3]);
    assert!(state.tokens <= 40);
    assert_eq!(state.counting.as_deref(), Some("estimate"));
    assert_eq!(Session::default().state().counting, None);

    // The same session pushed live, through `from_options`, and counted again after the fact,
    // all agree.
    let options = SessionOptions {
        tokens: Some("estimate".into()),
        ..SessionOptions::default()
    };
    let mut from_options = Session::from_options(options).unwrap();
    let mut live = Session::with_policy(config, Script::refund_desk(), policy(POLICIES[0].id))
        .with_token_counter(Estimate);
    let mut late = Session::default();
    for other in [&mut session, &mut from_options, &mut live, &mut late] {
        other.go_to(10);
    }
    let late = late.with_token_counter(Estimate);
    assert_eq!(from_options.state(), session.state());
    assert_eq!(live.state(), session.state());
    assert_eq!(late.state(), session.state());
    // At 1.7 times the words, the refund desk is over 40 at every turn from the third.
    assert_eq!(session.state().crossings, [3, 4, 5, 6, 7, 8, 9, 10]);
    // A reset keeps the counter.
    session.reset();
    session.go_to(3);
    assert_eq!(session.state().crossings, [3]);
}

/// A counter that remembers every text it was asked to count.
#[derive(Default)]
struct Spy(Mutex<Vec<String>>);

impl TokenCounter for Spy {
    fn count(&self, text: &str) -> Tokens {
        self.0.lock().unwrap().push(text.to_owned());
        Tokens(text.chars().count() as u32)
    }

    fn name(&self) -> &str {
        "chars"
    }
}

impl TokenCounter for &'static Spy {
    fn count(&self, text: &str) -> Tokens {
        (**self).count(text)
    }

    fn name(&self) -> &str {
        (**self).name()
    }
}

#[test]
fn a_turn_with_its_own_count_is_never_counted_again() {
    let spy: &'static Spy = Box::leak(Box::default());
    let config = SessionConfig::new(Tokens(1_000), 1).unwrap();
    let mut session =
        Session::live(config, Box::new(HotWarmCold::default())).with_token_counter(spy);
    let given = "This reply was counted by the API: do not count it again.";
    session
        .push(
            Turn::new("agent", Kind::Decision, given)
                .unwrap()
                .with_tokens(Tokens(7)),
        )
        .unwrap();
    session
        .push(Turn::new("Dana", Kind::Question, "Thanks, when?").unwrap())
        .unwrap();
    assert_eq!(session.window().tokens(), Tokens(7 + 13));
    let state = session.state();
    assert_eq!(state.counting.as_deref(), Some("chars"));
    assert_eq!(
        state
            .hot
            .iter()
            .map(|turn| turn.tokens.0)
            .collect::<Vec<_>>(),
        [7, 13]
    );
    // Played again under another counter, and reset, it keeps its count.
    let session = session.with_token_counter(Estimate);
    assert_eq!(session.script().turns()[0].tokens(), Tokens(7));
    assert!(session.script().turns()[0].has_own_tokens());
    assert_eq!(session.window().tokens(), Tokens(7 + 4));
    assert!(!spy.0.lock().unwrap().iter().any(|text| text == given));

    // A spec's `tokens` is the same thing, and comes back out of `to_spec`.
    let spec = TurnSpec {
        speaker: Some("agent".into()),
        kind: Some("decision".into()),
        text: Some(given.into()),
        summary: None,
        tokens: Some(7.0),
        ..TurnSpec::default()
    };
    let turn = Turn::try_from(spec.clone()).unwrap();
    assert_eq!((turn.tokens(), turn.has_own_tokens()), (Tokens(7), true));
    assert_eq!(turn.to_spec(), spec);
    let script = Script::within_limits(vec![spec]).unwrap();
    let mut session = Session::new(SessionConfig::default(), script).with_token_counter(spy);
    session.add_turn();
    assert_eq!(session.state().tokens, Tokens(7));
    assert!(!spy.0.lock().unwrap().iter().any(|text| text == given));
}

#[test]
fn a_closure_is_a_counter_and_counts_the_lines_the_policy_places() {
    let bytes = |text: &str| Tokens(text.len() as u32);
    let mut session = Session::default().with_token_counter(bytes);
    while session.add_turn().is_some() {}
    let state = session.state();
    assert_eq!(state.counting.as_deref(), Some("custom"));
    for line in state.warm.iter().chain(&state.cold) {
        assert_eq!(line.tokens(), Tokens(line.text().len() as u32), "{line:?}");
    }
    for turn in &state.hot {
        assert_eq!(turn.tokens, Tokens(turn.text.len() as u32));
    }
    assert!(
        state.cold.is_some(),
        "the refund desk reaches COLD in bytes"
    );
    // An Arc of a counter shared between sessions, through a closure.
    let shared: Arc<dyn TokenCounter> = Arc::new(Estimate);
    let counter = Arc::clone(&shared);
    let session = Session::default().with_token_counter(move |text: &str| counter.count(text));
    assert_eq!(
        session.script().turns()[0].tokens(),
        shared.count(session.script().turns()[0].text())
    );
}

// ---------------------------------------------------------------------------------------------
// Any counter, any policy: the window's total is the sum of its parts' counts
// ---------------------------------------------------------------------------------------------

const WORDS: &[&str] = &[
    "the",
    "refund",
    "Dana",
    "ORD-3300",
    "$180.00,",
    "approved.",
    "Globex",
    "warranty?",
    "返金",
    "承認されました。",
    "退款",
    "환불이",
    "Thanks!",
    "a",
    "restocking",
    "10%",
    "RF-7781",
];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(select(WORDS), 1..14).prop_map(|words| words.join(" "))
}

fn turn() -> impl Strategy<Value = (usize, String, Option<String>, Option<u32>)> {
    (
        0usize..4,
        text(),
        prop::option::of(text()),
        prop::option::weighted(0.25, 0u32..40),
    )
}

/// Counters of every shape: the built-ins, additive over words, a closure that is not (a whole
/// text's bytes, a third, rounded up), and one that counts every text 2.
fn counter(which: usize) -> Arc<dyn TokenCounter> {
    match which {
        0 => Arc::new(Words),
        1 => Arc::new(Estimate),
        2 => Arc::new(|text: &str| Tokens(text.len().div_ceil(3) as u32)),
        _ => Arc::new(|_: &str| Tokens(2)),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn with_any_counter_the_window_total_is_the_sum_of_its_parts_counts(
        turns in prop::collection::vec(turn(), 1..40),
        which in 0usize..4,
        policy_at in 0usize..POLICIES.len(),
        budget in 5u32..80,
        hot_n in 1u32..4,
    ) {
        let kinds = ["chatter", "decision", "tool", "question"];
        let speakers = ["Dana", "agent", "tool", "Dana"];
        let specs: Vec<TurnSpec> = turns
            .iter()
            .map(|(kind, text, summary, tokens)| TurnSpec {
                speaker: Some(speakers[*kind].into()),
                kind: Some(kinds[*kind].into()),
                text: Some(text.clone()),
                summary: summary.clone(),
                tokens: tokens.map(f64::from),
                ..TurnSpec::default()
})
            .collect();
        let script = Script::within_limits(specs).unwrap();
        let counter = counter(which);
        let shared = Arc::clone(&counter);
        let config = SessionConfig::new(Tokens(budget), hot_n).unwrap();
        let mut session = Session::with_policy(config, script, policy(POLICIES[policy_at].id))
            .with_token_counter(move |text: &str| shared.count(text));
        let own = |number: u32| {
            turns.get(number as usize - 1).and_then(|(_, _, _, tokens)| *tokens)
        };
        while let Some(step) = session.add_turn() {
            let state = session.state();
            let mut sum = 0u32;
            for turn in &state.hot {
                let shown = &turn.text;
                let expected = match own(turn.turn.0) {
                    // Its own count, unless a policy replaced its text (cut or masked).
                    Some(tokens) if *shown == turns[turn.turn.0 as usize - 1].1 => tokens,
                    _ => counter.count(shown).0,
                };
                prop_assert_eq!(turn.tokens.0, expected, "turn {}", turn.turn);
                sum += turn.tokens.0;
            }
            for line in state.warm.iter().chain(&state.cold) {
                prop_assert_eq!(line.tokens(), counter.count(line.text()), "{:?}", line);
                sum += line.tokens().0;
            }
            prop_assert_eq!(state.tokens.0, sum);
            prop_assert_eq!(step.tokens_after, state.tokens);
            prop_assert_eq!(session.window().tokens(), state.tokens);
            prop_assert_eq!(state.counting.as_deref(), Some("custom"));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Options: `tokens` as JS's `withConfig` and JSON give it, and a spec's `tokens`
// ---------------------------------------------------------------------------------------------

#[test]
fn the_tokens_option_is_words_or_estimate_and_nothing_else() {
    let with = |tokens: &str| SessionOptions {
        tokens: Some(tokens.into()),
        ..SessionOptions::default()
    };
    let mut words = Session::from_options(with("words")).unwrap();
    let mut default = Session::default();
    words.go_to(10);
    default.go_to(10);
    assert_eq!(words.state(), default.state());

    for bad in ["bpe", "Estimate", ""] {
        let err = Session::from_options(with(bad)).unwrap_err();
        assert_eq!(
            err.message(),
            format!("tokens must be \"words\" or \"estimate\", got \"{bad}\"")
        );
        assert!(matches!(err.kind(), ErrorKind::InvalidOption { field } if field == "tokens"));
        assert_eq!(err.js_message(), err.message());
        assert!(Playground::from_options(with(bad)).is_err());
    }
}

#[cfg(feature = "deserialize")]
#[test]
fn options_read_from_json_carry_the_counting_and_each_turn_s_count() {
    let options: SessionOptions = serde_json::from_str(
        r#"{ "budget": 12, "tokens": "estimate", "script": [
            { "speaker": "Dana", "kind": "question", "text": "您的退款已经批准了吗？" },
            { "speaker": "agent", "kind": "decision", "text": "Yes.", "tokens": 30 } ] }"#,
    )
    .unwrap();
    let mut session = Session::from_options(options).unwrap();
    session.go_to(2);
    let state = session.state();
    assert_eq!(state.counting.as_deref(), Some("estimate"));
    assert_eq!(state.log[0].peak_tokens, Tokens(11));
    assert_eq!(state.log[1].peak_tokens, Tokens(41));
    assert_eq!(state.crossings, [2]);
    // Written back, a spec keeps its own count and nothing else changes.
    let json = serde_json::to_value(session.script().to_specs()).unwrap();
    assert_eq!(json[0].get("tokens"), None);
    assert_eq!(json[1]["tokens"], 30.0);
}

#[test]
fn a_spec_s_tokens_must_be_a_whole_number_of_tokens() {
    let spec = |tokens: f64| TurnSpec {
        speaker: Some("Dana".into()),
        kind: Some("chatter".into()),
        text: Some("Hi!".into()),
        summary: None,
        tokens: Some(tokens),
        ..TurnSpec::default()
    };
    for (tokens, shown) in [
        (-1.0, "-1"),
        (1.5, "1.5"),
        (f64::NAN, "NaN"),
        (4294967296.0, "4294967296"),
    ] {
        let err = Script::within_limits(vec![spec(0.0), spec(tokens)]).unwrap_err();
        assert_eq!(
            err.message(),
            format!(
                "script[1].tokens (turn 2) must be a whole number of tokens from 0 to 4294967295, got {shown}"
            )
        );
        assert!(
            matches!(err.kind(), ErrorKind::InvalidOption { field } if field == "script[1].tokens (turn 2)")
        );
    }
    assert_eq!(
        Turn::try_from(spec(4294967295.0)).unwrap().tokens(),
        Tokens(u32::MAX)
    );
}

#[test]
fn the_playground_counts_every_policy_with_the_option_s_counter() {
    let options = SessionOptions {
        tokens: Some("estimate".into()),
        ..SessionOptions::default()
    };
    let mut playground = Playground::from_options(options).unwrap();
    playground.go_to(10);
    let state = playground.state();
    for (row, info) in state.policies.iter().zip(POLICIES) {
        let mut session = Session::with_policy(
            SessionConfig::default(),
            Script::refund_desk(),
            policy(info.id),
        )
        .with_token_counter(Estimate);
        session.go_to(10);
        assert_eq!(row.window.tokens, session.state().tokens, "{}", info.name);
        assert_eq!(row.window.counting.as_deref(), Some("estimate"));
    }
    assert_eq!(
        Playground::default().state().policies[0].window.counting,
        None
    );
}

// ---------------------------------------------------------------------------------------------
// Imported messages keep their own counts
// ---------------------------------------------------------------------------------------------

fn message(role: &str, text: &str) -> ChatMessage {
    ChatMessage::new(role, text)
}

#[test]
fn an_imported_message_s_tokens_or_usage_set_its_turn_s_count() {
    let mut own = message("user", "Where is ORD-7?");
    own.tokens = Some(6.0);
    own.usage.output_tokens = Some(99.0); // its own `tokens` win
    let mut output = message("assistant", "It shipped on day 3.");
    output.usage.output_tokens = Some(8.0);
    output.usage.completion_tokens = Some(9.0); // `output_tokens` first
    let mut completion = message("assistant", "Anything else?");
    completion.usage.completion_tokens = Some(4.0);
    let mut silent = message("assistant", ""); // a tool call: skipped, its count with it
    silent.usage.output_tokens = Some(20.0);
    let plain = message("user", "No, thanks.");
    let specs = import_messages(vec![own, output, completion, silent, plain]).unwrap();
    let counts: Vec<Option<f64>> = specs.iter().map(|spec| spec.tokens).collect();
    assert_eq!(counts, [Some(6.0), Some(8.0), Some(4.0), None]);

    let mut session = Session::from_options(SessionOptions {
        tokens: Some("estimate".into()),
        budget: Some(1000.0),
        script: Some(specs),
        ..SessionOptions::default()
    })
    .unwrap();
    session.go_to(4);
    let hot: Vec<u32> = session
        .state()
        .hot
        .iter()
        .map(|turn| turn.tokens.0)
        .collect();
    assert_eq!(hot, [6, 8, 4, estimate("No, thanks.")]);
}

#[test]
fn a_bad_count_in_a_message_is_an_error_naming_the_message_and_the_field() {
    type Spoil = fn(&mut ChatMessage);
    let cases: [(Spoil, &str); 4] = [
        (|m| m.tokens = Some(-3.0), "messages[1].tokens must be a whole number of tokens from 0 to 4294967295, got -3"),
        (|m| m.usage.output_tokens = Some(2.5), "messages[1].usage.output_tokens must be a whole number of tokens from 0 to 4294967295, got 2.5"),
        (|m| m.usage.completion_tokens = Some(f64::INFINITY), "messages[1].usage.completion_tokens must be a whole number of tokens from 0 to 4294967295, got Infinity"),
        // A bad count later in the order is an error too, though an earlier one would be used.
        (|m| { m.tokens = Some(3.0); m.usage.completion_tokens = Some(-1.0) }, "messages[1].usage.completion_tokens must be a whole number of tokens from 0 to 4294967295, got -1"),
    ];
    for (spoil, expected) in cases {
        let mut bad = message("assistant", "Shipped.");
        spoil(&mut bad);
        let err = import_messages(vec![message("user", "Hi"), bad]).unwrap_err();
        assert_eq!(err.message(), expected);
        assert!(matches!(err.kind(), ErrorKind::InvalidOption { field } if field == "messages"));
        assert_eq!(err.js_message(), expected);
    }
}
