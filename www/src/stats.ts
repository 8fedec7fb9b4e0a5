// Repetition statistics: mean and 95 % confidence interval
// mean ± t(0.975, n−1)·s/√n.

const T975 = [
  Number.NaN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16,
  2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048,
  2.045, 2.042,
];

/** Student's t quantile t(0.975, df) (table to 30, Cornish–Fisher beyond). */
export function t975(df: number): number {
  if (!(df >= 1)) return Number.NaN;
  if (df <= 30) return T975[Math.floor(df)];
  const z = 1.959963984540054;
  const z3 = z ** 3;
  const z5 = z ** 5;
  const z7 = z ** 7;
  return (
    z +
    (z3 + z) / (4 * df) +
    (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2) +
    (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3)
  );
}

export interface Estimate {
  n: number;
  mean: number;
  /** half-width of the 95 % interval; 0 when n = 1 */
  half: number;
  sd: number;
}

export function estimate(values: number[]): Estimate {
  const xs = values.filter((v) => Number.isFinite(v));
  const n = xs.length;
  if (n === 0) return { n: 0, mean: Number.NaN, half: Number.NaN, sd: Number.NaN };
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { n, mean, half: 0, sd: 0 };
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  // identical values summed in floating point leave a residue of ~1e-16
  const exact = xs.every((x) => x === xs[0]);
  return { n, mean, half: exact ? 0 : (t975(n - 1) * sd) / Math.sqrt(n), sd: exact ? 0 : sd };
}
