//! State snapshots into plain JS values, through serde.
//!
//! For every value this crate hands to JS the result is the same as serde-wasm-bindgen's
//! serializer's with `serialize_missing_as_null` (`tests/wasm.rs` compares the two), made with
//! wasm-bindgen alone: serde-wasm-bindgen brings `std`'s `HashMap` and its own error formatting
//! to every core, and its generic code for each type. Here each element's and field's method is
//! a thin generic shell around one non-generic step ([`Elements::append`], [`Fields::set_field`]).
//! It differs:
//!
//! - in the JS strings for field and variant names, kept in a small direct-mapped table of our
//!   own ([`name`]) where serde-wasm-bindgen keeps them in a `HashMap`: its code is 1.9 KB of
//!   gzip on every core, the table's 0.4;
//! - in setting every field and element by a catching call, and in keeping its errors as Rust
//!   text ([`Error`]), so that nothing a page does to `Object.prototype`, `Array.prototype` or
//!   `Error.prototype` makes an exception unwind through wasm;
//! - in what the crate does not serialize: maps (and `#[serde(flatten)]`) become plain objects,
//!   not JS `Map`s, and their keys must be strings; bytes, `i128`, `u128` and
//!   `serde_wasm_bindgen::preserve` are not supported.

use crate::prelude::*;
use core::cell::RefCell;
use core::fmt;

use js_sys::{Array, Object};
use serde::ser::{self, Serialize};
use wasm_bindgen::{JsCast, JsValue};

type Result<T = JsValue> = core::result::Result<T, Error>;

/// Why a snapshot could not be built: a sentence in Rust text, never a JS value (reading a JS
/// error as text would call the page's `String()`, uncaught).
#[derive(Debug)]
pub(super) struct Error(String);

impl Error {
    fn new(message: &str) -> Error {
        Error(message.to_owned())
    }

    /// The sentence.
    pub(super) fn message(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl core::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(message: T) -> Error {
        Error(alloc::string::ToString::to_string(&message))
    }
}

/// The largest whole number JavaScript holds exactly, 2^53 - 1 (`Number.MAX_SAFE_INTEGER`).
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// A JS number; fails for a whole number beyond 2^53 - 1 either way (which no state holds), as
/// serde-wasm-bindgen's does.
fn whole(magnitude: u64, negative: bool) -> Result {
    if magnitude > MAX_SAFE_INTEGER {
        return Err(Error::new(
            "the result could not be built: it holds a number that JavaScript cannot hold exactly",
        ));
    }
    let value = magnitude as f64;
    Ok(JsValue::from_f64(if negative { -value } else { value }))
}

/// `value` as a plain JS value: structs and maps as objects (camelCase as serde names them),
/// sequences and tuples as arrays, `None` as `null`, a unit variant as its name, any other variant
/// as `{ variant: value }`.
pub(super) fn to_value<T: Serialize + ?Sized>(value: &T) -> Result {
    value.serialize(Snapshot)
}

/// The serializer.
#[derive(Clone, Copy)]
struct Snapshot;

/// An array being filled.
struct Elements {
    array: Array,
    /// How many elements are in.
    len: u32,
    /// Set for a tuple variant: the array is the value of `{ variant: [...] }`.
    variant: Option<&'static str>,
}

/// An object being filled.
struct Fields {
    object: Object,
    /// The key of a map entry whose value is next.
    key: JsValue,
    /// Set for a struct variant: the object is the value of `{ variant: {...} }`.
    variant: Option<&'static str>,
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// An object as `object[key] = value` sees it.
    #[wasm_bindgen(extends = Object)]
    type Settable;
    /// `object[key] = value`, catching: a setter that a page put on `Object.prototype` or
    /// `Array.prototype` may throw, and an exception must not unwind through wasm
    /// (ARCHITECTURE.md).
    #[wasm_bindgen(method, indexing_setter, catch)]
    fn set(this: &Settable, key: JsValue, value: JsValue) -> core::result::Result<(), JsValue>;
}

/// Sets a field of an object or an element of an array being filled. (`Reflect.set` would do
/// the same, at 2 to 3 times the cost.)
fn set(object: &Object, key: JsValue, value: JsValue) -> Result<()> {
    match object.unchecked_ref::<Settable>().set(key, value) {
        Ok(()) => Ok(()),
        Err(_) => Err(Error::new(
            "the result could not be built: setting one of its fields threw (a setter on Object.prototype or Array.prototype?)",
        )),
    }
}

/// Slots in the table of names: several times the snapshots' distinct field names (about 90 in
/// the full core). A power of two, so that a slot is the top bits of a hash.
const NAME_SLOTS: u32 = 256;
const _: () = assert!(NAME_SLOTS.is_power_of_two());

/// The JS string made for each name, by the name's address: a `&'static str` keeps its address
/// for good, so a slot whose address and length match holds that name's string. Two names that
/// share a slot only make their strings again.
static NAMES: Names = Names(RefCell::new(Vec::new()));

/// A `static` of the table: `no_std` has no `thread_local!`, and a `RefCell` is not `Sync`.
struct Names(RefCell<Vec<(usize, usize, JsValue)>>);

// SAFETY: the wasm build runs on one thread (wasm32-unknown-unknown without the atomics
// feature), so no two threads ever reach the cell.
unsafe impl Sync for Names {}

/// The JS string for a field's or a variant's name, made once and then taken from [`NAMES`]
/// (made anew each time, by JS decoding its UTF-8, a `state()` takes twice as long).
fn name(text: &'static str) -> JsValue {
    let (address, len) = (text.as_ptr() as usize, text.len());
    // Fibonacci hashing of the address (wasm32: 32 bits) into 0..NAME_SLOTS.
    let slot = (address as u32).wrapping_mul(0x9E37_79B9) >> (32 - NAME_SLOTS.trailing_zeros());
    {
        // Making a string runs the page's TextDecoder; were that to call back in here, the
        // table is left alone rather than borrowed twice.
        let Ok(mut slots) = NAMES.0.try_borrow_mut() else {
            return JsValue::from_str(text);
        };
        if slots.is_empty() {
            for _ in 0..NAME_SLOTS {
                slots.push((0, 0, JsValue::UNDEFINED));
            }
        }
        let Some(slot) = slots.get_mut(slot as usize) else {
            return JsValue::from_str(text);
        };
        if slot.0 != address || slot.1 != len {
            *slot = (address, len, JsValue::from_str(text));
        }
        slot.2.clone()
    }
}

/// `{ variant: value }`, for variants that carry data.
fn tagged(variant: Option<&'static str>, value: JsValue) -> Result {
    let Some(variant) = variant else {
        return Ok(value);
    };
    let object = Object::new();
    set(&object, name(variant), value)?;
    Ok(object.into())
}

impl Snapshot {
    fn elements(self, variant: Option<&'static str>) -> Elements {
        Elements {
            array: Array::new(),
            len: 0,
            variant,
        }
    }

    fn fields(self, variant: Option<&'static str>) -> Fields {
        Fields {
            object: Object::new(),
            key: JsValue::UNDEFINED,
            variant,
        }
    }
}

impl ser::Serializer for Snapshot {
    type Ok = JsValue;
    type Error = Error;
    type SerializeSeq = Elements;
    type SerializeTuple = Elements;
    type SerializeTupleStruct = Elements;
    type SerializeTupleVariant = Elements;
    type SerializeMap = Fields;
    type SerializeStruct = Fields;
    type SerializeStructVariant = Fields;

    fn serialize_bool(self, v: bool) -> Result {
        Ok(JsValue::from_bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_i16(self, v: i16) -> Result {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Result {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_i64(self, v: i64) -> Result {
        whole(v.unsigned_abs(), v < 0)
    }
    fn serialize_u8(self, v: u8) -> Result {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Result {
        whole(v, false)
    }
    fn serialize_f32(self, v: f32) -> Result {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_f64(self, v: f64) -> Result {
        Ok(JsValue::from_f64(v))
    }
    fn serialize_char(self, v: char) -> Result {
        Ok(JsValue::from_str(v.encode_utf8(&mut [0; 4])))
    }
    fn serialize_str(self, v: &str) -> Result {
        Ok(JsValue::from_str(v))
    }
    fn serialize_bytes(self, _: &[u8]) -> Result {
        // No snapshot holds bytes.
        Err(Error::new(
            "the result could not be built: bytes cannot be made into JavaScript values here",
        ))
    }
    fn serialize_none(self) -> Result {
        Ok(JsValue::NULL)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result {
        Ok(JsValue::NULL)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        Ok(JsValue::NULL)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result {
        Ok(name(variant))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result {
        tagged(Some(variant), value.serialize(self)?)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Elements> {
        Ok(self.elements(None))
    }
    fn serialize_tuple(self, _len: usize) -> Result<Elements> {
        Ok(self.elements(None))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Elements> {
        Ok(self.elements(None))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Elements> {
        Ok(self.elements(Some(variant)))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Fields> {
        Ok(self.fields(None))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Fields> {
        Ok(self.fields(None))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Fields> {
        Ok(self.fields(Some(variant)))
    }
}

impl Elements {
    fn push<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.append(value.serialize(Snapshot))
    }

    /// The element `push` made, at the end: the one step every element type shares, so that
    /// each type's `push` is only its own `serialize` and this call.
    #[inline(never)]
    fn append(&mut self, value: Result) -> Result<()> {
        // `array[len] = value`, catching, rather than `push`, which a page can replace.
        set(&self.array, JsValue::from(self.len), value?)?;
        self.len += 1;
        Ok(())
    }

    fn done(self) -> Result {
        tagged(self.variant, self.array.into())
    }
}

impl Fields {
    fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.set_field(key, value.serialize(Snapshot))
    }

    /// The field `field` made, set: shared by every field type, like [`Elements::append`].
    #[inline(never)]
    fn set_field(&mut self, key: &'static str, value: Result) -> Result<()> {
        set(&self.object, name(key), value?)
    }

    fn done(self) -> Result {
        tagged(self.variant, self.object.into())
    }
}

/// The serde traits of the kinds of sequence: each adds an element to the array.
macro_rules! elements {
    ($($kind:ident :: $add:ident),*) => {$(
        impl ser::$kind for Elements {
            type Ok = JsValue;
            type Error = Error;
            fn $add<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
                self.push(value)
            }
            fn end(self) -> Result {
                self.done()
            }
        }
    )*};
}

elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Fields {
    type Ok = JsValue;
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        let key = key.serialize(Snapshot)?;
        if !key.is_string() {
            return Err(Error::new(
                "the result could not be built: one of its map keys is not a string",
            ));
        }
        self.key = key;
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        set(&self.object, self.key.clone(), value.serialize(Snapshot)?)
    }
    fn end(self) -> Result {
        self.done()
    }
}

/// The serde traits of structs and struct variants: each sets a field of the object.
macro_rules! fields {
    ($($kind:ident),*) => {$(
        impl ser::$kind for Fields {
            type Ok = JsValue;
            type Error = Error;
            fn serialize_field<T: ?Sized + Serialize>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<()> {
                self.field(key, value)
            }
            fn end(self) -> Result {
                self.done()
            }
        }
    )*};
}

fields!(SerializeStruct, SerializeStructVariant);
