import { afterEach, describe, expect, it } from 'vitest';
import { CHECKOUT_ORDER_TOKEN_HEADER } from '../../../src/core/constants.js';
import { createCheckoutHarness, type CheckoutHarness } from '../../support/checkout-harness.js';
import { CountingStore, describeCalls, orderCalls } from '../../support/counting-store.js';

/**
 * What one shopper's request costs the store, call by call: the order is one record, so a new
 * card charge reads it once and writes it twice (the attempt taking the order, then its payment),
 * an order's state is two reads, and a payment's webhook is the ledger's gate plus its order's
 * record, which also keeps which of the payment's webhook states were handled.
 * Counts, not times: each list below is the whole of what the handler asked.
 */

const ORDERS = { 'cart-1': { amount: 24_500, currency: 'THB', referenceId: 'order-1' } };
let harness: CheckoutHarness | undefined;
afterEach(() => harness?.sandbox.close());

async function setUp() {
  const store = new CountingStore();
  harness = createCheckoutHarness(ORDERS, { store, onOrder: () => undefined });
  const held = harness.holdWebhooks('charge.succeeded');
  // Held back too, so only the deliveries measured reach the store while they are counted.
  harness.holdWebhooks('transaction.created');
  const cardTokenId = await harness.service.tokenize('4111111111111111');
  return { store, held, harness, cardTokenId };
}

describe('store calls of one request', () => {
  it('a new card charge: the order read once and written twice, and the page’s reference to it kept', async () => {
    const { store, harness: h, cardTokenId } = await setUp();
    const { result, calls } = await store.during(() => h.call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' } }, headers: { 'Idempotency-Key': 'k1' } }));
    expect(result.status).toBe(201);
    expect(describeCalls(orderCalls(calls))).toEqual([
      'get order:order-1',
      'setIfNewer order:order-1',
      'set order-reference:cart-1',
      'setIfNewer order:order-1',
    ]);
  });

  it('its webhook: the ledger’s gate, one step settling the order (its onOrder event claimed in it), the status kept, one step recording the event told with the state handled; a second delivery stops at the gate and the order', async () => {
    const { store, held, harness: h, cardTokenId } = await setUp();
    const charge = await h.call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' } }, headers: { 'Idempotency-Key': 'k1' } });
    expect(charge.status).toBe(201);
    await expect.poll(() => held.length).toBe(1);
    const delivery = held[0]!;
    const first = await store.during(() => h.handler(delivery.clone()));
    expect(first.result.status).toBe(200);
    const firstCalls = describeCalls(orderCalls(first.calls));
    expect(firstCalls).toEqual([
      expect.stringMatching(new RegExp(`^setIfAbsent webhook:charge:${charge.body.chargeId}:SUCCEEDED:`)),
      // The order's record, which also says which of the payment's webhook states were handled.
      'get order:order-1',
      // Before the order's first payer is decided: was it paid before the upgrade to one record?
      'get paid:order-1',
      // Settled, its onOrder event claimed; the page's reference was written by the charge moments ago.
      'setIfNewer order:order-1',
      `setIfNewer status:${charge.body.chargeId}`,
      // Once onEvent returned: the event told and the state handled, in one step.
      'setIfNewer order:order-1',
    ]);
    const again = await store.during(() => h.handler(delivery.clone()));
    expect(again.result.status).toBe(200);
    expect(await again.result.json()).toEqual({ received: true, duplicate: true });
    expect(describeCalls(orderCalls(again.calls))).toEqual([expect.stringMatching(/^setIfAbsent webhook:/), 'get order:order-1']);
  });

  it('an order’s state: the page’s reference, then the order', async () => {
    const { store, held, harness: h, cardTokenId } = await setUp();
    await h.call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' } }, headers: { 'Idempotency-Key': 'k1' } });
    await expect.poll(() => held.length).toBe(1);
    await h.handler(held[0]!.clone());
    const token = await h.handler.orderToken('cart-1');
    const { result, calls } = await store.during(() => h.call('GET', '/orders/cart-1/state', { headers: { [CHECKOUT_ORDER_TOKEN_HEADER]: token } }));
    expect(result.body).toMatchObject({ state: 'paid' });
    expect(describeCalls(orderCalls(calls))).toEqual(['get order-reference:cart-1', 'get order:order-1']);
  });
});
