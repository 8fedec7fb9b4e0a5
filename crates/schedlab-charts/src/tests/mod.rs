use super::*;

const HOSTILE: &str = "<script>alert(1)</script> & \"quoted\" 'single'";

fn bars(groups: &[&str], series: &[(&str, Vec<Option<f64>>)]) -> ChartSpec {
    ChartSpec::Bars(BarChart {
        title: "Mean bounded slowdown".into(),
        x_label: "policy".into(),
        y_label: "MBS".into(),
        groups: groups.iter().map(|g| g.to_string()).collect(),
        series: series
            .iter()
            .map(|(name, values)| BarSeries { name: name.to_string(), values: values.clone(), intervals: None })
            .collect(),
        log_y: false,
        ..BarChart::default()
    })
}

fn ecdf(curves: &[(&str, Vec<(f64, f64)>)]) -> ChartSpec {
    ChartSpec::Ecdf(EcdfChart {
        title: "Waits".into(),
        x_label: "wait".into(),
        y_label: "jobs".into(),
        curves: curves.iter().map(|(n, p)| EcdfCurve { name: n.to_string(), points: p.clone() }).collect(),
        ..EcdfChart::default()
    })
}

fn sweep(log_x: bool, log_y: bool, lines: &[(&str, Vec<(f64, f64)>)]) -> ChartSpec {
    ChartSpec::Sweep(SweepChart {
        title: "Sweep".into(),
        x_label: "slack factor".into(),
        y_label: "MBS".into(),
        log_x,
        log_y,
        lines: lines
            .iter()
            .map(|(n, p)| SweepLine {
                name: n.to_string(),
                points: p.iter().map(|&(x, y)| SweepPoint { x, y, low: Some(y * 0.9), high: Some(y * 1.1) }).collect(),
            })
            .collect(),
        ..SweepChart::default()
    })
}

/// Text content of every `<text>` element (its line after the opening
/// tag), an apostrophe unescaped.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| t.split_once(">\n").map(|(_, rest)| rest.lines().next().unwrap_or("").replace("&apos;", "'")))
        .collect()
}

fn well_formed(svg: &str) {
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(100)]);
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
    assert!(!svg.chars().any(|c| c.is_control() && c != '\n' && c != '\t' && c != '\r'));
}

#[test]
fn bars_name_their_series_and_groups() {
    let spec = bars(
        &["fcfs", "easy", "cbf"],
        &[("MBS", vec![Some(40.5), Some(12.0), Some(15.26)]), ("MWBS", vec![Some(30.0), Some(10.0), None])],
    );
    let svg = to_svg(&spec, 800, 500);
    well_formed(&svg);
    let t = texts(&svg);
    for word in ["Mean bounded slowdown", "fcfs", "easy", "cbf", "MBS", "MWBS", "policy", "40.5", "15.3"] {
        assert!(t.iter().any(|x| x == word), "{word} not in {t:?}");
    }
    // Okabe–Ito blue and orange fill the bars.
    assert!(svg.contains("#0072B2") && svg.contains("#E69F00"), "{svg}");
}

/// The y coordinate of the `<text>` element whose content is `word`.
fn text_y(svg: &str, word: &str) -> Option<f64> {
    svg.split("<text").skip(1).find_map(|t| {
        let (attrs, rest) = t.split_once(">\n")?;
        if rest.lines().next()?.replace("&apos;", "'") != word {
            return None;
        }
        let y = attrs.split("y=\"").nth(1)?.split('"').next()?;
        y.parse().ok()
    })
}

#[test]
fn negative_bars_are_labelled_below_their_end() {
    // per-category % change: negative = better
    let spec = bars(&["SN", "SW"], &[("Sel", vec![Some(-30.5), Some(12.5)])]);
    let svg = to_svg(&spec, 800, 500);
    well_formed(&svg);
    let (neg, pos) = (text_y(&svg, "-30.5").expect("negative label"), text_y(&svg, "12.5").expect("positive label"));
    let zero = text_y(&svg, "0").expect("zero tick");
    assert!(neg > zero + 50.0, "negative label at {neg}, zero line at {zero}");
    assert!(pos < zero, "positive label at {pos}, zero line at {zero}");
}

#[test]
fn labels_too_wide_for_their_bars_are_left_out() {
    let values: Vec<Option<f64>> = (0..4).map(|i| Some(-12345.678 - f64::from(i))).collect();
    let series: Vec<(&str, Vec<Option<f64>>)> = ["a", "b", "c", "d"].iter().map(|n| (*n, values.clone())).collect();
    let svg = to_svg(&bars(&["SN", "SW", "LN", "LW"], &series), 400, 300);
    well_formed(&svg);
    assert!(!texts(&svg).iter().any(|t| t == "-12346"), "{:?}", texts(&svg));
}

#[test]
fn bars_with_intervals_draw_whiskers() {
    let ChartSpec::Bars(mut c) = bars(&["easy"], &[("MBS", vec![Some(10.0)])]) else { unreachable!() };
    c.series[0].intervals = Some(vec![Some((8.0, 12.5))]);
    let svg = to_svg(&ChartSpec::Bars(c), 640, 480);
    well_formed(&svg);
    // Three black whisker lines.
    assert!(svg.matches("stroke=\"#000000\"").count() >= 3, "{svg}");
}

#[test]
fn user_text_is_escaped_everywhere() {
    let mut spec = bars(&[HOSTILE], &[(HOSTILE, vec![Some(1.0)])]);
    if let ChartSpec::Bars(c) = &mut spec {
        c.title = HOSTILE.into();
        c.x_label = HOSTILE.into();
        c.y_label = HOSTILE.into();
    }
    let specs = [
        spec,
        ecdf(&[(HOSTILE, vec![(0.0, 0.5), (100.0, 1.0)])]),
        sweep(false, false, &[(HOSTILE, vec![(1.0, 2.0), (2.0, 3.0)])]),
    ];
    for (i, spec) in specs.iter().enumerate() {
        let svg = to_svg(spec, 800, 600);
        well_formed(&svg);
        assert!(!svg.contains("<script"), "{svg}");
        assert!(!svg.contains("\"quoted\""));
        assert!(svg.contains("&lt;script&gt;alert"), "{svg}");
        // The title (bars) is drawn whole; legends cut long names.
        if i == 0 {
            let whole = "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot; &apos;single&apos;";
            assert!(svg.contains(whole), "{svg}");
        }
    }
}

#[test]
fn control_characters_and_long_text_are_cleaned() {
    assert_eq!(clean_text("a\u{0}b\n\tc  d"), "a b c d");
    let long = "x".repeat(200);
    let cleaned = clean_text(&long);
    assert_eq!(cleaned.chars().count(), MAX_TEXT_CHARS);
    assert!(cleaned.ends_with('…'));
    let svg = to_svg(&bars(&["g\u{7}1"], &[("s\u{1b}[31m", vec![Some(1.0)])]), 400, 300);
    well_formed(&svg);
}

#[test]
fn ecdf_curves_on_a_log_axis_with_zero_waits() {
    let spec = ecdf(&[
        ("easy", vec![(0.0, 0.4), (10.0, 0.6), (3600.0, 0.9), (200_000.0, 1.0)]),
        ("fcfs", vec![(0.0, 0.2), (86_400.0, 1.0)]),
    ]);
    let svg = to_svg(&spec, 900, 600);
    well_formed(&svg);
    let t = texts(&svg);
    for word in ["easy", "fcfs", "1 s", "1 h", "100 %", "0 %"] {
        assert!(t.iter().any(|x| x == word), "{word} not in {t:?}");
    }
    // "10 h" and "1 d" are 0.38 decades apart: at 900 px they would
    // overlap, so one is left out; on a wide chart both fit.
    assert!(!(t.iter().any(|x| x == "10 h") && t.iter().any(|x| x == "1 d")), "{t:?}");
    let wide = texts(&to_svg(&spec, 3000, 600));
    assert!(wide.iter().any(|x| x == "10 h") && wide.iter().any(|x| x == "1 d"), "{wide:?}");
    assert_inside(&svg, 900, 600);
}

#[test]
fn sweeps_with_linear_and_log_axes() {
    for (lx, ly) in [(false, false), (true, false), (false, true), (true, true)] {
        let spec = sweep(
            lx,
            ly,
            &[("easy", vec![(0.0, 0.0), (1.0, 10.0), (10.0, 20.0)]), ("cbf", vec![(1.0, 5.0), (100.0, 8.0)])],
        );
        let svg = to_svg(&spec, 800, 600);
        well_formed(&svg);
        let t = texts(&svg);
        assert!(t.iter().any(|x| x == "easy") && t.iter().any(|x| x == "cbf"), "{t:?}");
    }
}

#[test]
fn degenerate_data_draws_without_error() {
    let specs = vec![
        bars(&[], &[]),
        bars(&["a"], &[]),
        bars(&["a"], &[("s", vec![])]),
        bars(&["a"], &[("s", vec![None])]),
        bars(&["a", "b"], &[("s", vec![Some(0.0), Some(0.0)])]),
        bars(&["a"], &[("s", vec![Some(-3.0)])]),
        bars(&["a"], &[("s", vec![Some(f64::NAN)])]),
        bars(&["a"], &[("s", vec![Some(1e300), Some(5.0), Some(7.0)])]),
        ecdf(&[]),
        ecdf(&[("one", vec![])]),
        ecdf(&[("one", vec![(0.0, 1.0)])]),
        ecdf(&[("zeros", vec![(0.0, 1.0), (0.0, 1.0)])]),
        ecdf(&[("neg", vec![(-5.0, 0.5), (f64::INFINITY, 1.0)])]),
        sweep(false, false, &[]),
        sweep(false, false, &[("p", vec![(1.0, 1.0)])]),
        sweep(true, true, &[("p", vec![(0.0, 0.0), (-1.0, 2.0)])]),
        sweep(true, true, &[("p", vec![(1.0, 1.0)])]),
        sweep(false, false, &[("p", vec![(3.0, 0.0), (3.0, 0.0)])]),
    ];
    for (i, spec) in specs.iter().enumerate() {
        for (w, h) in [(800, 600), (0, 0), (100_000, 50), (161, 161)] {
            let svg = try_to_svg(spec, w, h).unwrap_or_else(|e| panic!("case {i} at {w}x{h}: {e}"));
            well_formed(&svg);
        }
    }
    let t = texts(&to_svg(&bars(&[], &[]), 600, 400));
    assert!(t.iter().any(|x| x == "no data") && t.iter().any(|x| x == "Mean bounded slowdown"), "{t:?}");
}

#[test]
fn specs_come_from_json_and_unknown_keys_are_refused() {
    let json =
        r#"{"kind":"bars","title":"t","groups":["easy"],"series":[{"name":"MBS","values":[3.5],"intervals":[[3,4]]}]}"#;
    let spec: ChartSpec = serde_json::from_str(json).unwrap();
    assert!(matches!(&spec, ChartSpec::Bars(b) if b.series[0].intervals == Some(vec![Some((3.0, 4.0))])));
    let back: ChartSpec = serde_json::from_str(&serde_json::to_string(&spec).unwrap()).unwrap();
    assert_eq!(back, spec);
    let json = r#"{"kind":"ecdf","title":"t","curves":[{"name":"a","points":[[0,0.5],[10,1]]}]}"#;
    assert!(matches!(serde_json::from_str::<ChartSpec>(json).unwrap(), ChartSpec::Ecdf(_)));
    let json = r#"{"kind":"sweep","title":"t","log_x":true,"lines":[{"name":"a","points":[{"x":1,"y":2}]}]}"#;
    assert!(matches!(serde_json::from_str::<ChartSpec>(json).unwrap(), ChartSpec::Sweep(_)));
    for bad in [
        r#"{"kind":"bars","title":"t","groups":[],"series":[],"colour":"red"}"#,
        r#"{"kind":"pie","title":"t"}"#,
        r#"{"kind":"sweep","title":"t","lines":[{"name":"a","points":[{"x":1,"y":2,"z":3}]}]}"#,
    ] {
        assert!(serde_json::from_str::<ChartSpec>(bad).is_err(), "{bad}");
    }
}

#[test]
fn palette_and_numbers() {
    assert_eq!(palette_css()[0], "#0072b2");
    assert_eq!(palette_css().len(), 8);
    assert_eq!(short_number(15.26), "15.3");
    assert_eq!(short_number(1234.0), "1234");
    assert_eq!(short_number(0.5), "0.5");
    assert_eq!(short_number(2e9), "2 × 10⁹");
    assert_eq!(short_number(2.9e9), "2.9 × 10⁹");
    assert_eq!(short_number(-4.5e-5), "-4.5 × 10⁻⁵");
    assert_eq!(duration_label(3600.0), "1 h");
    // A log duration axis ticks at round durations, as the wait ECDF does.
    let labels: Vec<String> = log_axis_ticks(true, 200_000.0).into_iter().map(|t| t.label).collect();
    assert_eq!(labels, ["1 s", "10 s", "1 min", "10 min", "1 h", "10 h", "1 d"]);
    let plain: Vec<f64> = log_axis_ticks(false, 2500.0).into_iter().map(|t| t.value).collect();
    assert_eq!(plain, [1.0, 10.0, 100.0, 1000.0]);
    assert_eq!(strip_value(StripUnit::ProcSeconds, 1.5e7), "1.5 × 10⁷ proc·s");
    assert_eq!(strip_value(StripUnit::Count, 1.0), "1 job");
    assert_eq!(duration_label(600.0), "10 min");
}

/// One `<text>` element: its anchor point, font size, anchor and text.
struct Placed {
    rotated: bool,
    x: f64,
    y: f64,
    size: f64,
    anchor: String,
    text: String,
}

fn attr(tag: &str, name: &str) -> Option<String> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    Some(tag[start..].split('"').next()?.to_owned())
}

fn placed(svg: &str) -> Vec<Placed> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let (tag, rest) = t.split_once(">\n")?;
            let text = rest.lines().next()?.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
            let size = attr(tag, "font-size")?.parse().ok()?;
            Some(Placed {
                rotated: tag.contains("rotate("),
                x: attr(tag, "x")?.parse().ok()?,
                y: attr(tag, "y")?.parse().ok()?,
                size,
                anchor: attr(tag, "text-anchor").unwrap_or_else(|| "start".into()),
                text,
            })
        })
        .collect()
}

/// Every text lies inside the canvas, its width taken as 0.55 em per
/// character (the average advance of DejaVu Sans and Liberation Sans, the
/// fonts a Linux browser draws sans-serif with, is about 0.55 em).
pub(crate) fn assert_inside(svg: &str, w: u32, h: u32) {
    let all = placed(svg);
    assert!(!all.is_empty());
    for p in all {
        let width = p.text.chars().count() as f64 * p.size * 0.55;
        if p.rotated {
            // Text turned a quarter (reading upwards): its width runs along
            // y, down from its anchor when it ends there.
            let (up, down) = match p.anchor.as_str() {
                "end" => (0.0, width),
                "start" => (width, 0.0),
                _ => (width / 2.0, width / 2.0),
            };
            let fits = p.x >= 0.0 && p.x <= f64::from(w) && p.y - up >= -0.5 && p.y + down <= f64::from(h) + 0.5;
            assert!(fits, "`{}` (rotated) at ({}, {}) runs outside {w}×{h}", p.text, p.x, p.y);
            continue;
        }
        let left = match p.anchor.as_str() {
            "middle" => p.x - width / 2.0,
            "end" => p.x - width,
            _ => p.x,
        };
        let fits = left >= -0.5 && left + width <= f64::from(w) + 0.5 && p.y >= 0.0 && p.y <= f64::from(h) + 0.5;
        assert!(fits, "`{}` at ({}, {}) size {} runs outside {w}×{h}", p.text, p.x, p.y, p.size);
    }
}

const LONG: [&str; 4] = [
    "PV-EASY mode=checkpoint,cost=180@virtual",
    "PV-EASY mode=suspend,cost=120,slowdown=5",
    "selective:variant=sel-d,threshold=0",
    "easy:order=shortest@tsafrir",
];

#[test]
fn long_names_wrap_instead_of_being_cut() {
    let groups: Vec<&str> = LONG.to_vec();
    let series: Vec<(&str, Vec<Option<f64>>)> =
        LONG.iter().map(|n| (*n, vec![Some(3.0), Some(5.0), Some(7.0), Some(2.0)])).collect();
    for (w, h) in [(480, 300), (800, 500), (1200, 750)] {
        let svg = to_svg(&bars(&groups, &series), w, h);
        well_formed(&svg);
        assert_inside(&svg, w, h);
        let text: String = texts(&svg).concat();
        assert!(!text.contains('…'), "nothing cut at {w}×{h}: {:?}", texts(&svg));
        for word in ["checkpoint", "cost=180", "suspend", "sel-d", "tsafrir"] {
            assert!(text.contains(word), "{word} at {w}×{h}");
        }
    }
    let svg = to_svg(&ecdf(&LONG.iter().map(|n| (*n, vec![(1.0, 0.5), (100.0, 1.0)])).collect::<Vec<_>>()), 640, 400);
    assert_inside(&svg, 640, 400);
    let svg = to_svg(
        &sweep(false, false, &LONG.iter().map(|n| (*n, vec![(0.0, 1.0), (10.0, 2.0)])).collect::<Vec<_>>()),
        640,
        400,
    );
    assert_inside(&svg, 640, 400);
}

#[test]
fn a_log_axis_shows_bars_of_every_magnitude() {
    let mut spec = bars(&["fcfs", "easy", "cbf"], &[("MBS", vec![Some(3282.0), Some(12.5), Some(1.4)])]);
    if let ChartSpec::Bars(c) = &mut spec {
        c.log_y = true;
    }
    let svg = to_svg(&spec, 800, 500);
    well_formed(&svg);
    assert_inside(&svg, 800, 500);
    let t = texts(&svg);
    for tick in ["1", "10", "100", "1000"] {
        assert!(t.iter().any(|x| x == tick), "{tick} in {t:?}");
    }
    // The three bars (the legend's key, the other blue rectangle, lies
    // outside the plot, beside or below it) rise from 1 in proportion to the logarithm of their
    // values: 1.4 is 4 % of the tallest bar, not the 0.04 % of a linear axis.
    let plot = plots(&svg)[0];
    let heights: Vec<f64> = svg
        .split("<rect")
        .skip(1)
        .filter(|r| r.contains("fill=\"#0072B2\""))
        .filter(|r| attr(r, "x").and_then(|x| x.parse::<f64>().ok()).is_some_and(|x| x >= plot.0 && x <= plot.2))
        .filter(|r| attr(r, "y").and_then(|y| y.parse::<f64>().ok()).is_some_and(|y| y >= plot.1 && y < plot.3))
        .filter_map(|r| attr(r, "height")?.parse::<f64>().ok())
        .collect();
    assert_eq!(heights.len(), 3, "{heights:?}");
    for (h, v) in heights.iter().zip([3282.0f64, 12.5, 1.4]) {
        let want = heights[0] * v.log10() / 3282f64.log10();
        assert!((h - want).abs() <= 2.0, "{heights:?}: {v} should be {want} px");
    }
}

#[test]
fn wrapping_keeps_every_character() {
    let text = "pv-easy:mode=checkpoint,cost=60@virtual";
    for fit in 1..45 {
        let lines = wrap(text, fit);
        assert_eq!(lines.concat().replace(' ', ""), text, "fit {fit}");
        assert!(lines.iter().all(|l| l.chars().count() <= fit), "fit {fit}: {lines:?}");
    }
}

mod schedule {
    use schedlab_engine::Control;
    use schedlab_experiment::{resolve, run, PolicySpec};
    use schedlab_schedule::ScheduleView;
    use schedlab_workload::{Job, SwfExtra, Trace};

    use super::{assert_inside, texts, well_formed, HOSTILE};
    use crate::{schedule_chart, to_svg, window_chart, ChartSpec, ScheduleChart, ScheduleChartOptions};

    /// P = 10 under PV-EASY (kill): 1 (8 procs, 100 s) from 0; 2 (10, 50 s)
    /// waits for it, reservation 100; 3 (2, 500 s) ventures on the 2 idle
    /// processors at 2, is preempted at 100 (98 s lost), restarts at 150.
    fn view() -> (Trace, ScheduleView) {
        let rows = [(0, 100, 8), (1, 50, 10), (2, 500, 2)];
        let jobs: Vec<Job> = rows
            .iter()
            .enumerate()
            .map(|(i, &(submit, runtime, size))| Job {
                id: i as u64 + 1,
                submit,
                runtime,
                size,
                estimate: runtime,
                user: i as i32,
                group: -1,
                queue: -1,
                partition: -1,
                status: 1,
            })
            .collect();
        let trace = Trace { procs: 10, extras: vec![SwfExtra::unknown(-1); jobs.len()], jobs, cluster: None };
        let settings = resolve(&PolicySpec::parse("pv-easy").unwrap().request()).unwrap();
        let out = run(&trace, &settings, &mut |_| Control::Continue).unwrap();
        let view = ScheduleView::new(&trace.jobs, None, out.record, 10).unwrap();
        (trace, view)
    }

    pub(super) fn chart(from: i64, to: i64, max_boxes: usize, title: &str) -> ScheduleChart {
        let (t, v) = view();
        let options = ScheduleChartOptions { title: title.into(), from, to, columns: 200, max_boxes };
        schedule_chart(&v, &t.jobs, &options).unwrap()
    }

    fn fills(svg: &str, colour: &str) -> usize {
        svg.split("<rect").skip(1).filter(|r| r.contains(&format!("fill=\"{colour}\""))).count()
    }

    #[test]
    fn a_zoomed_in_window_draws_each_run_by_its_class() {
        let c = chart(0, 700, 1000, "PV-EASY");
        // 1 and 2 in order, 3's preempted run and its ventured last run.
        assert_eq!(c.boxes.len(), 4);
        assert!(c.columns.is_empty());
        let svg = to_svg(&ChartSpec::Schedule(c.clone()), 900, 600);
        well_formed(&svg);
        assert_inside(&svg, 900, 600);
        // Blue (in order) boxes for 1 and 2 and the legend, vermillion for
        // the preempted run and the legend, bluish green for the ventured one.
        assert_eq!(fills(&svg, "#0072B2"), 3);
        assert_eq!(fills(&svg, "#D55E00"), 2);
        assert_eq!(fills(&svg, "#009E73"), 2);
        // The lost work is hatched: black lines inside the chart.
        assert!(svg.matches("stroke=\"#000000\"").count() > 3);
        let text = texts(&svg).concat();
        for word in ["PV-EASY", "processors", "lost work", "past the", "reservation", "utilisation", "waiting jobs"] {
            assert!(text.contains(word), "{word} in {:?}", texts(&svg));
        }
        // The same chart gives the same bytes.
        assert_eq!(svg, to_svg(&ChartSpec::Schedule(c), 900, 600));
    }

    #[test]
    fn the_heads_reservation_is_outlined() {
        // At the window's middle (50), 2 waits with its reservation 100, for
        // its 50 s on the whole machine: one outline box.
        let c = chart(0, 100, 1000, "");
        assert_eq!(c.outline.len(), 1);
        assert_eq!((c.outline[0].start, c.outline[0].end, c.outline[0].lo, c.outline[0].hi), (100, 150, 0, 10));
        // After 150 nobody waits.
        assert!(chart(200, 400, 1000, "").outline.is_empty());
    }

    /// The chart drawn from the record alone (`--gantt`) is the view's:
    /// boxes, columns, outline and strips, zoomed in and out.
    #[test]
    fn the_chart_from_the_record_is_the_views() {
        let (t, v) = view();
        for (from, to, max_boxes) in [(0, 700, 1000), (0, 700, 2), (0, 100, 1000), (90, 160, 1000), (200, 400, 3)] {
            let options = ScheduleChartOptions { title: "t".into(), from, to, columns: 200, max_boxes };
            let want = schedule_chart(&v, &t.jobs, &options).unwrap();
            assert_eq!(window_chart(&t.jobs, None, v.record(), &options).unwrap(), want, "{from}..{to}");
        }
    }

    #[test]
    fn a_crowded_window_is_drawn_by_columns() {
        let c = chart(0, 700, 2, "zoomed out");
        assert!(c.boxes.is_empty());
        assert_eq!(c.columns.len(), 200);
        // The first column, [0, 3.5): 8 of 10 busy until 2, then 10.
        assert!((c.columns[0] - (8.0 * 2.0 + 10.0 * 1.5) / 35.0).abs() < 1e-12);
        let svg = to_svg(&ChartSpec::Schedule(c), 800, 500);
        well_formed(&svg);
        assert_inside(&svg, 800, 500);
        assert!(fills(&svg, "#56B4E9") > 100);
    }

    /// Stacked, both runs' charts are drawn, one above the other, each
    /// with its title and its own plot.
    #[test]
    fn stacked_charts_draw_each_run() {
        let (a, b) = (chart(0, 700, 1000, "run A"), chart(0, 700, 1000, "run B"));
        let svg = crate::try_to_svg_stacked(&[ChartSpec::Schedule(a), ChartSpec::Schedule(b)], 1400, 1600).unwrap();
        well_formed(&svg);
        let t = texts(&svg);
        let (ya, yb) = (super::text_y(&svg, "run A").unwrap(), super::text_y(&svg, "run B").unwrap());
        assert!(ya < 800.0 && yb >= 800.0, "A above B: {ya}, {yb} in {t:?}");
        assert_eq!(super::plots(&svg).len(), 10, "a Gantt and four strips each");
    }

    #[test]
    fn titles_are_text_and_empty_windows_say_so() {
        let svg = to_svg(&ChartSpec::Schedule(chart(0, 700, 1000, HOSTILE)), 640, 400);
        well_formed(&svg);
        assert!(!svg.contains("<script>"));
        let empty = ScheduleChart { title: "empty".into(), procs: 10, from: 5, to: 5, ..Default::default() };
        let svg = to_svg(&ChartSpec::Schedule(empty), 640, 400);
        assert!(texts(&svg).iter().any(|t| t == "no data"));
    }
}

#[test]
fn schedule_legend_names_box_kinds_with_their_colours() {
    let legend = schedule_legend();
    // The page matches a run's class against these keys, so each box kind's
    // key must be its serialised name.
    for (entry, kind) in
        legend.iter().zip([BoxKind::InOrder, BoxKind::Backfilled, BoxKind::Ventured, BoxKind::Preempted])
    {
        assert_eq!(serde_json::to_string(&kind).unwrap(), format!("\"{}\"", entry.key));
    }
    let keys: Vec<&str> = legend.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(keys, ["in_order", "backfilled", "ventured", "preempted", "reservation", "busy"]);
    // Okabe–Ito: blue, orange, bluish green, vermillion; black outline; sky-blue columns.
    let colours: Vec<&str> = legend.iter().map(|e| e.colour.as_str()).collect();
    assert_eq!(colours, ["#0072b2", "#e69f00", "#009e73", "#d55e00", "#000000", "#56b4e9"]);
    assert!(legend.iter().all(|e| !e.label.is_empty()));
}

/// A group where no series has a value carries the chart's `empty` note
/// once; a group where one series has a bar does not, and a chart without
/// a note leaves the empty group blank.
#[test]
fn a_group_without_any_bar_says_why() {
    let values = [("EASY", vec![Some(2.0), None, Some(3.0)]), ("CBF", vec![Some(1.0), None, None])];
    let mut spec = bars(&["1", "2", "3-4"], &values);
    let plain = to_svg(&spec, 1200, 750);
    assert!(!plain.contains("no blocked jobs"), "{plain}");
    if let ChartSpec::Bars(b) = &mut spec {
        b.empty = "no blocked jobs".into();
    }
    let svg = to_svg(&spec, 1200, 750);
    assert_eq!(svg.matches("no blocked jobs").count(), 1, "{svg}");
    assert_inside(&svg, 1200, 750);
}

/// The plot areas of a chart, `(left, top, right, bottom)` each: the
/// rectangles that the axis lines (plotters draws them #444444, 2 pixels)
/// bound, a vertical y axis meeting a horizontal x axis at its foot.
fn plots(svg: &str) -> Vec<(f64, f64, f64, f64)> {
    let lines: Vec<[f64; 4]> = svg
        .split("<polyline")
        .skip(1)
        .filter(|l| l.contains("stroke=\"#444444\""))
        .filter_map(|l| {
            let points: Vec<f64> =
                attr(l, "points")?.split([' ', ',']).filter(|t| !t.is_empty()).filter_map(|t| t.parse().ok()).collect();
            (points.len() == 4).then(|| [points[0], points[1], points[2], points[3]])
        })
        .collect();
    let long = |l: &&[f64; 4]| (l[2] - l[0]).abs() + (l[3] - l[1]).abs() > 20.0;
    let ys: Vec<&[f64; 4]> = lines.iter().filter(long).filter(|l| l[0] == l[2]).collect();
    let xs: Vec<&[f64; 4]> = lines.iter().filter(long).filter(|l| l[1] == l[3]).collect();
    // Panels stacked on one time axis (the schedule's) have no x axis of
    // their own but the last: they end where it ends.
    let starts_at = |x: &&&[f64; 4], left: f64| (x[0].min(x[2]) - left).abs() <= 2.0;
    ys.iter()
        .filter_map(|y| {
            let (top, bottom) = (y[1].min(y[3]), y[1].max(y[3]));
            let x = xs
                .iter()
                .find(|x| (x[1] - bottom).abs() <= 2.0 && starts_at(x, y[0]))
                .or_else(|| xs.iter().find(|x| starts_at(x, y[0])))?;
            Some((y[0], top, x[0].max(x[2]), bottom))
        })
        .collect()
}

mod layout;

mod grid;
