import { describe, expect, vi } from 'vitest';
import { SERVICE_HEADERS } from '../../../src/core/constants.js';
import { signWebhookPayload } from '../../../src/core/webhook-signature.js';
import type { OrderEvent } from '../../../src/server/index.js';
import { BASE, WEBHOOK_KEY } from '../../support/checkout-harness.js';
import { cardOf, chargesOf, createCheckoutFleet, pay, QR, readStatus, refundsOf, scanAndPay, type CheckoutFleet } from '../../support/checkout-fleet.js';
import { redisTest } from '../../support/redis-fixture.js';
import type { RedisServer } from '../../support/redis-server.js';

/**
 * Two checkout handler instances behind a load balancer, each with its own connections to one
 * real Redis through `RedisCheckoutStore`, in front of the sandbox: the money rules hold across
 * them as within one.
 */

let fleet: CheckoutFleet | undefined;
let prefix = '';
let runs = 0;

/** Every kind of key the handler writes, as the key layout of docs/server.md lists them. */
const KEY_KINDS = ['rate', 'order', 'order-reference', 'status', 'webhook', 'webhook-newest'];

redisTest.afterEach(async ({ redisClient: node }) => {
  // What the fleet left in Redis: only the kinds of key docs/server.md lists, each with an expiry.
  try {
    const keys: string[] = [];
    for await (const batch of node.scanIterator({ MATCH: `${prefix}*`, COUNT: 1_000 })) keys.push(...batch);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(KEY_KINDS, key).toContain(key.slice(prefix.length).split(':')[0]);
      expect(await node.pTTL(key), key).toBeGreaterThan(0);
    }
  } finally {
    await fleet?.close();
    fleet = undefined;
  }
});

const PRICE = 24_500;

async function setUp(server: RedisServer, options: Omit<Parameters<typeof createCheckoutFleet>[0], 'redisUrl' | 'keyPrefix'> = {}): Promise<CheckoutFleet> {
  runs += 1;
  prefix = `fleet-${process.pid}-${runs}:`;
  fleet = await createCheckoutFleet({ redisUrl: server.url, keyPrefix: prefix, ...options });
  return fleet;
}

/** The service takes this long to create a charge, so two attempts really overlap. */
const slowCharges =
  (ms: number) =>
  async (request: Request, sandboxFetch: (request: Request) => Promise<Response>): Promise<Response> => {
    if (request.method === 'POST' && new URL(request.url).pathname === '/api/v1/charges') await new Promise((resolve) => setTimeout(resolve, ms));
    return sandboxFetch(request);
  };

describe('two instances sharing Redis', () => {
  redisTest('take one charge from two tabs paying one order at once through different instances, and tell the other tab why', async ({ redisServer }) => {
    const shop = await setUp(redisServer, { serviceFetch: slowCharges(150), handler: { rateLimit: false } });
    const [a, b] = shop.instances as [CheckoutFleet['instances'][0], CheckoutFleet['instances'][0]];
    for (let round = 0; round < 5; round += 1) {
      shop.orders.set(`cart-${round}`, { amount: PRICE, currency: 'THB', referenceId: `order-${round}` });
      const [cardA, cardB] = await Promise.all([cardOf(shop), cardOf(shop)]);
      const answers = await Promise.all([pay(shop, a, `cart-${round}`, cardA, `tab-a-${round}`), pay(shop, b, `cart-${round}`, cardB, `tab-b-${round}`)]);
      expect(answers.map((x) => x.status).sort()).toEqual([201, 409]);
      const refused = answers.find((x) => x.status === 409)!;
      expect(refused.body).toMatchObject({ replaceable: false, error: { errorCode: 'PAYMENT_IN_PROGRESS', retryable: true } });
      expect(chargesOf(shop, `order-${round}`)).toHaveLength(1);
    }
    await shop.sandbox.webhooks.idle();
    expect(shop.orderEvents.map((e) => [e.type, e.referenceId])).toEqual(Array.from({ length: 5 }, (_, i) => ['order.paid', `order-${i}`]));
  });

  redisTest('refunds the later success when a QR opened on one instance is paid after a card on the other', async ({ redisServer }) => {
    const shop = await setUp(redisServer);
    const [a, b] = shop.instances as [CheckoutFleet['instances'][0], CheckoutFleet['instances'][0]];
    shop.orders.set('cart-1', { amount: PRICE, currency: 'THB', referenceId: 'order-1' });
    // Webhooks reach the instance the card was not paid on.
    shop.deliverWebhook = (request) => a.handler(request);

    const qr = await pay(shop, a, 'cart-1', QR, 'tab-a');
    expect(qr.status).toBe(201);
    const refused = await pay(shop, b, 'cart-1', await cardOf(shop), 'tab-b');
    expect(refused.body).toMatchObject({ paymentMethodType: 'QR_PROMPT_PAY', replaceable: true, error: { errorCode: 'PAYMENT_IN_PROGRESS' } });
    const byCard = await pay(shop, b, 'cart-1', await cardOf(shop), 'tab-b-again', { replace: true });
    expect(byCard.status).toBe(201);
    await vi.waitFor(() => expect(shop.orderEvents.map((e) => e.type)).toEqual(['order.paid']));

    await scanAndPay(shop, qr.body.encodedImage.rawData);
    await vi.waitFor(() => expect(shop.orderEvents.map((e) => e.type)).toEqual(['order.paid', 'order.duplicate_refunded']));
    const duplicate = shop.orderEvents[1] as Extract<OrderEvent, { type: 'order.duplicate_refunded' }>;
    expect(duplicate).toMatchObject({ chargeId: qr.body.chargeId, paidBy: byCard.body.chargeId, amount: PRICE });
    await vi.waitFor(() => expect(refundsOf(shop, qr.body.chargeId).map((r) => [r.status, r.amount, r.refundId])).toEqual([['SUCCEEDED', PRICE, duplicate.refundId]]));
    expect(refundsOf(shop, byCard.body.chargeId)).toEqual([]);
    // Each page learns its outcome from either instance.
    expect((await readStatus(b, qr.body.chargeId, qr.body.statusToken)).body).toMatchObject({ status: 'SUCCEEDED', outcome: 'duplicate_refunded' });
    expect((await readStatus(a, byCard.body.chargeId, byCard.body.statusToken)).body).toMatchObject({ status: 'SUCCEEDED', outcome: 'paid' });
    await shop.sandbox.webhooks.idle();
    expect(shop.orderEvents.map((e) => e.type)).toEqual(['order.paid', 'order.duplicate_refunded']);
  });

  redisTest('hands a webhook delivered to both instances at once to onEvent once', async ({ redisServer }) => {
    const shop = await setUp(redisServer);
    const [a, b] = shop.instances as [CheckoutFleet['instances'][0], CheckoutFleet['instances'][0]];
    shop.orders.set('cart-1', { amount: PRICE, currency: 'THB', referenceId: 'order-1' });
    // Every delivery of the sandbox goes to both instances at the same moment.
    const answers: number[] = [];
    shop.deliverWebhook = async (request) => {
      const copy = request.clone();
      const [fromA, fromB] = await Promise.all([a.handler(request), b.handler(copy)]);
      answers.push(fromA.status, fromB.status);
      return fromA.ok ? fromA : fromB;
    };
    const paid = await pay(shop, a, 'cart-1', await cardOf(shop), 'tab-a');
    expect(paid.status).toBe(201);
    await vi.waitFor(() => expect(shop.orderEvents.map((e) => e.type)).toEqual(['order.paid']));
    await shop.sandbox.webhooks.idle();
    const succeeded = shop.events.filter(({ event }) => event.name === 'charge.succeeded');
    expect(succeeded).toHaveLength(1);
    expect(answers.every((status) => status === 200 || status === 503)).toBe(true);

    // And ten copies of one signed delivery, five on each instance at once.
    const charge = { ...(await shop.service.getCharge(paid.body.chargeId)), updatedAt: new Date(Date.now() + 1_000).toISOString() };
    const body = JSON.stringify(charge);
    const signature = await signWebhookPayload(body, WEBHOOK_KEY);
    const deliver = (instance: typeof a) =>
      instance.handler(
        new Request(`${BASE}/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', [SERVICE_HEADERS.event]: 'charge.succeeded', [SERVICE_HEADERS.signature]: signature }, body }),
      );
    const copies = await Promise.all(Array.from({ length: 10 }, (_, i) => deliver(i % 2 === 0 ? a : b)));
    const outcomes = await Promise.all(copies.map(async (r) => `${r.status} ${JSON.stringify(await r.json())}`));
    expect(outcomes.filter((o) => o === '200 {"received":true}')).toHaveLength(1);
    expect(outcomes.every((o) => o.startsWith('200 ') || o.startsWith('503 '))).toBe(true);
    expect(shop.events.filter(({ event }) => event.name === 'charge.succeeded')).toHaveLength(2);
    expect(shop.orderEvents.map((e) => e.type)).toEqual(['order.paid']);
  });

  redisTest('wakes a long-poll on one instance with a webhook that reached the other, well before its next poll of the service', async ({ redisServer, redisClient }) => {
    const pollMs = 10_000;
    const shop = await setUp(redisServer, { handler: { statusPollIntervalMs: pollMs } });
    const [a, b] = shop.instances as [CheckoutFleet['instances'][0], CheckoutFleet['instances'][0]];
    shop.orders.set('cart-1', { amount: PRICE, currency: 'THB', referenceId: 'order-1' });
    shop.deliverWebhook = (request) => b.handler(request);
    const qr = await pay(shop, a, 'cart-1', QR, 'tab-a');
    const waiting = readStatus(a, qr.body.chargeId, qr.body.statusToken, 20);
    // The long-poll listens once its SUBSCRIBE to the payment's channel is on Redis.
    const channel = `${prefix}charge:${qr.body.chargeId}`;
    await vi.waitFor(async () => expect((await redisClient.pubSubNumSub(channel))[channel]).toBe(1), { timeout: 10_000 });
    const paidAt = performance.now();
    await scanAndPay(shop, qr.body.encodedImage.rawData);
    const answer = await waiting;
    const wokenAfterMs = performance.now() - paidAt;
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'SUCCEEDED', outcome: 'paid' });
    expect(wokenAfterMs).toBeLessThan(1_000);
    expect(shop.events.map((e) => e.instance)).toContain('B');
    expect(shop.events.map((e) => e.instance)).not.toContain('A');
  });

  redisTest('ends a QR’s status wait on one instance with order: paid once a card paid the order through the other', { timeout: 15_000 }, async ({ redisServer, redisClient }) => {
    // No poll of the service within the wait: only the news of the card, through Redis, ends it early.
    const shop = await setUp(redisServer, { handler: { statusPollIntervalMs: 60_000 } });
    const [a, b] = shop.instances as [CheckoutFleet['instances'][0], CheckoutFleet['instances'][0]];
    shop.orders.set('cart-1', { amount: PRICE, currency: 'THB', referenceId: 'order-1' });
    shop.deliverWebhook = (request) => b.handler(request);
    const qr = await pay(shop, a, 'cart-1', QR, 'tab-a');
    const waiting = readStatus(a, qr.body.chargeId, qr.body.statusToken, 25);
    const channel = `${prefix}charge:${qr.body.chargeId}`;
    await vi.waitFor(async () => expect((await redisClient.pubSubNumSub(channel))[channel]).toBe(1), { timeout: 10_000 });
    const byCard = await pay(shop, b, 'cart-1', await cardOf(shop), 'tab-b', { replace: true });
    expect(byCard.status).toBe(201);
    // Within the test's 15 s, where the wait alone would hold it 25 s.
    expect((await waiting).body).toMatchObject({ chargeId: qr.body.chargeId, status: 'PENDING', order: 'paid' });
  });

  redisTest('counts a client’s requests on both instances against one limit', async ({ redisServer }) => {
    const shop = await setUp(redisServer, { handler: { rateLimit: { statusPerWindow: 4, windowMs: 60_000 }, getClientId: () => 'shopper-1' } });
    const [a, b] = shop.instances as [CheckoutFleet['instances'][0], CheckoutFleet['instances'][0]];
    shop.orders.set('cart-1', { amount: PRICE, currency: 'THB', referenceId: 'order-1' });
    const qr = await pay(shop, a, 'cart-1', QR, 'tab-a');
    // Windows are fixed (they start on whole minutes): the reads must all fall in one.
    const leftMs = 60_000 - (Date.now() % 60_000);
    if (leftMs < 3_000) await new Promise((resolve) => setTimeout(resolve, leftMs + 50));
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await readStatus(i % 2 === 0 ? a : b, qr.body.chargeId, qr.body.statusToken)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const limited = await readStatus(a, qr.body.chargeId, qr.body.statusToken);
    expect(limited.body.error.errorCode).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
