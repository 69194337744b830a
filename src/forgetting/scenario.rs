//! The facts, scheduled reads and write events a forgetting timeline starts from.

use crate::prelude::*;
use serde::Serialize;

use crate::error::{whole_number, Error};
use crate::forgetting::config::FactKind;
use crate::forgetting::store::check_importance;
use crate::limits::{check_len, TextBudget, MAX_EVENTS, MAX_FACTS, MAX_READS, MAX_RULES};
use crate::time::Time;
use crate::units::{EventIndex, FactId};

/// A fact the store holds at t = 0.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeedFact {
    /// What it says.
    pub text: String,
    /// Its importance, in (0, 1].
    pub importance: f64,
}

/// A read of a fact at a fixed time.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ScheduledRead {
    /// The fact read.
    pub fact: FactId,
    /// When.
    pub at: Time,
}

/// A write the reader fires at a time of their choosing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WriteEvent {
    /// The button's label.
    pub label: String,
    /// The fact's text.
    pub text: String,
    /// Its importance, in (0, 1].
    pub importance: f64,
    /// The fact it retires, if any.
    pub supersedes: Option<FactId>,
}

/// What a consolidation pass distills from a group of episodes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConsolidationRule {
    /// `Semantic` or `Procedural`.
    pub kind: FactKind,
    /// What the distilled fact says.
    pub text: String,
    /// Its importance, in (0, 1].
    pub importance: f64,
    /// The episodes it distills: it applies once they have all been written and one is active,
    /// and the fact it writes cites those that are not evicted by then.
    pub sources: Vec<FactId>,
}

/// A validated forgetting scenario.
///
/// Facts are numbered from 1 in order, write event `i` (counting from 0) writes fact
/// `facts.len() + 1 + i`, so a fact has the same id whenever its event fires, and consolidation
/// rule `j` writes fact `facts.len() + events.len() + 1 + j`.
///
/// # Example
///
/// ```
/// use agent_memory_widgets::{EventIndex, FactId, Scenario};
///
/// let scenario = Scenario::refund_desk();
/// assert_eq!(scenario.facts()[0].text, "the user is Dana");
/// assert_eq!(scenario.event_fact(EventIndex(1)), Some(FactId(6)));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scenario {
    facts: Vec<SeedFact>,
    reads: Vec<ScheduledRead>,
    events: Vec<WriteEvent>,
    consolidation: Vec<ConsolidationRule>,
}

/// A scenario as JSON or JS writes it, before validation.
///
/// ```json
/// {
///   "facts":  [ { "text": "the user is Dana", "importance": 0.4 } ],
///   "reads":  [ { "fact": 1, "at": 2 } ],
///   "events": [ { "label": "new order", "text": "Dana ordered earbuds", "importance": 0.7,
///                 "supersedes": null } ]
/// }
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "deserialize", derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct ScenarioSpec {
    /// The facts at t = 0, numbered from 1.
    #[serde(default)]
    pub facts: Vec<SeedFactSpec>,
    /// Reads at fixed times.
    #[serde(default)]
    pub reads: Vec<ReadSpec>,
    /// Write events, fired by the reader.
    #[serde(default)]
    pub events: Vec<EventSpec>,
    /// What a consolidation pass distills.
    #[serde(default)]
    pub consolidation: Vec<RuleSpec>,
}

/// A consolidation rule of a [`ScenarioSpec`].
///
/// ```json
/// { "kind": "procedural", "text": "returns past 30 days carry a 10% fee", "importance": 0.8,
///   "sources": [4] }
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "deserialize", derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct RuleSpec {
    /// `semantic` or `procedural`; required.
    pub kind: Option<String>,
    /// What the distilled fact says; required.
    pub text: Option<String>,
    /// In (0, 1]; required.
    pub importance: Option<f64>,
    /// The ids of the episodes it distills; at least one.
    #[serde(default)]
    pub sources: Vec<f64>,
}

/// A fact of a [`ScenarioSpec`].
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "deserialize", derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct SeedFactSpec {
    /// What it says; required.
    pub text: Option<String>,
    /// In (0, 1]; required.
    pub importance: Option<f64>,
}

/// A scheduled read of a [`ScenarioSpec`].
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "deserialize", derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct ReadSpec {
    /// The id of the fact read; required.
    pub fact: Option<f64>,
    /// When, at least 0; required.
    pub at: Option<f64>,
}

/// A write event of a [`ScenarioSpec`].
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "deserialize", derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct EventSpec {
    /// The button's label; defaults to the text.
    #[serde(default)]
    pub label: Option<String>,
    /// The fact's text; required.
    pub text: Option<String>,
    /// In (0, 1]; required.
    pub importance: Option<f64>,
    /// The id of the fact it retires.
    #[serde(default)]
    pub supersedes: Option<f64>,
}

impl Scenario {
    /// Validates `spec`. Errors give the path of the bad field: `events[1].importance must be …`.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`](crate::ErrorKind) with the path of the first bad field, or
    /// [`ErrorKind::OverLimit`](crate::ErrorKind) past a [limit](crate::limits).
    pub fn new(spec: ScenarioSpec) -> Result<Scenario, Error> {
        if spec.facts.is_empty() && spec.events.is_empty() {
            return Err(Error::invalid(
                "scenario",
                "scenario must have at least 1 fact or write event",
            ));
        }
        check_len("facts", spec.facts.len(), MAX_FACTS, "MAX_FACTS")?;
        check_len("events", spec.events.len(), MAX_EVENTS, "MAX_EVENTS")?;
        check_len("reads", spec.reads.len(), MAX_READS, "MAX_READS")?;
        check_len(
            "consolidation",
            spec.consolidation.len(),
            MAX_RULES,
            "MAX_RULES",
        )?;
        let mut budget = TextBudget::default();
        let total = spec.facts.len() + spec.events.len() + spec.consolidation.len();
        let max_id = u32::try_from(total).map_err(|_| {
            Error::invalid(
                "scenario",
                "scenario must have at most 4294967295 facts and events",
            )
        })?;
        let fact_id = |path: String, value: Option<f64>| {
            let value = value.ok_or_else(|| Error::invalid(&path, text!(path, ": required")))?;
            whole_number(&path, value, 1, max_id)
                .map(FactId)
                .map_err(|err| {
                    Error::invalid(
                        &path,
                        text!(err.message(), "; facts and events number 1 to ", max_id),
                    )
                })
        };
        // Plain loops, not `collect::<Result<Vec<_>, _>>()`: each of those is about 1 KB of wasm.
        let mut facts = Vec::with_capacity(spec.facts.len());
        for (i, fact) in spec.facts.into_iter().enumerate() {
            facts.push(SeedFact {
                text: text(&mut budget, item_path("facts", i, "text"), fact.text)?,
                importance: importance(item_path("facts", i, "importance"), fact.importance)?,
            });
        }
        let mut reads = Vec::with_capacity(spec.reads.len());
        for (i, read) in spec.reads.into_iter().enumerate() {
            let at = read.at.ok_or_else(|| {
                let path = item_path("reads", i, "at");
                Error::invalid(&path, text!(path, ": required"))
            })?;
            reads.push(ScheduledRead {
                fact: fact_id(item_path("reads", i, "fact"), read.fact)?,
                at: Time::named(&item_path("reads", i, "at"), at)?,
            });
        }
        let first_event_id = max_id - (spec.events.len() + spec.consolidation.len()) as u32 + 1;
        let mut events = Vec::with_capacity(spec.events.len());
        for (i, event) in spec.events.into_iter().enumerate() {
            let text = text(&mut budget, item_path("events", i, "text"), event.text)?;
            let supersedes = match event.supersedes {
                None => None,
                Some(value) => Some(fact_id(item_path("events", i, "supersedes"), Some(value))?),
            };
            if supersedes == Some(FactId(first_event_id + i as u32)) {
                return Err(Error::invalid(
                    &item_path("events", i, "supersedes"),
                    text!(
                        "events[",
                        i,
                        "].supersedes: an event cannot supersede its own fact"
                    ),
                ));
            }
            events.push(WriteEvent {
                label: match event.label {
                    Some(label) => {
                        self::text(&mut budget, item_path("events", i, "label"), Some(label))?
                    }
                    None => text.clone(),
                },
                text,
                importance: importance(item_path("events", i, "importance"), event.importance)?,
                supersedes,
            });
        }
        let mut consolidation = Vec::with_capacity(spec.consolidation.len());
        for (j, rule) in spec.consolidation.into_iter().enumerate() {
            let path = item_path("consolidation", j, "");
            let kind = match rule.kind.as_deref().map(str::parse) {
                Some(Ok(kind @ (FactKind::Semantic | FactKind::Procedural))) => kind,
                _ => {
                    let other = rule.kind.as_deref();
                    return Err(Error::invalid(
                        &text!(path, ".kind"),
                        match other {
                            Some(other) => text!(
                                path,
                                ".kind: must be \"semantic\" or \"procedural\", got \"",
                                other,
                                "\""
                            ),
                            None => text!(
                                path,
                                ".kind: must be \"semantic\" or \"procedural\", got nothing"
                            ),
                        },
                    ));
                }
            };
            let sources_path = text!(path, ".sources");
            if rule.sources.len() > max_id as usize {
                return Err(Error::invalid(
                    &sources_path,
                    text!(
                        sources_path,
                        " must have at most ",
                        max_id,
                        " items, got ",
                        rule.sources.len()
                    ),
                ));
            }
            if rule.sources.is_empty() {
                return Err(Error::invalid(
                    &sources_path,
                    text!(sources_path, ": name at least one episode"),
                ));
            }
            let mut sources = Vec::with_capacity(rule.sources.len());
            for (i, &id) in rule.sources.iter().enumerate() {
                sources.push(fact_id(text!(path, ".sources[", i, "]"), Some(id))?);
            }
            consolidation.push(ConsolidationRule {
                kind,
                text: text(&mut budget, text!(path, ".text"), rule.text)?,
                importance: importance(text!(path, ".importance"), rule.importance)?,
                sources,
            });
        }
        Ok(Scenario {
            facts,
            reads,
            events,
            consolidation,
        })
    }

    /// The seed's refund desk: four facts at t = 0, `the user is Dana` (the least important)
    /// read at t = 2 and t = 5, two write events, and three consolidation rules: what the refund
    /// came to and the open warranty question (semantic), and the restocking-fee rule
    /// (procedural).
    pub fn refund_desk() -> Scenario {
        let fact = |text: &str, importance| SeedFact {
            text: text.into(),
            importance,
        };
        let read = |at| ScheduledRead {
            fact: FactId(1),
            at: Time(at),
        };
        let rule = |kind, text: &str, importance, sources: &[u32]| ConsolidationRule {
            kind,
            text: text.into(),
            importance,
            sources: sources.iter().copied().map(FactId).collect(),
        };
        let event = |text: &str, importance, supersedes| WriteEvent {
            label: text.into(),
            text: text.into(),
            importance,
            supersedes,
        };
        Scenario {
            facts: vec![
                fact("the user is Dana", 0.4),
                fact("order ORD-3300 was $200.00", 0.55),
                fact("the refund for ORD-3300 is pending", 0.65),
                fact("returns after 30 days carry a 10% restocking fee", 0.75),
            ],
            reads: vec![read(2.0), read(5.0)],
            events: vec![
                event("refund approved: $180.00", 0.9, Some(FactId(3))),
                event("Dana asks about the Globex earbuds warranty", 0.7, None),
            ],
            consolidation: vec![
                rule(
                    FactKind::Semantic,
                    "Dana's order ORD-3300 was refunded $180.00",
                    0.9,
                    &[1, 2, 3, 5],
                ),
                rule(
                    FactKind::Semantic,
                    "Dana has an open question on the Globex earbuds warranty",
                    0.7,
                    &[6],
                ),
                rule(
                    FactKind::Procedural,
                    "for a return past 30 days, refund the price minus a 10% restocking fee",
                    0.8,
                    &[4],
                ),
            ],
        }
    }

    /// The facts at t = 0; fact `i` (from 0) has id `i + 1`.
    pub fn facts(&self) -> &[SeedFact] {
        &self.facts
    }

    /// The scheduled reads.
    pub fn reads(&self) -> &[ScheduledRead] {
        &self.reads
    }

    /// The write events.
    pub fn events(&self) -> &[WriteEvent] {
        &self.events
    }

    /// The id of the fact that event `index` writes.
    pub fn event_fact(&self, index: EventIndex) -> Option<FactId> {
        let index = index.get();
        (index < self.events.len()).then(|| FactId((self.facts.len() + 1 + index) as u32))
    }

    /// The consolidation rules.
    pub fn consolidation(&self) -> &[ConsolidationRule] {
        &self.consolidation
    }

    /// The id of the fact that consolidation rule `index` writes.
    pub fn rule_fact(&self, index: usize) -> Option<FactId> {
        (index < self.consolidation.len())
            .then(|| FactId((self.facts.len() + self.events.len() + 1 + index) as u32))
    }

    /// How many facts the scenario can ever hold: those at t = 0, one per write event and one
    /// per consolidation rule.
    pub fn fact_count(&self) -> usize {
        self.facts.len() + self.events.len() + self.consolidation.len()
    }

    /// Whether `id` names a fact of this scenario (written at t = 0, by an event or by
    /// consolidation).
    pub fn has_fact(&self, id: FactId) -> bool {
        id.0 >= 1 && (id.0 as usize) <= self.fact_count()
    }
}

impl Default for Scenario {
    fn default() -> Scenario {
        Scenario::refund_desk()
    }
}

/// `list[i].field` (or `list[i]` when `field` is empty): one function, so that the many paths
/// cost one `format!` of wasm.
fn item_path(list: &str, i: usize, field: &str) -> String {
    let mut path = text!(list, "[", i, "]");
    if !field.is_empty() {
        path.push('.');
        path.push_str(field);
    }
    path
}

fn text(budget: &mut TextBudget, path: String, value: Option<String>) -> Result<String, Error> {
    match value {
        Some(text) if !text.trim().is_empty() => {
            budget.take(&path, &text)?;
            Ok(text)
        }
        _ => Err(Error::invalid(
            &path,
            text!(path, ": must be a non-empty text"),
        )),
    }
}

fn importance(path: String, value: Option<f64>) -> Result<f64, Error> {
    let value = value.ok_or_else(|| Error::invalid(&path, text!(path, ": required")))?;
    check_importance(&path, value)?;
    Ok(value)
}
