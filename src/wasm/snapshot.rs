//! State snapshots into plain JS values, through serde.
//!
//! serde-wasm-bindgen makes the numbers, strings and `null`s; [`Snapshot`] builds the arrays and
//! objects around them. It differs from serde-wasm-bindgen's own serializer in one way: a struct
//! field's name (or an enum variant's) becomes a JS string where it is written, while
//! serde-wasm-bindgen keeps every name it has made in a cache (a `HashMap` in a thread-local).
//! The values are the same; the cache's code is 1.9 KB of gzip on every core.

use js_sys::{Array, Object, Reflect};
use serde::ser::{self, Error as _, Serialize};
use wasm_bindgen::JsValue;

type Error = serde_wasm_bindgen::Error;
type Result<T = JsValue> = core::result::Result<T, Error>;

/// `value` as a plain JS value: structs and maps as objects (camelCase as serde names them),
/// sequences and tuples as arrays, `None` as `null`, a unit variant as its name, any other variant
/// as `{ variant: value }`.
pub(super) fn to_value<T: Serialize + ?Sized>(value: &T) -> Result {
    let primitives = serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true);
    value.serialize(Snapshot(&primitives))
}

/// The serializer: primitives by serde-wasm-bindgen, arrays and objects made here.
#[derive(Clone, Copy)]
struct Snapshot<'s>(&'s serde_wasm_bindgen::Serializer);

/// An array being filled.
struct Elements<'s> {
    to: Snapshot<'s>,
    array: Array,
    /// Set for a tuple variant: the array is the value of `{ variant: [...] }`.
    variant: Option<&'static str>,
}

/// An object being filled.
struct Fields<'s> {
    to: Snapshot<'s>,
    object: Object,
    /// The key of a map entry whose value is next.
    key: JsValue,
    /// Set for a struct variant: the object is the value of `{ variant: {...} }`.
    variant: Option<&'static str>,
}

/// Sets `object[key] = value`; a fresh plain object has no setter to throw, but the call catches.
fn set(object: &Object, key: &JsValue, value: &JsValue) -> Result<()> {
    match Reflect::set(object, key, value) {
        Ok(_) => Ok(()),
        Err(_) => Err(Error::custom("a snapshot's field could not be set")),
    }
}

/// `{ variant: value }`, for variants that carry data.
fn tagged(variant: Option<&'static str>, value: JsValue) -> Result {
    let Some(variant) = variant else {
        return Ok(value);
    };
    let object = Object::new();
    set(&object, &JsValue::from_str(variant), &value)?;
    Ok(object.into())
}

impl<'s> Snapshot<'s> {
    fn elements(self, variant: Option<&'static str>) -> Elements<'s> {
        Elements {
            to: self,
            array: Array::new(),
            variant,
        }
    }

    fn fields(self, variant: Option<&'static str>) -> Fields<'s> {
        Fields {
            to: self,
            object: Object::new(),
            key: JsValue::UNDEFINED,
            variant,
        }
    }
}

impl<'s> ser::Serializer for Snapshot<'s> {
    type Ok = JsValue;
    type Error = Error;
    type SerializeSeq = Elements<'s>;
    type SerializeTuple = Elements<'s>;
    type SerializeTupleStruct = Elements<'s>;
    type SerializeTupleVariant = Elements<'s>;
    type SerializeMap = Fields<'s>;
    type SerializeStruct = Fields<'s>;
    type SerializeStructVariant = Fields<'s>;

    fn serialize_bool(self, v: bool) -> Result {
        self.0.serialize_bool(v)
    }
    fn serialize_i8(self, v: i8) -> Result {
        self.0.serialize_i8(v)
    }
    fn serialize_i16(self, v: i16) -> Result {
        self.0.serialize_i16(v)
    }
    fn serialize_i32(self, v: i32) -> Result {
        self.0.serialize_i32(v)
    }
    fn serialize_i64(self, v: i64) -> Result {
        self.0.serialize_i64(v)
    }
    fn serialize_u8(self, v: u8) -> Result {
        self.0.serialize_u8(v)
    }
    fn serialize_u16(self, v: u16) -> Result {
        self.0.serialize_u16(v)
    }
    fn serialize_u32(self, v: u32) -> Result {
        self.0.serialize_u32(v)
    }
    fn serialize_u64(self, v: u64) -> Result {
        self.0.serialize_u64(v)
    }
    fn serialize_f32(self, v: f32) -> Result {
        self.0.serialize_f32(v)
    }
    fn serialize_f64(self, v: f64) -> Result {
        self.0.serialize_f64(v)
    }
    fn serialize_char(self, v: char) -> Result {
        self.0.serialize_char(v)
    }
    fn serialize_str(self, v: &str) -> Result {
        self.0.serialize_str(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result {
        self.0.serialize_bytes(v)
    }
    fn serialize_none(self) -> Result {
        self.0.serialize_none()
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result {
        self.0.serialize_unit()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        self.0.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result {
        Ok(JsValue::from_str(variant))
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
    fn serialize_seq(self, _len: Option<usize>) -> Result<Elements<'s>> {
        Ok(self.elements(None))
    }
    fn serialize_tuple(self, _len: usize) -> Result<Elements<'s>> {
        Ok(self.elements(None))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Elements<'s>> {
        Ok(self.elements(None))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Elements<'s>> {
        Ok(self.elements(Some(variant)))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Fields<'s>> {
        Ok(self.fields(None))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Fields<'s>> {
        Ok(self.fields(None))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Fields<'s>> {
        Ok(self.fields(Some(variant)))
    }
}

impl Elements<'_> {
    fn push<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.array.push(&value.serialize(self.to)?);
        Ok(())
    }

    fn done(self) -> Result {
        tagged(self.variant, self.array.into())
    }
}

impl Fields<'_> {
    fn field<T: ?Sized + Serialize>(&mut self, name: &'static str, value: &T) -> Result<()> {
        set(
            &self.object,
            &JsValue::from_str(name),
            &value.serialize(self.to)?,
        )
    }

    fn done(self) -> Result {
        tagged(self.variant, self.object.into())
    }
}

impl ser::SerializeSeq for Elements<'_> {
    type Ok = JsValue;
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result {
        self.done()
    }
}

impl ser::SerializeTuple for Elements<'_> {
    type Ok = JsValue;
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result {
        self.done()
    }
}

impl ser::SerializeTupleStruct for Elements<'_> {
    type Ok = JsValue;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result {
        self.done()
    }
}

impl ser::SerializeTupleVariant for Elements<'_> {
    type Ok = JsValue;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result {
        self.done()
    }
}

impl ser::SerializeMap for Fields<'_> {
    type Ok = JsValue;
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        let key = key.serialize(self.to)?;
        if !key.is_string() {
            return Err(Error::custom("a snapshot's map key must be a string"));
        }
        self.key = key;
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        set(&self.object, &self.key, &value.serialize(self.to)?)
    }
    fn end(self) -> Result {
        self.done()
    }
}

impl ser::SerializeStruct for Fields<'_> {
    type Ok = JsValue;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(name, value)
    }
    fn end(self) -> Result {
        self.done()
    }
}

impl ser::SerializeStructVariant for Fields<'_> {
    type Ok = JsValue;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(name, value)
    }
    fn end(self) -> Result {
        self.done()
    }
}
