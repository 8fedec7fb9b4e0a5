//! A panic in the core reaches JavaScript as an `Error` with the panic's
//! message. Alone in this file: after a panic the instance is dropped. The
//! panic is the test's own, so the module ships no export that panics.
#![cfg(target_arch = "wasm32")]

use js_sys::Function;
use schedlab_wasm::install_panic_hook;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
fn a_panic_becomes_an_error_with_its_message() {
    install_panic_hook();
    let boom = Closure::<dyn Fn()>::new(|| panic!("boom in the core"));
    let call = Function::new_with_args(
        "f",
        "try { f(); return 'no error'; } catch (e) { return (e instanceof Error) + ' ' + e.message; }",
    );
    let got = call.call1(&JsValue::NULL, boom.as_ref()).unwrap().as_string().unwrap();
    assert!(got.starts_with("true internal error in the Schedlab core"), "{got}");
    assert!(got.contains("boom in the core"), "{got}");
    boom.forget();
}
