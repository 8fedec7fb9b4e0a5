//! The typed values of the exports' signatures: `Js<T>`, a JavaScript value
//! of `T`'s shape, and `Callback<T>`, a JavaScript function called with a
//! `T`. To wasm-bindgen both are what they wrap (a `JsValue`, a
//! `Function`); the type argument is for Rust, which then decodes and
//! encodes exactly `T`, and for `#[export]` (schedlab-wasm-macros), which
//! names `T` in the TypeScript declaration and lists it for
//! `www/src/generated/types.ts`.

use std::marker::PhantomData;

use js_sys::Function;
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::convert::{FromWasmAbi, IntoWasmAbi, OptionFromWasmAbi, RefFromWasmAbi};
use wasm_bindgen::describe::WasmDescribe;
use wasm_bindgen::JsValue;

use crate::session::Error;

/// A plain JavaScript value (objects, arrays, numbers, strings) of the
/// shape `T` serialises to.
pub struct Js<T: ?Sized> {
    value: JsValue,
    shape: PhantomData<Box<T>>,
}

impl<T: ?Sized> Js<T> {
    fn new(value: JsValue) -> Self {
        Js { value, shape: PhantomData }
    }

    /// Reads the value through another type that holds the same JSON: for
    /// a type the core writes but never reads back (a `TraceIdentity`,
    /// read as the `TraceDocument` of its fields). Nulls are kept, as for
    /// [`Js::decode_raw`].
    pub fn read_as<U: DeserializeOwned>(self, what: &str) -> Result<U, Thrown> {
        crate::decode_raw(self.value, what)
    }
}

impl<T: DeserializeOwned> Js<T> {
    /// A request from the page: unknown keys refused, `null` taken as absent
    /// (`crate::decode`). `what` names the argument in error messages.
    pub fn decode(self, what: &str) -> Result<T, Thrown> {
        crate::decode(self.value, what)
    }

    /// A document the core produced, read back with its `null`s.
    pub fn decode_raw(self, what: &str) -> Result<T, Thrown> {
        crate::decode_raw(self.value, what)
    }
}

impl<T: Serialize + ?Sized> Js<T> {
    /// `value` as the page receives it (serde-wasm-bindgen's JSON-compatible
    /// objects).
    pub fn encode(value: &T) -> Result<Self, Thrown> {
        Ok(Js::new(crate::encode(value)?))
    }
}

impl<T: ?Sized> WasmDescribe for Js<T> {
    fn describe() {
        JsValue::describe();
    }
}

impl<T: ?Sized> FromWasmAbi for Js<T> {
    type Abi = <JsValue as FromWasmAbi>::Abi;

    unsafe fn from_abi(js: Self::Abi) -> Self {
        // SAFETY: the caller's guarantee for `Self::Abi` is the one
        // `JsValue::from_abi` needs, as the two share their ABI.
        Js::new(unsafe { JsValue::from_abi(js) })
    }
}

impl<T: ?Sized> IntoWasmAbi for Js<T> {
    type Abi = <JsValue as IntoWasmAbi>::Abi;

    fn into_abi(self) -> Self::Abi {
        self.value.into_abi()
    }
}

/// An optional argument: `undefined` and `null` are both absent, as the
/// page writes either for "no value".
impl<T: ?Sized> OptionFromWasmAbi for Js<T> {
    fn is_none(abi: &Self::Abi) -> bool {
        // SAFETY: `abi` is a live `JsValue` handle the glue passed for this
        // call; it is only looked at, and `null` and `undefined` are fixed
        // handles that nothing owns, so leaving them unread leaks nothing.
        let value = unsafe { JsValue::ref_from_abi(*abi) };
        value.is_undefined() || value.is_null()
    }
}

/// What a wasm-bindgen test passes for an argument.
impl<T: ?Sized> From<JsValue> for Js<T> {
    fn from(value: JsValue) -> Self {
        Js::new(value)
    }
}

/// What a wasm-bindgen test reads of a result.
impl<T: ?Sized> From<Js<T>> for JsValue {
    fn from(js: Js<T>) -> Self {
        js.value
    }
}

/// The JavaScript value, as `JsValue` shows it (for `unwrap_err` and
/// failed assertions).
impl<T: ?Sized> std::fmt::Debug for Js<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.value.fmt(f)
    }
}

/// What a wasm-bindgen test reads of a result without taking it.
impl<T: ?Sized> AsRef<JsValue> for Js<T> {
    fn as_ref(&self) -> &JsValue {
        &self.value
    }
}

/// A JavaScript function the core calls with a `T` (progress); its answer
/// is the caller's to read.
pub struct Callback<T> {
    function: Function,
    message: PhantomData<fn(T)>,
}

impl<T: Serialize> Callback<T> {
    /// Calls the function with `message`: its answer, or what it threw.
    pub fn call(&self, message: &T) -> Result<JsValue, JsValue> {
        let message = crate::encode(message).map_err(JsValue::from)?;
        self.function.call1(&JsValue::NULL, &message)
    }
}

/// What a wasm-bindgen test passes for a callback.
impl<T> From<Function> for Callback<T> {
    fn from(function: Function) -> Self {
        Callback { function, message: PhantomData }
    }
}

impl<T> WasmDescribe for Callback<T> {
    fn describe() {
        <Function as WasmDescribe>::describe();
    }
}

impl<T> FromWasmAbi for Callback<T> {
    type Abi = <Function as FromWasmAbi>::Abi;

    unsafe fn from_abi(js: Self::Abi) -> Self {
        // SAFETY: as for `Js`, the ABI is the wrapped `Function`'s.
        Callback { function: unsafe { <Function as FromWasmAbi>::from_abi(js) }, message: PhantomData }
    }
}

impl<T> OptionFromWasmAbi for Callback<T> {
    fn is_none(abi: &Self::Abi) -> bool {
        <Function as OptionFromWasmAbi>::is_none(abi)
    }
}

/// What an export throws. A core error becomes a JavaScript `Error` with
/// the core's message, whose `name` is its kind's class (`TraceError`,
/// `OptionError`, … as in Python; `name` is what survives a worker's
/// postMessage and Comlink) and whose `kind` is the kind's name
/// (`ErrorKind` in `types.ts`). A value the page's own callback threw is
/// thrown again as it was.
#[derive(Debug)]
pub enum Thrown {
    Core(Error),
    Js(JsValue),
}

/// Every error the core's calls return converts through the binding's
/// [`Error`], which knows its kind.
impl<E: Into<Error>> From<E> for Thrown {
    fn from(e: E) -> Self {
        Thrown::Core(e.into())
    }
}

impl From<JsValue> for Thrown {
    fn from(value: JsValue) -> Self {
        Thrown::Js(value)
    }
}

impl From<Thrown> for JsValue {
    fn from(thrown: Thrown) -> Self {
        match thrown {
            Thrown::Core(e) => {
                let error = js_sys::Error::new(&e.message);
                error.set_name(e.kind.class_name());
                // Setting a property on a fresh `Error` cannot fail.
                let _ = js_sys::Reflect::set(&error, &JsValue::from_str("kind"), &JsValue::from_str(e.kind.name()));
                error.into()
            }
            Thrown::Js(value) => value,
        }
    }
}
