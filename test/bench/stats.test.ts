import { describe, expect, it } from 'vitest';
import { median, ratioOfMediansInterval } from './stats.js';

describe('ratioOfMediansInterval', () => {
  it('is a single point when neither list varies', () => {
    expect(ratioOfMediansInterval([10, 10, 10], [5, 5, 5])).toEqual([2, 2]);
  });

  it('holds the ratio of medians, and widens with the spread of the samples', () => {
    const floor = [70, 72, 75, 78, 80, 81, 83, 85, 90, 95, 100, 104, 110, 120, 150];
    const tight = floor.map((v) => v * 1.2);
    const loose = floor.map((v, i) => v * (i % 2 ? 1.0 : 1.4));
    const point = median(tight) / median(floor);
    const [low, high] = ratioOfMediansInterval(tight, floor);
    expect(low).toBeLessThanOrEqual(point);
    expect(high).toBeGreaterThanOrEqual(point);
    expect(high).toBeGreaterThan(low);
    const [looseLow, looseHigh] = ratioOfMediansInterval(loose, floor);
    expect(looseHigh - looseLow).toBeGreaterThan(high - low);
  });

  it('answers the same interval for the same samples and seed, and a narrower one for less confidence', () => {
    const a = [101, 95, 120, 88, 130, 99, 105, 111, 93, 140];
    const b = [80, 85, 90, 70, 110, 95, 77, 83, 88, 102];
    expect(ratioOfMediansInterval(a, b)).toEqual(ratioOfMediansInterval(a, b));
    const [low90, high90] = ratioOfMediansInterval(a, b, 0.9);
    const [low50, high50] = ratioOfMediansInterval(a, b, 0.5);
    expect(low50).toBeGreaterThanOrEqual(low90);
    expect(high50).toBeLessThanOrEqual(high90);
  });

  it('answers NaN without samples', () => {
    expect(ratioOfMediansInterval([], [1])).toEqual([Number.NaN, Number.NaN]);
  });
});
