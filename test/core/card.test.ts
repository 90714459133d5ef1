import { describe, expect, it } from 'vitest';
import { detectCardBrand, isExpiryInFuture, normalizeDigits, passesLuhn, securityCodeLength } from '../../src/core/card.js';

describe('passesLuhn', () => {
  it('accepts every playground test card', () => {
    for (const pan of ['4111111111111111', '5372074248113841', '378282246310005', '4953261730509988', '4389783280144506', '4943129900084541', '4000007640000003', '4000000000005126', '4417704002802961', '4391370000000006']) {
      expect(passesLuhn(pan), pan).toBe(true);
    }
  });

  it('refuses a number with one digit changed, and anything that is not digits', () => {
    expect(passesLuhn('4111111111111112')).toBe(false);
    expect(passesLuhn('4111 1111 1111 1111')).toBe(false);
    expect(passesLuhn('')).toBe(false);
  });
});

describe('detectCardBrand', () => {
  it.each([
    ['4111111111111111', 'VISA'],
    ['5372074248113841', 'MASTERCARD'],
    ['2221000000000009', 'MASTERCARD'],
    ['378282246310005', 'AMEX'],
    ['3530111333300000', 'JCB'],
    ['6221260000000000', 'UNIONPAY'],
    ['36227206271667', 'DINERS'],
    ['6011111111111117', 'DISCOVER'],
    ['9999999999999999', 'UNKNOWN'],
  ])('reads %s as %s', (pan, brand) => {
    expect(detectCardBrand(pan)).toBe(brand);
  });

  it('asks four digits of CVC for Amex only', () => {
    expect(securityCodeLength('AMEX')).toBe(4);
    expect(securityCodeLength('VISA')).toBe(3);
  });
});

describe('normalizeDigits', () => {
  it('turns Thai digits into ASCII and drops spaces and dashes', () => {
    expect(normalizeDigits('๔๑๑๑ ๑๑๑๑-1111 1111')).toBe('4111111111111111');
  });
});

describe('isExpiryInFuture', () => {
  const now = new Date('2030-06-15T00:00:00Z');
  it('keeps a card valid through its expiry month', () => {
    expect(isExpiryInFuture(6, 30, now)).toBe(true);
    expect(isExpiryInFuture(5, 30, now)).toBe(false);
    expect(isExpiryInFuture(1, 31, now)).toBe(true);
    expect(isExpiryInFuture(12, 29, now)).toBe(false);
  });
});
