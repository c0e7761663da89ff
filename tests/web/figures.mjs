// Figures the benchmarks print: the p-th percentile of times sorted
// ascending (NaN for none), the nearest-rank way.
export function pct(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
}
