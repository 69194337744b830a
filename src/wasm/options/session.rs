//! A session's options (`Session.withConfig`, `Playground.withConfig`) read from JS.

use crate::prelude::*;
use wasm_bindgen::prelude::*;

use super::Fields;
use crate::limits::MAX_TURNS;
use crate::{SessionOptions, TurnSpec};

/// The session options in `value`. Every key and type is checked here, by hand rather than with
/// serde's `Deserialize`, so that each message gives the path of the bad field and the build
/// carries no float formatting for serde's error messages.
pub(in crate::wasm) fn read(value: &JsValue) -> Result<SessionOptions, JsError> {
    let known = [
        "budget",
        "hotN",
        "script",
        "compactAt",
        "compactTo",
        "tokens",
    ];
    let Some(options) = Fields::root(value, &known)? else {
        return Ok(SessionOptions::default());
    };
    Ok(SessionOptions {
        budget: options.number("budget")?,
        hot_n: options.number("hotN")?,
        script: script_specs(&options)?,
        compact_at: options.number("compactAt")?,
        compact_to: options.number("compactTo")?,
        tokens: options.text("tokens")?,
    })
}

/// The custom script in the options, if any (its checks are the core's: `Script::within_limits`).
fn script_specs(options: &Fields) -> Result<Option<Vec<TurnSpec>>, JsError> {
    options.list(
        "script",
        MAX_TURNS,
        |turn| {
            Ok(TurnSpec {
                speaker: turn.text("speaker")?,
                kind: turn.text("kind")?,
                text: turn.text("text")?,
                summary: turn.text("summary")?,
                tokens: turn.number("tokens")?,
                role: turn.text("role")?,
                tool_call_id: turn.text("toolCallId")?,
            })
        },
        &[
            "speaker",
            "kind",
            "text",
            "summary",
            "tokens",
            "role",
            "toolCallId",
        ],
    )
}
