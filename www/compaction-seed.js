// Generated from the Rust core by `UPDATE_GOLDEN=1 cargo test --test golden`: what
// <memory-compaction> at the seed's settings shows before its wasm core arrives. Do not edit.
export const SEED = {"crossings":[4,6,8,9,10],"state":{"budget":40,"cold":null,"crossings":[],"done":false,"dropped":[],"hot":[],"hotN":2,"log":[],"overBudget":false,"overBudgetReason":null,"tokens":0,"totalTurns":10,"transcript":[],"turn":0,"warm":[]}};
