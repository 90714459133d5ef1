import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckoutClientError } from '../../../src/client/client-error.js';
import type { LocalizeController } from '../../../src/elements/controllers/localize-controller.js';
import { en } from '../../../src/elements/i18n/en.js';
import { th } from '../../../src/elements/i18n/th.js';
import { failureText, problemText } from '../../../src/elements/satang-checkout/error-text.js';

/** A localize controller that answers the key it is asked for, and its parameters. */
const keys = { msg: (key: string, params?: Record<string, string>) => (params ? `${key} ${JSON.stringify(params)}` : key) } as unknown as LocalizeController;
/** One that speaks Thai, as a Thai page's checkout does. */
const thai = { msg: (key: keyof typeof th, params: Record<string, string> = {}) => th[key].replace(/\{(\w+)\}/g, (_w, name: string) => params[name] ?? '') } as unknown as LocalizeController;

/** Every error code `satang/server`'s checkout handler answers the widget with (webhook-only codes aside). */
function serverErrorCodes(): string[] {
  const folder = 'src/server/checkout';
  const codes = new Set<string>();
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.ts') && f !== 'receive-webhook.ts')) {
    for (const [, code] of readFileSync(join(folder, file), 'utf8').matchAll(/new CheckoutError\(\s*\d{3},\s*'([A-Z_]+)'/g)) codes.add(code!);
  }
  return [...codes].sort();
}

describe('the words for errors', () => {
  it('has its own words, in Thai and English, for every error code the checkout handler answers', () => {
    const codes = serverErrorCodes();
    expect(codes).toEqual(expect.arrayContaining(['AMOUNT_CHANGED', 'ORDER_NOT_FOUND', 'PAYMENT_DETAILS_REJECTED', 'RATE_LIMITED', 'UPSTREAM_UNAVAILABLE']));
    // Answered by the conflict views instead (they are not errors to the shopper), and by the QR
    // element's slip upload in its own words.
    const conflicts = ['AMOUNT_CHANGED', 'ORDER_ALREADY_PAID', 'PAYMENT_IN_PROGRESS', 'SLIP_MISMATCH', 'SLIP_NOT_FOUND'];
    for (const code of codes.filter((c) => !conflicts.includes(c))) {
      const key = problemText(keys, new CheckoutClientError('rejected', 'The English message of the server', code));
      expect(key, code).not.toBe('error.rejected');
      expect(en, code).toHaveProperty([key]);
      expect(th, code).toHaveProperty([key]);
    }
  });

  it('never shows the server’s English message on a Thai page', () => {
    for (const code of [...serverErrorCodes(), 'SOMETHING_NEW']) {
      for (const kind of ['rejected', 'server', 'network'] as const) {
        const text = problemText(thai, new CheckoutClientError(kind, 'The English message of the server', code));
        expect(text, `${kind} ${code}`).not.toContain('English');
        expect(text, `${kind} ${code}`).toMatch(/[\u0E00-\u0E7F]/);
      }
    }
  });

  it('says a decline in the words of the method paid with', () => {
    expect(failureText(keys, { failureCode: 'CH_INSUFFICIENT_FUNDS', type: 'CARD_TOKEN' })).toBe('failure.insufficientFunds');
    expect(failureText(keys, { failureCode: 'CH_PROCESSING_FAILED', type: 'QR_PROMPT_PAY' })).toBe('failure.promptpay');
    expect(failureText(keys, { failureCode: 'CH_INSUFFICIENT_FUNDS', type: 'TRUE_MONEY' })).toBe('failure.walletFunds {"method":"TrueMoney"}');
    expect(failureText(keys, { failureCode: 'CH_AUTHENTICATION_FAILED', type: 'LINE_PAY' })).toBe('failure.wallet {"method":"Rabbit LINE Pay"}');
    expect(failureText(keys, { failureCode: 'CH_AUTHENTICATION_FAILED', type: 'KPLUS' })).toBe('failure.bank {"method":"K PLUS"}');
    expect(failureText(keys, { failureCode: '', type: 'CARD_TOKEN_INSTALLMENTS' })).toBe('failure.generic');
  });
});
