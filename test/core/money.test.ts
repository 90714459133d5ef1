import { describe, expect, it } from 'vitest';
import { formatAmount, satangToDecimalString } from '../../src/core/money.js';

describe('satangToDecimalString', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [100, '1.00'],
    [123456, '1234.56'],
    [-250, '-2.50'],
    [1_000_000_000, '10000000.00'],
    [Number.MAX_SAFE_INTEGER, '90071992547409.91'],
  ])('writes %i satang as %s', (satang, text) => {
    expect(satangToDecimalString(satang)).toBe(text);
  });

  it('refuses an amount that is not a whole number of satang', () => {
    expect(() => satangToDecimalString(12.5)).toThrow(RangeError);
    expect(() => satangToDecimalString(Number.NaN)).toThrow(RangeError);
  });
});

describe('formatAmount', () => {
  describe.each(['th', 'en'] as const)('in %s', (locale) => {
    it.each([
      [100, '฿1.00'],
      [123456, '฿1,234.56'],
      [0, '฿0.00'],
      [1, '฿0.01'],
      [1_000_000_000, '฿10,000,000.00'],
      [999_999_999_999_999, '฿9,999,999,999,999.99'],
    ])('shows %i satang as %s', (satang, text) => {
      expect(formatAmount(satang, 'THB', locale)).toBe(text);
    });
  });

  describe('when the language is Thai', () => {
    it('uses Western digits, not Thai ones', () => {
      expect(formatAmount(123456, 'THB', 'th')).not.toMatch(/[\u0E50-\u0E59]/);
    });
  });

  describe('when dividing by 100 as a float would drift', () => {
    it('still shows the exact satang', () => {
      // 9007199254740901 / 100 is closest to ...409.0156 as a float, which rounds to .02.
      expect(formatAmount(9_007_199_254_740_901, 'THB', 'en')).toBe('฿90,071,992,547,409.01');
      expect(formatAmount(9_007_199_254_740_909, 'THB', 'th')).toBe('฿90,071,992,547,409.09');
    });
  });

  describe('with another currency', () => {
    it('shows its ISO code before the amount', () => {
      expect(formatAmount(123456, 'USD', 'en')).toBe('USD 1,234.56');
      expect(formatAmount(-250, 'THB', 'en')).toBe('-฿2.50');
    });

    it('shows the ISO code of THB too when asked for the code', () => {
      expect(formatAmount(123456, 'THB', 'en', { currencyDisplay: 'code' })).toBe('THB 1,234.56');
      expect(formatAmount(-250, 'THB', 'th', { currencyDisplay: 'code' })).toBe('-THB 2.50');
    });

    it('refuses what is not an ISO 4217 code', () => {
      for (const currency of ['baht', 'TH', 'THBX', '']) expect(() => formatAmount(100, currency, 'en')).toThrow(RangeError);
    });
  });
});
