import { afterEach, describe, expect, it } from 'vitest';
import { ORDER_TOKEN_TTL_MS } from '../../../src/server/checkout/checkout-options.js';
import { OrderTokens } from '../../../src/server/checkout/order-tokens.js';
import { SANDBOX_DEFAULTS } from '../../../src/sandbox/index.js';
import { createCheckoutHandler, type CheckoutHandler, type ResolvedOrder } from '../../../src/server/index.js';
import { BASE, createCheckoutHarness, SERVICE, SHOP, type CheckoutHarness } from '../../support/checkout-harness.js';

/**
 * The order's token is the only key to it: every shopper route of an order needs it, and without
 * a valid one the handler tells nothing of the order (no price, method, QR code or status token)
 * and changes nothing.
 */

const PRICE = 24_500;
/** One secret for two shops, as two merchants under one partner key share it when neither sets statusTokenSecret. */
const SHARED_SECRET = 'a partner key both shops derive their tokens from';

let harness: CheckoutHarness | undefined;
afterEach(() => {
  harness?.sandbox.close();
  harness = undefined;
});

/** The victim's shop, with one order whose QR code is open, and every `resolveOrder` call counted. */
async function shopWithOpenQr() {
  const asked: string[] = [];
  const order: ResolvedOrder = { amount: PRICE, currency: 'THB', referenceId: 'order-1001' };
  harness = createCheckoutHarness({}, {
    statusTokenSecret: SHARED_SECRET,
    resolveOrder: (reference) => {
      asked.push(reference);
      return reference === 'order-1001' ? order : null;
    },
  });
  const victim = await harness.call('POST', '/charges', { body: { orderReference: 'order-1001', amount: PRICE, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' } }, headers: { 'Idempotency-Key': 'victim' } });
  expect(victim.status).toBe(201);
  asked.length = 0;
  return { harness, asked, victim: victim.body as { chargeId: string; statusToken: string; encodedImage: { rawData: string } } };
}

/** A second shop under the same partner: another merchant, the same secret. */
function otherShop(): CheckoutHandler {
  return createCheckoutHandler({
    service: { ...SERVICE, merchantId: 'mch_other_shop', apiKey: undefined, partner: { partnerId: 'ptn_1', apiKey: SHARED_SECRET } },
    resolveOrder: () => ({ amount: 99_900, currency: 'THB', referenceId: 'order-1001' }),
    basePath: '/api/checkout',
    publicUrl: SHOP,
  });
}

/** Everything a refusal could let slip about the victim's order. */
function expectNothingTold(text: string, victim: { chargeId: string; statusToken: string; encodedImage: { rawData: string } }) {
  for (const secret of [String(PRICE), victim.chargeId, victim.statusToken, victim.encodedImage.rawData, 'QR_PROMPT_PAY', 'v3.']) expect(text).not.toContain(secret);
}

describe('POST /charges for an order, without that order\u2019s token', () => {
  const attempts: [string, Record<string, unknown>][] = [
    ['leaving the amount out, to learn the price', { paymentMethod: { type: 'CARD_TOKEN', cardTokenId: 'ctk_x', securityCode: '123' } }],
    ['with another method, to learn the open payment\u2019s', { amount: PRICE, currency: 'THB', paymentMethod: { type: 'TRUE_MONEY' } }],
    ['with the QR method at the price, to get the victim\u2019s QR and status token', { amount: PRICE, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' } }],
    ['with replace, to abandon the victim\u2019s payment', { amount: PRICE, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' }, replace: true }],
  ];

  for (const [what, body] of attempts) {
    it(`refuses a stranger ${what}: 403, nothing told, the order never looked up, nothing changed`, async () => {
      const { harness, asked, victim } = await shopWithOpenQr();
      const charges = harness.sandbox.store.charges.size;
      for (const token of ['', 'o2.1.AAAA', await harness.handler.orderToken('order-1002')]) {
        const answer = await harness.call('POST', '/charges', { body: { orderReference: 'order-1001', ...body }, headers: { 'Idempotency-Key': `stranger-${token.length}`, 'X-Satang-Order-Token': token } });
        expect([answer.status, answer.body.error.errorCode]).toEqual([403, 'INVALID_ORDER_TOKEN']);
        expectNothingTold(answer.text, victim);
      }
      expect(asked).toEqual([]);
      expect(harness.sandbox.store.charges.size).toBe(charges);
      // The victim's QR is still the order's open payment.
      const state = await harness.call('GET', '/orders/order-1001/state', { headers: { 'X-Satang-Order-Token': await harness.handler.orderToken('order-1001') } });
      expect(state.body).toMatchObject({ state: 'paying', payment: { chargeId: victim.chargeId } });
    });
  }

  it('refuses a genuine token past its expiry as expired (the page reloads for a new one), telling nothing', async () => {
    const { harness, asked, victim } = await shopWithOpenQr();
    const old = await new OrderTokens(SHARED_SECRET, SANDBOX_DEFAULTS.merchantId, { now: () => Date.now() - ORDER_TOKEN_TTL_MS - 1 }).sign('order-1001');
    const answer = await harness.call('POST', '/charges', { body: { orderReference: 'order-1001', paymentMethod: { type: 'QR_PROMPT_PAY' } }, headers: { 'X-Satang-Order-Token': old } });
    expect([answer.status, answer.body.error.errorCode]).toEqual([403, 'ORDER_TOKEN_EXPIRED']);
    expectNothingTold(answer.text, victim);
    expect(asked).toEqual([]);
  });
});

describe('two shops under one partner key, neither with a statusTokenSecret of its own', () => {
  it('never open each other\u2019s order of the same reference: not its state, not a charge', async () => {
    const { harness, asked, victim } = await shopWithOpenQr();
    const other = otherShop();
    // A shopper of the other shop holds that shop's genuine token for its own order-1001.
    const theirs = await other.orderToken('order-1001');
    const state = await harness.call('GET', '/orders/order-1001/state', { headers: { 'X-Satang-Order-Token': theirs } });
    expect([state.status, state.body.error.errorCode]).toEqual([403, 'INVALID_ORDER_TOKEN']);
    expectNothingTold(state.text, victim);
    const charge = await harness.call('POST', '/charges', { body: { orderReference: 'order-1001', amount: PRICE, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' } }, headers: { 'X-Satang-Order-Token': theirs } });
    expect([charge.status, charge.body.error.errorCode]).toEqual([403, 'INVALID_ORDER_TOKEN']);
    expectNothingTold(charge.text, victim);
    expect(asked).toEqual([]);
    // And the victim's status token opens nothing at the other shop.
    const read = await other(new Request(`${BASE}/charges/${victim.chargeId}/status`, { headers: { 'X-Satang-Status-Token': victim.statusToken } }));
    expect(read.status).toBe(403);
    expect((await read.json()).error.errorCode).toBe('INVALID_STATUS_TOKEN');
  });
});
