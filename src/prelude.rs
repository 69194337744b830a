//! What std's prelude gives, from `alloc`, and this crate's `text!`: every module imports it, so
//! that the same code builds with std and without.
#![allow(unused_imports)]

pub(crate) use crate::text::text;
pub use alloc::borrow::ToOwned;
pub use alloc::boxed::Box;
pub use alloc::string::String;
pub use alloc::vec;
pub use alloc::vec::Vec;
