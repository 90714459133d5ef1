import { afterEach, describe, expect, it, vi } from 'vitest';
import { CheckoutRecords } from '../../../src/server/checkout/checkout-records.js';
import { TELL_IN_HAND_MS } from '../../../src/server/checkout/settlement.js';
import { CheckoutStoreError, MemoryCheckoutStore, type CheckoutStore, type OrderEvent } from '../../../src/server/index.js';
import { createCheckoutHarness, SHOP, type CheckoutHarness } from '../../support/checkout-harness.js';

/**
 * What a payment's settling owes (a refund, an `onOrder` event) when its news comes at the wrong
 * moment: a refund's failure heard before the refund's answer, the step that claims `onOrder`
 * written but unanswered. Against the sandbox; the faults a test cannot make otherwise (an answer
 * held back, a store write whose answer is lost) stand between the handler and its service or store.
 */

const ORDERS = { 'cart-1': { amount: 24_500, currency: 'THB', referenceId: 'order-1' } };

let harness: CheckoutHarness | undefined;
afterEach(() => {
  vi.useRealTimers();
  harness?.sandbox.close();
  harness = undefined;
});

async function pay(h: CheckoutHarness, paymentMethod: unknown, extra: Record<string, unknown> = {}): Promise<{ chargeId: string; redirect?: { redirectUrl: string } }> {
  const answer = await h.call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod, returnUrl: `${SHOP}/return`, ...extra } });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { chargeId: string; redirect?: { redirectUrl: string } };
}

async function card(h: CheckoutHarness, pan: string): Promise<unknown> {
  return { type: 'CARD_TOKEN', cardTokenId: await h.service.tokenize(pan), securityCode: '123' };
}

/** The held webhook of `chargeId` (its body names it). */
async function heldOf(list: Request[], chargeId: string): Promise<Request> {
  for (const request of list) if ((await request.clone().text()).includes(chargeId)) return request;
  throw new Error(`no held webhook of ${chargeId}`);
}

describe('a refund of the handler’s own whose failure is heard before its answer', () => {
  it('reads refund_failed and tells onOrder, the duplicate payment left for the merchant to settle', async () => {
    const told: OrderEvent[] = [];
    let release = (): void => undefined;
    const answerHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    let refundPosts = 0;
    const store = new MemoryCheckoutStore();
    const h = createCheckoutHarness(ORDERS, { store, onOrder: (event) => void told.push(event) }, {}, async (request) => {
      const refund = request.method === 'POST' && new URL(request.url).pathname === '/api/v1/refunds';
      const response = await h.sandbox.fetch(request);
      // The first refund is made at the service, and its answer is slow to come back.
      if (refund && ++refundPosts === 1) await answerHeld;
      return response;
    });
    harness = h;
    const held = h.holdWebhooks('charge.succeeded');
    // Two successes for one order: a 3-D Secure card left at its OTP page, then a card whose refunds
    // fail at the service, paid in another tab; the OTP entered after all.
    const first = await pay(h, await card(h, '4953261730509988'));
    const second = await pay(h, await card(h, '4000000000005126'), { replace: true });
    await h.service.submitPage(first.redirect!.redirectUrl, { otp: '123456' });
    await h.sandbox.webhooks.idle();

    expect((await h.handler(await heldOf(held, first.chargeId))).status).toBe(200);
    // The second is a duplicate: refunded; the refund fails at the service and its refund.failed
    // webhook is handled while the refund's own answer is still on its way.
    const duplicate = h.handler(await heldOf(held, second.chargeId));
    await vi.waitFor(() => expect(h.events.map((event) => event.name)).toContain('refund.failed'), { timeout: 10_000 });
    release();
    expect((await duplicate).status).toBe(200);

    const outcome = (await new CheckoutRecords(store).order.get('order-1'))?.payments[second.chargeId]?.outcome;
    expect(outcome).toMatchObject({ outcome: 'refund_failed', told: true });
    expect(told.map((event) => `${event.type} ${event.chargeId}`)).toEqual([`order.paid ${first.chargeId}`, `order.refund_failed ${second.chargeId}`]);
  });
});

describe('the step that claims onOrder, written but its answer lost', () => {
  it('answers the webhook 503 while the claim holds, and tells onOrder once it has lapsed', async () => {
    const told: OrderEvent[] = [];
    const memory = new MemoryCheckoutStore();
    let lose = true;
    // A store whose one write is applied and its answer lost (a Redis command timing out after Redis ran it).
    const store: CheckoutStore = {
      get: (key) => memory.get(key),
      set: (key, value, ttlMs) => memory.set(key, value, ttlMs),
      setIfAbsent: (key, value, ttlMs) => memory.setIfAbsent(key, value, ttlMs),
      delete: (key) => memory.delete(key),
      increment: (key, windowMs) => memory.increment(key, windowMs),
      publish: (channel, message) => memory.publish(channel, message),
      subscribe: (channel, listener) => memory.subscribe(channel, listener),
      async setIfNewer(key, version, value, ttlMs) {
        const written = await memory.setIfNewer(key, version, value, ttlMs);
        if (lose && key === 'order:order-1' && value.includes('"telling"')) {
          lose = false;
          throw new CheckoutStoreError(new Error('no answer within 2000 ms'));
        }
        return written;
      },
    };
    const h = createCheckoutHarness(ORDERS, { store, onOrder: (event) => void told.push(event) });
    harness = h;
    const held = h.holdWebhooks('charge.succeeded');
    const paid = await pay(h, await card(h, '4111111111111111'));
    await h.sandbox.webhooks.idle();
    const webhook = await heldOf(held, paid.chargeId);

    expect((await h.handler(webhook.clone())).status).toBe(503);
    // The outcome was decided and onOrder claimed by that write: acknowledged now, it would never be told.
    const inHand = await h.handler(webhook.clone());
    expect(inHand.status).toBe(503);
    expect(Number(inHand.headers.get('retry-after'))).toBeGreaterThan(TELL_IN_HAND_MS / 1000 - 5);
    expect(told).toEqual([]);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + TELL_IN_HAND_MS + 1_000);
    expect(await (await h.handler(webhook.clone())).json()).toEqual({ received: true });
    expect(await (await h.handler(webhook.clone())).json()).toEqual({ received: true, duplicate: true });
    expect(told.map((event) => `${event.type} ${event.chargeId}`)).toEqual([`order.paid ${paid.chargeId}`]);
  });
});
