import { afterEach, describe, expect, it } from 'vitest';
import { CHECKOUT_PAYMENT_METHOD_TYPES } from '../../../src/core/schemas/checkout.js';
import { createCheckoutHarness, type CheckoutHarness } from '../../support/checkout-harness.js';

/** What an integrator gets for a payment method the handler cannot take: the field, and what it takes. */

let harness: CheckoutHarness;
afterEach(() => harness.sandbox.close());
const start = () => (harness = createCheckoutHarness({ 'cart-1': { amount: 10_000, currency: 'THB', referenceId: 'order-1' } }, { rateLimit: false }));
const pay = (paymentMethod: unknown) => harness.call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod } });

describe('POST /charges with a card token id', () => {
  it.each(['not-a-token', 'ctk_', 'ch_abc123', 'ctk_abc def', 'ctk_a\u0000b', 'CTK_abc'])('refuses %j as not a card token id', async (cardTokenId) => {
    start();
    const answer = await pay({ type: 'CARD_TOKEN', cardTokenId, securityCode: '123' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ errorCode: 'INVALID_REQUEST', field: 'paymentMethod.cardTokenId' });
    expect(answer.body.error.errorMessage).toContain('is not a card token id');
    expect((await harness.service.request('GET', '/api/v1/charges')).body.totalCount).toBe(0);
  });

  it('says a well-formed token the service no longer knows has expired', async () => {
    start();
    const answer = await pay({ type: 'CARD_TOKEN', cardTokenId: 'ctk_AAAAAAAAAAAAAAAAAAAAAAAA', securityCode: '123' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.field).toMatch(/cardTokenId$/);
    expect(answer.body.error.errorMessage).toContain('expired');
  });
});

describe('POST /charges with an unknown payment method type', () => {
  it('lists the types it accepts', async () => {
    start();
    const answer = await pay({ type: 'BITCOIN' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ errorCode: 'INVALID_REQUEST', field: 'paymentMethod.type' });
    for (const type of CHECKOUT_PAYMENT_METHOD_TYPES) expect(answer.body.error.errorMessage).toContain(type);
  });
});
