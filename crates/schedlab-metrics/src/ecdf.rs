use schedlab_engine::Time;

/// The exact empirical distribution of waits: for each distinct wait `w`
/// (ascending), the fraction of jobs that waited at most `w`.
pub fn wait_ecdf(waits: &[Time]) -> Vec<(Time, f64)> {
    let mut sorted = waits.to_vec();
    sorted.sort_unstable();
    let n = sorted.len() as f64;
    let mut out: Vec<(Time, f64)> = Vec::new();
    for (i, &w) in sorted.iter().enumerate() {
        let frac = (i + 1) as f64 / n;
        match out.last_mut() {
            Some(last) if last.0 == w => last.1 = frac,
            _ => out.push((w, frac)),
        }
    }
    out
}

/// Thins an ECDF for plotting: keeps a point whenever the curve has moved
/// by at least `1 / pixels` of the plot in either direction since the last
/// kept point (the wait axis measured on a log scale, as the page draws it),
/// and always the first and last points, so the drawn shape changes by less
/// than a pixel.
pub fn downsample_ecdf(points: &[(Time, f64)], pixels: u32) -> Vec<(Time, f64)> {
    if points.len() <= 2 || pixels == 0 {
        return points.to_vec();
    }
    let step = 1.0 / f64::from(pixels);
    let logx = |t: Time| ((t.max(0) + 1) as f64).ln();
    let span = (logx(points[points.len() - 1].0) - logx(points[0].0)).max(f64::MIN_POSITIVE);
    let mut out = vec![points[0]];
    for &p in &points[1..points.len() - 1] {
        let last = out[out.len() - 1];
        let dx = (logx(p.0) - logx(last.0)) / span;
        if p.1 - last.1 >= step || dx >= step {
            out.push(p);
        }
    }
    out.push(points[points.len() - 1]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ecdf_is_a_step_per_distinct_wait() {
        let e = wait_ecdf(&[5, 0, 5, 10]);
        assert_eq!(e, vec![(0, 0.25), (5, 0.75), (10, 1.0)]);
    }

    #[test]
    fn downsampling_keeps_ends_and_stays_within_a_pixel() {
        let waits: Vec<Time> = (0..100_000).map(|i| (i * 7919) % 50_000).collect();
        let full = wait_ecdf(&waits);
        let thin = downsample_ecdf(&full, 500);
        assert!(thin.len() < full.len() / 10);
        assert_eq!(thin.first(), full.first());
        assert_eq!(thin.last(), full.last());
        // Between kept points the true curve rises by less than a pixel
        // (plus the one step that triggered the next kept point).
        for w in thin.windows(2) {
            let inner_max = full.iter().filter(|p| p.0 > w[0].0 && p.0 < w[1].0).map(|p| p.1).fold(w[0].1, f64::max);
            assert!(inner_max - w[0].1 < 1.0 / 500.0 + 1e-12);
        }
    }
}
