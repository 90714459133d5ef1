import { describe, expect, it } from 'vitest';
import { groupOf, parseMethods } from '../../../src/elements/satang-checkout/payment-methods.js';

describe('parseMethods', () => {
  it('expands groups and single services in the order given, once each', () => {
    expect(parseMethods('promptpay, card truemoney,ewallet')).toEqual({
      types: ['QR_PROMPT_PAY', 'CARD_TOKEN', 'TRUE_MONEY', 'LINE_PAY', 'SHOPEE_PAY', 'ALIPAY', 'WECHAT_PAY', 'MAKE'],
    });
  });

  it('names the first method it does not know', () => {
    expect(parseMethods('card, bitcoin')).toEqual({ unknown: 'bitcoin' });
    expect(parseMethods(' , ')).toEqual({ unknown: ' , ' });
  });

  it('reads a text again only when it changed, and hands out a list nobody can change', () => {
    const first = parseMethods('card, promptpay');
    expect(parseMethods('card, promptpay')).toBe(first);
    expect(parseMethods('ewallet')).toEqual({ types: ['TRUE_MONEY', 'LINE_PAY', 'SHOPEE_PAY', 'ALIPAY', 'WECHAT_PAY', 'MAKE'] });
    expect(parseMethods('card, promptpay')).toEqual({ types: ['CARD_TOKEN', 'QR_PROMPT_PAY'] });
    if (!('types' in first)) throw new Error('expected types');
    expect(Object.isFrozen(first.types)).toBe(true);
  });
});

describe('groupOf', () => {
  it('puts each type under its picker choice', () => {
    expect(groupOf('CARD_TOKEN_INSTALLMENTS')).toBe('CARD_INSTALLMENTS');
    expect(groupOf('KRUNGSRI_APP')).toBe('MOBILE_BANKING');
    expect(groupOf('SHOPEE_PAY')).toBe('E_WALLET');
  });
});
