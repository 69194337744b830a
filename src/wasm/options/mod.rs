//! The options reader (`Fields`), behind every class's `withConfig`: each key and type checked
//! by hand rather than with serde's `Deserialize`, so that each message gives the path of the
//! bad field and the build carries no float formatting for serde's error messages.

use crate::prelude::*;
use alloc::rc::Rc;
use core::cell::Cell;

use js_sys::{Array, JsString, Object, Reflect};
use wasm_bindgen::prelude::*;

use crate::limits::{MAX_PAGE_TEXT_CHARS, MAX_SCRIPT_TEXT_CHARS};

#[cfg(any(
    feature = "element-compaction",
    feature = "element-forgetting",
    feature = "element-playground"
))]
mod lists;
#[cfg(any(feature = "element-compaction", feature = "element-playground"))]
pub(super) mod session;
#[cfg(feature = "element-forgetting")]
pub(super) mod store;

// The JS functions the options reader calls, each in its catching form: a caller's getter,
// Proxy trap or revoked Proxy may throw, and an exception that unwinds through wasm frames
// skips the code that restores wasm-bindgen's shadow stack pointer. Caught here, it becomes an
// ordinary error that names the option.
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array(value: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn object_keys(value: &JsValue) -> Result<Array, JsValue>;
}

/// A JS object being read, with the path that error messages name (`script[3]`).
pub(super) struct Fields {
    object: Object,
    path: String,
    // The UTF-16 units of every text read so far from the same options, shared by the objects
    // below them: it stops a list of long texts from filling memory before the core's exact
    // character count sees it (UTF-16 units bound characters from above).
    text_units: Rc<Cell<usize>>,
}

impl Fields {
    /// The options object `value`, with no keys but `known`; `None` when it is absent.
    pub(super) fn root(value: &JsValue, known: &[&str]) -> Result<Option<Fields>, JsError> {
        Fields::of(value, "withConfig", known, Rc::default())
    }

    /// `value` as an object with no keys but `known`; `None` when it is absent.
    pub(super) fn of(
        value: &JsValue,
        path: &str,
        known: &[&str],
        text_units: Rc<Cell<usize>>,
    ) -> Result<Option<Fields>, JsError> {
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        let array = is_array(value).map_err(|err| threw(path, &err))?;
        if !value.is_object() || array {
            return Err(JsError::new(&text!(
                path,
                " must be an object with any of: ",
                listed(known),
                "; got ",
                type_of(value)
            )));
        }
        let keys = object_keys(value).map_err(|err| threw(path, &err))?;
        for key in keys.iter() {
            let name = key.as_string().unwrap_or_default();
            if !known.contains(&name.as_str()) {
                return Err(JsError::new(&text!(
                    "unknown option \"",
                    name,
                    "\" in ",
                    path,
                    "; use any of: ",
                    listed(known)
                )));
            }
        }
        Ok(Some(Fields {
            object: value.clone().unchecked_into(),
            path: path.to_owned(),
            text_units,
        }))
    }

    /// The value of `key`; a getter or Proxy that throws is an error naming the option.
    pub(super) fn get(&self, key: &str) -> Result<JsValue, JsError> {
        Reflect::get(&self.object, &JsValue::from_str(key))
            .map_err(|err| threw(&self.name(key), &err))
    }

    /// The name of `key` in messages, as the core names it: bare for the options and the
    /// scenario's lists (`budget`, `facts`), with the item's path below them (`script[3].kind`).
    pub(super) fn name(&self, key: &str) -> String {
        match self.path.as_str() {
            "withConfig" | "scenario" => key.to_owned(),
            path => text!(path, ".", key),
        }
    }

    /// An optional number.
    pub(super) fn number(&self, key: &str) -> Result<Option<f64>, JsError> {
        let value = self.get(key)?;
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        let name = self.name(key);
        value
            .as_f64()
            .map(Some)
            .ok_or_else(|| JsError::new(&text!(name, " must be a number, got ", type_of(&value))))
    }

    /// An optional string. Its JS length is checked before it is copied into wasm memory: a
    /// string of more than twice [`MAX_PAGE_TEXT_CHARS`] UTF-16 units has more than that many
    /// characters; the core checks the exact count.
    pub(super) fn text(&self, key: &str) -> Result<Option<String>, JsError> {
        let value = self.get(key)?;
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        let name = self.name(key);
        let Some(string) = value.dyn_ref::<JsString>() else {
            return Err(JsError::new(&text!(
                name,
                " must be a string, got ",
                type_of(&value)
            )));
        };
        let units = string.length() as usize;
        if units > 2 * MAX_PAGE_TEXT_CHARS {
            return Err(JsError::new(&text!(
                name,
                ": must have at most ",
                MAX_PAGE_TEXT_CHARS,
                " characters, got ",
                units
            )));
        }
        // The larger of a script's and a scenario's limits on all texts together: the
        // core checks each exactly.
        let total = self.text_units.get() + units;
        if total > 2 * MAX_SCRIPT_TEXT_CHARS {
            return Err(JsError::new(&text!(
                name,
                ": all texts together must have at most ",
                MAX_SCRIPT_TEXT_CHARS,
                " characters"
            )));
        }
        self.text_units.set(total);
        Ok(string.as_string())
    }
}

/// `names` as a message lists them, `a, b, c` (a loop: `[&str]::join` is 1 KB of wasm).
fn listed(names: &[&str]) -> String {
    let mut list = String::new();
    for name in names {
        if !list.is_empty() {
            list.push_str(", ");
        }
        list.push_str(name);
    }
    list
}

/// The error for an exception the caller's object threw while `name` was read.
fn threw(name: &str, exception: &JsValue) -> JsError {
    let message = Reflect::get(exception, &JsValue::from_str("message"))
        .ok()
        .and_then(|message| message.as_string())
        .or_else(|| exception.as_string())
        .unwrap_or_else(|| "a value that is not an Error".into());
    JsError::new(&text!(name, " could not be read: it threw ", message))
}

/// A JS value's type in words, for error messages: `undefined`, `null`, `an array`, `a number`.
fn type_of(value: &JsValue) -> String {
    if value.is_undefined() {
        return "undefined".into();
    }
    if value.is_null() {
        return "null".into();
    }
    if is_array(value).unwrap_or(false) {
        return "an array".into();
    }
    let name = value.js_typeof().as_string().unwrap_or_default();
    let article = if name.starts_with('o') { "an" } else { "a" };
    text!(article, " ", name)
}
