//! Charts for any names on any screen: every chart kind over names of 1 to
//! 120 characters, 1 to 24 runs and widths of 320 to 3840 pixels, drawn at
//! the height the core gives for the width ([`chart_height`]), its marks
//! read back ([`marks`]). A layout fails when a text leaves the canvas,
//! two texts overlap, a name is cut, a bar is thinner than
//! [`THINNEST`] pixels or the plot is squeezed to a strip.

use super::*;

/// Characters of the run names tried: one letter, a policy, a title with
/// its knobs, composable-backfilling titles with their formulas, and past
/// anything a title gets.
const LENGTHS: [usize; 6] = [1, 8, 24, 40, 68, 120];
const RUN_COUNTS: [usize; 6] = [1, 2, 3, 6, 12, 24];
const WIDTHS: [u32; 7] = [320, 390, 600, 800, 1200, 1920, 3840];

/// The thinnest bar a reader sees as a bar, pixels.
const THINNEST: f64 = 3.0;

/// A run name of `len` characters, made of the words composable
/// backfilling's titles use, distinct per run (its number first).
fn name(run: usize, len: usize) -> String {
    let words = "Composable backfilling, depth 2, order -(wait / requested)^3 * procs, virtual (error 40 %) @ tsafrir";
    let head = format!("{} ", run + 1);
    let tail: String = words.chars().cycle().take(len.saturating_sub(head.len())).collect();
    let text: String = (head + &tail).chars().take(len).collect();
    text.trim_end().to_owned()
}

fn names(runs: usize, len: usize) -> Vec<String> {
    (0..runs).map(|r| name(r, len)).collect()
}

const SUBTITLE: &str = "KTH-SP2-1996-2.1-cln.swf: 28,489 jobs on 100 processors, load ×1.2";

/// The four figures of a form's experiment, with these runs: MBS and MWBS
/// per run, blocked-job MBS by size (one size class empty), the wait
/// ECDFs and a sweep.
fn specs(runs: &[String]) -> Vec<(&'static str, ChartSpec)> {
    let per_run =
        |k: usize| -> Vec<Option<f64>> { (0..runs.len()).map(|r| Some(10.0 + ((r * 7 + k) % 30) as f64)).collect() };
    let mbs = ChartSpec::Bars(BarChart {
        title: "MBS and MWBS per run".into(),
        subtitle: SUBTITLE.into(),
        y_label: "bounded slowdown".into(),
        groups: runs.to_vec(),
        series: ["MBS", "MWBS"]
            .iter()
            .enumerate()
            .map(|(k, s)| BarSeries { name: s.to_string(), values: per_run(k), intervals: None })
            .collect(),
        ..BarChart::default()
    });
    let sizes = ["1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", "65-100"];
    let blocked = ChartSpec::Bars(BarChart {
        title: "MBS of blocked jobs by job size".into(),
        subtitle: SUBTITLE.into(),
        x_label: "job size (processors)".into(),
        y_label: "MBS of blocked jobs".into(),
        groups: sizes.iter().map(|s| s.to_string()).collect(),
        series: runs
            .iter()
            .enumerate()
            .map(|(r, n)| BarSeries {
                name: n.clone(),
                values: (0..8).map(|g| (g != 7).then_some(10.0 + ((r + g) % 5) as f64 * 5.0)).collect(),
                intervals: None,
            })
            .collect(),
        empty: "no blocked jobs".into(),
        ..BarChart::default()
    });
    let ecdf = ChartSpec::Ecdf(EcdfChart {
        title: "Wait-time distribution (ECDF, log time axis)".into(),
        subtitle: SUBTITLE.into(),
        x_label: "wait".into(),
        y_label: "fraction of jobs".into(),
        curves: runs
            .iter()
            .map(|n| EcdfCurve { name: n.clone(), points: vec![(1.0, 0.3), (3600.0, 0.8), (86_400.0, 1.0)] })
            .collect(),
    });
    let sweep = ChartSpec::Sweep(SweepChart {
        title: "MBS vs depth".into(),
        subtitle: SUBTITLE.into(),
        x_label: "depth".into(),
        y_label: "MBS".into(),
        lines: runs
            .iter()
            .map(|n| SweepLine {
                name: n.clone(),
                points: [0.0, 1.0, 2.0, 4.0, 8.0]
                    .iter()
                    .map(|&x| SweepPoint { x, y: 20.0 - x, low: None, high: None })
                    .collect(),
            })
            .collect(),
        ..SweepChart::default()
    });
    vec![("mbs", mbs), ("blocked", blocked), ("ecdf", ecdf), ("sweep", sweep)]
}

/// What is wrong with the marks of a chart `w` × `h` showing `runs`, if
/// anything.
fn faults(marks: &[Mark], w: u32, h: u32, runs: &[String], bars: bool) -> Vec<String> {
    let mut out = Vec::new();
    let texts: Vec<(&String, &Extent)> = marks
        .iter()
        .filter_map(|m| match m {
            Mark::Text { text, extent, .. } => Some((text, extent)),
            Mark::Rect { .. } => None,
        })
        .collect();
    for (text, e) in &texts {
        if !e.inside(w, h) {
            out.push(format!("`{text}` at {e:?} leaves the canvas"));
        }
        if text.contains('…') {
            out.push(format!("`{text}` is cut"));
        }
    }
    for (i, (a, ea)) in texts.iter().enumerate() {
        for (b, eb) in &texts[i + 1..] {
            if ea.overlaps(eb) {
                out.push(format!("`{a}` {ea:?} overlaps `{b}` {eb:?}"));
            }
        }
    }
    // Every name is drawn whole, wrapped at most.
    let all: String = texts.iter().map(|t| t.0.as_str()).collect::<String>().replace(' ', "");
    for run in runs {
        if !all.contains(&run.replace(' ', "")) {
            out.push(format!("`{run}` is not drawn whole"));
        }
    }
    if bars {
        let palette: Vec<(u8, u8, u8)> = PALETTE.to_vec();
        let rects: Vec<&Extent> = marks
            .iter()
            .filter_map(|m| match m {
                Mark::Rect { colour, extent } if palette.contains(colour) => Some(extent),
                _ => None,
            })
            .collect();
        for e in &rects {
            if e.width().min(e.height()) < THINNEST {
                out.push(format!("a bar {e:?} is thinner than {THINNEST} px"));
            }
        }
        // The longest bar (value 39 or 45 of an axis from 0) spans a good
        // part of the plot: a plot squeezed to a strip fails here.
        let longest = rects.iter().map(|e| e.width().max(e.height())).fold(0.0, f64::max);
        let want = 0.15 * f64::from(w.min(h));
        if longest < want {
            out.push(format!("the longest bar is {longest} px, under {want}"));
        }
    }
    out
}

#[test]
fn every_chart_lays_out_any_names_on_any_width() {
    let mut failures = Vec::new();
    for len in LENGTHS {
        for runs in RUN_COUNTS {
            let names = names(runs, len);
            for (kind, spec) in specs(&names) {
                for w in WIDTHS {
                    let h = chart_height(&spec, w);
                    let marks = marks(&spec, w, h).expect("drawn");
                    let bars = matches!(spec, ChartSpec::Bars(_));
                    for f in faults(&marks, w, h, &names, bars) {
                        failures.push(format!("{kind}, {runs} runs of {len} chars, {w}×{h}: {f}"));
                    }
                }
            }
        }
    }
    // A few of each kind of fault, for a reader to see them all at once.
    let mut shown: Vec<&String> = Vec::new();
    for f in &failures {
        let class = |f: &str| {
            f.split(": ").next().unwrap_or("").split(',').next().unwrap_or("").to_owned()
                + &f.rsplit(' ').take(2).collect::<String>()
        };
        if shown.iter().filter(|s| class(s) == class(f)).count() < 2 {
            shown.push(f);
        }
    }
    assert!(failures.is_empty(), "{} faults, of which: {shown:#?}", failures.len());
}

/// The checks can fail: the chart of six long names drawn at a fixed
/// 1200 × 150 (too short for them) overlaps or squeezes.
#[test]
fn the_layout_check_catches_a_squeezed_chart() {
    let names = names(6, 68);
    let (_, spec) = specs(&names).remove(0);
    let marks = marks(&spec, 1200, 150).expect("drawn");
    assert!(!faults(&marks, 1200, 150, &names, true).is_empty());
}

/// A chart whose names fit keeps its default height; many long names
/// make it taller, never shorter.
#[test]
fn a_chart_grows_only_for_its_names() {
    let (_, short) = specs(&names(3, 8)).remove(0);
    assert_eq!(chart_height(&short, 1200), default_height(1200));
    assert_eq!(default_height(1200), 750);
    assert_eq!(default_height(390), 351);
    let (_, long) = specs(&names(24, 120)).remove(0);
    assert!(chart_height(&long, 390) > 2000, "{}", chart_height(&long, 390));
}
