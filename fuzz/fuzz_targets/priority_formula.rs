//! The priority-formula compiler never panics, whatever the text: it
//! compiles or refuses with a column inside the text; a compiled formula
//! keeps its text and scores any job without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schedlab::priority::{Formula, Var, Vars};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match Formula::compile(text) {
        Ok(formula) => {
            assert_eq!(formula.source(), text);
            let mut vars = Vars::default();
            let mut stack = Vec::new();
            for (k, var) in Var::ALL.into_iter().enumerate() {
                vars.set(var, [0.0, -1.0, 1e300, f64::INFINITY][k % 4]);
            }
            let _ = formula.eval(&vars, &mut stack);
            let _ = formula.eval_once(&Vars::default());
        }
        Err(e) => {
            let length = text.chars().count();
            assert!(e.column.is_none_or(|c| (1..=length + 1).contains(&c)), "{e} in {text:?}");
            assert!(!e.to_string().is_empty());
        }
    }
});
