import { afterEach, describe, expect, it } from 'vitest';
import { createCheckoutHarness, type CheckoutHarness } from '../../support/checkout-harness.js';

/** Nothing is charged unless the shopper approved the server's amount and currency, both of them. */

let harness: CheckoutHarness;
afterEach(() => harness.sandbox.close());

describe('POST /charges with the right amount and no currency', () => {
  it('answers 409 AMOUNT_CHANGED with the server\'s amount and currency, and charges nothing', async () => {
    harness = createCheckoutHarness({ 'cart-1': { amount: 12_900, currency: 'THB', referenceId: 'order-1' } }, { rateLimit: false });
    const answer = await harness.call('POST', '/charges', { body: { orderReference: 'cart-1', amount: 12_900, paymentMethod: { type: 'QR_PROMPT_PAY' } } });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ amount: 12_900, currency: 'THB', error: { errorCode: 'AMOUNT_CHANGED' } });
    expect((await harness.service.request('GET', '/api/v1/charges')).body.totalCount).toBe(0);

    const confirmed = await harness.call('POST', '/charges', { body: { orderReference: 'cart-1', amount: 12_900, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' } } });
    expect(confirmed.status).toBe(201);
  });
});
