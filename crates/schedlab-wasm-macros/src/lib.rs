//! `#[export]`: the binding's one declaration of what crosses to
//! JavaScript.
//!
//! An export names the Rust types it takes and returns, wrapped in
//! `Js<T>` (a plain JavaScript value of `T`'s shape) or `Callback<T>` (a
//! function called with a `T`). This attribute reads those names from the
//! signature and writes the two things that must follow from them:
//!
//! - the TypeScript types of the wasm-bindgen declaration
//!   (`unchecked_param_type`, `unchecked_return_type`), which wasm-bindgen
//!   only takes as string literals, so they are spelt here from the Rust
//!   type's name (`Vec<Figure>` is `Array<Figure>`);
//! - in test builds, one entry per named type in the crate's list of
//!   boundary types (`crate::types::Boundary`, gathered with `inventory`),
//!   which the generated declarations start from and which checks that
//!   every spelling equals the name ts-rs gives the type.
//!
//! It goes on a free function (in place of `#[wasm_bindgen]`, whose
//! arguments it passes on) or on an `impl` block of exported methods.

use proc_macro::TokenStream;
use proc_macro2::TokenStream as Tokens;
use quote::quote;
use syn::spanned::Spanned;
use syn::{FnArg, GenericArgument, ImplItem, Item, PathArguments, ReturnType, Signature, Type};

/// The wrapper of a value that crosses as a plain object of its type.
const VALUE: &str = "Js";
/// The wrapper of a JavaScript function the core calls with a value.
const CALLBACK: &str = "Callback";

#[proc_macro_attribute]
pub fn export(args: TokenStream, item: TokenStream) -> TokenStream {
    let args = Tokens::from(args);
    let expanded = match syn::parse::<Item>(item) {
        Ok(Item::Fn(mut f)) => export_fn(args, &mut f).map(|register| {
            quote! {
                #f
                #register
            }
        }),
        Ok(Item::Impl(mut block)) => export_impl(args, &mut block),
        Ok(other) => Err(syn::Error::new(other.span(), "#[export] goes on a function or an impl block")),
        Err(e) => Err(e),
    };
    expanded.unwrap_or_else(syn::Error::into_compile_error).into()
}

/// A free function: its own `#[wasm_bindgen(...)]`, with the return type.
fn export_fn(args: Tokens, f: &mut syn::ItemFn) -> syn::Result<Tokens> {
    let export = f.sig.ident.to_string();
    let (returned, register) = annotate(&export, &mut f.sig)?;
    let returned = returned.map(|ts| quote! { unchecked_return_type = #ts });
    let args = [(!args.is_empty()).then_some(args), returned].into_iter().flatten();
    f.attrs.insert(0, syn::parse_quote! { #[::wasm_bindgen::prelude::wasm_bindgen(#(#args),*)] });
    Ok(register)
}

/// An impl block: each method gets its return type as a method attribute,
/// which `#[wasm_bindgen]` on the block reads.
fn export_impl(args: Tokens, block: &mut syn::ItemImpl) -> syn::Result<Tokens> {
    let Type::Path(owner) = &*block.self_ty else {
        return Err(syn::Error::new(block.self_ty.span(), "#[export] exports the methods of a named type"));
    };
    let owner = owner.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
    let mut registers = Vec::new();
    for item in &mut block.items {
        let ImplItem::Fn(method) = item else { continue };
        let export = format!("{owner}.{}", method.sig.ident);
        let (returned, register) = annotate(&export, &mut method.sig)?;
        if let Some(ts) = returned {
            method.attrs.push(syn::parse_quote! { #[wasm_bindgen(unchecked_return_type = #ts)] });
        }
        registers.push(register);
    }
    Ok(quote! {
        #[::wasm_bindgen::prelude::wasm_bindgen(#args)]
        #block
        #(#registers)*
    })
}

/// Gives each typed parameter its TypeScript type and returns the return
/// type's, with the registration of every type named.
fn annotate(export: &str, sig: &mut Signature) -> syn::Result<(Option<String>, Tokens)> {
    let mut register = Tokens::new();
    for input in &mut sig.inputs {
        let FnArg::Typed(param) = input else { continue };
        if let Some(crossing) = crossing(&param.ty)? {
            let ts = &crossing.ts;
            param.attrs.push(syn::parse_quote! { #[wasm_bindgen(unchecked_param_type = #ts)] });
            register.extend(crossing.register(export));
        }
    }
    let ReturnType::Type(_, returned) = &sig.output else { return Ok((None, register)) };
    let returned = match crossing(ok_type(returned))? {
        Some(crossing) => {
            register.extend(crossing.register(export));
            Some(crossing.ts)
        }
        None => None,
    };
    Ok((returned, register))
}

/// `T` of `Result<T, E>`, or the type itself.
fn ok_type(ty: &Type) -> &Type {
    match generic(ty, "Result").as_deref() {
        Some([ok, _]) => ok,
        _ => ty,
    }
}

/// A named type that crosses the boundary: the Rust type, the name the
/// macro spelt for it, and the TypeScript type the declaration shows.
struct Crossing {
    inner: Type,
    name: String,
    ts: String,
}

impl Crossing {
    /// The test-only entry of the boundary list for this type.
    fn register(&self, export: &str) -> Tokens {
        let Crossing { inner, name, .. } = self;
        quote! {
            #[cfg(test)]
            ::inventory::submit! {
                crate::types::Boundary {
                    export: #export,
                    spelt: #name,
                    name: <#inner as ::ts_rs::TS>::name,
                    visit: crate::types::visit_root::<#inner>,
                }
            }
        }
    }
}

/// The crossing a parameter or result type declares: `Js<T>` or
/// `Callback<T>`, possibly optional; `None` for the types wasm-bindgen
/// types by itself (numbers, strings, byte arrays, …).
fn crossing(ty: &Type) -> syn::Result<Option<Crossing>> {
    let (ty, optional) = match generic(ty, "Option").as_deref() {
        Some([inner]) => (*inner, true),
        _ => (ty, false),
    };
    let (inner, callback) = match (generic(ty, VALUE).as_deref(), generic(ty, CALLBACK).as_deref()) {
        (Some([inner]), _) => (*inner, false),
        (_, Some([inner])) => (*inner, true),
        _ => return Ok(None),
    };
    let name = ts_name(inner)?;
    // A callback's answer: `false` cancels, anything else (or nothing) goes on.
    let ts = if callback { format!("((p: {name}) => boolean | void)") } else { name.clone() };
    // wasm-bindgen drops an optional argument's `?` once its type is given,
    // so the type itself says what the binding takes for "none".
    let ts = if optional { format!("{ts} | null | undefined") } else { ts };
    Ok(Some(Crossing { inner: inner.clone(), name, ts }))
}

/// The type arguments of `ty` when its last path segment is `wrapper`.
fn generic<'a>(ty: &'a Type, wrapper: &str) -> Option<Vec<&'a Type>> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != wrapper {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else { return None };
    Some(
        args.args
            .iter()
            .filter_map(|a| match a {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
    )
}

/// The name ts-rs gives a Rust type, spelt from its tokens: the last path
/// segment, `Array<…>` for a `Vec`, `… | null` for an `Option`, tuples as
/// TypeScript tuples, and the primitives' names. A test compares each
/// spelling with `<T as TS>::name()`.
fn ts_name(ty: &Type) -> syn::Result<String> {
    match ty {
        Type::Path(path) if path.qself.is_none() => {
            let last = path.path.segments.last().ok_or_else(|| syn::Error::new(ty.span(), "an empty path"))?;
            let args = match &last.arguments {
                PathArguments::AngleBracketed(args) => args
                    .args
                    .iter()
                    .filter_map(|a| match a {
                        GenericArgument::Type(t) => Some(ts_name(t)),
                        _ => None,
                    })
                    .collect::<syn::Result<Vec<_>>>()?,
                _ => Vec::new(),
            };
            Ok(path_name(&last.ident.to_string(), &args))
        }
        Type::Tuple(tuple) => {
            let elems = tuple.elems.iter().map(ts_name).collect::<syn::Result<Vec<_>>>()?;
            Ok(format!("[{}]", elems.join(", ")))
        }
        Type::Slice(slice) => Ok(format!("Array<{}>", ts_name(&slice.elem)?)),
        Type::Reference(r) => ts_name(&r.elem),
        Type::Paren(p) => ts_name(&p.elem),
        Type::Group(g) => ts_name(&g.elem),
        _ => Err(syn::Error::new(ty.span(), "#[export] cannot name this type in TypeScript: use a named type")),
    }
}

fn path_name(ident: &str, args: &[String]) -> String {
    match (ident, args) {
        ("Vec", [item]) => format!("Array<{item}>"),
        ("Option", [inner]) => format!("{inner} | null"),
        ("String" | "str" | "char", []) => "string".to_owned(),
        ("bool", []) => "boolean".to_owned(),
        ("u8" | "u16" | "u32" | "u64" | "usize" | "i8" | "i16" | "i32" | "i64" | "isize" | "f32" | "f64", []) => {
            "number".to_owned()
        }
        (_, []) => ident.to_owned(),
        (_, args) => format!("{ident}<{}>", args.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::{crossing, ok_type, ts_name};

    fn ty(text: &str) -> syn::Type {
        syn::parse_str(text).unwrap()
    }

    #[test]
    fn names_are_spelt_as_ts_rs_names_the_types() {
        let cases = [
            ("Experiment", "Experiment"),
            ("schedlab_experiment::link::Link", "Link"),
            ("Vec<Figure>", "Array<Figure>"),
            ("[Preset]", "Array<Preset>"),
            ("Vec<String>", "Array<string>"),
            ("(i64, i64)", "[number, number]"),
            ("Option<u32>", "number | null"),
            ("&str", "string"),
            ("bool", "boolean"),
            ("Intervals<Metrics>", "Intervals<Metrics>"),
        ];
        for (rust, ts) in cases {
            assert_eq!(ts_name(&ty(rust)).unwrap(), ts, "{rust}");
        }
        assert!(ts_name(&ty("fn(u32)")).is_err(), "a type without a name is refused");
    }

    #[test]
    fn only_the_wrappers_cross_with_a_type_of_their_own() {
        let value = crossing(ok_type(&ty("Result<Js<PlanView>, JsError>"))).unwrap().unwrap();
        assert_eq!((value.name.as_str(), value.ts.as_str()), ("PlanView", "PlanView"));
        let callback = crossing(&ty("Option<Callback<ProgressMessage>>")).unwrap().unwrap();
        assert_eq!(callback.name, "ProgressMessage");
        assert_eq!(callback.ts, "((p: ProgressMessage) => boolean | void) | null | undefined");
        let options = crossing(&ty("Option<Js<WorkloadOptions>>")).unwrap().unwrap();
        assert_eq!(options.ts, "WorkloadOptions | null | undefined");
        let plain = crossing(&ty("Callback<ProgressMessage>")).unwrap().unwrap();
        assert_eq!(plain.ts, "((p: ProgressMessage) => boolean | void)");
        for plain in ["String", "Result<String, JsValue>", "Option<Object>", "Vec<u8>", "f64"] {
            assert!(crossing(ok_type(&ty(plain))).unwrap().is_none(), "{plain}");
        }
    }
}
