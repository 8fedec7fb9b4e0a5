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
    })
}

fn ecdf(curves: &[(&str, Vec<(f64, f64)>)]) -> ChartSpec {
    ChartSpec::Ecdf(EcdfChart {
        title: "Waits".into(),
        x_label: "wait".into(),
        y_label: "jobs".into(),
        curves: curves.iter().map(|(n, p)| EcdfCurve { name: n.to_string(), points: p.clone() }).collect(),
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
    })
}

/// Text content of every `<text>` element (its line after the opening tag).
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| t.split_once(">\n").map(|(_, rest)| rest.lines().next().unwrap_or("").to_owned()))
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
        if rest.lines().next()? != word {
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
    for word in ["easy", "fcfs", "1 s", "1 h", "1 d", "100 %", "0 %"] {
        assert!(t.iter().any(|x| x == word), "{word} not in {t:?}");
    }
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
    assert_eq!(short_number(2e9), "2.0e9");
    assert_eq!(duration_label(3600.0), "1 h");
    assert_eq!(duration_label(600.0), "10 min");
}
