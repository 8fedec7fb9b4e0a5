//! Repeated runs with consecutive seeds, summarised metric by metric.
//!
//! Every numeric field of the metrics (at any depth: categories, blocked
//! groups, fairness, reservation violations…) is summarised by its mean and
//! the half-width of its 95 % confidence interval, mean ± t(0.975, n−1) ·
//! s / √n with s the sample standard deviation. The summary keeps the shape
//! of the metrics document, so new metrics are summarised without code here.

use serde::Serialize;
use serde_json::{Map, Value};

/// Mean and 95 % interval half-width of every metric over repeated runs.
#[derive(Clone, Debug, Serialize)]
pub struct RepeatSummary {
    pub repeat: usize,
    pub seeds: Vec<u64>,
    /// The metrics document with each number replaced by its mean.
    pub mean: Value,
    /// The same shape, each number the half-width of its 95 % interval
    /// (0 for a single run).
    pub ci95: Value,
}

/// Summarises the metrics documents of repeated runs (all of one shape).
pub fn summarise(seeds: Vec<u64>, metrics: &[Value]) -> RepeatSummary {
    let mean = combine(metrics, mean_of);
    let ci95 = combine(metrics, half_width);
    RepeatSummary { repeat: metrics.len(), seeds, mean, ci95 }
}

/// Walks the documents in step and applies `f` to each numeric leaf's values.
fn combine(docs: &[Value], f: fn(&[f64]) -> f64) -> Value {
    match docs.first() {
        Some(Value::Number(_)) => {
            let xs: Vec<f64> = docs.iter().filter_map(Value::as_f64).collect();
            serde_json::Number::from_f64(f(&xs)).map_or(Value::Null, Value::Number)
        }
        Some(Value::Object(first)) => {
            let mut out = Map::new();
            for key in first.keys() {
                let column: Vec<Value> = docs.iter().map(|d| d.get(key).cloned().unwrap_or(Value::Null)).collect();
                out.insert(key.clone(), combine(&column, f));
            }
            Value::Object(out)
        }
        Some(Value::Array(first)) => {
            let rows = (0..first.len())
                .map(|i| {
                    let column: Vec<Value> = docs.iter().map(|d| d.get(i).cloned().unwrap_or(Value::Null)).collect();
                    combine(&column, f)
                })
                .collect();
            Value::Array(rows)
        }
        // Labels (category names, group names) are the same in every run.
        Some(other) => other.clone(),
        None => Value::Null,
    }
}

fn mean_of(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// t(0.975, n−1) · s / √n; zero for fewer than two values.
fn half_width(xs: &[f64]) -> f64 {
    let n = xs.len();
    if n < 2 {
        return 0.0;
    }
    let m = mean_of(xs);
    let var = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1) as f64;
    t975(n - 1) * (var / n as f64).sqrt()
}

/// Student's t quantile at 0.975: exact table to 30 degrees of freedom,
/// then the Cornish–Fisher expansion around z = 1.959964 (error < 10⁻⁴).
pub fn t975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    if (1..=30).contains(&df) {
        return TABLE[df - 1];
    }
    let (z, d) = (1.959_964f64, df.max(1) as f64);
    z + (z.powi(3) + z) / (4.0 * d) + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * d * d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Values 1, 2, 3, 4, 5: mean 3, s² = 2.5, half-width
    /// t(0.975, 4) · √(2.5 / 5) = 2.776 · 0.70711 = 1.96293.
    #[test]
    fn interval_of_a_known_sample() {
        let docs: Vec<Value> =
            (1..=5).map(|x| json!({ "mbs": x as f64, "name": "SN", "groups": [{ "jobs": x }] })).collect();
        let s = summarise((0..5).collect(), &docs);
        assert_eq!(s.mean["mbs"], json!(3.0));
        assert_eq!(s.mean["name"], json!("SN"));
        let hw = s.ci95["mbs"].as_f64().unwrap();
        assert!((hw - 2.776 * (0.5f64).sqrt()).abs() < 1e-12, "{hw}");
        assert_eq!(s.ci95["groups"][0]["jobs"], s.ci95["mbs"]);
    }

    #[test]
    fn a_constant_metric_has_no_spread_and_one_run_has_no_interval() {
        let docs = vec![json!({ "x": 7 }); 4];
        assert_eq!(summarise(vec![0, 1, 2, 3], &docs).ci95["x"], json!(0.0));
        assert_eq!(summarise(vec![0], &docs[..1]).ci95["x"], json!(0.0));
    }

    #[test]
    fn t_quantiles_join_the_table_smoothly() {
        assert!((t975(31) - 2.0395).abs() < 1e-3);
        assert!((t975(1000) - 1.9623).abs() < 1e-3);
    }
}
