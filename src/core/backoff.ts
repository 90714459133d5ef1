/**
 * The pause before retry number `attempt` (0 for the first retry): a step of `baseMs` doubled on
 * every attempt up to `capMs`, with equal jitter, so the pause lies between half the step and the
 * step. Half is fixed, so retries stay spaced however the dice fall; half is random, so clients
 * that failed at once (an outage) do not all come back at once. `random` gives a number in [0, 1):
 * the jitter's source, `Math.random` unless a test pins it.
 */
export function backoffMs(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  // `|| 0`: a zero base past 2^1023 (0 × Infinity) is no pause, not NaN.
  const stepMs = Math.min(capMs, baseMs * 2 ** attempt) || 0;
  return (stepMs / 2) * (1 + random());
}
