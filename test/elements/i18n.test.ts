import { describe, expect, it } from 'vitest';
import { CARD_MESSAGE_KEYS } from '../../src/core/card-rules.js';
import { FAILURE_MESSAGE_KEYS } from '../../src/core/failure.js';
import { en } from '../../src/elements/i18n/en.js';
import { msg } from '../../src/elements/i18n/localize.js';
import { th } from '../../src/elements/i18n/th.js';

describe('the message catalogs', () => {
  it('have a Thai string for every English one, and no extra', () => {
    expect(Object.keys(th).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of Object.entries(th)) expect(text.trim(), key).not.toBe('');
  });

  it('cover every message key the card rules and failure codes can produce', () => {
    for (const key of [...CARD_MESSAGE_KEYS, ...FAILURE_MESSAGE_KEYS]) {
      expect(en, key).toHaveProperty([key]);
    }
  });

  it('keep the same placeholders in both languages', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      expect(placeholders(th[key]), key).toEqual(placeholders(en[key]));
    }
  });
});

describe('msg', () => {
  it('fills placeholders and leaves unknown ones visible', () => {
    expect(msg('en', 'pay', { amount: '฿10.00' })).toBe('Pay ฿10.00');
    expect(msg('th', 'pay', { amount: '฿10.00' })).toBe('ชำระ ฿10.00');
    expect(msg('en', 'pay')).toBe('Pay {amount}');
  });
});
