//! A fact store's options (`FactStore.withConfig`) read from JS, with its scenario.

use crate::prelude::*;
use wasm_bindgen::prelude::*;

use super::{type_of, Fields};
use crate::limits::{MAX_EVENTS, MAX_FACTS, MAX_READS, MAX_RULES};
use crate::{EventSpec, ReadSpec, RuleSpec, ScenarioSpec, SeedFactSpec, StoreOptions};

/// The fact store options in `value`, checked like a session's.
pub(in crate::wasm) fn read(value: &JsValue) -> Result<StoreOptions, JsError> {
    let known = [
        "halfLife",
        "capacity",
        "accessBoost",
        "semanticHalfLife",
        "proceduralHalfLife",
        "scenario",
    ];
    let Some(options) = Fields::root(value, &known)? else {
        return Ok(StoreOptions::default());
    };
    let scenario = scenario_spec(&options)?;
    Ok(StoreOptions {
        half_life: options.number("halfLife")?,
        capacity: options.number("capacity")?,
        access_boost: options.number("accessBoost")?,
        semantic_half_life: options.number("semanticHalfLife")?,
        procedural_half_life: options.number("proceduralHalfLife")?,
        scenario,
    })
}

/// The custom scenario in the options, if any (its checks are the core's: `Scenario::new`).
fn scenario_spec(options: &Fields) -> Result<Option<ScenarioSpec>, JsError> {
    let Some(scenario) = options.child(
        &options.get("scenario")?,
        "scenario",
        &["facts", "reads", "events", "consolidation"],
    )?
    else {
        return Ok(None);
    };
    Ok(Some(ScenarioSpec {
        facts: scenario
            .list(
                "facts",
                MAX_FACTS,
                |fact| {
                    Ok(SeedFactSpec {
                        text: fact.text("text")?,
                        importance: fact.number("importance")?,
                    })
                },
                &["text", "importance"],
            )?
            .unwrap_or_default(),
        reads: scenario
            .list(
                "reads",
                MAX_READS,
                |read| {
                    Ok(ReadSpec {
                        fact: read.number("fact")?,
                        at: read.number("at")?,
                    })
                },
                &["fact", "at"],
            )?
            .unwrap_or_default(),
        events: scenario
            .list(
                "events",
                MAX_EVENTS,
                |event| {
                    Ok(EventSpec {
                        label: event.text("label")?,
                        text: event.text("text")?,
                        importance: event.number("importance")?,
                        supersedes: event.number("supersedes")?,
                    })
                },
                &["label", "text", "importance", "supersedes"],
            )?
            .unwrap_or_default(),
        consolidation: scenario
            .list(
                "consolidation",
                MAX_RULES,
                |rule| {
                    Ok(RuleSpec {
                        kind: rule.text("kind")?,
                        text: rule.text("text")?,
                        importance: rule.number("importance")?,
                        sources: rule.numbers("sources")?,
                    })
                },
                &["kind", "text", "importance", "sources"],
            )?
            .unwrap_or_default(),
    }))
}

// Lists of ids: a rule's sources.
impl Fields {
    /// An optional array of numbers; absent is empty.
    pub(super) fn numbers(&self, key: &str) -> Result<Vec<f64>, JsError> {
        let max = MAX_FACTS + MAX_EVENTS + MAX_RULES;
        let Some((array, length)) = self.array(key, max, "an array of ids")? else {
            return Ok(Vec::new());
        };
        let name = self.name(key);
        let mut numbers = Vec::with_capacity(length);
        for i in 0..length {
            let item = self.item(&array, &name, i)?;
            let Some(number) = item.as_f64() else {
                return Err(JsError::new(&text!(
                    name,
                    "[",
                    i,
                    "] must be a number, got ",
                    type_of(&item)
                )));
            };
            numbers.push(number);
        }
        Ok(numbers)
    }
}
