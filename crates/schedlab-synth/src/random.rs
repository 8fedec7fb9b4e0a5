//! Random variates from a seeded [`SplitMix64`], with the portable `libm`
//! functions so that a seed draws the same numbers natively and in
//! WebAssembly (the platform `ln`/`exp`/`cos` may differ in the last bit).

use schedlab_engine::SplitMix64;

/// The draws the model needs, over one seeded generator.
pub(crate) struct Draws {
    rng: SplitMix64,
    /// The second normal of the last Box–Muller pair, not yet used.
    spare_normal: Option<f64>,
}

impl Draws {
    pub fn new(seed: u64) -> Self {
        Self { rng: SplitMix64::new(seed), spare_normal: None }
    }

    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        self.rng.next_f64()
    }

    /// Uniform in (0, 1], safe to take the logarithm of.
    fn open_uniform(&mut self) -> f64 {
        1.0 - self.rng.next_f64()
    }

    /// Uniform in [lo, hi).
    pub fn between(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }

    /// Standard normal (Box–Muller, both values of a pair used in turn).
    fn normal(&mut self) -> f64 {
        if let Some(z) = self.spare_normal.take() {
            return z;
        }
        let r = libm::sqrt(-2.0 * libm::log(self.open_uniform()));
        let theta = 2.0 * std::f64::consts::PI * self.uniform();
        self.spare_normal = Some(r * libm::sin(theta));
        r * libm::cos(theta)
    }

    /// Gamma(shape α, scale β): mean αβ. Marsaglia and Tsang (2000), "A
    /// simple method for generating gamma variables", ACM TOMS 26(3); for
    /// α < 1 the usual boost Gamma(α + 1) · U^(1/α).
    pub fn gamma(&mut self, shape: f64, scale: f64) -> f64 {
        if shape < 1.0 {
            let boost = libm::pow(self.open_uniform(), 1.0 / shape);
            return self.gamma(shape + 1.0, scale) * boost;
        }
        let d = shape - 1.0 / 3.0;
        let c = 1.0 / libm::sqrt(9.0 * d);
        loop {
            let x = self.normal();
            let v = 1.0 + c * x;
            if v <= 0.0 {
                continue;
            }
            let v = v * v * v;
            let u = self.open_uniform();
            if libm::log(u) < 0.5 * x * x + d - d * v + d * libm::log(v) {
                return d * v * scale;
            }
        }
    }

    /// Hyper-gamma: Gamma(α₁, β₁) with probability `p`, else Gamma(α₂, β₂).
    pub fn hyper_gamma(&mut self, first: (f64, f64), second: (f64, f64), p: f64) -> f64 {
        let (shape, scale) = if self.uniform() < p { first } else { second };
        self.gamma(shape, scale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mean_var(xs: &[f64]) -> (f64, f64) {
        let n = xs.len() as f64;
        let m = xs.iter().sum::<f64>() / n;
        (m, xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n)
    }

    #[test]
    fn gamma_has_the_right_moments() {
        let mut d = Draws::new(7);
        for (shape, scale) in [(0.5, 2.0), (3.8351, 0.6605), (10.2303, 0.4871), (639.1, 0.0156)] {
            let xs: Vec<f64> = (0..40_000).map(|_| d.gamma(shape, scale)).collect();
            let (m, v) = mean_var(&xs);
            let (em, ev) = (shape * scale, shape * scale * scale);
            assert!((m - em).abs() < 0.03 * em, "mean {m} vs {em} for ({shape}, {scale})");
            assert!((v - ev).abs() < 0.08 * ev, "variance {v} vs {ev} for ({shape}, {scale})");
        }
    }

    #[test]
    fn normals_are_standard() {
        let mut d = Draws::new(3);
        let xs: Vec<f64> = (0..40_000).map(|_| d.normal()).collect();
        let (m, v) = mean_var(&xs);
        assert!(m.abs() < 0.02 && (v - 1.0).abs() < 0.03, "{m} {v}");
    }
}
