import { describe, expect, it } from 'vitest';
import { INSTALLMENT_MIN_AMOUNT_SATANG, INSTALLMENT_PERIODS } from '../../src/core/constants.js';
import { INSTALLMENTS_FROM_SATANG, installmentPlans } from '../../src/core/installments.js';

const months = (amountSatang: number) => installmentPlans(amountSatang).map((p) => p.months);

describe('installmentPlans', () => {
  describe('below 3,000 THB', () => {
    it('offers nothing', () => {
      expect(installmentPlans(299_999)).toEqual([]);
      expect(installmentPlans(0)).toEqual([]);
    });
  });

  describe('at each minimum', () => {
    it('offers 3 and 4 months from exactly 3,000 THB', () => {
      expect(months(300_000)).toEqual([3, 4]);
    });

    it('adds 6 months from exactly 4,000 THB, not a satang before', () => {
      expect(months(399_999)).toEqual([3, 4]);
      expect(months(400_000)).toEqual([3, 4, 6]);
    });

    it('adds 10 months from exactly 5,000 THB, not a satang before', () => {
      expect(months(499_999)).toEqual([3, 4, 6]);
      expect(months(500_000)).toEqual([3, 4, 6, 10]);
    });
  });

  describe('when the amount does not divide evenly', () => {
    it('rounds the monthly amount up to the satang so the months cover the charge', () => {
      expect(installmentPlans(500_001)).toEqual([
        { months: 3, monthlyAmountSatang: 166_667 },
        { months: 4, monthlyAmountSatang: 125_001 },
        { months: 6, monthlyAmountSatang: 83_334 },
        { months: 10, monthlyAmountSatang: 50_001 },
      ]);
      for (const plan of installmentPlans(1_234_567)) {
        expect(plan.months * plan.monthlyAmountSatang).toBeGreaterThanOrEqual(1_234_567);
        expect((plan.months * (plan.monthlyAmountSatang - 1))).toBeLessThan(1_234_567);
      }
    });
  });

  it('divides an even amount exactly', () => {
    expect(installmentPlans(600_000)).toContainEqual({ months: 6, monthlyAmountSatang: 100_000 });
  });
});

describe('INSTALLMENTS_FROM_SATANG', () => {
  it('is the smallest minimum of any plan: 3,000 THB', () => {
    expect(INSTALLMENTS_FROM_SATANG).toBe(300_000);
    expect(installmentPlans(INSTALLMENTS_FROM_SATANG - 1)).toEqual([]);
    expect(installmentPlans(INSTALLMENTS_FROM_SATANG)).not.toEqual([]);
  });

  it("is the shortest plan's minimum, which the checkout's method picker reads to close installments", () => {
    expect(INSTALLMENTS_FROM_SATANG).toBe(INSTALLMENT_MIN_AMOUNT_SATANG[INSTALLMENT_PERIODS[0]]);
  });
});
