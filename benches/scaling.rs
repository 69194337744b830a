//! How the core's costs grow with history: `make bench` runs this and `benches/report.mjs`
//! turns criterion's estimates into the table in BENCHMARKS.md. Each "obvious" variant is the
//! implementation a first draft would write, measured in the same run for the ratio.

use std::hint::black_box;
use std::time::{Duration, Instant};

use agent_memory_widgets::{
    policy, FactId, FactStore, LiveStore, Playground, PolicyId, ScenarioSpec, Script, SeedFactSpec,
    Session, SessionConfig, StoreConfig, StoreOptions, Time, Tokens, TurnSpec,
};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

const HISTORIES: [u32; 3] = [1_000, 100_000, 1_000_000];
const BUDGET: u32 = 4_000;
/// Turns available after the history, before a session has to be rebuilt (untimed).
const HEADROOM: u32 = 200_000;

/// A deterministic script: every fifth turn is chatter; turns have 5 to 40 words, some of them
/// names and amounts so that the COLD gist has terms to keep.
fn script(turns: u32) -> Script {
    let kinds = ["question", "tool", "decision", "decision", "chatter"];
    let specs = (0..turns)
        .map(|i| {
            let words = 5 + (i * 7919) % 36;
            let text: Vec<String> = (0..words)
                .map(|w| {
                    if w % 9 == 0 {
                        format!("ORD-{}", (i + w) % 977)
                    } else {
                        "word".into()
                    }
                })
                .collect();
            TurnSpec {
                speaker: Some("Dana".into()),
                kind: Some(kinds[(i % 5) as usize].into()),
                text: Some(text.join(" ")),
                summary: Some(format!("Dana summary {} of turn", i % 101)),
                tokens: None,
                ..TurnSpec::default()
            }
        })
        .collect();
    Script::new(specs).expect("the generated script is valid")
}

/// A session that has played `history` turns and has `HEADROOM` more to go.
fn session_at(script: &Script, history: u32) -> Session {
    let mut session = Session::new(
        SessionConfig::new(Tokens(BUDGET), 2).unwrap(),
        script.clone(),
    );
    session.go_to(history);
    session
}

/// Times `turn` (one `add_turn`, and whatever else the variant does) at each history length.
fn bench_turns(c: &mut Criterion, group: &str, turn: fn(&mut Session)) {
    let mut group = c.benchmark_group(group);
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(3));
    for history in HISTORIES {
        let script = script(history + HEADROOM);
        let mut session = session_at(&script, history);
        group.bench_with_input(
            BenchmarkId::from_parameter(history),
            &history,
            |b, &history| {
                b.iter_custom(|iters| {
                    let mut elapsed = Duration::ZERO;
                    for _ in 0..iters {
                        if session.is_done() {
                            session = session_at(&script, history); // untimed
                        }
                        let start = Instant::now();
                        turn(&mut session);
                        elapsed += start.elapsed();
                    }
                    elapsed
                });
            },
        );
    }
    group.finish();
}

fn add_turn(c: &mut Criterion) {
    bench_turns(c, "session_add_turn", |session| {
        black_box(session.add_turn());
    });
}

/// One `add_turn` under each policy of the playground at a history of 1e3 and 1e5 turns, with
/// the seed's budget of 40 so that every policy compacts often: rows `policy_turn/<id>/<n>`.
fn policy_turn(c: &mut Criterion) {
    const AHEAD: u32 = 20_000;
    let mut group = c.benchmark_group("policy_turn");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2));
    for history in [1_000u32, 100_000] {
        let script = script(history + AHEAD);
        for &id in PolicyId::NAMES {
            let fresh = || {
                let config = SessionConfig::new(Tokens(40), 2).unwrap();
                let mut session = Session::with_policy(config, script.clone(), policy(id));
                session.go_to(history);
                session
            };
            let mut session = fresh();
            group.bench_with_input(BenchmarkId::new(id.name(), history), &history, |b, _| {
                b.iter_custom(|iters| {
                    let mut elapsed = Duration::ZERO;
                    for _ in 0..iters {
                        if session.is_done() {
                            session = fresh(); // untimed
                        }
                        let start = Instant::now();
                        black_box(session.add_turn());
                        elapsed += start.elapsed();
                    }
                    elapsed
                });
            });
        }
    }
    group.finish();
}

/// The obvious compaction: the same policy, but the window's tokens are recounted from its
/// texts after every turn instead of kept as running sums.
fn naive_add_turn(c: &mut Criterion) {
    bench_turns(c, "naive_add_turn", |session| {
        black_box(session.add_turn());
        black_box(recount(session));
    });
}

fn recount(session: &Session) -> Tokens {
    let window = session.window();
    let cold = window
        .cold()
        .map_or(Tokens(0), |line| Tokens::of(line.text()));
    let warm = window
        .warm()
        .map(|line| Tokens::of(line.text()))
        .fold(Tokens(0), |a, b| a + b);
    let hot = window
        .verbatim()
        .filter_map(|turn| session.script().turn(turn))
        .map(|turn| Tokens::of(turn.text()));
    cold + warm + hot.fold(Tokens(0), |a, b| a + b)
}

/// A store holding `n` active facts at capacity `n`, with varied importance and ages.
fn full_store(n: u32) -> LiveStore {
    let mut store = LiveStore::new(StoreConfig::new(4.0, n, 0.5).unwrap());
    for id in 0..n {
        if id % 1000 == 0 {
            store
                .advance_to(Time::new(f64::from(id / 1000)).unwrap())
                .unwrap();
        }
        let importance = 0.05 + f64::from((id * 7919) % 1000) / 1053.0;
        store
            .write(FactId(id), &format!("fact {id}"), importance, None)
            .unwrap();
    }
    store
}

fn write_with_eviction(c: &mut Criterion) {
    let mut group = c.benchmark_group("store_write_evict");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(3));
    for n in HISTORIES {
        let mut store = full_store(n);
        let mut next = n;
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter_custom(|iters| {
                let texts: Vec<String> = (0..iters)
                    .map(|i| format!("fact {}", u64::from(next) + i))
                    .collect();
                let start = Instant::now();
                for text in &texts {
                    let outcome = store.write(FactId(next), text, 0.5, None).unwrap();
                    black_box(outcome.evicted);
                    next += 1;
                }
                start.elapsed()
            });
        });
    }
    group.finish();
}

/// The obvious store: a list of facts, rescored one by one to find the weakest on every write.
struct NaiveStore {
    facts: Vec<(u32, f64, f64, u32)>, // id, importance, last touch, reads
    capacity: usize,
    now: f64,
}

impl NaiveStore {
    fn write(&mut self, id: u32, importance: f64) -> Option<u32> {
        self.facts.push((id, importance, self.now, 0));
        if self.facts.len() <= self.capacity {
            return None;
        }
        let score = |&(_, importance, touch, reads): &(u32, f64, f64, u32)| {
            importance * 0.5f64.powf((self.now - touch) / 4.0) * (1.0 + 0.5 * f64::from(reads))
        };
        let weakest = (0..self.facts.len())
            .min_by(|&a, &b| score(&self.facts[a]).total_cmp(&score(&self.facts[b])))?;
        Some(self.facts.swap_remove(weakest).0)
    }
}

fn naive_write_with_eviction(c: &mut Criterion) {
    let mut group = c.benchmark_group("naive_write_evict");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    for n in HISTORIES {
        let facts = (0..n)
            .map(|id| {
                (
                    id,
                    0.05 + f64::from((id * 7919) % 1000) / 1053.0,
                    f64::from(id / 1000),
                    0,
                )
            })
            .collect();
        let mut store = NaiveStore {
            facts,
            capacity: n as usize,
            now: f64::from(n / 1000),
        };
        let mut next = n;
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| {
                next += 1;
                black_box(store.write(next, 0.5))
            });
        });
    }
    group.finish();
}

fn top_k(c: &mut Criterion) {
    let store = full_store(1_000_000);
    c.bench_function("top_k_10_1000000", |b| {
        b.iter(|| black_box(store.top_k(10)))
    });
}

/// The playground replays a script under all six policies (for the sparklines) and goes to its
/// last turn: the per-turn cost should not grow with the script's length.
fn playground(c: &mut Criterion) {
    let mut group = c.benchmark_group("playground_replay");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(4));
    for n in [1_000u32, 10_000] {
        let script = script(n);
        let config = SessionConfig::new(Tokens(40), 2).unwrap();
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter(|| {
                let mut playground = Playground::new(config, script.clone());
                playground.go_to(n);
                black_box(playground.turn_count())
            })
        });
    }
    group.finish();
}

/// The decay chart in one pass: its cost should follow the points it draws (samples × facts).
fn chart(c: &mut Criterion) {
    let facts = (0..100)
        .map(|i| SeedFactSpec {
            text: Some(format!("fact {i}")),
            importance: Some(0.05 + f64::from((i * 7919) % 1000) / 1053.0),
        })
        .collect();
    let store = FactStore::from_options(StoreOptions {
        capacity: Some(100.0),
        scenario: Some(ScenarioSpec {
            facts,
            ..ScenarioSpec::default()
        }),
        ..StoreOptions::default()
    })
    .unwrap();
    let mut group = c.benchmark_group("chart_points");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    // 100 facts × 100 or 1,000 samples: 10,000 or 100,000 points.
    for points in [10_000u32, 100_000] {
        let samples = points / 100;
        group.bench_with_input(
            BenchmarkId::from_parameter(points),
            &samples,
            |b, &samples| {
                let until = Time::new(f64::from(samples - 1)).unwrap();
                b.iter(|| black_box(store.chart(until, 1.0).unwrap().len()))
            },
        );
    }
    group.finish();
}

criterion_group!(
    benches,
    playground,
    chart,
    add_turn,
    policy_turn,
    naive_add_turn,
    write_with_eviction,
    naive_write_with_eviction,
    top_k
);
criterion_main!(benches);
