use super::*;

fn error(source: &str) -> String {
    Formula::compile(source).expect_err(source).to_string()
}

fn value(source: &str) -> f64 {
    Formula::compile(source).unwrap_or_else(|e| panic!("{source}: {e}")).eval_once(&Vars::default())
}

/// A job of the small queue the presets are computed on, at t = 1000 on a
/// 64-processor machine.
fn job(submit: f64, requested: f64, procs: f64) -> Vars {
    let mut v = Vars::default();
    v.set(Var::Submit, submit)
        .set(Var::Now, 1000.0)
        .set(Var::Wait, 1000.0 - submit)
        .set(Var::Requested, requested)
        .set(Var::Predicted, requested)
        .set(Var::Procs, procs)
        .set(Var::Machine, 64.0);
    v
}

#[test]
fn errors_name_the_column_and_the_nearest_name() {
    let cases = [
        ("(wiat / requested)^3", "unknown variable `wiat` at column 2; did you mean `wait`?"),
        ("sqr(procs)", "unknown function `sqr` at column 1; did you mean `sqrt`?"),
        ("procs * zzz", "unknown variable `zzz` at column 9"),
        ("log(1, 2)", "`log` takes one argument, not 2 at column 1; log(x): natural logarithm"),
        (
            "min(procs)",
            "`min` takes at least 2 arguments, not 1 at column 1; min(a, b, …): the least of two or more values",
        ),
        ("if(1, 2)", "`if` takes 3 arguments, not 2 at column 1; if(c, a, b): a where c is not zero, else b"),
        ("wait(1)", "`wait` is a variable, not a function at column 1"),
        ("2 * log", "`log` is a function at column 5; call it: log(x): natural logarithm"),
        ("procs = 4", "unexpected character `=` at column 7; write `==` to compare"),
        ("procs && 1", "unexpected character `&` at column 7; write `and`"),
        ("(procs + 1", "`(` is never closed at column 1"),
        ("procs + 1)", "unmatched `)` at column 10"),
        ("procs 1", "expected an operator, found the number 1 at column 7"),
        ("procs +", "the formula ends where a value is expected at column 8"),
        ("", "the formula is empty at column 1"),
        ("1 < 2 < 3", "comparisons do not chain at column 7; write `a < b and b < c`"),
        ("1e+", "a number's exponent has no digits at column 1"),
        ("2x", "unexpected `x` right after a number at column 2"),
        ("procs * and", "expected a value, found the operator `and` at column 9"),
    ];
    for (source, message) in cases {
        assert_eq!(error(source), message, "{source}");
    }
}

/// `order=WFP3`, `wfp` or `FCFS` got "unknown variable" and no word of
/// presets; one word that is no formula now names the preset it is near.
#[test]
fn one_word_near_a_preset_names_it() {
    assert_eq!(preset_hint("WFP3").as_deref(), Some("preset names are lower case: did you mean the preset `wfp3`?"));
    assert_eq!(preset_hint("FCFS").as_deref(), Some("preset names are lower case: did you mean the preset `fcfs`?"));
    assert_eq!(preset_hint("wfp").as_deref(), Some("did you mean the preset `wfp3`?"));
    assert_eq!(preset_hint("wiat"), None, "the variable hint stays");
    assert_eq!(preset_hint("wait / 2"), None, "a formula is no preset name");
}

#[test]
fn length_and_nesting_are_capped() {
    let long = "1+".repeat(MAX_LENGTH / 2) + "1";
    assert_eq!(
        error(&long),
        format!("the formula is {} characters long; at most {MAX_LENGTH} are accepted", long.len())
    );
    let deep = "(".repeat(MAX_NESTING) + "1" + &")".repeat(MAX_NESTING);
    assert_eq!(value(&deep), 1.0, "exactly the cap is accepted");
    let deeper = "(".repeat(MAX_NESTING + 1) + "1" + &")".repeat(MAX_NESTING + 1);
    assert_eq!(error(&deeper), format!("the formula nests deeper than {MAX_NESTING} levels at column 33"));
    let minus = "-".repeat(MAX_NESTING + 1) + "1";
    assert!(error(&minus).starts_with("the formula nests deeper"));
}

#[test]
fn precedence_and_grouping() {
    let cases = [
        ("1 + 2 * 3", 7.0),
        ("(1 + 2) * 3", 9.0),
        ("8 / 4 / 2", 1.0),
        ("10 - 4 - 3", 3.0),
        ("-2^2", -4.0),
        ("2^3^2", 512.0),
        ("2^-1", 0.5),
        ("2^0.5 * 2^0.5 > 1.99", 1.0),
        ("(-2)^3", -8.0),
        ("10^-2", 0.01),
        ("(0/0)^0", 1.0),
        ("0^-1", f64::INFINITY),
        ("2^64 / 2^63", 2.0),
        ("-(3)", -3.0),
        ("1 < 2 and 2 < 1", 0.0),
        ("1 < 2 or 2 < 1", 1.0),
        ("not 0", 1.0),
        ("not 2 == 2", 0.0),
        ("1 + 1 == 2", 1.0),
        ("3 != 3", 0.0),
        ("2 >= 2", 1.0),
        ("if(0, 5, 7)", 7.0),
        ("if(-1, 5, 7)", 5.0),
        ("min(3, 1, 2)", 1.0),
        ("max(3, 1, 2)", 3.0),
        ("clamp(15, 0, 10)", 10.0),
        ("clamp(-5, 0, 10)", 0.0),
        ("floor(2.7) + ceil(2.2)", 5.0),
        ("abs(-4) + sqrt(16)", 8.0),
        ("log2(8) + log10(1000)", 6.0),
        ("log(1) + exp(0)", 1.0),
        ("1e3 + .5", 1000.5),
        ("6860000", 6_860_000.0),
        ("2 × 3 − 1", 5.0),
    ];
    for (source, expected) in cases {
        assert_eq!(value(source), expected, "{source}");
    }
}

#[test]
fn ieee_values_division_by_zero_log_of_zero_and_nan() {
    assert_eq!(value("1 / 0"), f64::INFINITY);
    assert_eq!(value("-1 / 0"), f64::NEG_INFINITY);
    assert_eq!(value("log(0)"), f64::NEG_INFINITY);
    assert_eq!(value("log10(0) < -1e308"), 1.0, "−∞ is below every number");
    assert!(value("0 / 0").is_nan());
    assert!(value("log(-1)").is_nan());
    assert!(value("1/0 - 1/0").is_nan());
    // NaN is never turned into an ordinary value.
    for source in [
        "0/0 < 1",
        "0/0 == 0/0",
        "not (0/0)",
        "0/0 and 0",
        "1 or 0/0",
        "if(0/0, 1, 2)",
        "min(0/0, 1)",
        "max(1, 0/0)",
        "clamp(0/0, 0, 1)",
    ] {
        assert!(value(source).is_nan(), "{source}");
    }
    // A NaN in the branch that is not chosen does not matter.
    assert_eq!(value("if(1, 2, 0/0)"), 2.0);
}

#[test]
fn time_dependence_is_read_from_the_variables() {
    let dynamic = |s: &str| Formula::compile(s).unwrap().is_time_dependent();
    assert!(!dynamic("requested * procs"));
    assert!(!dynamic("submit + predicted + user + group + queue + partition + machine"));
    for s in ["wait", "now - submit", "free", "queued", "procs * 0 + wait"] {
        assert!(dynamic(s), "{s}");
    }
}

#[test]
fn variables_read_their_values() {
    let mut v = Vars::default();
    for (k, var) in Var::ALL.into_iter().enumerate() {
        v.set(var, k as f64 + 1.0);
    }
    for (k, var) in Var::ALL.into_iter().enumerate() {
        assert_eq!(Formula::compile(var.name()).unwrap().eval_once(&v), k as f64 + 1.0, "{}", var.name());
    }
}

/// Each preset's scores on a small queue, computed by hand from the
/// published formula, and the order they give (lowest first). Jobs at
/// t = 1000: J1 submitted at 100 asks 10,000 s on 4 processors; J2 at 1000
/// asks 100 s on 1; J3 at 10 asks 400 s on 16.
#[test]
fn presets_score_a_small_queue_as_published() {
    let queue = [job(100.0, 10_000.0, 4.0), job(1000.0, 100.0, 1.0), job(10.0, 400.0, 16.0)];
    let log10_400 = 2.602_059_991_327_962;
    let cases: [(&str, [f64; 3], [usize; 3]); 12] = [
        ("fcfs", [100.0, 1000.0, 10.0], [3, 1, 2]),
        ("sjf", [10_000.0, 100.0, 400.0], [2, 3, 1]),
        ("ljf", [-10_000.0, -100.0, -400.0], [1, 3, 2]),
        ("smallest", [4.0, 1.0, 16.0], [2, 1, 3]),
        ("largest", [-4.0, -1.0, -16.0], [3, 1, 2]),
        ("saf", [40_000.0, 100.0, 6_400.0], [2, 3, 1]),
        // −(w/r)³·n: (900/10000)³·4 = 0.002916; (0/100)³·1 = 0;
        // (990/400)³·16 = 2.475³·16 = 242.57475.
        ("wfp3", [-0.002_916, 0.0, -242.574_75], [3, 1, 2]),
        // −(w + 1e-15)/(log2(n + 1e-15)·r): 900/(2·10000) = 0.045;
        // J2 has n = 1: 1 + 1e-15 rounds to 1 + 5·2^-52, whose log2 is
        // 5·2^-52/ln 2 = 1.1102230246e-15/0.6931471806 = 1.6017132519e-15,
        // so 1e-15/(1.6017132519e-15·100) = 0.0062433147; 990/(4·400) =
        // 0.61875.
        ("unicep", [-0.045, -0.006_243_314_7, -0.618_75], [3, 1, 2]),
        // log10(r)·n + 870·log10(s): 4·4 + 870·2; 2·1 + 870·3;
        // log10(400)·16 + 870·1.
        ("f1", [1756.0, 2612.0, log10_400 * 16.0 + 870.0], [3, 1, 2]),
        // √r·n + 25600·log10(s): 100·4 + 51200; 10·1 + 76800; 20·16 + 25600.
        ("f2", [51_600.0, 76_810.0, 25_920.0], [3, 1, 2]),
        // r·n + 6,860,000·log10(s).
        ("f3", [13_760_000.0, 20_580_100.0, 6_866_400.0], [3, 1, 2]),
        // r·√n + 530,000·log10(s): 10000·2 + 1,060,000; 100·1 + 1,590,000;
        // 400·4 + 530,000.
        ("f4", [1_080_000.0, 1_590_100.0, 531_600.0], [3, 1, 2]),
    ];
    for (name, expected, order) in cases {
        let preset = find_preset(name).unwrap_or_else(|| panic!("preset {name}"));
        let f = Formula::compile(preset.source).unwrap_or_else(|e| panic!("{name}: {e}"));
        let scores: Vec<f64> = queue.iter().map(|v| f.eval_once(v)).collect();
        for (got, want) in scores.iter().zip(expected) {
            assert!((got - want).abs() <= 1e-6 * want.abs().max(1e-3), "{name}: {got} != {want}");
        }
        let mut ranked = [0usize, 1, 2];
        ranked.sort_by(|&a, &b| scores[a].total_cmp(&scores[b]));
        assert_eq!(ranked.map(|k| k + 1), order, "{name}");
    }
    assert_eq!(PRESETS.len(), 12, "every preset is tested above");
}

/// F1 replaces a non-positive submit time (or request) by 0.1; F2–F4 have
/// no guard, so a job submitted at 0 scores −∞.
#[test]
fn the_f_functions_keep_the_published_guards() {
    let at_zero = job(0.0, 1000.0, 2.0);
    let score = |name: &str| Formula::compile(find_preset(name).unwrap().source).unwrap().eval_once(&at_zero);
    // log10(1000)·2 + 870·log10(0.1) = 6 − 870.
    assert!((score("f1") - -864.0).abs() < 1e-9);
    for name in ["f2", "f3", "f4"] {
        assert_eq!(score(name), f64::NEG_INFINITY, "{name}");
    }
}

#[test]
fn presets_read_only_what_their_kind_says() {
    for p in PRESETS {
        let f = Formula::compile(p.source).unwrap();
        let dynamic = matches!(p.name, "wfp3" | "unicep");
        assert_eq!(f.is_time_dependent(), dynamic, "{}", p.name);
        assert!(p.source.chars().count() <= MAX_LENGTH);
    }
}

proptest::proptest! {
    /// Any text is either compiled or refused with a message; a compiled
    /// formula evaluates without panicking.
    #[test]
    fn any_text_compiles_or_is_refused(source in "[a-z0-9 ()+*/^<>=!,.-]{0,60}") {
        match Formula::compile(&source) {
            Ok(f) => {
                let _ = f.eval_once(&Vars::default());
            }
            Err(e) => proptest::prop_assert!(e.column.is_none_or(|c| c >= 1 && c <= source.chars().count() + 1), "{e}"),
        }
    }
}

/// Formulas that use every instruction of the code, beside the presets.
const EVERY_OP: &[&str] = &[
    "-wait + submit * now / requested - predicted ^ 2",
    "procs ^ 0.5 + user ^ -3 + group ^ (1 / 3)",
    "not (queue < partition) or machine >= free and queued != 3 or wait == now",
    "if(wait > 10, log(requested), -sqrt(procs)) + if(free, 1, 0)",
    "clamp(wait, submit, now) + min(requested, predicted) * max(user, group)",
    "log2(abs(queue)) + log10(partition + 1) + exp(-machine) + floor(free / 3) + ceil(queued / 7)",
];

/// Values of every kind IEEE arithmetic treats apart.
const VALUES: [f64; 12] =
    [0.0, -0.0, 1.0, -1.0, 2.5, 3.0, 1e300, -1e-300, 7.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN];

/// Evaluates `formula` on `rows` one job at a time and all at once, and
/// compares the bits (every NaN alike).
fn agrees_column_wise(formula: &Formula, rows: &[[f64; 13]]) -> Result<(), String> {
    let mut columns = Columns::default();
    columns.clear();
    for row in rows {
        for var in Var::ALL {
            columns.column(var).push(row[var as usize]);
        }
    }
    let mut all = Vec::new();
    formula.eval_all(&mut columns, rows.len(), &mut all);
    let mut stack = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let mut vars = Vars::default();
        for var in Var::ALL {
            vars.set(var, row[var as usize]);
        }
        let one = formula.eval(&vars, &mut stack);
        let same = one.to_bits() == all[i].to_bits() || (one.is_nan() && all[i].is_nan());
        if !same {
            return Err(format!("{}: job {i}: {one} one by one, {} column-wise", formula.source(), all[i]));
        }
    }
    Ok(())
}

proptest::proptest! {
    /// The column-wise evaluation gives each job the score of the job-wise
    /// one, bit for bit, for the presets, formulas using every instruction
    /// and any text that compiles.
    #[test]
    fn column_wise_scores_are_job_wise_scores(
        picks in proptest::collection::vec(proptest::collection::vec(0..VALUES.len() + 1, 13), 0..12),
        source in "[a-z0-9 ()+*/^<>=!,.-]{0,60}",
        seed in 0.0f64..1e6,
    ) {
        // An index past the values draws a number from the seed instead.
        let rows: Vec<[f64; 13]> = picks
            .iter()
            .enumerate()
            .map(|(r, row)| std::array::from_fn(|v| VALUES.get(row[v]).copied().unwrap_or(seed * (r + v) as f64 - 3.0)))
            .collect();
        let sources = PRESETS.iter().map(|p| p.source).chain(EVERY_OP.iter().copied()).chain([source.as_str()]);
        for text in sources {
            if let Ok(formula) = Formula::compile(text) {
                agrees_column_wise(&formula, &rows).map_err(proptest::test_runner::TestCaseError::fail)?;
            }
        }
    }
}

#[test]
fn the_formulas_of_every_instruction_compile() {
    for text in EVERY_OP {
        assert!(Formula::compile(text).is_ok(), "{text}");
    }
}
