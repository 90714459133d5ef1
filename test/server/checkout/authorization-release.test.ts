import { afterEach, describe, expect, it } from 'vitest';
import { CHECKOUT_IDEMPOTENCY_HEADER, CHECKOUT_STATUS_TOKEN_HEADER } from '../../../src/core/constants.js';
import { cancelAuthorization, captureAuthorization, ServiceClient } from '../../../src/server/index.js';
import { createCheckoutHarness, SERVICE, type CheckoutHarness } from '../../support/checkout-harness.js';

/**
 * An order held by a card authorization (outcome `authorized`) is free again once that
 * authorization no longer holds money: canceled by the merchant, expired or failed. One still
 * AUTHORIZED, or CAPTURED, keeps holding it, so an order is never paid twice.
 */

const ORDERS = { 'pre-order': { amount: 45_000, currency: 'THB', referenceId: 'order-2001', intent: 'authorize' as const } };
const CARD = '4111111111111111';

let harness: CheckoutHarness;
afterEach(() => harness.sandbox.close());

function setUp(webhooks = true): { h: CheckoutHarness; client: ServiceClient } {
  harness = createCheckoutHarness(ORDERS, { rateLimit: false, ...(webhooks ? {} : { webhookKeyBase64: undefined }) }, webhooks ? {} : { webhook: undefined });
  return { h: harness, client: new ServiceClient({ ...SERVICE, fetch: harness.sandbox.fetch }) };
}

async function reserve(h: CheckoutHarness, attempt: string, replace = false) {
  const cardTokenId = await h.service.tokenize(CARD);
  return h.call('POST', '/charges', {
    body: { orderReference: 'pre-order', intent: 'authorize', paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' }, ...(replace ? { replace } : {}) },
    headers: { [CHECKOUT_IDEMPOTENCY_HEADER]: attempt },
  });
}

/** The shopper's page reads the authorization's status: the order is settled as authorized. */
async function settle(h: CheckoutHarness, created: { body: { chargeId: string; statusToken: string } }) {
  const read = await h.call('GET', `/charges/${created.body.chargeId}/status`, { headers: { [CHECKOUT_STATUS_TOKEN_HEADER]: created.body.statusToken } });
  expect(read.body).toMatchObject({ status: 'SUCCEEDED', outcome: 'authorized' });
}

describe('an order authorized, then its authorization canceled', () => {
  it.each([
    ['with webhooks', true],
    ['without webhooks', false],
  ])('can be authorized again (%s), and the new authorization holds it', async (_, webhooks) => {
    const { h, client } = setUp(webhooks);
    const first = await reserve(h, 'a-1');
    expect(first.status).toBe(201);
    await settle(h, first);
    expect((await reserve(h, 'a-2', true)).body.error?.errorCode).toBe('ORDER_ALREADY_PAID');

    expect(await cancelAuthorization(client, first.body.chargeId)).toMatchObject({ status: 'CANCELED' });
    const second = await reserve(h, 'a-3', true);
    expect(second.status).toBe(201);
    expect(second.body.chargeId).not.toBe(first.body.chargeId);
    await settle(h, second);

    // The new authorization holds the order as the first did.
    const third = await reserve(h, 'a-4', true);
    expect([third.status, third.body.error?.errorCode]).toEqual([409, 'ORDER_ALREADY_PAID']);
  });

  it('is not freed while its authorization is captured', async () => {
    const { h, client } = setUp();
    const first = await reserve(h, 'b-1');
    await settle(h, first);
    await captureAuthorization(client, first.body.chargeId);
    const again = await reserve(h, 'b-2', true);
    expect([again.status, again.body.error?.errorCode]).toEqual([409, 'ORDER_ALREADY_PAID']);
    expect((await h.service.request('GET', '/api/v1/card-authorizations')).body.totalCount).toBe(1);
  });
});
