use proptest::prelude::*;
use serde_json::{json, Value};

use super::*;
use crate::{RunSpec, Sweep, SweepValues};

fn v1(compact: &Value) -> String {
    format!("v1={}", base64url(compact.to_string().as_bytes()))
}

/// The same data in the standard alphabet, padded.
fn standard(fragment: &str) -> String {
    let (head, data) = fragment.split_at(3);
    let mut s = data.replace('-', "+").replace('_', "/");
    while s.len() % 4 != 0 {
        s.push('=');
    }
    format!("{head}{s}")
}

/// What the first page wrote for: the sample, first 2000 jobs, EASY
/// (shortest first, virtual predictor at 25 %) and FCFS, 2 repetitions
/// from seed 5 (www/src/share.ts, `encodeExperiment`: every card carries
/// all its parameters, defaults included).
fn page_v1() -> Value {
    json!({
        "t": ["s", "kth-sp2-first3000"],
        "w": [0, 0, 2000, [], 0],
        "p": [["easy", {"order": "shortest", "error": "25"}, "virtual"], ["fcfs", {}, ""]],
        "r": 2,
        "s": 5
    })
}

#[test]
fn old_links_keep_opening() {
    let link = decode(&format!("#{}", v1(&page_v1()))).unwrap();
    assert_eq!(link.trace, Some(TraceRef::Sample { id: "kth-sp2-first3000".into() }));
    let e = &link.experiment;
    let labels: Vec<String> = e.runs.iter().map(RunSpec::label).collect();
    assert_eq!(labels, ["easy:order=shortest,error=25@virtual", "fcfs"]);
    assert_eq!((e.repeat, e.seed), (2, 5));
    assert_eq!(e.workload.window, Some(schedlab_workload::Window::FirstJobs(2000)));
    assert_eq!(e.workload.machine_size, None);
    assert!(e.wait_ecdf);
}

#[test]
fn old_links_with_knobs_and_sweeps_migrate_exactly() {
    let mut c = page_v1();
    // A global knob overrides every card that has the key; defaults drop out.
    c["g"] = json!({"error": "40"});
    c["p"] = json!([
        ["easy", {"order": "priority", "error": "25"}, "virtual", ["error", 0, 40, 20]],
        ["easy", {"order": "shortest", "error": "10"}, "virtual"],
        ["pv-easy", {}, "last", ["error", 0, 40, 20]]
    ]);
    let err = decode(&v1(&c)).unwrap_err().0;
    assert!(err.contains("field `p[2]`") || err.contains("experiment"), "{err}");
    c["p"][2] = json!(["pv-easy", {}, "virtual", ["error", 0, 40, 20]]);
    let e = decode(&v1(&c)).unwrap().experiment;
    let labels: Vec<String> = e.runs.iter().map(RunSpec::label).collect();
    assert_eq!(labels, ["easy@virtual", "easy:order=shortest,error=40@virtual", "pv-easy@virtual"]);
    let s = e.sweep.unwrap();
    assert_eq!((s.param.as_str(), s.runs), ("error", Some(vec![0, 2])));
    assert_eq!(s.values, SweepValues::Range { from: 0.0, to: 40.0, step: 20.0 });
    // Two different sweeps cannot become one: refused, naming the card.
    c["p"][2] = json!(["pv-easy", {}, "virtual", ["error", 0, 50, 25]]);
    let err = decode(&v1(&c)).unwrap_err().0;
    assert!(err.starts_with("field `p[2]` (policy 3)") || err.starts_with("field `p[2]`: policy 3"), "{err}");
}

#[test]
fn both_alphabets_with_and_without_padding() {
    // Chosen so that its base64 holds `-` and `_` (`+` and `/`).
    let mut c = page_v1();
    c["t"] = json!(["f", "trace ?>~.swf", "ab".repeat(32)]);
    let url = v1(&c);
    assert!(url.contains('-') || url.contains('_'), "{url}");
    let std = standard(&url);
    assert!(std.contains('+') || std.contains('/'), "{std}");
    let want = decode(&url).unwrap();
    assert_eq!(decode(&std).unwrap(), want);
    assert_eq!(decode(&format!("v1={}", std[3..].replace('=', "%3D"))).unwrap(), want);
    assert_eq!(decode(std.trim_end_matches('=')).unwrap(), want);
}

#[test]
fn refusals_name_the_field() {
    let cases: Vec<(String, &str)> = vec![
        ("v1=%%%not-base64".into(), "not base64 (`%` at position 1)"),
        (format!("v1={}", "A".repeat(20_000)), "too long (20000 characters; at most 16000)"),
        ("nonsense".into(), "not a Schedlab experiment"),
        (format!("v1={}", base64url(b"\xff\xfe")), "not UTF-8"),
        (format!("v1={}", base64url(b"[1,2")), "not valid JSON"),
        (
            v1(&json!({"p": [["<img src=x>", {}, ""]]})),
            "field `p[0]` (policy 1): the link names a policy this page does not know",
        ),
        (v1(&json!({"p": [["easy", {"order": "<b>"}, "estimate"]]})), "`order`: `<b>` is not one of"),
        (v1(&json!({"p": [["easy", {"ordr": "x"}, "estimate"]]})), "field `p[0]` (policy 1): unknown parameter `ordr`"),
        (
            v1(&json!({"t": ["u", "javascript:alert(1)"], "p": [["easy", {}, "estimate"]]})),
            "trace.url: the trace URL must be an http or https URL",
        ),
        (v1(&json!({"t": ["f", "x.swf", "zz"], "p": [["easy", {}, "estimate"]]})), "trace.sha256"),
        (
            v1(&json!({"t": ["u", "https://a.example/t\u{0}.swf"], "p": [["easy", {}, "estimate"]]})),
            "trace.url: `https://a.example/t\\u{0}.swf` holds a space or a control character",
        ),
        (
            v1(&json!({"t": ["u", "https://a.example/t\n.swf"], "p": [["easy", {}, "estimate"]]})),
            "trace.url: `https://a.example/t\\n.swf` holds a space or a control character",
        ),
        (
            v1(&json!({"t": ["u", "https://a.example/\u{202e}fws.exe"], "p": [["easy", {}, "estimate"]]})),
            "trace.url: `https://a.example/\\u{202e}fws.exe` holds a space or a control character",
        ),
        (
            v1(&json!({"t": ["f", "x\u{202e}fws.exe", "0".repeat(64)], "p": [["easy", {}, "estimate"]]})),
            "trace.name: the file name must be 1 to 200 printable characters",
        ),
        (
            v1(&json!({"p": [["easy", {}, "estimate"]], "x": "no-such-preset"})),
            "preset: the link names a preset that does not exist",
        ),
        (v1(&json!({"p": [["easy", {}, "estimate"]], "r": 0})), "field `r`"),
        (v1(&json!({"p": [["easy", {}, "estimate"]], "w": [0, -1, 0, [], 0]})), "field `w[1]`: load factor"),
        (v1(&json!({"p": [["easy", {}, "estimate"]], "g": {"x": "1"}})), "field `g.x`: not a global knob"),
        (v1(&json!({"p": []})), "field `p`"),
        (v1(&json!({"p": [["easy", {}, "estimate"]], "z": 1})), "field `z`: unknown"),
        (
            format!("v2={}", base64url(br#"{"experiment":{"runs":[]}}"#)),
            "experiment: an experiment needs at least one run",
        ),
        (format!("v2={}", base64url(br#"{"experiment":{"runs":[{"policy":"easy"}],"sed":1}}"#)), "unknown field `sed`"),
        (
            format!("v2={}", base64url(br#"{"experiment":{"runs":[{"policy":"easy"}],"seed":9007199254740991}}"#)),
            "experiment.seed",
        ),
    ];
    let workload = |w: &str| {
        format!(
            "v2={}",
            base64url(format!(r#"{{"experiment":{{"runs":[{{"policy":"easy"}}],"workload":{w}}}}}"#).as_bytes())
        )
    };
    let cases = cases.into_iter().chain([
        (workload(r#"{"machine_size":0}"#), "experiment.workload: machine_size must be at least 1 processor"),
        (workload(r#"{"load_factor":-1}"#), "experiment.workload: load_factor must be a finite number above 0, not -1"),
        (workload(r#"{"load_factor":0}"#), "experiment.workload: load_factor must be a finite number above 0, not 0"),
        (workload(r#"{"queues":[]}"#), "experiment.workload: queues is an empty list"),
    ]);
    for (fragment, message) in cases {
        let e = decode(&fragment).unwrap_err().0;
        assert!(e.contains(message), "{}: {e}\n  expected: {message}", &fragment[..fragment.len().min(40)]);
    }
}

/// The issue's 9.4 KB link: 100 runs × 10,000 sweep values × 10,000
/// repetitions, each within its limit, planned 10^10 simulations and ran
/// forever; it is refused when decoded, naming the product.
#[test]
fn a_link_that_plans_too_much_work_is_refused() {
    let runs = vec![r#"{"policy":"easy","predictor":"virtual"}"#; 100].join(",");
    let sweep = r#"{"param":"error","values":{"from":0,"to":99.99,"step":0.01}}"#;
    let json = format!(r#"{{"experiment":{{"runs":[{runs}],"repeat":10000,"sweep":{sweep}}}}}"#);
    let fragment = format!("v2={}", base64url(json.as_bytes()));
    assert!(fragment.len() < MAX_LINK, "a link of {} characters", fragment.len());
    let e = decode(&fragment).unwrap_err().0;
    assert!(
        e.contains("plans 10000000000 simulations (100 runs × up to 10000 sweep values × up to 10000 repetitions)"),
        "{e}"
    );
}

#[test]
fn a_link_names_its_format_version() {
    let link = Link {
        trace: None,
        experiment: Experiment::of(vec![RunSpec::parse("easy").unwrap()]),
        preset: None,
        view: None,
    };
    let text = encode(&link).unwrap();
    assert!(text.starts_with("v2=") && text[3..].bytes().all(|b| ALPHABET.contains(&b)), "{text}");
    assert_eq!(decode(&text).unwrap(), link);
}

/// Composable backfilling travels in a v2 link as any policy does: its
/// formula is parameter text, kept as typed (a comma inside parentheses
/// included), checked when the link is opened, and refused with the
/// column of the error.
#[test]
fn a_formula_travels_in_a_link_and_a_bad_one_is_refused_with_its_column() {
    let runs = vec![
        RunSpec::parse("backfill:depth=all,order=max(procs, 2) * requested,direction=highest@last").unwrap(),
        RunSpec::parse("backfill:order=wfp3,depth=8").unwrap(),
    ];
    let link = Link { trace: None, experiment: Experiment::of(runs), preset: None, view: None };
    let text = encode(&link).unwrap();
    let back = decode(&text).unwrap();
    assert_eq!(back, link);
    assert_eq!(back.experiment.runs[0].params.get("order"), Some("max(procs, 2) * requested"));
    let mut bad = link.clone();
    bad.experiment.runs[1] = RunSpec::parse("backfill:order=(wiat / requested)^3").unwrap();
    let json = serde_json::to_string(&bad).unwrap();
    let err = decode(&format!("v2={}", base64url(json.as_bytes()))).unwrap_err().0;
    assert!(err.contains("parameter `order`: unknown variable `wiat` at column 2; did you mean `wait`?"), "{err}");
    let long = format!("backfill:order={}", "1+".repeat(300) + "1");
    bad.experiment.runs[1] = RunSpec::parse(&long).unwrap();
    let json = serde_json::to_string(&bad).unwrap();
    let err = decode(&format!("v2={}", base64url(json.as_bytes()))).unwrap_err().0;
    assert!(err.contains("parameter `order`: 601 characters; at most 500 are accepted"), "{err}");
}

fn run_spec() -> impl Strategy<Value = RunSpec> {
    prop_oneof![
        Just("fcfs"),
        Just("easy"),
        Just("easy:order=shortest@virtual"),
        Just("easy@last"),
        Just("cbf@exact"),
        Just("pv-easy:mode=checkpoint,cost=60"),
        Just("slack:sf=3"),
        Just("dbf:fraction=0.4"),
    ]
    .prop_map(|s| RunSpec::parse(s).unwrap())
}

fn trace_ref() -> impl Strategy<Value = Option<TraceRef>> {
    prop_oneof![
        Just(None),
        "[a-z0-9-]{1,20}".prop_map(|id| Some(TraceRef::Sample { id })),
        (1u32..5000, 1u32..5000, 1u32..100, 0u64..1000).prop_map(|(procs, jobs, l, seed)| Some(TraceRef::Generated {
            procs,
            jobs,
            load: f64::from(l) / 10.0,
            seed
        })),
        "[a-z]{1,10}".prop_map(|p| Some(TraceRef::Url { url: format!("https://example.org/{p}.swf") })),
        ("[a-zA-Z0-9 ._<>&'\"é-]{1,30}", "[0-9a-f]{64}")
            .prop_map(|(name, sha256)| Some(TraceRef::File { name, sha256 })),
    ]
}

proptest! {
    #[test]
    fn encode_then_decode_gives_the_link_back(
        runs in proptest::collection::vec(run_spec(), 1..6),
        repeat in 1u32..20,
        seed in 0u64..1_000_000,
        error in proptest::option::of(0u32..50),
        first in proptest::option::of(1usize..5000),
        load in proptest::option::of(1u32..30),
        trace in trace_ref(),
        preset in proptest::option::of(proptest::sample::select(crate::PRESETS.iter().map(|p| p.id).collect::<Vec<_>>())),
    ) {
        let mut experiment = Experiment { repeat, seed, ..Experiment::of(runs) };
        experiment.workload.window = first.map(schedlab_workload::Window::FirstJobs);
        experiment.workload.load_factor = load.map(|l| f64::from(l) / 10.0);
        let virtual_run = RunSpec::parse("easy@virtual").unwrap();
        if let Some(top) = error {
            experiment.runs.push(virtual_run);
            experiment.sweep = Some(Sweep {
                param: "error".into(),
                values: SweepValues::Range { from: 0.0, to: f64::from(top), step: 2.5 },
                runs: None,
            });
        }
        let link = Link { trace, experiment, preset: preset.map(str::to_owned), view: None };
        let text = encode(&link).unwrap();
        prop_assert_eq!(decode(&text).unwrap(), link.clone());
        prop_assert_eq!(decode(&standard(&text)).unwrap(), link);
    }
}

#[test]
fn a_link_restores_a_schedule_view() {
    let experiment = Experiment::of(vec![RunSpec::parse("easy").unwrap(), RunSpec::parse("cbf").unwrap()]);
    let view = ViewLink { points: vec![0, 1], from: 86_400, to: 7 * 86_400, job: Some(162), stacked: true };
    let link = Link { trace: None, experiment, preset: None, view: Some(view) };
    assert_eq!(decode(&encode(&link).unwrap()).unwrap(), link);
    // The view may be panned a little before the trace's start; its link
    // must still encode.
    let panned =
        Link { view: Some(ViewLink { points: vec![0], from: -3_600, to: 86_400, job: None, stacked: false }), ..link };
    assert_eq!(decode(&encode(&panned).unwrap()).unwrap(), panned);
    // A link made before the stacking was kept opens unstacked.
    let json =
        r#"{"experiment":{"runs":[{"policy":"easy"},{"policy":"cbf"}]},"view":{"points":[0,1],"from":0,"to":10}}"#;
    let old = decode(&format!("v2={}", base64url(json.as_bytes()))).unwrap();
    assert!(!old.view.unwrap().stacked);
}

#[test]
fn a_bad_schedule_view_is_refused_naming_the_field() {
    // Two runs, one repetition: points 0 and 1.
    let fragment = |view: &str| {
        let json = format!(r#"{{"experiment":{{"runs":[{{"policy":"easy"}},{{"policy":"cbf"}}]}},"view":{view}}}"#);
        format!("v2={}", base64url(json.as_bytes()))
    };
    let cases = [
        (r#"{"points":[],"from":0,"to":10}"#, "view.points: one or two runs"),
        (r#"{"points":[0,1,1],"from":0,"to":10}"#, "view.points: one or two runs"),
        (r#"{"points":[2],"from":0,"to":10}"#, "view.points: the experiment has points 0 to 1, not 2"),
        (r#"{"points":[1,1],"from":0,"to":10}"#, "runs A and B must differ"),
        (r#"{"points":[0],"from":10,"to":10}"#, "view.to: the window's end (10) must come after its start (10)"),
        (r#"{"points":[0],"from":-1099511627777,"to":10}"#, "within ±2^40 s"),
        (r#"{"points":[0],"from":0,"to":1099511627777}"#, "within ±2^40 s"),
        (r#"{"points":[0],"from":0,"to":10,"job":9007199254740992}"#, "view.job"),
        (r#"{"points":[0],"from":0,"to":10,"zoom":2}"#, "unknown field `zoom`"),
        (r#"{"points":[0],"from":0,"to":10,"stacked":true}"#, "view.stacked: stacking shows two runs"),
        (r#"{"points":[0],"from":"d1","to":10}"#, "invalid type"),
    ];
    for (view, message) in cases {
        let e = decode(&fragment(view)).unwrap_err().0;
        assert!(e.contains(message), "{view}: {e}\n  expected: {message}");
    }
    assert!(decode(&fragment(r#"{"points":[1,0],"from":0,"to":10,"job":7}"#)).is_ok());
}
