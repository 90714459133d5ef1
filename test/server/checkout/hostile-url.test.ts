import { afterEach, describe, expect, it } from 'vitest';
import { createCheckoutHarness, SHOP, type CheckoutHarness } from '../../support/checkout-harness.js';

/** The checkout handler refuses a returnUrl carrying a control character before anything is charged. */

const CONTROL_CHARACTERS = { NUL: '\u0000', BEL: '\u0007', TAB: '\t', LF: '\n', CR: '\r', DEL: '\u007f', 'C1 NEL': '\u0085' };

let harness: CheckoutHarness;
afterEach(() => harness.sandbox.close());

describe('POST /charges with a returnUrl holding a control character', () => {
  it.each(Object.entries(CONTROL_CHARACTERS))('refuses %s with 400 naming returnUrl', async (_, character) => {
    harness = createCheckoutHarness({ 'cart-1': { amount: 10_000, currency: 'THB', referenceId: 'order-1' } }, { rateLimit: false });
    const answer = await harness.call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'QR_PROMPT_PAY' }, returnUrl: `${SHOP}/ret${character}urn` } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ errorCode: 'INVALID_REQUEST', field: 'returnUrl' });
    expect(answer.body.error.errorMessage).toMatch(/control characters/);
    expect((await harness.service.request('GET', '/api/v1/charges')).body.totalCount).toBe(0);
  });
});

describe('POST /charges with a returnUrl of the shop', () => {
  it('refuses one carrying a user name or password, charging nothing', async () => {
    harness = createCheckoutHarness({ 'cart-1': { amount: 10_000, currency: 'THB', referenceId: 'order-1' } }, { rateLimit: false });
    for (const returnUrl of ['https://attacker@shop.example/return', 'https://:secret@shop.example/return', 'https://user:pass@shop.example/return']) {
      const answer = await harness.call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'QR_PROMPT_PAY' }, returnUrl } });
      expect([answer.status, answer.body.error.errorCode, answer.body.error.field]).toEqual([400, 'INVALID_RETURN_URL', 'returnUrl']);
    }
    expect((await harness.service.request('GET', '/api/v1/charges')).body.totalCount).toBe(0);
  });

  it('sends the service the URL in the one form it checked: a Thai path percent-encoded, the host in lower case, dot segments resolved', async () => {
    harness = createCheckoutHarness({ 'cart-1': { amount: 10_000, currency: 'THB', referenceId: 'order-1' } }, { rateLimit: false });
    const answer = await harness.call('POST', '/charges', {
      body: { orderReference: 'cart-1', paymentMethod: { type: 'TRUE_MONEY' }, returnUrl: 'https://SHOP.example/a/../ชำระเงิน/กลับ?order=คำสั่ง' },
    });
    expect(answer.status).toBe(201);
    const sent = [...harness.sandbox.store.charges.values()].find((r) => r.charge.chargeId === answer.body.chargeId)!;
    expect(sent.returnUrl).toBe(new URL('https://shop.example/ชำระเงิน/กลับ?order=คำสั่ง').href);
    expect(sent.returnUrl).toMatch(/^https:\/\/shop\.example\/%E0%B8/);
  });
});
