//! Configurations by name: `SessionConfig::builder()` and `StoreConfig::builder()`, and the
//! seed's values under one explicit name.

use agent_memory_widgets::{SessionConfig, StoreConfig, Tokens};

#[test]
fn a_session_builder_gives_the_config_the_positional_calls_give() {
    let built = SessionConfig::builder()
        .budget(8000)
        .hot_n(4)
        .compact_at(90)
        .compact_to(50)
        .build()
        .unwrap();
    let positional = SessionConfig::new(Tokens(8000), 4)
        .and_then(|c| c.with_compact_at(Some(90)))
        .and_then(|c| c.with_compact_to(Some(50)))
        .unwrap();
    assert_eq!(built, positional);
    assert_eq!(
        SessionConfig::builder()
            .budget(100)
            .build()
            .unwrap()
            .hot_n(),
        2
    );
    assert_eq!(SessionConfig::seed(), SessionConfig::default());
    assert_eq!(SessionConfig::seed().budget(), Tokens(40));
}

#[test]
fn a_session_builder_names_the_bad_value() {
    let check = |builder: agent_memory_widgets::SessionConfigBuilder, expect: &str| {
        assert_eq!(builder.build().unwrap_err().message(), expect);
    };
    check(
        SessionConfig::builder(),
        "budget must be set: the window's size in tokens has no default",
    );
    check(
        SessionConfig::builder().budget(0),
        "budget must be a whole number of at least 1, got 0",
    );
    check(
        SessionConfig::builder().budget(10).hot_n(0),
        "hot_n must be a whole number of at least 1, got 0",
    );
    check(
        SessionConfig::builder().budget(10).compact_at(0),
        "compact_at must be a whole number of at least 1, got 0",
    );
    check(
        SessionConfig::builder().budget(10).compact_to(101),
        "compact_to must be a whole number of at most 100, got 101",
    );
}

#[test]
fn a_store_builder_gives_the_config_the_positional_calls_give() {
    let built = StoreConfig::builder()
        .half_life(604_800.0)
        .capacity(1000)
        .access_boost(0.25)
        .lasting_half_lives(1e7, 2e7)
        .retention(500)
        .build()
        .unwrap();
    let positional = StoreConfig::new(604_800.0, 1000, 0.25)
        .and_then(|c| c.with_lasting_half_lives(1e7, 2e7))
        .unwrap()
        .with_retention(500);
    assert_eq!(built, positional);
    let plain = StoreConfig::builder()
        .half_life(4.0)
        .capacity(4)
        .build()
        .unwrap();
    assert_eq!(plain, StoreConfig::seed());
    assert_eq!(StoreConfig::seed(), StoreConfig::default());
    let err = StoreConfig::builder().half_life(4.0).build().unwrap_err();
    assert_eq!(
        err.message(),
        "capacity must be set: how many facts stay active has no default"
    );
    let err = StoreConfig::builder()
        .half_life(0.0)
        .capacity(4)
        .build()
        .unwrap_err();
    assert_eq!(
        err.message(),
        "half_life must be a number from 0.001 to 10000000000000, got 0"
    );
}
