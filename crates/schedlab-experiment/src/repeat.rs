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
use serde_json::{Map, Value};

/// Mean and 95 % interval half-width of every metric over repeated runs.
#[derive(Clone, Debug, Serialize)]
pub struct RepeatSummary {
    pub repeat: usize,
    pub seeds: Vec<u64>,
    /// The metrics document with each number replaced by its mean.
    pub mean: Value,
    /// The same shape, each number the half-width of its 95 % interval;
    /// `null` for a single run.
    pub ci95: Value,
}

/// Summarises the metrics documents of repeated runs (all of one shape).
pub fn summarise(seeds: Vec<u64>, metrics: &[Value]) -> RepeatSummary {
    let mut overflow = None;
    let mean = combine(metrics, &mean_of, "", &mut overflow);
    let t = t_for(metrics);
    let ci95 = combine(metrics, &|xs: &[f64]| half_width(xs, t), "", &mut overflow);
    RepeatSummary { repeat: metrics.len(), seeds, mean, ci95 }
}

/// The first metric (a path such as `categories[0].mbs`) whose mean or 95 %
/// interval over `metrics` lies beyond the largest float, which the summary
/// could only print as `null`: values near 1.8e308 that no run gives but a
/// shard file may hold.
pub fn overflowing_metric(metrics: &[Value]) -> Option<String> {
    let mut overflow = None;
    combine(metrics, &mean_of, "", &mut overflow);
    if overflow.is_none() {
        let t = t_for(metrics);
        combine(metrics, &|xs: &[f64]| half_width(xs, t), "", &mut overflow);
    }
    overflow
}

/// The Student-t quantile for the runs' count (NaN, no interval, for one).
fn t_for(metrics: &[Value]) -> f64 {
    if metrics.len() >= 2 {
        t975(metrics.len() - 1)
    } else {
        f64::NAN
    }
}

/// Walks the documents in step and applies `f` to each numeric leaf's
/// values; a leaf whose value `f` cannot give (NaN) becomes `null`, and the
/// path of the first leaf whose value is infinite goes to `overflow`.
fn combine(docs: &[Value], f: &dyn Fn(&[f64]) -> f64, path: &str, overflow: &mut Option<String>) -> Value {
    match docs.first() {
        Some(Value::Number(_)) => {
            let xs: Vec<f64> = docs.iter().filter_map(Value::as_f64).collect();
            let y = f(&xs);
            if y.is_infinite() && overflow.is_none() {
                *overflow = Some(path.to_owned());
            }
            serde_json::Number::from_f64(y).map_or(Value::Null, Value::Number)
        }
        Some(Value::Object(first)) => {
            let mut out = Map::new();
            for key in first.keys() {
                let column: Vec<Value> = docs.iter().map(|d| d.get(key).cloned().unwrap_or(Value::Null)).collect();
                let inner = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
                out.insert(key.clone(), combine(&column, f, &inner, overflow));
            }
            Value::Object(out)
        }
        Some(Value::Array(first)) => {
            let rows = (0..first.len())
                .map(|i| {
                    let column: Vec<Value> = docs.iter().map(|d| d.get(i).cloned().unwrap_or(Value::Null)).collect();
                    combine(&column, f, &format!("{path}[{i}]"), overflow)
                })
                .collect();
            Value::Array(rows)
        }
        // Labels (category names, group names) are the same in every run.
        Some(other) => other.clone(),
        None => Value::Null,
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
    use serde_json::json;

    /// Values 1, 2, 3, 4, 5: mean 3, s² = 2.5, half-width
    /// t(0.975, 4) · √(2.5 / 5) with t(0.975, 4) = 2.776445 (tables).
    #[test]
    fn interval_of_a_known_sample() {
        let docs: Vec<Value> =
            (1..=5).map(|x| json!({ "mbs": x as f64, "name": "SN", "groups": [{ "jobs": x }] })).collect();
        let s = summarise((0..5).collect(), &docs);
        assert_eq!(s.mean["mbs"], json!(3.0));
        assert_eq!(s.mean["name"], json!("SN"));
        let hw = s.ci95["mbs"].as_f64().unwrap();
        assert!((hw - 2.776445 * (0.5f64).sqrt()).abs() < 1e-6, "{hw}");
        assert_eq!(s.ci95["groups"][0]["jobs"], s.ci95["mbs"]);
    }

    /// Two values of 1.7e308 sum past the largest float (1.798e308) but
    /// have a mean; 1e307 and 0 have deviations whose squares pass it but an
    /// interval t(0.975, 1) · s / √2 = 12.706 · 5e306 within it; 1.7e308
    /// and 0 have an interval of 12.706 · 0.85e308, beyond it.
    #[test]
    fn a_mean_or_an_interval_beyond_the_largest_float_names_its_metric() {
        let docs = vec![json!({ "mbs": 1.0, "categories": [{ "name": "SN", "mbs": 1.7e308 }] }); 2];
        let s = summarise(vec![0, 1], &docs);
        assert_eq!((&s.mean["categories"][0]["mbs"], &s.ci95["categories"][0]["mbs"]), (&json!(1.7e308), &json!(0.0)));
        assert_eq!(overflowing_metric(&docs), None);
        let docs = vec![json!({ "mbs": 1e307 }), json!({ "mbs": 0.0 })];
        let width = summarise(vec![0, 1], &docs).ci95["mbs"].as_f64().unwrap();
        assert!((width / (12.706_204 * 5e306) - 1.0).abs() < 1e-6, "{width}");
        assert_eq!(overflowing_metric(&docs), None);
        let docs = vec![json!({ "x": 1.0, "mbs": 1.7e308 }), json!({ "x": 2.0, "mbs": 0.0 })];
        assert_eq!(summarise(vec![0, 1], &docs).mean["mbs"], json!(0.85e308));
        assert_eq!(overflowing_metric(&docs).as_deref(), Some("mbs"));
    }

    #[test]
    fn a_constant_metric_has_no_spread_and_one_run_has_no_interval() {
        let docs = vec![json!({ "x": 0.1 + 0.2 }); 4];
        assert_eq!(summarise(vec![0, 1, 2, 3], &docs).ci95["x"], json!(0.0));
        let one = summarise(vec![0], &docs[..1]);
        assert_eq!(one.ci95["x"], Value::Null);
        assert_eq!(one.mean["x"], json!(0.1 + 0.2));
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
