import { describe, expect, it } from 'vitest';
import { backoffMs } from '../../src/core/backoff.js';

const lowest = (): number => 0;
const highest = (): number => 0.999_999;

describe('backoffMs', () => {
  describe('with the jitter pinned', () => {
    it('doubles the step on every attempt, starting from the base', () => {
      expect([0, 1, 2, 3, 4].map((attempt) => backoffMs(attempt, 1_000, 60_000, lowest))).toEqual([500, 1_000, 2_000, 4_000, 8_000]);
    });

    it('waits half the step when the jitter draws 0, and the step at its top', () => {
      expect(backoffMs(3, 500, 8_000, lowest)).toBe(2_000);
      expect(backoffMs(3, 500, 8_000, highest)).toBeCloseTo(4_000, 1);
      expect(backoffMs(3, 500, 8_000, () => 1)).toBe(4_000);
    });

    it('puts the jitter drawn linearly between the two', () => {
      expect(backoffMs(2, 1_000, 30_000, () => 0.5)).toBe(3_000);
      expect(backoffMs(2, 1_000, 30_000, () => 0.25)).toBe(2_500);
    });

    it('grows below the cap so that the next shortest pause is no less than this longest one', () => {
      for (let attempt = 0; attempt < 7; attempt += 1) {
        expect(backoffMs(attempt + 1, 250, 60_000, lowest), `attempt ${attempt + 1}`).toBeGreaterThanOrEqual(backoffMs(attempt, 250, 60_000, () => 1));
      }
    });

    it('stops growing at the cap', () => {
      expect(backoffMs(5, 1_000, 30_000, lowest)).toBe(15_000);
      expect(backoffMs(6, 1_000, 30_000, lowest)).toBe(15_000);
      expect(backoffMs(6, 1_000, 30_000, () => 1)).toBe(30_000);
    });

    it('stays at the cap however many attempts failed, without overflowing', () => {
      for (const attempt of [30, 1_023, 1_024, 5_000]) {
        expect(backoffMs(attempt, 1_000, 30_000, lowest), `attempt ${attempt}`).toBe(15_000);
      }
    });

    it('never pauses with a zero base, even past the exponent a double can hold', () => {
      for (const attempt of [0, 10, 1_024]) expect(backoffMs(attempt, 0, 30_000, highest), `attempt ${attempt}`).toBe(0);
    });
  });

  describe('with Math.random', () => {
    it('stays between half the step and the step, and spreads its pauses', () => {
      const pauses = Array.from({ length: 200 }, () => backoffMs(3, 1_000, 60_000));
      for (const pause of pauses) {
        expect(pause).toBeGreaterThanOrEqual(4_000);
        expect(pause).toBeLessThanOrEqual(8_000);
      }
      // 200 draws from a 4 s wide range: all in one quarter of it would be a broken source.
      expect(Math.max(...pauses) - Math.min(...pauses)).toBeGreaterThan(1_000);
    });

    it('never pauses less on a later attempt for the same draw', () => {
      for (const draw of [0, 0.3, 0.9]) {
        const pauses = Array.from({ length: 12 }, (_, attempt) => backoffMs(attempt, 250, 60_000, () => draw));
        expect(pauses).toEqual([...pauses].sort((a, b) => a - b));
      }
    });
  });
});
