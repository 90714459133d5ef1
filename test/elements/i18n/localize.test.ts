import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CARD_MESSAGE_KEYS } from '../../../src/core/card-rules.js';
import { FAILURE_MESSAGE_KEYS } from '../../../src/core/failure.js';
import { en } from '../../../src/elements/i18n/en.js';
import { cardMessages } from '../../../src/elements/i18n/card.js';
import { cardRuleMessages } from '../../../src/elements/i18n/card-rules.js';
import { errorMessages } from '../../../src/elements/i18n/errors.js';
import { panelMessages } from '../../../src/elements/i18n/panels.js';
import { checkoutMessages } from '../../../src/elements/i18n/checkout.js';
import { conflictMessages } from '../../../src/elements/i18n/conflict.js';
import { msg, useMessages } from '../../../src/elements/i18n/localize.js';
import { outcomeMessages } from '../../../src/elements/i18n/outcome.js';
import { paymentMessages } from '../../../src/elements/i18n/payment.js';
import { qrMessages } from '../../../src/elements/i18n/qr.js';
import { th } from '../../../src/elements/i18n/th.js';

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
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(placeholders(th[key]), key).toEqual(placeholders(en[key]));
    }
  });
});

describe('each element', () => {
  // The catalogs the files of an element (its folder) register between them, with its
  // LocalizeController or, for strings fetched later, with useMessages: the checkout registers the
  // outcome and conflict strings with its payment code, which it fetches after the first render.
  const registers: Record<string, { en: Record<string, string> }[]> = {
    'satang-card-form': [cardMessages, cardRuleMessages],
    'satang-checkout': [checkoutMessages, paymentMessages, panelMessages, outcomeMessages, conflictMessages, errorMessages],
    'satang-qr-payment': [paymentMessages, outcomeMessages, qrMessages],
  };
  const names = { cardMessages, cardRuleMessages, checkoutMessages, conflictMessages, errorMessages, panelMessages, paymentMessages, outcomeMessages, qrMessages };
  for (const [element, catalogs] of Object.entries(registers)) {
    it(`registers the catalogs of every message key it names: <${element}>`, () => {
      const folder = join('src/elements', element);
      const files = readdirSync(folder).filter((file) => file.endsWith('.ts') && !file.endsWith('.styles.ts'));
      const source = files.map((file) => readFileSync(join(folder, file), 'utf8')).join('\n');
      const available = new Set(catalogs.flatMap((c) => Object.keys(c.en)));
      const named = [...source.matchAll(/'([a-zA-Z]+\.[a-zA-Z.]+)'/g)].map((m) => m[1]!).filter((key) => key in en);
      expect(named.length).toBeGreaterThan(3);
      expect(named.filter((key) => !available.has(key))).toEqual([]);
      const registered = [...source.matchAll(/(?:useMessages\(|new LocalizeController\(this,)([^)]*)\)/g)].map((m) => m[1]).join(',');
      for (const catalog of catalogs) expect(registered).toContain(Object.entries(names).find(([, c]) => c === catalog)![0]);
    });
  }
});

describe('msg', () => {
  useMessages(checkoutMessages);
  it('fills placeholders and leaves unknown ones visible', () => {
    expect(msg('en', 'pay', { amount: '฿10.00' })).toBe('Pay ฿10.00');
    expect(msg('th', 'pay', { amount: '฿10.00' })).toBe('ชำระเงิน ฿10.00');
    expect(msg('en', 'pay')).toBe('Pay {amount}');
  });
});
