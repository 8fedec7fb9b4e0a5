//! Repeated runs with consecutive seeds, summarised metric by metric.
//!
//! Every numeric field of the metrics (at any depth: categories, blocked
//! groups, fairness, reservation violations…) is summarised by its mean and
//! the half-width of its 95 % confidence interval, t(0.975, n−1) · s / √n
//! with s the sample standard deviation and t the exact Student-t quantile
//! ([`t975`]). One run has no interval: its half-widths are `null`. The
//! summary keeps the shape of the metrics document, so new metrics are
//! summarised without code here.
//!
//! The quantile uses the `libm` crate's functions rather than the
//! platform's, so the command line and the WebAssembly page print the same
//! bytes.

use serde::Serialize;

use crate::MetricsDocument;

/// Mean and 95 % interval half-width of every metric over repeated runs.
#[derive(Clone, Debug, Serialize)]
pub struct RepeatSummary {
    pub repeat: usize,
    pub seeds: Vec<u64>,
    /// The metrics document with each number replaced by its mean.
    pub mean: MetricsDocument,
    /// The same shape, each number the half-width of its 95 % interval;
    /// `null` for a single run.
    pub ci95: MetricsDocument,
}

/// Summarises the metrics documents of repeated runs (all of one shape).
pub fn summarise(seeds: Vec<u64>, metrics: &[&MetricsDocument]) -> RepeatSummary {
    let mut overflow = None;
    let mean = MetricsDocument::combine(metrics, &mean_of, &mut overflow);
    let t = t_for(metrics);
    let ci95 = MetricsDocument::combine(metrics, &|xs: &[f64]| half_width(xs, t), &mut overflow);
    RepeatSummary { repeat: metrics.len(), seeds, mean, ci95 }
}

/// The first metric (a path such as `categories[0].mbs`) whose mean or 95 %
/// interval over `metrics` lies beyond the largest float, which the summary
/// could only print as `null`: values near 1.8e308 that no run gives but a
/// shard file may hold.
pub fn overflowing_metric(metrics: &[&MetricsDocument]) -> Option<String> {
    let mut overflow = None;
    MetricsDocument::combine(metrics, &mean_of, &mut overflow);
    if overflow.is_none() {
        let t = t_for(metrics);
        MetricsDocument::combine(metrics, &|xs: &[f64]| half_width(xs, t), &mut overflow);
    }
    overflow
}

/// The Student-t quantile for the runs' count (NaN, no interval, for one).
fn t_for(metrics: &[&MetricsDocument]) -> f64 {
    if metrics.len() >= 2 {
        t975(metrics.len() - 1)
    } else {
        f64::NAN
    }
}

/// The mean; values whose sum passes the largest float are divided first
/// (only then, so that every other mean keeps its bits).
fn mean_of(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if mean.is_infinite() {
        xs.iter().map(|x| x / n).sum()
    } else {
        mean
    }
}

/// t · s / √n; NaN (no interval) for fewer than two values. Identical
/// values have no spread at all (their float sum may leave a residue).
/// Squares of deviations past the largest float are taken scaled by the
/// largest deviation (only then, as in [`mean_of`]).
fn half_width(xs: &[f64], t: f64) -> f64 {
    let n = xs.len();
    if n < 2 {
        return f64::NAN;
    }
    if xs.iter().all(|&x| x == xs[0]) {
        return 0.0;
    }
    let m = mean_of(xs);
    let spread = |scale: f64| {
        let var = xs.iter().map(|x| ((x - m) / scale) * ((x - m) / scale)).sum::<f64>() / (n - 1) as f64;
        t * scale * (var / n as f64).sqrt()
    };
    let width = spread(1.0);
    if width.is_infinite() {
        spread(xs.iter().map(|x| (x - m).abs()).fold(0.0, f64::max))
    } else {
        width
    }
}

/// The exact Student-t quantile t(0.975, df): the t with
/// P(T ≤ t) = 0.975 for `df` degrees of freedom (df ≥ 1), found by
/// bisection on the regularised incomplete beta function,
/// P(|T| > t) = I_{df/(df+t²)}(df/2, 1/2).
pub fn t975(df: usize) -> f64 {
    t_quantile_two_sided(df.max(1) as f64, 0.05)
}

/// The t with P(|T| > t) = `alpha`.
fn t_quantile_two_sided(df: f64, alpha: f64) -> f64 {
    // I_x(df/2, 1/2) grows with x from 0 to 1: bisect x until the interval
    // cannot shrink any more, which gives the same bits on every platform.
    let (a, b) = (df / 2.0, 0.5);
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..2000 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if incomplete_beta(mid, a, b) < alpha {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    libm::sqrt(df * (1.0 - x) / x)
}

/// The regularised incomplete beta function I_x(a, b) (continued fraction,
/// modified Lentz; Press et al., Numerical Recipes §6.4).
fn incomplete_beta(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = libm::lgamma(a + b) - libm::lgamma(a) - libm::lgamma(b) + a * libm::log(x) + b * libm::log(1.0 - x);
    let front = libm::exp(ln_front);
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(x, a, b) / a
    } else {
        1.0 - front * beta_fraction(1.0 - x, b, a) / b
    }
}

fn beta_fraction(x: f64, a: f64, b: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..100_000 {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        d = if d.abs() < TINY { TINY } else { d };
        c = 1.0 + aa / c;
        c = if c.abs() < TINY { TINY } else { c };
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        d = if d.abs() < TINY { TINY } else { d };
        c = 1.0 + aa / c;
        c = if c.abs() < TINY { TINY } else { c };
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MetricValue;
    use schedlab_metrics::{CategoryField, Metric, MetricKey};

    fn doc(text: &str) -> MetricsDocument {
        serde_json::from_str(text).unwrap()
    }

    fn summary(docs: &[MetricsDocument]) -> RepeatSummary {
        summarise((0..docs.len() as u64).collect(), &docs.iter().collect::<Vec<_>>())
    }

    fn overflow(docs: &[MetricsDocument]) -> Option<String> {
        overflowing_metric(&docs.iter().collect::<Vec<_>>())
    }

    const MBS: MetricKey = MetricKey::Fixed(Metric::Mbs);
    const MWBS: MetricKey = MetricKey::Fixed(Metric::Mwbs);

    /// Values 1, 2, 3, 4, 5: mean 3, s² = 2.5, half-width
    /// t(0.975, 4) · √(2.5 / 5) with t(0.975, 4) = 2.776445 (tables).
    #[test]
    fn interval_of_a_known_sample() {
        let docs: Vec<MetricsDocument> = (1..=5)
            .map(|x| doc(&format!(r#"{{"mbs": {x}.0, "categories": [{{"name": "SN", "jobs": {x}}}]}}"#)))
            .collect();
        let s = summary(&docs);
        // The label is kept; every number is replaced by its mean.
        assert_eq!(s.mean, doc(r#"{"mbs": 3.0, "categories": [{"name": "SN", "jobs": 3.0}]}"#));
        let hw = s.ci95.value(MBS).number().unwrap();
        assert!((hw - 2.776445 * (0.5f64).sqrt()).abs() < 1e-6, "{hw}");
        assert_eq!(s.ci95.value(MetricKey::Category(0, CategoryField::Jobs)), MetricValue::Number(hw));
    }

    /// Two values of 1.7e308 sum past the largest float (1.798e308) but
    /// have a mean; 1e307 and 0 have deviations whose squares pass it but an
    /// interval t(0.975, 1) · s / √2 = 12.706 · 5e306 within it; 1.7e308
    /// and 0 have an interval of 12.706 · 0.85e308, beyond it.
    #[test]
    fn a_mean_or_an_interval_beyond_the_largest_float_names_its_metric() {
        let docs = vec![doc(r#"{"mbs": 1.0, "categories": [{"name": "SN", "mbs": 1.7e308}]}"#); 2];
        let s = summary(&docs);
        let sn = MetricKey::Category(0, CategoryField::Mbs);
        assert_eq!((s.mean.value(sn), s.ci95.value(sn)), (MetricValue::Number(1.7e308), MetricValue::Number(0.0)));
        assert_eq!(overflow(&docs), None);
        let docs = vec![doc(r#"{"mbs": 1e307}"#), doc(r#"{"mbs": 0.0}"#)];
        let width = summary(&docs).ci95.value(MBS).number().unwrap();
        assert!((width / (12.706_204 * 5e306) - 1.0).abs() < 1e-6, "{width}");
        assert_eq!(overflow(&docs), None);
        let docs = vec![doc(r#"{"mwbs": 1.0, "mbs": 1.7e308}"#), doc(r#"{"mwbs": 2.0, "mbs": 0.0}"#)];
        assert_eq!(summary(&docs).mean.value(MBS), MetricValue::Number(0.85e308));
        assert_eq!(overflow(&docs).as_deref(), Some("mbs"));
    }

    #[test]
    fn a_constant_metric_has_no_spread_and_one_run_has_no_interval() {
        let docs = vec![doc(&format!(r#"{{"mwbs": {:?}}}"#, 0.1 + 0.2)); 4];
        assert_eq!(summary(&docs).ci95.value(MWBS), MetricValue::Number(0.0));
        let one = summary(&docs[..1]);
        assert_eq!(one.ci95.value(MWBS), MetricValue::Undefined);
        assert_eq!(one.mean.value(MWBS), MetricValue::Number(0.1 + 0.2));
    }

    /// A mean over no jobs (`null` in every run) stays undefined.
    #[test]
    fn an_undefined_metric_stays_undefined() {
        let docs = vec![doc(r#"{"deadline": {"regular_mean_wait": null}}"#); 3];
        let key = MetricKey::Fixed(Metric::DeadlineRegularMeanWait);
        let s = summary(&docs);
        assert_eq!((s.mean.value(key), s.ci95.value(key)), (MetricValue::Undefined, MetricValue::Undefined));
    }

    /// Published two-sided 95 % values (e.g. NIST/SEMATECH e-Handbook,
    /// table 1.4.7.2), three decimals.
    #[test]
    fn quantiles_match_the_printed_tables() {
        let table: &[(usize, f64)] = &[
            (1, 12.706),
            (2, 4.303),
            (3, 3.182),
            (4, 2.776),
            (5, 2.571),
            (6, 2.447),
            (7, 2.365),
            (8, 2.306),
            (9, 2.262),
            (10, 2.228),
            (15, 2.131),
            (20, 2.086),
            (25, 2.060),
            (30, 2.042),
            (40, 2.021),
            (50, 2.009),
            (60, 2.000),
            (80, 1.990),
            (100, 1.984),
        ];
        for &(df, t) in table {
            assert!((t975(df) - t).abs() < 5e-4, "df {df}: {} vs {t}", t975(df));
        }
        // Beyond the tables: the normal quantile from above.
        assert!((t975(10_000) - 1.960201).abs() < 1e-5, "{}", t975(10_000));
        assert!(t975(10_000) > 1.959963984540054);
        let mut last = f64::INFINITY;
        for df in 1..300 {
            assert!(t975(df) < last, "decreasing at {df}");
            last = t975(df);
        }
    }

    /// df = 1 and 2 have closed forms: tan(0.475 π) and 0.95 / √(2·0.975·0.025).
    #[test]
    fn quantiles_match_the_closed_forms() {
        let one = (0.475 * std::f64::consts::PI).tan();
        let two = 0.95 / (2.0f64 * 0.975 * 0.025).sqrt();
        assert!((t975(1) - one).abs() < 1e-9 * one, "{} vs {one}", t975(1));
        assert!((t975(2) - two).abs() < 1e-9 * two, "{} vs {two}", t975(2));
    }
}
