//! Writes the TypeScript declarations of every type that crosses the
//! boundary, from the Rust types (ts-rs), to `www/src/generated/types.ts`,
//! which the page imports and the wasm-bindgen `.d.ts` includes. The test
//! fails when the file is out of date; `SCHEDLAB_BLESS=1` rewrites it
//! (`scripts/test.sh` checks that regenerating gives no diff).

use ts_rs::TS;

use schedlab_charts as charts;
use schedlab_engine::params;
use schedlab_experiment as experiment;
use schedlab_metrics as metrics;
use schedlab_schedule as schedule;
use schedlab_workload as workload;

use crate::{experiments, page, protocol, schedules};

const HEADER: &str = "// Generated from the Rust types by crates/schedlab-wasm/src/types.rs (ts-rs):\n\
// do not edit. `SCHEDLAB_BLESS=1 cargo test -p schedlab-wasm --lib types` rewrites it.\n\
/* eslint-disable */\n\n\
/** The shape of `T` with every number a 95 % half-width, or `null` (one repetition). */\n\
export type Intervals<T> = T extends number\n  ? number | null\n  : T extends Array<infer U>\n    ? Array<Intervals<U>>\n    : T extends object\n      ? { [K in keyof T]: Intervals<T[K]> }\n      : T;\n\n\
/** A summary's `ci95`: the metrics document's shape, half-widths for numbers. */\n\
export type MetricsIntervals = Intervals<Metrics>;\n";

fn declarations() -> String {
    let decls = [
        protocol::Registry::decl(),
        schedlab_policies::PolicyInfo::decl(),
        schedlab_policies::ParamCondition::decl(),
        params::ParamSpec::decl(),
        params::ParamKind::decl(),
        params::ParamValue::decl(),
        schedlab_engine::SourceInfo::decl(),
        metrics::Column::decl(),
        workload::CleaningRule::decl(),
        workload::Effect::decl(),
        protocol::Summary::decl(),
        protocol::BadLineInfo::decl(),
        workload::Header::decl(),
        workload::TraceClock::decl(),
        experiment::TraceIdentity::decl(),
        workload::ReadOptions::decl(),
        workload::Oversize::decl(),
        workload::Window::decl(),
        workload::TraceStats::decl(),
        workload::Simulated::decl(),
        workload::Figures::decl(),
        protocol::RunMessage::decl(),
        protocol::ParamText::decl(),
        protocol::ProgressMessage::decl(),
        experiment::PlanGrowth::decl(),
        protocol::GenerateMessage::decl(),
        experiment::RunDocument::decl(),
        schedlab_policies::Calibration::decl(),
        metrics::Metrics::decl(),
        metrics::BlockedGroup::decl(),
        metrics::Category::decl(),
        metrics::Fairness::decl(),
        metrics::FairnessAll::decl(),
        metrics::PredictionMetrics::decl(),
        metrics::PreemptionMetrics::decl(),
        metrics::ReservationViolations::decl(),
        metrics::DeadlineMetrics::decl(),
        metrics::PriorityMetrics::decl(),
        metrics::FairSlowdownTable::decl(),
        metrics::FairSlowdownRow::decl(),
        experiment::Phase::decl(),
        experiment::Experiment::decl(),
        experiment::RunSpec::decl(),
        experiment::Sweep::decl(),
        experiment::SweepValues::decl(),
        experiment::WorkloadOptions::decl(),
        experiment::MetricSettings::decl(),
        experiment::Shard::decl(),
        experiment::Point::decl(),
        experiment::PointResult::decl(),
        experiment::SummaryRow::decl(),
        experiment::ExperimentResult::decl(),
        experiments::PlanView::decl(),
        experiments::PlanCell::decl(),
        page::Demo::decl(),
        page::NamedLine::decl(),
        page::FormulaPreset::decl(),
        page::FormulaField::decl(),
        page::FormulaLanguage::decl(),
        page::FormulaCheck::decl(),
        experiment::SummaryTable::decl(),
        experiment::TableRow::decl(),
        experiment::TableCell::decl(),
        experiment::Scope::decl(),
        experiment::RunScope::decl(),
        experiment::ParamState::decl(),
        experiment::ValueFrom::decl(),
        experiment::SharedScope::decl(),
        experiment::Ignored::decl(),
        experiment::Preset::decl(),
        experiment::Section::decl(),
        experiment::PresetFigure::decl(),
        experiment::link::Link::decl(),
        experiment::link::TraceRef::decl(),
        experiment::link::ViewLink::decl(),
        charts::Figure::decl(),
        charts::ChartSpec::decl(),
        charts::BarChart::decl(),
        charts::BarSeries::decl(),
        charts::EcdfChart::decl(),
        charts::EcdfCurve::decl(),
        charts::SweepChart::decl(),
        charts::SweepLine::decl(),
        charts::SweepPoint::decl(),
        charts::ScheduleChart::decl(),
        charts::GanttBox::decl(),
        charts::BoxKind::decl(),
        charts::LegendEntry::decl(),
        charts::SeriesStrip::decl(),
        charts::StripUnit::decl(),
        schedules::ScheduleInfo::decl(),
        schedule::WindowJobs::decl(),
        schedule::JobRect::decl(),
        schedule::Band::decl(),
        schedule::JobClass::decl(),
        schedule::JobRef::decl(),
        schedule::Grid::decl(),
        schedule::SeriesData::decl(),
        schedule::JobDetails::decl(),
        schedule::ReservationHeld::decl(),
        schedule::Preempted::decl(),
        schedule::Culprits::decl(),
        schedule::ReplayState::decl(),
        schedule::QueuedJob::decl(),
        schedule::HeadReservation::decl(),
        schedule::Measure::decl(),
        schedule::Scatter::decl(),
        schedule::ScatterRect::decl(),
        schedule::Selection::decl(),
    ];
    let mut out = HEADER.to_owned();
    for d in decls {
        out.push('\n');
        out.push_str("export ");
        // ts-rs declares 64-bit integers as `bigint`; they cross the
        // boundary as JSON numbers (serde-wasm-bindgen's JSON-compatible
        // serialiser), and the binding refuses seeds and point numbers past
        // 2^53 where exactness matters.
        out.push_str(&d.trim().replace("bigint", "number"));
        out.push('\n');
    }
    out
}

#[test]
fn generated_types_are_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/src/generated/types.ts");
    let want = declarations();
    if std::env::var_os("SCHEDLAB_BLESS").is_some() {
        std::fs::write(path, &want).unwrap();
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "www/src/generated/types.ts is out of date: SCHEDLAB_BLESS=1 cargo test -p schedlab-wasm --lib types"
    );
}
