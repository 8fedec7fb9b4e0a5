//! The exports as JavaScript calls them, in WebAssembly under Node:
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
//!  cargo test --release --target wasm32-unknown-unknown -p schedlab-wasm --test web`
//! (scripts/test-wasm.sh). Charts need a DOM and are tested natively and in
//! the browser tests; the panic hook is tested in `panic.rs` (its own
//! instance, since a panic leaves the instance unusable).
#![cfg(target_arch = "wasm32")]

use js_sys::{Function, Reflect, Uint8Array, JSON};
use schedlab_experiment::WorkloadOptions;
use schedlab_wasm::{
    decode_link, encode_link, experiment_result, figures, generate_lublin, plan, preset_experiment, preset_figures,
    presets, registry, Js, Session,
};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

const KTH: &[u8] = include_bytes!("../../../samples/kth-sp2-first3000.swf");

/// A tiny trace: 8 processors, 6 jobs, one line with a bad field.
const SMALL: &str = "; Version: 2.2\n; MaxProcs: 8\n\
1 0 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n\
2 10 -1 50 8 -1 -1 8 60 -1 1 2 1 -1 1 -1 -1 -1\n\
3 20 -1 30 2 -1 -1 2 40 -1 1 1 1 -1 1 -1 -1 -1\n\
4 25 -1 abc 2 -1 -1 2 40 -1 1 1 1 -1 1 -1 -1 -1\n\
5 30 -1 10 1 -1 -1 1 20 -1 1 3 1 -1 1 -1 -1 -1\n\
6 40 -1 500 4 -1 -1 4 900 -1 1 2 1 -1 1 -1 -1 -1\n\
7 41 -1 5 4 -1 -1 4 900 -1 1 2 1 -1 1 -1 -1 -1\n";

/// `value` as JavaScript: a `JsValue`, an `Object`, or an export's typed
/// argument (`Js<T>`).
fn js<T: From<JsValue>>(value: Value) -> T {
    T::from(JSON::parse(&value.to_string()).unwrap())
}

/// A JavaScript value, or an export's typed result, as JSON.
fn rust(value: &impl AsRef<JsValue>) -> Value {
    serde_json::from_str(&String::from(JSON::stringify(value.as_ref()).unwrap())).unwrap()
}

/// A result document the binding returned as JSON text.
fn text_value(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn bytes(b: &[u8]) -> Uint8Array {
    Uint8Array::from(b)
}

/// The message of a thrown error.
fn message(e: impl Into<JsValue>) -> String {
    let e = e.into();
    Reflect::get(&e, &"message".into()).ok().and_then(|m| m.as_string()).unwrap_or_else(|| format!("{e:?}"))
}

fn options(value: Value) -> Option<Js<WorkloadOptions>> {
    Some(js(value))
}

#[wasm_bindgen_test]
fn the_registry_lists_policies_and_predictors() {
    let r = rust(&registry().unwrap());
    let ids: Vec<&str> = r["policies"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert!(ids.starts_with(&["fcfs", "easy", "cbf"]), "{ids:?}");
    let easy = r["policies"].as_array().unwrap().iter().find(|p| p["id"] == "easy").unwrap();
    assert!(easy["params"].as_array().unwrap().iter().any(|p| p["key"] == "order" && p["type"] == "choice"));
    let sources: Vec<&str> = r["predictors"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert!(["estimate", "exact", "last", "tsafrir", "virtual"].iter().all(|s| sources.contains(s)), "{sources:?}");
    assert_eq!(r["progress_every"], 16384);
    assert_eq!(r["palette"][0], "#0072b2");
}

#[wasm_bindgen_test]
fn a_session_over_a_small_trace() {
    let s = Session::new(bytes(SMALL.as_bytes()), "small.swf".into(), None).unwrap();
    let sum = rust(&s.summary().unwrap());
    assert_eq!(sum["identity"]["name"], "small.swf");
    assert_eq!(sum["identity"]["jobs"], 6);
    assert_eq!(sum["identity"]["procs"], 8);
    assert_eq!(sum["identity"]["cleaning"]["bad_lines"], 1);
    assert_eq!(sum["bad_lines"][0]["line"], 6);
    assert_eq!(sum["bad_lines"][0]["field"], 4);
    assert_eq!(sum["bad_lines"][0]["text"], "line 6, field 4 (run time): `abc` is not a number");
    assert_eq!(sum["header"]["max_procs"], 8);
    assert_eq!(sum["identity"]["sha256"].as_str().unwrap().len(), 64);
}

#[wasm_bindgen_test]
fn runs_return_the_document_as_the_command_line_prints_it() {
    let mut s = Session::new(bytes(KTH), "kth-sp2-first3000.swf".into(), options(json!({}))).unwrap();
    let request = json!({"policy": "easy", "params": {"order": "shortest"}, "seed": 3});
    let text = s.run(js(request), None).unwrap();
    assert!(text.starts_with("{\n  \"schema\": "), "pretty JSON, as `schedlab run --json`");
    let doc = text_value(&text);
    assert_eq!(doc["schema"], "schedlab-run/1");
    assert_eq!(doc["policy"], "easy");
    assert_eq!(doc["params"]["order"], "shortest");
    assert_eq!(doc["seed"], 3);
    assert_eq!(doc["check"], "passed");
    assert!(doc.get("elapsed_ms").is_none());
    assert_eq!(doc["trace"]["jobs"], 3000);
    assert!(doc["metrics"]["mbs"].as_f64().unwrap() >= 1.0);
    // Exports of the last run.
    let csv = s.jobs_csv().unwrap();
    assert_eq!(csv.lines().count(), 3001);
    assert!(s.schedule_swf().unwrap().contains("policy easy"));
}

#[wasm_bindgen_test]
fn progress_is_reported_and_a_false_answer_cancels() {
    let trace = generate_lublin(js(json!({"procs": 64, "jobs": 20000, "load": 0.9, "seed": 2}))).unwrap();
    let mut s = Session::new(bytes(&trace), "lublin.swf".into(), None).unwrap();
    let seen = Function::new_with_args("p", "globalThis.__seen = (globalThis.__seen || []).concat([p]); return true;");
    s.run(js(json!({"policy": "fcfs"})), Some(seen.into())).unwrap();
    let seen = rust(&Reflect::get(&js_sys::global(), &"__seen".into()).unwrap());
    let first = &seen.as_array().unwrap()[0];
    assert_eq!(first["jobs"], 20000);
    assert!(first["events"].as_u64().unwrap() >= 16384, "{first}");
    assert!(first["completed"].as_u64().is_some() && first["now"].as_i64().is_some());
    let stop = Function::new_with_args("p", "return false;");
    let e = s.run(js(json!({"policy": "fcfs"})), Some(stop.into())).unwrap_err();
    assert!(message(e).starts_with("the run was cancelled at t="));
    let throw = Function::new_with_args("p", "throw new Error('stopped by the page');");
    let e = s.run(js(json!({"policy": "fcfs"})), Some(throw.into())).unwrap_err();
    assert_eq!(message(e), "stopped by the page");
    assert_eq!(message(s.jobs_csv().unwrap_err()), "no run yet: run a policy on this trace first");
}

/// The compressed fixtures decode in WebAssembly as natively: the first 60
/// lines of the sample, 52 jobs, the same SHA-256 as the plain text.
#[wasm_bindgen_test]
fn compressed_traces_read_in_webassembly() {
    let files: [&[u8]; 4] = [
        include_bytes!("../../../tests/fixtures/kth-head60.swf.bz2"),
        include_bytes!("../../../tests/fixtures/kth-head60.swf.xz"),
        include_bytes!("../../../tests/fixtures/kth-head60.swf.zst"),
        include_bytes!("../../../tests/fixtures/kth-head60.swf.zz"),
    ];
    let head: Vec<u8> = KTH.split_inclusive(|&b| b == b'\n').take(60).flatten().copied().collect();
    let want = rust(&Session::new(bytes(&head), "plain".into(), None).unwrap().summary().unwrap());
    for file in files {
        let got = rust(&Session::new(bytes(file), "c".into(), None).unwrap().summary().unwrap());
        assert_eq!(got["identity"]["jobs"], 52);
        assert_eq!(got["identity"]["sha256"], want["identity"]["sha256"]);
    }
}

#[wasm_bindgen_test]
fn errors_name_what_is_wrong() {
    let load = |o: Value| Session::new(bytes(SMALL.as_bytes()), "s".into(), options(o)).err().map(message);
    assert_eq!(
        load(json!({"machine_sise": 3})).unwrap(),
        "options: unknown field `machine_sise`, expected one of `max_bytes`, `max_jobs`, `machine_size`, `oversize`, `queues`, `partitions`, `drop_status`, `window`, `load_factor`, `machine`"
    );
    let e = load(json!({"max_jobs": 5})).unwrap();
    assert_eq!(e, "the input holds more than 5 jobs, the job limit (refused at line 9)");
    assert!(load(json!({"machine_size": 0})).unwrap().contains("machine_size must be at least 1"));
    assert!(load(json!({"window": {"first_jobs": 0}})).unwrap().contains("first_jobs"));
    assert!(load(json!({"load_factor": "fast"}))
        .unwrap()
        .starts_with("options.load_factor: invalid type: string \"fast\""));
    assert_eq!(load(json!({"machine_size": 4, "oversize": "clamp"})), None);
    let e = Session::new(bytes(b"hello\n"), "x".into(), None).err().map(message).unwrap();
    assert!(e.starts_with("no valid job in 1 lines (1 bad lines)"), "{e}");
    let e = Session::new(bytes(&[0x1f, 0x8b, 1, 2, 3]), "x.gz".into(), None).err().map(message).unwrap();
    assert!(e.contains("gzip"), "{e}");

    let mut s = Session::new(bytes(SMALL.as_bytes()), "s".into(), None).unwrap();
    let run = |s: &mut Session, r: Value| s.run(js(r), None).err().map(message);
    assert!(run(&mut s, json!({"policy": "esay"}))
        .unwrap()
        .starts_with("unknown policy `esay` (known: fcfs, easy, cbf"));
    assert!(run(&mut s, json!({"policy": "easy", "params": {"ordr": "shortest"}}))
        .unwrap()
        .starts_with("unknown parameter `ordr`"));
    assert!(run(&mut s, json!({"policy": "easy", "params": {"order": "longest"}}))
        .unwrap()
        .starts_with("parameter `order`: `longest` is not one of"));
    assert!(run(&mut s, json!({"policy": "easy", "predictor": "oracle"}))
        .unwrap()
        .starts_with("unknown predictor `oracle`"));
    assert!(run(&mut s, json!({"policy": "fcfs", "predictor": "last"}))
        .unwrap()
        .contains("does not use runtime predictions"));
    assert!(run(&mut s, json!({"policy": "easy", "sed": 1})).unwrap().starts_with("request: unknown field `sed`"));
    assert!(run(&mut s, json!({"params": {}})).unwrap().contains("missing field `policy`"));
    assert!(run(&mut s, json!({"policy": "easy", "seed": -2})).unwrap().contains("expected u64"));
    assert_eq!(run(&mut s, json!({"policy": "easy", "params": {"order": "shortest"}, "bsd_threshold": 60})), None);
    // `null` (and `undefined`) mean "not given".
    assert_eq!(run(&mut s, json!({"policy": "easy", "seed": null, "params": null, "predictor": null})), None);
    let undefined: JsValue = js(json!({"policy": "easy"}));
    Reflect::set(&undefined, &"seed".into(), &JsValue::UNDEFINED).unwrap();
    assert!(s.run(undefined.into(), None).is_ok());

    let gen = |p: Value| generate_lublin(js(p)).err().map(message);
    assert!(gen(json!({"procs": 0})).unwrap().starts_with("procs must be between 1"));
    assert!(gen(json!({"nodes": 64})).unwrap().starts_with("params: unknown field `nodes`"));
}

/// A thrown error's `name` and `kind`: the kind's class and name, as the
/// page and its workers read them; a callback's own error is thrown again
/// as it was.
fn name_and_kind(e: impl Into<JsValue>) -> (String, String) {
    let e = e.into();
    let field = |key: &str| Reflect::get(&e, &key.into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
    (field("name"), field("kind"))
}

#[wasm_bindgen_test]
fn errors_carry_their_kind_as_name_and_kind() {
    let pair = |name: &str, kind: &str| (name.to_owned(), kind.to_owned());
    let load = |b: &[u8], o: Value| Session::new(bytes(b), "s".into(), options(o)).err().map(name_and_kind).unwrap();
    assert_eq!(load(b"hello\n", json!({})), pair("TraceError", "trace"));
    assert_eq!(load(SMALL.as_bytes(), json!({"max_jobs": 5})), pair("LimitError", "limit"));
    assert_eq!(load(SMALL.as_bytes(), json!({"machine_sise": 3})), pair("OptionError", "option"));

    let mut s = Session::new(bytes(SMALL.as_bytes()), "s".into(), None).unwrap();
    assert_eq!(name_and_kind(s.jobs_csv().unwrap_err()), pair("StateError", "state"));
    let run = |s: &mut Session, r: Value| s.run(js(r), None).err().map(name_and_kind).unwrap();
    assert_eq!(run(&mut s, json!({"policy": "esay"})), pair("PolicyError", "policy"));
    assert_eq!(run(&mut s, json!({"policy": "easy", "params": {"ordr": "x"}})), pair("OptionError", "option"));
    assert_eq!(name_and_kind(decode_link("#v2=%%").unwrap_err()), pair("LinkError", "link"));

    // Enough events for a progress report (every 16,384).
    let trace = generate_lublin(js(json!({"procs": 64, "jobs": 20000, "load": 0.9, "seed": 2}))).unwrap();
    let mut s = Session::new(bytes(&trace), "lublin.swf".into(), None).unwrap();
    let stop = Function::new_with_args("p", "return false;");
    let e = s.run(js(json!({"policy": "fcfs"})), Some(stop.into())).unwrap_err();
    assert_eq!(name_and_kind(e), pair("CancelledError", "cancelled"));
    let throw = Function::new_with_args("p", "throw new RangeError('the page gave up');");
    let e = s.run(js(json!({"policy": "fcfs"})), Some(throw.into())).unwrap_err();
    assert_eq!(name_and_kind(e), pair("RangeError", ""));
}

#[wasm_bindgen_test]
fn generated_traces_are_the_same_bytes_as_natively() {
    let trace = generate_lublin(js(json!({"procs": 64, "jobs": 500, "load": 0.8, "seed": 7}))).unwrap();
    let digest: String = Sha256::digest(&trace).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(digest, include_str!("../../schedlab-synth/tests/golden.sha256").trim());
}

#[wasm_bindgen_test]
fn presets_list_every_preset_and_give_their_experiments() {
    let all = rust(&presets().unwrap());
    let ids: Vec<&str> = all.as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert!(
        ids.contains(&"fairness-audit") && ids.contains(&"checkpoint-cost") && ids.contains(&"selective"),
        "{ids:?}"
    );
    let pe = all.as_array().unwrap().iter().find(|p| p["id"] == "prediction-error").unwrap();
    assert_eq!(pe["figures"][0]["kind"], "curves");
    assert_eq!(pe["sections"][0]["sweep"][0], "error");
    assert_eq!(pe["sections"][0]["repeat"], 10);
    let e = rust(&preset_experiment("prediction-error", 0, js(json!({})), None).unwrap());
    assert_eq!(e["sweep"]["values"].as_array().unwrap().len(), 11);
    let high = rust(&preset_experiment("selective", 1, js(json!({"load_factor": 2.0})), None).unwrap());
    assert!((high["workload"]["load_factor"].as_f64().unwrap() - 2.6).abs() < 1e-12);
}

#[wasm_bindgen_test]
fn a_planned_experiment_runs_point_by_point_into_its_result() {
    let experiment = json!({"runs": [{"policy": "easy", "params": {}}, {"policy": "easy", "params": {}, "predictor": "virtual"}], "repeat": 2, "seed": 4, "sweep": {"param": "error", "values": ["0", "50"]}});
    let p = rust(&plan(js(experiment.clone())).unwrap());
    assert_eq!(p["labels"], json!(["easy", "easy@virtual"]));
    assert_eq!(p["swept"], json!([false, true]), "easy reads estimates: no error to sweep");
    let points = p["points"].as_array().unwrap();
    // EASY with estimates draws nothing from the seed: one point, not two.
    assert_eq!(points.len(), 1 + 4);
    assert_eq!(points[4], json!({"index": 4, "run": 1, "value": 1, "seed": 5}));
    let mut s = Session::new(bytes(KTH), "kth-sp2-first3000.swf".into(), None).unwrap();
    let done: Vec<String> = points
        .iter()
        .map(|pt| s.run_point(js(experiment.clone()), pt["index"].as_f64().unwrap(), None).unwrap())
        .collect();
    let identity = s.identity().unwrap();
    let r = text_value(&experiment_result(js(experiment.clone()), &identity, done).unwrap());
    assert_eq!(r["schema"], "schedlab-experiment/2");
    let summary = r["summary"].as_array().unwrap();
    assert_eq!(summary.len(), 3);
    assert_eq!(summary[0]["seeds"], json!([4]));
    assert_eq!(r["note"], "EASY uses no randomness: run once");
    assert_eq!(summary[0]["value"], Value::Null);
    // The virtual predictor at 50 % spreads the two seeds' results.
    assert!(summary[2]["ci95"]["mbs"].as_f64().unwrap() > 0.0);
    assert_eq!(r["trace"]["jobs"], 3000);
    let figs = rust(&figures(js(r.clone())).unwrap());
    let ids: Vec<&str> = figs.as_array().unwrap().iter().map(|f| f["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["chart-mbs", "chart-blocked", "chart-sweep-mbs", "chart-sweep-mwbs"]);
    assert!(preset_figures("nope", 0, js(r)).err().map(message).unwrap().contains("unknown preset"));
    let bad =
        plan(js(json!({"runs": [{"policy": "easy"}], "sweep": {"param": "nope", "values": ["1"]}}))).err().map(message);
    assert!(bad.unwrap().contains("nope"));
    let typo = plan(js(json!({"runs": [{"policy": "easy"}], "repat": 2}))).err().map(message);
    assert!(typo.unwrap().contains("repat"));
    let e = s.run_point(js(experiment), 99.0, None).err().map(message).unwrap();
    assert!(e.contains("point 99: the experiment has 5 points"), "{e}");
}

#[wasm_bindgen_test]
fn a_flag_set_during_a_run_cancels_it_and_the_session_runs_again() {
    // The page's worker returns `Atomics.load(flag) === 0` from its progress
    // callback; here the callback itself sets the flag at its second call,
    // as the page would from another thread while the run goes on.
    let trace = generate_lublin(js(json!({"procs": 64, "jobs": 40000, "load": 0.9, "seed": 5}))).unwrap();
    let mut s = Session::new(bytes(&trace), "lublin.swf".into(), None).unwrap();
    let setup = Function::new_no_args(
        "globalThis.__flag = new Int32Array(new SharedArrayBuffer(4)); globalThis.__calls = 0; globalThis.__phases = [];",
    );
    setup.call0(&JsValue::NULL).unwrap();
    let progress = Function::new_with_args(
        "p",
        "globalThis.__calls += 1; globalThis.__phases.push(p.phase.label); if (globalThis.__calls === 2) Atomics.store(globalThis.__flag, 0, 1); return Atomics.load(globalThis.__flag, 0) === 0;",
    );
    let experiment: JsValue = js(json!({"runs": [{"policy": "slack", "params": {}}]}));
    let e = s.run_point(experiment.clone().into(), 0.0, Some(progress.clone().into())).err().map(message).unwrap();
    assert!(e.starts_with("the run was cancelled at t="), "{e}");
    let calls = Reflect::get(&js_sys::global(), &"__calls".into()).unwrap().as_f64().unwrap();
    assert_eq!(calls, 2.0, "stopped at the report that saw the flag");
    let phases = rust(&Reflect::get(&js_sys::global(), &"__phases".into()).unwrap());
    assert_eq!(phases[0], "calibration (CBF reference run)", "slack calibrates first");
    // The same session (the trace parsed once) runs the next request.
    let go = Function::new_with_args("p", "return true;");
    let r = text_value(&s.run_point(experiment.into(), 0.0, Some(go.into())).unwrap());
    assert!(r["metrics"]["mbs"].as_f64().unwrap() >= 1.0);
}

#[wasm_bindgen_test]
fn share_links_round_trip_and_old_links_open() {
    let link = json!({"trace": {"kind": "sample", "id": "kth-sp2-first3000"}, "experiment": {"runs": [{"policy": "easy", "params": {"order": "shortest"}}]}});
    let fragment = encode_link(js(link)).unwrap();
    assert!(fragment.starts_with("v2="));
    let back = rust(&decode_link(&fragment).unwrap());
    assert_eq!(back["experiment"]["runs"][0]["params"]["order"], "shortest");
    // `{"p":[["easy",{},"estimate"]]}` in the standard alphabet, padded.
    let old = decode_link("#v1=eyJwIjpbWyJlYXN5Iix7fSwiZXN0aW1hdGUiXV19").unwrap();
    assert_eq!(rust(&old)["experiment"]["runs"][0]["policy"], "easy");
    let e = decode_link("#v1=%%").err().map(message).unwrap();
    assert!(e.contains("not base64"), "{e}");
}

#[wasm_bindgen_test]
fn the_schedule_view_answers_as_javascript_asks() {
    let mut s = Session::new(bytes(KTH), "kth-sp2-first3000.swf".into(), options(json!({}))).unwrap();
    s.run(js(json!({"policy": "easy"})), None).unwrap();
    let info = rust(&s.schedule_open(0).unwrap());
    assert_eq!((info["jobs"].as_u64(), info["procs"].as_u64()), (Some(3000), Some(100)));
    let (from, to) = (info["span"][0].as_f64().unwrap(), info["span"][1].as_f64().unwrap());
    s.run(js(json!({"policy": "fcfs"})), None).unwrap();
    s.schedule_open(1).unwrap();
    let grid = json!({"from": from, "to": from + 86400.0, "buckets": 300});
    assert_eq!(s.schedule_buckets(0, js(grid.clone())).unwrap().len(), 300);
    let series = rust(&s.schedule_series(1, js(grid.clone())).unwrap());
    assert_eq!(series["head_wait"].as_array().unwrap().len(), 300);
    let window = rust(&s.schedule_window(0, from, from + 86400.0, 5000).unwrap());
    assert_eq!(window["complete"], true);
    let first = &window["rects"][0];
    assert!(first["bands"].as_array().is_some_and(|b| !b.is_empty()));
    let job = rust(&s.schedule_job(0, first["job"].as_f64().unwrap()).unwrap());
    assert_eq!(job["id"], first["id"]);
    assert_eq!(s.schedule_find(0, first["id"].as_f64().unwrap()).unwrap(), first["job"].as_u64().map(|j| j as u32));
    let replay = rust(&s.schedule_replay(0, from + 43200.0, 10).unwrap());
    assert!(replay["queue"].as_array().unwrap().len() <= 10);
    let scatter = rust(&s.schedule_scatter(js(json!("bsd"))).unwrap());
    assert_eq!(scatter["x"].as_array().unwrap().len(), 3000);
    let rect = json!({"x_min": 1.0, "x_max": 1e12, "y_min": 1.0, "y_max": 1e12});
    let picked = rust(&s.schedule_select(js(json!("wait")), js(rect), 3).unwrap());
    assert_eq!((picked["total"].as_u64(), picked["jobs"].as_array().unwrap().len()), (Some(3000), 3));
    let chart = rust(&s.schedule_chart(0, js(json!({"from": from, "to": to, "buckets": 400}))).unwrap());
    assert_eq!(chart["kind"], "schedule");
    // Bad arguments are errors that say what is wrong.
    assert!(message(s.schedule_window(0, 0.5, 10.0, 10).unwrap_err()).contains("whole number"));
    assert!(message(s.schedule_buckets(0, js(json!({"from": 0, "to": 10}))).unwrap_err()).contains("buckets"));
    assert!(message(s.schedule_scatter(js(json!("speed"))).unwrap_err()).contains("measure"));
    assert!(message(s.schedule_job(0, 1e6).unwrap_err()).contains("the trace has 3000 jobs"));
    // Echoed short, named in the user's terms: no 301 digits, no seconds for a job index.
    let far = message(s.schedule_replay(0, 1e300, 10).unwrap_err());
    assert!(far.contains("the replay time 1e300 s is beyond ±2^53 s"), "{far}");
    let nan = message(s.schedule_job(0, f64::NAN).unwrap_err());
    assert!(nan.contains("the job index is not a number (NaN); it must be a whole number from 0"), "{nan}");
    assert!(message(s.schedule_open(5).unwrap_err()).contains("there are 2 slots"));
    let extra = json!({"from": 0, "to": 10, "buckets": 1, "zoom": 2});
    assert!(message(s.schedule_series(0, js(extra)).unwrap_err()).contains("zoom"));
}
