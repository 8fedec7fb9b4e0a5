//! Writes the TypeScript declarations of every type that crosses the
//! boundary, from the Rust types (ts-rs), to `www/src/generated/types.ts`,
//! which the page imports and the wasm-bindgen `.d.ts` includes. The test
//! fails when the file is out of date; `SCHEDLAB_BLESS=1` rewrites it
//! (`scripts/test.sh` checks that regenerating gives no diff).
//!
//! The roots are the types the exports name: `#[export]`
//! (schedlab-wasm-macros) registers each `Js<T>` and `Callback<T>` of a
//! signature as a [`Boundary`]. Every type a root refers to is found through
//! ts-rs's dependency visitor, so no list of types is kept by hand; the
//! declarations are written sorted by name, since the visitor's order is
//! not stable from one build to the next.

use std::any::TypeId;
use std::collections::{BTreeMap, BTreeSet};

use schedlab_session::ErrorKind;
use ts_rs::{TypeVisitor, TS};

/// One type an export names, as `#[export]` registers it.
pub struct Boundary {
    /// The export: `plan`, or `Session.run` for a method.
    pub export: &'static str,
    /// The TypeScript name `#[export]` spelt from the Rust type, which the
    /// wasm-bindgen declaration shows.
    pub spelt: &'static str,
    /// The name ts-rs gives the type.
    pub name: fn() -> String,
    /// Collects the type's declarations (`visit_root`).
    pub visit: fn(&mut Declarations),
}

inventory::collect!(Boundary);

/// Collects `T`, when it has a declaration of its own, and what it refers to.
pub fn visit_root<T: TS + ?Sized + 'static>(declarations: &mut Declarations) {
    declarations.visit::<T>();
    T::visit_generics(declarations);
}

/// The declarations found so far, by name.
#[derive(Default)]
pub struct Declarations {
    seen: BTreeSet<TypeId>,
    by_name: BTreeMap<String, String>,
}

impl TypeVisitor for Declarations {
    /// A type with a declaration (a derived one: ts-rs gives it an output
    /// path) is added once, then its own dependencies are visited; arrays,
    /// options and primitives have none, and the types inside them reach
    /// here through the visitor's generics.
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        if T::output_path().is_none() || !self.seen.insert(TypeId::of::<T>()) {
            return;
        }
        let (name, decl) = (T::ident(), T::decl());
        if let Some(other) = self.by_name.insert(name.clone(), decl.clone()) {
            assert_eq!(other, decl, "two Rust types are declared as the TypeScript type `{name}`");
        }
        T::visit_dependencies(self);
    }
}

/// Every type the exports name, in a stable order (export, then name).
fn boundaries() -> Vec<&'static Boundary> {
    let mut all: Vec<&Boundary> = inventory::iter::<Boundary>.into_iter().collect();
    all.sort_by_key(|b| (b.export, b.spelt));
    all
}

/// ts-rs declares 64-bit integers as `bigint`; they cross the boundary as
/// JSON numbers (serde-wasm-bindgen's JSON-compatible serialiser), and the
/// binding refuses seeds and point numbers past 2^53 where exactness
/// matters. A text replace, because ts-rs 11 has no setting for it: its
/// own way is a `ts(type = "number")` on each field, about 80 fields in
/// seven crates, and a field added without one would bring `bigint` back.
fn numbers(ts: &str) -> String {
    ts.replace("bigint", "number")
}

const HEADER: &str = "// Generated from the Rust types by crates/schedlab-wasm/src/types.rs (ts-rs):\n\
// do not edit. `SCHEDLAB_BLESS=1 cargo test -p schedlab-wasm --lib types` rewrites it.\n\
/* eslint-disable */\n\n\
/** The shape of `T` with every number a 95 % half-width, or `null` (one repetition). */\n\
export type Intervals<T> = T extends number\n  ? number | null\n  : T extends Array<infer U>\n    ? Array<Intervals<U>>\n    : T extends object\n      ? { [K in keyof T]: Intervals<T[K]> }\n      : T;\n\n\
/** A summary's `ci95`: the metrics document's shape, half-widths for numbers. */\n\
export type MetricsIntervals = Intervals<Metrics>;\n";

/// The one type `types.ts` declares that no export names and no visitor
/// reaches: `Metrics`. A point's metrics and a summary's means are JSON
/// documents in Rust (`MetricsDocument`), so `PointResult` and `SummaryRow`
/// name `Metrics` by text (`ts(type = "Metrics")`), as the header's
/// `MetricsIntervals` does.
fn named_by_text(found: &mut Declarations) {
    visit_root::<schedlab_metrics::Metrics>(found);
}

/// The kinds of the core's errors, from `ErrorKind::ALL`: what a thrown
/// error's `kind` holds (`boundary::Thrown`); its `name` is the kind's
/// class name, the kind capitalised with `Error` (`TraceError`).
fn error_kinds() -> String {
    let names: Vec<String> = ErrorKind::ALL.iter().map(|k| format!("\"{}\"", k.name())).collect();
    format!(
        "\n/** What part of a request a core error blames: a thrown `Error`'s `kind`. */\n\
         export type ErrorKind = {};\n\n\
         /** What an export throws for a core error: `name` is the kind's class (`TraceError`, `OptionError`, …). */\n\
         export interface SchedlabError extends Error {{\n  kind: ErrorKind;\n}}\n",
        names.join(" | ")
    )
}

fn declarations() -> String {
    let mut found = Declarations::default();
    for boundary in boundaries() {
        (boundary.visit)(&mut found);
    }
    named_by_text(&mut found);
    let mut out = HEADER.to_owned();
    out.push_str(&error_kinds());
    for decl in found.by_name.values() {
        out.push('\n');
        out.push_str("export ");
        out.push_str(&numbers(decl.trim()));
        out.push('\n');
    }
    out
}

/// Each TypeScript name `#[export]` spelt from a Rust type's tokens, which
/// the wasm-bindgen declaration shows, is the name ts-rs gives the type,
/// which `types.ts` declares.
#[test]
fn every_export_names_its_types_as_ts_rs_does() {
    let exports = boundaries();
    assert!(exports.len() > 40, "the exports register their types ({} found)", exports.len());
    for b in exports {
        assert_eq!(b.spelt, numbers(&(b.name)()), "{}: `#[export]` spelt a type differently from ts-rs", b.export);
    }
}

/// No signature spells a TypeScript type by hand: the crate's sources hold
/// no wasm-bindgen type literal, so every one comes from `#[export]`.
#[test]
fn no_signature_spells_a_type_by_hand() {
    let needles =
        [concat!("unchecked_", "param_type"), concat!("unchecked_", "return_type"), concat!("typescript", "_type")];
    let mut dirs = vec![std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/src"))];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for needle in needles {
                assert!(!text.contains(needle), "{} spells a type by hand (`{needle}`): use Js<T>", path.display());
            }
        }
    }
}

#[test]
fn generated_types_are_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/src/generated/types.ts");
    let want = declarations();
    if std::env::var_os("SCHEDLAB_BLESS").is_some() {
        std::fs::write(path, &want).unwrap();
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "www/src/generated/types.ts is out of date: SCHEDLAB_BLESS=1 cargo test -p schedlab-wasm --lib types"
    );
}
