import { afterEach, describe, expect, it } from 'vitest';
import { CHECKOUT_IDEMPOTENCY_HEADER, CHECKOUT_STATUS_TOKEN_HEADER } from '../../../src/core/constants.js';
import { cancelAuthorization, captureAuthorization, ServiceClient, type OrderEvent } from '../../../src/server/index.js';
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

async function reserve(h: CheckoutHarness, attempt: string, replace = false, pan = CARD) {
  const cardTokenId = await h.service.tokenize(pan);
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

describe('a duplicate authorization the shop canceled before the handler could', () => {
  it('counts as released: no new cancel key tried again and again, and onOrder hears of it', async () => {
    const told: OrderEvent[] = [];
    harness = createCheckoutHarness(ORDERS, { rateLimit: false, onOrder: (event) => void told.push(event) });
    // The authorizations' own webhooks are held, to be delivered once the shop has canceled the duplicate.
    const held = harness.holdWebhooks('card_authorization.authorized');
    const client = new ServiceClient({ ...SERVICE, fetch: harness.sandbox.fetch });
    // A first tab's authorization waits on its 3-D Secure page; a second tab pays here instead and is
    // authorized at once; then the first tab's shopper finishes the 3-D Secure step all the same.
    const first = await reserve(harness, 'a-1', false, '4953261730509988');
    expect(first.body.actionRequired).toBe('REDIRECT');
    const second = await reserve(harness, 'a-2', true);
    expect([first.status, second.status]).toEqual([201, 201]);
    await settle(harness, second);
    expect((await harness.service.submitPage(first.body.redirect.redirectUrl, { otp: '123456' })).status).toBeLessThan(400);
    await harness.sandbox.webhooks.idle();
    // The shop cancels that duplicate itself; then its authorized webhook arrives, late.
    expect(await cancelAuthorization(client, first.body.chargeId)).toMatchObject({ status: 'CANCELED' });
    const lateOfFirst: Request[] = [];
    for (const request of held) if ((await request.clone().json()).cardAuthorizationId === first.body.chargeId) lateOfFirst.push(request);
    expect(lateOfFirst).toHaveLength(1);
    expect((await harness.handler(lateOfFirst[0]!)).status).toBe(200);
    expect(told.map((e) => [e.type, e.chargeId])).toEqual([
      ['order.authorized', second.body.chargeId],
      ['order.duplicate_refunded', first.body.chargeId],
    ]);
    expect(told[1]).toMatchObject({ paidBy: second.body.chargeId, refundId: first.body.chargeId });
  });
});
