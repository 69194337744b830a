//! Lists and nested objects in the options: a custom script or scenario.

use crate::prelude::*;
use alloc::rc::Rc;
use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::{is_array, threw, type_of, Fields};
use crate::limits::check_len;
use crate::wasm::js_error;

impl Fields {
    /// An object inside this one, at `path`.
    pub(super) fn child(
        &self,
        value: &JsValue,
        path: &str,
        known: &[&str],
    ) -> Result<Option<Fields>, JsError> {
        Fields::of(value, path, known, Rc::clone(&self.text_units))
    }

    /// The length of the array at `key`, at most `max`, checked before anything is reserved for
    /// it; `None` when absent.
    pub(super) fn array(
        &self,
        key: &str,
        max: usize,
        what: &str,
    ) -> Result<Option<(Object, usize)>, JsError> {
        let value = self.get(key)?;
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        let name = self.name(key);
        if !is_array(&value).map_err(|err| threw(&name, &err))? {
            return Err(JsError::new(&text!(
                name,
                " must be ",
                what,
                ", got ",
                type_of(&value)
            )));
        }
        let object: Object = value.unchecked_into();
        let length = Reflect::get(&object, &JsValue::from_str("length"))
            .map_err(|err| threw(&name, &err))?
            .as_f64()
            .unwrap_or(0.0);
        // An array's length is a whole number below 2^32, so this cast is exact.
        let length = length as usize;
        let limit = match key {
            "script" => "MAX_TURNS",
            "reads" => "MAX_READS",
            "events" => "MAX_EVENTS",
            "consolidation" => "MAX_RULES",
            // A scenario's facts, and a rule's sources, which name facts.
            _ => "MAX_FACTS",
        };
        check_len(&name, length, max, limit).map_err(js_error)?;
        Ok(Some((object, length)))
    }

    /// Item `i` of an array from [`Fields::array`].
    pub(super) fn item(&self, array: &Object, name: &str, i: usize) -> Result<JsValue, JsError> {
        Reflect::get_u32(array, i as u32).map_err(|err| threw(&text!(name, "[", i, "]"), &err))
    }

    /// An optional array of at most `max` objects with keys among `known`, each read by `item`.
    pub(super) fn list<T>(
        &self,
        key: &str,
        max: usize,
        item: impl Fn(&Fields) -> Result<T, JsError>,
        known: &[&str],
    ) -> Result<Option<Vec<T>>, JsError> {
        let Some((array, length)) = self.array(key, max, "an array")? else {
            return Ok(None);
        };
        let name = self.name(key);
        let mut list = Vec::with_capacity(length);
        for i in 0..length {
            list.push(item(&self.object_item(&array, &name, i, known)?)?);
        }
        Ok(Some(list))
    }

    /// Item `i` of array `name`, an object with keys among `known`. Not generic, unlike
    /// [`Fields::list`], so that each kind of list adds only its loop to the wasm.
    fn object_item(
        &self,
        array: &Object,
        name: &str,
        i: usize,
        known: &[&str],
    ) -> Result<Fields, JsError> {
        let value = self.item(array, name, i)?;
        let path = text!(name, "[", i, "]");
        self.child(&value, &path, known)?
            .ok_or_else(|| JsError::new(&text!(path, " must be an object, got ", type_of(&value))))
    }
}
