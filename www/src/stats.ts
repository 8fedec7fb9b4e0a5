// Repetition statistics: mean and 95 % confidence interval
// mean ± t(0.975, n−1)·s/√n, with the core's exact Student-t quantile (the
// same numbers as `schedlab run --repeat`; set by `useQuantile` once the
// core is loaded).

let t975: (df: number) => number = () => Number.NaN;

/** Takes the core's t(0.975, df). */
export function useQuantile(q: (df: number) => number): void {
  t975 = q;
}

export interface Estimate {
  n: number;
  mean: number;
  /** half-width of the 95 % interval; NaN when n = 1 (no interval) */
  half: number;
  sd: number;
}

export function estimate(values: number[]): Estimate {
  const xs = values.filter((v) => Number.isFinite(v));
  const n = xs.length;
  if (n === 0) return { n: 0, mean: Number.NaN, half: Number.NaN, sd: Number.NaN };
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { n, mean, half: Number.NaN, sd: 0 };
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  // identical values summed in floating point leave a residue of ~1e-16
  const exact = xs.every((x) => x === xs[0]);
  return { n, mean, half: exact ? 0 : (t975(n - 1) * sd) / Math.sqrt(n), sd: exact ? 0 : sd };
}
