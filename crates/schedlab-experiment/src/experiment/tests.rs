//! Tests of run specs, experiments and their requests.

use super::*;

#[test]
fn run_specs_parse_and_print_back() {
    let s = RunSpec::parse("easy:order=shortest,error=5@virtual").unwrap();
    assert_eq!(s.policy, "easy");
    assert_eq!(s.params.0, vec![("order".into(), "shortest".into()), ("error".into(), "5".into())]);
    assert_eq!(s.predictor.as_deref(), Some("virtual"));
    assert_eq!(s.label(), "easy:order=shortest,error=5@virtual");
    assert_eq!(RunSpec::parse("cbf@last").unwrap().label(), "cbf@last");
    let s = RunSpec::parse("backfill:order=max(procs, 2) * requested,depth=2@last").unwrap();
    assert_eq!(s.params.0[0], ("order".into(), "max(procs, 2) * requested".into()), "a comma in parentheses");
    assert_eq!(s.params.0[1], ("depth".into(), "2".into()));
    assert_eq!(s.label(), "backfill:order=max(procs, 2) * requested,depth=2@last");
    let long = RunSpec::parse("backfill:order=-(wait + 1e-15) / (log2(procs + 1e-15) * requested)").unwrap();
    assert_eq!(long.label(), "backfill:order=-(wait + 1e-15) / (log2(procs +…", "cut after 31 characters");
    for bad in ["", "@last", "easy@", "easy:order", "easy:=x", "easy:a=1,a=2"] {
        assert!(RunSpec::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn params_keep_their_order_in_json_and_refuse_twice() {
    let s = RunSpec::parse("pv-easy:mode=checkpoint,cost=60").unwrap();
    let json = serde_json::to_string(&s).unwrap();
    assert_eq!(json, r#"{"policy":"pv-easy","params":{"mode":"checkpoint","cost":"60"}}"#);
    assert_eq!(serde_json::from_str::<RunSpec>(&json).unwrap(), s);
    let e = serde_json::from_str::<RunSpec>(r#"{"policy":"easy","params":{"a":"1","a":"2"}}"#).unwrap_err();
    assert!(e.to_string().contains("parameter `a` is given twice"), "{e}");
    let e = serde_json::from_str::<RunSpec>(r#"{"policy":"easy","params":{"a":1}}"#).unwrap_err();
    assert!(e.to_string().contains("expected a string"), "{e}");
}

#[test]
fn one_answer_to_which_run_takes_a_parameter() {
    let uses = |spec: &str, key: &str| RunSpec::parse(spec).unwrap().uses(key);
    assert!(uses("easy@virtual", "error"));
    assert!(!uses("easy", "error"), "easy reads estimates by default");
    assert!(uses("easy", "order"));
    assert!(!uses("fcfs", "order"));
    assert!(uses("fcfs", "fair_slowdown"), "a run parameter of every policy");
    assert!(uses("pv-easy", "cost"));
    assert!(!uses("nope", "order"));
    let keys: Vec<&str> = RunSpec::parse("easy@virtual").unwrap().params_taken().iter().map(|p| p.key).collect();
    assert_eq!(keys, ["order", "error", "overrun", "fair_slowdown"]);
}

#[test]
fn sweeps_count_without_listing() {
    let s = Sweep::parse("error=0:100:10").unwrap();
    assert_eq!((s.count().unwrap(), s.value(10)), (11, "100".into()));
    let s = Sweep::parse("error=0:0.3:0.1").unwrap();
    assert_eq!((0..4).map(|i| s.value(i)).collect::<Vec<_>>(), ["0", "0.1", "0.2", "0.3"]);
    assert_eq!(Sweep::parse("cost=60,120,180").unwrap().value(2), "180");
    let long = Sweep::parse("error=0:99.99:0.00001").unwrap_err().to_string();
    assert!(long.contains("9999001 values") || long.contains("values; at most 10000"), "{long}");
    for bad in ["error", "=1:2:1", "error=", "error=1:2", "error=5:1:1", "error=0:1:0", "error=a:b:c", "e=1:nan:1"] {
        assert!(Sweep::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn one_number_format() {
    for (x, text) in
        [(0.0, "0"), (10.0, "10"), (0.1 + 0.2, "0.3"), (1e-10, "0"), (2.5, "2.5"), (-3.0, "-3"), (1e155, "1e155")]
    {
        assert_eq!(format_value(x), text);
    }
}

/// A range bound that is no finite number is named (a NaN from the
/// page was "data did not match any variant of untagged enum").
#[test]
fn a_range_bound_that_is_no_number_is_named() {
    let read = |json: &str| serde_json::from_str::<SweepValues>(json).map_err(|e| e.to_string());
    assert_eq!(read(r#"{"from": 0, "to": 2, "step": 1}"#), Ok(SweepValues::Range { from: 0.0, to: 2.0, step: 1.0 }));
    assert_eq!(read(r#"["a", "b"]"#), Ok(SweepValues::List(vec!["a".into(), "b".into()])));
    let err = read(r#"{"from": null, "to": 2, "step": 1}"#).unwrap_err();
    assert!(err.starts_with("sweep range: `from` must be a finite number (not NaN, an infinity or null)"), "{err}");
    let err = read(r#"{"from": 0, "to": "x", "step": 1}"#).unwrap_err();
    assert!(err.starts_with("sweep range: `to` must be a finite number"), "{err}");
    assert!(read(r#"{"from": 0, "to": 2}"#).unwrap_err().starts_with("sweep range: `step` is missing"));
    assert!(read(r#"{"from": 0, "to": 2, "stp": 1}"#).unwrap_err().contains("unknown field `stp`"));
    assert!(read("3").unwrap_err().contains("a range {from, to, step} of finite numbers, or a list"));
}

/// Values that would reach their runs as one text are refused: the
/// issue's sweep gave 11 rows of 2 distinct runs.
#[test]
fn values_that_collapse_are_refused() {
    let err = Sweep::parse("error=0:0.000000001:0.0000000001").unwrap_err();
    assert_eq!(
        err.to_string(),
        "sweep of `error`: the values 0 and 1e-10 are both run as `0` (a swept number is written with at most \
         9 decimals), so their rows would be the same run; take a step of at least 1e-9"
    );
    let err = Sweep::parse("cost=1e17:1.0000000000000001e17:1").unwrap_err().to_string();
    assert!(err.contains("are both run as `1e17`"), "{err}");
    let err = Sweep::parse("error=0.1,0.2,0.10").unwrap_err().to_string();
    assert_eq!(err, "sweep of `error`: the value `0.1` is given twice (as `0.1` and `0.10`)");
    assert!(Sweep::parse("order=fcfs,sjf,fcfs").is_err());
    assert_eq!(Sweep::parse("error=1e-10,2e-10").unwrap().count(), Ok(2), "a list's values run as written");
    assert_eq!(Sweep::parse("error=0:0.000000003:0.000000001").unwrap().count(), Ok(4));
}

#[test]
fn workload_options_mirror_the_readers_options() {
    // Every field of ReadOptions is accepted (a new one would fail here)
    // and the defaults agree.
    let json = serde_json::to_string(&ReadOptions::default()).unwrap();
    let mirrored: WorkloadOptions = serde_json::from_str(&json).unwrap();
    assert_eq!(mirrored.read_options(), ReadOptions::default());
    assert_eq!(WorkloadOptions::default().read_options(), ReadOptions::default());
    let e = serde_json::from_str::<WorkloadOptions>(r#"{"machine_sise":64}"#).unwrap_err().to_string();
    assert!(e.contains("unknown field `machine_sise`"), "{e}");
}

#[test]
fn a_request_takes_shared_params_and_the_swept_value() {
    let mut e = Experiment::of(vec![RunSpec::parse("easy:order=shortest@virtual").unwrap()]);
    e.params = ParamList(vec![("error".into(), "5".into()), ("order".into(), "priority".into())]);
    let r = e.request(0, None, 3);
    assert_eq!(r.params, vec![("order".into(), "shortest".into()), ("error".into(), "5".into())]);
    e.params = ParamList::default();
    e.sweep = Some(Sweep::parse("error=10,20").unwrap());
    assert_eq!(e.request(0, Some("20"), 3).params[1], ("error".into(), "20".into()));
}

proptest::proptest! {
    /// A range's value reaches the run as the number its text shows, bit for
    /// bit what reading that text gave before values stayed numbers (0, not
    /// -0; 1e15 and beyond read from their text).
    #[test]
    fn a_swept_number_is_the_number_its_text_reads_as(
        from in -1e7f64..1e7,
        step in 1e-12f64..1e6,
        i in 0usize..10_000,
        exponent in -12i32..20,
    ) {
        for x in [from + step * i as f64, from * 10f64.powi(exponent), step * 10f64.powi(exponent), -0.0, 0.1 + 0.2] {
            let read: f64 = format_value(x).parse().unwrap();
            match shown_number(x) {
                Some(n) => proptest::prop_assert_eq!(n.to_bits(), read.to_bits(), "{} shows as {}", x, format_value(x)),
                None => proptest::prop_assert!(x.abs() >= 1e15 - 1.0),
            }
        }
    }
}
