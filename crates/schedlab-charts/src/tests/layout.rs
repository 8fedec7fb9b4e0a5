//! The charts as publication figures: how much of the canvas the plot
//! takes, the smallest text, tick labels, whiskers and strips, each read
//! back from the SVG of a hand-made chart.

use super::*;

/// The plots' share of a `w` × `h` canvas.
fn plot_share(svg: &str, w: u32, h: u32) -> f64 {
    plots(svg).iter().map(|p| (p.2 - p.0) * (p.3 - p.1)).sum::<f64>() / (f64::from(w) * f64::from(h))
}

/// Names as runs are titled, one short and three long.
const RUNS: [&str; 4] = ["FCFS", "EASY, virtual (error 0 %)", "EASY, virtual (error 40 %)", "Conservative backfilling"];

fn with_intervals(spec: ChartSpec, intervals: Vec<Vec<Option<(f64, f64)>>>) -> ChartSpec {
    let ChartSpec::Bars(mut c) = spec else { unreachable!() };
    for (s, iv) in c.series.iter_mut().zip(intervals) {
        s.intervals = Some(iv);
    }
    ChartSpec::Bars(c)
}

/// At the exports' size, with a title, axis descriptions and a legend, the
/// plot takes at least 60 % of the canvas, whether the legend's names are
/// short (beside the plot) or long (below it, in rows).
#[test]
fn the_plot_takes_most_of_the_canvas() {
    let values = vec![Some(1907.0), Some(89.6), Some(74.5), Some(96.7)];
    let short = bars(&RUNS, &[("MBS", values.clone()), ("MWBS", values.clone())]);
    let sizes = ["1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", "65-100"];
    let per_size: Vec<(&str, Vec<Option<f64>>)> = RUNS.iter().map(|r| (*r, vec![Some(3.0); 8])).collect();
    let long = bars(&sizes, &per_size);
    let curves: Vec<(&str, Vec<(f64, f64)>)> =
        RUNS.iter().map(|r| (*r, vec![(0.0, 0.5), (600.0, 0.8), (86_400.0, 1.0)])).collect();
    let lines: Vec<(&str, Vec<(f64, f64)>)> = RUNS.iter().map(|r| (*r, vec![(0.0, 90.0), (40.0, 75.0)])).collect();
    for (name, spec) in
        [("short", short), ("long", long), ("ecdf", ecdf(&curves)), ("sweep", sweep(false, false, &lines))]
    {
        let svg = to_svg(&spec, 1200, 750);
        assert_inside(&svg, 1200, 750);
        assert_eq!(plots(&svg).len(), 1, "{name}");
        let share = plot_share(&svg, 1200, 750);
        assert!(share >= 0.6, "{name}: the plot takes {:.0} % of the canvas", share * 100.0);
    }
}

/// The font sizes of every text, in the SVG's pixels.
fn font_sizes(svg: &str) -> Vec<(f64, String)> {
    placed(svg).into_iter().map(|p| (p.size, p.text)).collect()
}

/// No text is drawn under 11 px at the SVG's own size (1×), on small and
/// large charts alike, including the legend, value labels, notes of empty
/// groups, wrapped group names and the schedule's strips.
#[test]
fn no_text_is_under_11_px() {
    let many: Vec<(&str, Vec<Option<f64>>)> =
        (0..10).map(|k| (LONG[k % 4], vec![Some(3.0 + k as f64), None, Some(1.0)])).collect();
    let mut empty = bars(&["1", "2", "3-4"], &many);
    if let ChartSpec::Bars(b) = &mut empty {
        b.empty = "no blocked jobs".into();
        b.subtitle = "kth-sp2-first3000.swf: 3000 jobs on 100 processors, load ×1.2".into();
    }
    let specs = [
        empty,
        bars(&LONG, &[("MBS", vec![Some(3.0), Some(5.0), Some(7.0), Some(2.0)])]),
        ecdf(&LONG.iter().map(|n| (*n, vec![(1.0, 0.5), (100.0, 1.0)])).collect::<Vec<_>>()),
        sweep(true, true, &LONG.iter().map(|n| (*n, vec![(1.0, 1.0), (10.0, 2.0)])).collect::<Vec<_>>()),
        ChartSpec::Schedule(schedule::chart(0, 700, 1000, "PV-EASY")),
    ];
    for spec in &specs {
        for (w, h) in [(160, 160), (400, 300), (800, 500), (1200, 750), (1600, 900)] {
            let svg = to_svg(spec, w, h);
            let small: Vec<(f64, String)> = font_sizes(&svg).into_iter().filter(|(s, _)| *s < 11.0).collect();
            assert!(small.is_empty(), "at {w}×{h}: {small:?}");
        }
    }
}

/// A tick label is never broken inside a number: a size range stays whole
/// however narrow its slot, and a number keeps its unit.
#[test]
fn tick_labels_never_break_a_number() {
    let sizes = ["1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", "65-100", "129-256"];
    let series = [("EASY", vec![Some(2.0); 9])];
    for (w, h) in [(330, 300), (400, 300), (800, 500), (1200, 750)] {
        let svg = to_svg(&bars(&sizes, &series), w, h);
        assert_inside(&svg, w, h);
        let t = texts(&svg);
        for size in sizes {
            assert!(t.iter().any(|x| x == size), "{size} whole at {w}×{h}: {t:?}");
        }
    }
    // Too narrow for "129-256" under its bar, the bars are laid across
    // the chart with the sizes left of them, level: none is turned.
    for (w, h) in [(330, 300), (1200, 750)] {
        let all = placed(&to_svg(&bars(&sizes, &series), w, h));
        assert!(all.iter().filter(|p| sizes.contains(&p.text.as_str())).all(|p| !p.rotated), "at {w}×{h}");
    }
    assert_eq!(wrap("EASY, virtual (error 40 %)", 16), ["EASY, virtual", "(error 40 %)"]);
    assert_eq!(wrap("sizes 65-100", 8), ["sizes", "65-100"]);
    assert_eq!(wrap("cost 120 s", 8), ["cost", "120 s"]);
}

/// Vertical segments `(x, y0, y1)` of lines in colour `stroke`.
fn vertical_segments(svg: &str, stroke: &str) -> Vec<(f64, f64, f64)> {
    svg.split("<polyline")
        .skip(1)
        .filter(|l| l.contains(&format!("stroke=\"{stroke}\"")))
        .filter_map(|l| {
            let p: Vec<f64> =
                attr(l, "points")?.split([' ', ',']).filter(|t| !t.is_empty()).filter_map(|t| t.parse().ok()).collect();
            (p.len() == 4 && p[0] == p[2] && p[1] != p[3]).then_some((p[0], p[1], p[3]))
        })
        .collect()
}

fn assert_within(segments: &[(f64, f64, f64)], plot: (f64, f64, f64, f64), what: &str) {
    assert!(!segments.is_empty(), "{what}: no whisker");
    for &(x, a, b) in segments {
        let inside = |y: f64| y >= plot.1 - 1.0 && y <= plot.3 + 1.0;
        assert!(x >= plot.0 && x <= plot.2 && inside(a) && inside(b), "{what}: whisker {x}: {a}..{b} outside {plot:?}");
    }
}

/// Every whisker ends inside the plot: an interval past the bars (above
/// the tallest, below zero, below the smallest bar of a log axis) widens
/// the axis to hold it. Hand-made: bars 10 and 20 with intervals
/// [−5, 30] and [15, 45] on a linear axis, which must then run from below
/// −5 to above 45; on a log axis bars 2 and 300 with [0.05, 8] and
/// [−40, 900] (a low end a log axis cannot show ends on its bottom with
/// an arrowhead).
#[test]
fn every_whisker_ends_inside_the_plot() {
    let linear = with_intervals(
        bars(&["easy", "cbf"], &[("MBS", vec![Some(10.0), Some(20.0)])]),
        vec![vec![Some((-5.0, 30.0)), Some((15.0, 45.0))]],
    );
    let mut log = with_intervals(
        bars(&["easy", "fcfs"], &[("MBS", vec![Some(2.0), Some(300.0)])]),
        vec![vec![Some((0.05, 8.0)), Some((-40.0, 900.0))]],
    );
    if let ChartSpec::Bars(b) = &mut log {
        b.log_y = true;
    }
    for (name, spec) in [("linear", &linear), ("log", &log)] {
        for (w, h) in [(400, 300), (1200, 750)] {
            let svg = to_svg(spec, w, h);
            let plot = plots(&svg)[0];
            assert_within(&vertical_segments(&svg, "#000000"), plot, &format!("{name} at {w}×{h}"));
        }
    }
    // The linear axis reaches −5: its zero lies above the plot's bottom by
    // a twelfth of the height at least (5 of the 55 from −5 to 45 and its
    // headroom).
    let svg = to_svg(&linear, 1200, 750);
    let (plot, zero) = (plots(&svg)[0], text_y(&svg, "0").expect("a zero tick"));
    assert!(plot.3 - zero >= (plot.3 - plot.1) / 12.0, "zero at {zero} in {plot:?}");
    // The log axis reaches 0.05: its bottom is 0.01.
    assert!(texts(&to_svg(&log, 1200, 750)).iter().any(|x| x == "0.01"));
    // Sweeps: intervals 10 % either side of each point, the largest and the
    // smallest point's included; on a log axis too.
    for (lx, ly) in [(false, false), (true, true)] {
        let spec =
            sweep(lx, ly, &[("easy", vec![(1.0, 100.0), (10.0, 1000.0)]), ("cbf", vec![(1.0, 1.0), (10.0, 5.0)])]);
        let svg = to_svg(&spec, 1200, 750);
        let plot = plots(&svg)[0];
        let whiskers: Vec<(f64, f64, f64)> =
            ["#0072B2", "#E69F00"].iter().flat_map(|c| vertical_segments(&svg, c)).collect();
        assert_within(&whiskers, plot, &format!("sweep log_y={ly}"));
    }
}

/// A sweep chart drawn with a log value axis keeps it: powers of ten as
/// ticks, and values a hundredfold apart a fixed height apart per decade.
#[test]
fn a_sweeps_value_axis_stays_log() {
    let spec =
        sweep(false, true, &[("fcfs", vec![(0.0, 2000.0), (40.0, 2000.0)]), ("easy", vec![(0.0, 20.0), (40.0, 2.0)])]);
    let t = texts(&to_svg(&spec, 1200, 750));
    for tick in ["10", "100", "1000"] {
        assert!(t.iter().any(|x| x == tick), "{tick} in {t:?}");
    }
    assert!(!t.iter().any(|x| x == "500" || x == "1500"), "no linear ticks: {t:?}");
}

/// Each strip of the schedule chart has two or three ticks, each with its
/// unit. Hand-computed for the PV-EASY window [0, 700) (see `view`): one
/// job waits at a time: job 2 from 1 to 100 (10 processors × 50 s = 500
/// processor-seconds queued), then job 3, preempted, from 100 to 150
/// (2 × 500 s = 1000 processor-seconds), which by then has waited 148 s
/// since its submission at 2. A strip's step is the round value at least
/// half its largest: waiting jobs step by 1 job (top 2 jobs), queued work
/// by 500 proc·s (top 1000), the first job's wait by 2 min (top 4 min, the
/// first round duration ≥ 74 s), utilisation by 50 %.
#[test]
fn each_strip_has_two_or_three_ticks_in_units() {
    let c = schedule::chart(0, 700, 1000, "PV-EASY");
    let want: [(&str, [&str; 3]); 4] = [
        ("utilisation", ["0 %", "50 %", "100 %"]),
        ("waiting jobs", ["0 jobs", "1 job", "2 jobs"]),
        ("queued work", ["0 proc·s", "500 proc·s", "1000 proc·s"]),
        ("first job's wait", ["0 s", "2 min", "4 min"]),
    ];
    for (w, h) in [(1600, 900), (2400, 1800)] {
        let t = texts(&to_svg(&ChartSpec::Schedule(c.clone()), w, h));
        for (name, ticks) in want {
            assert!(t.iter().any(|x| x == name), "{name} at {w}×{h}");
            let shown = ticks.iter().filter(|tick| t.iter().any(|x| x == *tick)).count();
            assert!(shown >= 2, "{name} at {w}×{h}: {shown} of {ticks:?} in {t:?}");
            // The bottom and the top are always there.
            assert!(t.iter().any(|x| x == ticks[0]) && t.iter().any(|x| x == ticks[2]), "{name}: {t:?}");
        }
    }
    // A tall chart has room for the middle ticks.
    let t = texts(&to_svg(&ChartSpec::Schedule(c), 2400, 1800));
    assert!(t.iter().any(|x| x == "1 job") && t.iter().any(|x| x == "2 min"), "{t:?}");
}

/// The schedule chart's strip names are never crossed by their series: each
/// name lies above its strip's plot, outside it.
#[test]
fn strip_names_lie_outside_their_plots() {
    let c = schedule::chart(0, 700, 1000, "PV-EASY");
    let svg = to_svg(&ChartSpec::Schedule(c), 1600, 900);
    let panels = plots(&svg);
    assert_eq!(panels.len(), 5, "the Gantt and four strips: {panels:?}");
    for name in ["utilisation", "waiting jobs", "queued work", "first job's wait"] {
        let y = text_y(&svg, name).unwrap_or_else(|| panic!("{name}"));
        for p in &panels {
            assert!(!(y > p.1 + 1.0 && y < p.3 - 1.0), "{name} at y {y} inside the plot {p:?}");
        }
    }
    // Under half: the title keeps its whole em height and the time axis's
    // labels sit under ticks a quarter of their font long, clear of the
    // strips' lowest labels.
    let share = plot_share(&svg, 1600, 900);
    assert!(share >= 0.48, "the Gantt and strips take {:.0} %", share * 100.0);
    // The panels share one time axis: their plots line up on both sides.
    let (left, right) = (panels[0].0, panels[0].2);
    assert!(panels.iter().all(|p| (p.0 - left).abs() <= 1.0 && (p.2 - right).abs() <= 1.0), "{panels:?}");
}

/// Ticks too close for their labels are thinned evenly: every second one
/// (0, 200, 400), not the first that fits after each kept one (0, 100,
/// 300, 400). At 0.25 px per unit, 100 apart is 25 px, less than two
/// three-digit labels at size 10 need (18 px, half of each, plus 10 px).
#[test]
fn thinned_ticks_stay_evenly_spaced() {
    let label = |v: f64| format!("{v}");
    let ticks = [0.0, 100.0, 200.0, 300.0, 400.0];
    assert_eq!(crate::frame::spaced_ticks(&ticks, &label, 10.0, 0.25), [0.0, 200.0, 400.0]);
    assert_eq!(crate::frame::spaced_ticks(&ticks, &label, 10.0, 1.0), ticks);
    assert_eq!(crate::frame::spaced_ticks(&[], &label, 10.0, 1.0), Vec::<f64>::new());
}
