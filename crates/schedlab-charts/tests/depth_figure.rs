//! The reservation-depth preset's figure, drawn from a real run of its
//! section on the KTH sample: one curve per metric for `backfill` against
//! the depth, and EASY drawn flat across the depths.

use schedlab_charts::{preset_figures, to_svg, ChartSpec, WordTick};
use schedlab_engine::Control;
use schedlab_experiment::{preset, run_point, ExperimentResult, Plan, TraceDocument, WorkloadOptions};
use schedlab_workload::{read_swf, ReadOptions};

/// Depth 1 in FCFS order is EASY's schedule, so EASY's flat line meets the
/// depth curve at depth 1 in every chart. Depths 1 to 64 span 64 times, so
/// the axis is logarithmic, and depth `all` is drawn one doubling past 64,
/// at 128, its tick labelled "all"; EASY's line spans to it. Nothing is
/// asserted of how the curves go with the depth: a deeper plan need not
/// cost more.
#[test]
fn easy_meets_the_depth_curves_at_depth_one() {
    let p = preset("reservation-depth").expect("the preset exists");
    let plan = Plan::new(p.sections[0].experiment(&WorkloadOptions::default())).expect("a plan");
    let sample: &[u8] = include_bytes!("../../../samples/kth-sp2-first3000.swf");
    let trace = read_swf(sample, &ReadOptions::default()).expect("the sample reads").trace;
    let points = plan
        .points(None)
        .map(|point| run_point(&trace, &plan, &point, &mut |_, _| Control::Continue).expect("the point runs"))
        .collect();
    let result = ExperimentResult::new(&plan, TraceDocument::none(), None, points);
    let figures = preset_figures(p, 0, &result);
    assert_eq!(figures.len(), 3, "MBS, MWBS and plan changes");
    for figure in &figures {
        let ChartSpec::Sweep(chart) = &figure.spec else { panic!("{}: not a curve", figure.id) };
        let xs = |k: usize| chart.lines[k].points.iter().map(|p| p.x).collect::<Vec<f64>>();
        assert_eq!(chart.lines.len(), 2, "{}", figure.id);
        assert!(chart.log_x, "{}", figure.id);
        assert_eq!(chart.words, [WordTick { x: 128.0, word: "all".into() }], "{}", figure.id);
        assert_eq!(xs(0), [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0], "{}", figure.id);
        assert_eq!(xs(1), [1.0, 128.0], "{}: EASY spans the depths", figure.id);
        let depth_one = chart.lines[0].points[0].y;
        assert!(chart.lines[1].points.iter().all(|p| p.y == depth_one), "{}", figure.id);
        let svg = to_svg(&figure.spec, 1200, 750);
        assert!(svg.contains(">\nall\n</text>"), "{}: the tick of depth all is labelled", figure.id);
        let names: Vec<&str> = chart.lines.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["Composable backfilling", "EASY"], "{}: each line named by its own run's title", figure.id);
    }
}
