import { seededRandom } from '../support/seeded-random.js';

/** Order statistics of a list of samples (ms, bytes, whatever the caller measured). */
export interface Summary {
  n: number;
  median: number;
  p95: number;
  p99: number;
  min: number;
  max: number;
  mean: number;
}

/** The value below which `p` (0..1) of the sorted samples lie, nearest rank. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[rank]!;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: median(sorted),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
    mean: sorted.reduce((s, v) => s + v, 0) / (sorted.length || 1),
  };
}


/**
 * How far the ratio of medians `median(a) / median(b)` can be trusted: a percentile bootstrap,
 * each list resampled with replacement on its own, `resamples` times. Answers the interval holding
 * `confidence` of the resampled ratios (e.g. 0.9: from the 5th to the 95th percentile).
 */
export function ratioOfMediansInterval(a: readonly number[], b: readonly number[], confidence = 0.9, resamples = 2000, seed = 1): [low: number, high: number] {
  if (a.length === 0 || b.length === 0) return [Number.NaN, Number.NaN];
  const random = seededRandom(seed);
  const resample = (list: readonly number[]) => list.map(() => list[Math.floor(random() * list.length)]!);
  const ratios = Array.from({ length: resamples }, () => median(resample(a)) / median(resample(b))).sort((x, y) => x - y);
  const tail = (1 - confidence) / 2;
  return [percentile(ratios, tail), percentile(ratios, 1 - tail)];
}
