import { createClient } from 'redis';
import { describe, expect, vi } from 'vitest';
import { CheckoutStoreError } from '../../../src/server/index.js';
import { BASE } from '../../support/checkout-harness.js';
import { cardOf, chargesOf, createCheckoutFleet, pay, QR, readStatus, scanAndPay, type CheckoutFleet, type Instance } from '../../support/checkout-fleet.js';
import { redisTest } from '../../support/redis-fixture.js';
import type { RedisServer } from '../../support/redis-server.js';

/**
 * Redis going away under a running fleet: stopped and started again on the same port, empty (no
 * persistence), or frozen. Every request is answered (503, retryable, no stack) instead of
 * hanging, the fleet recovers by itself when Redis is back, and what the service knows is read
 * again from it.
 */

const COMMAND_TIMEOUT_MS = 400;
const PRICE = 24_500;

let fleet: CheckoutFleet | undefined;
let runs = 0;

redisTest.afterEach(async ({ redisServer }) => {
  await redisServer.start().catch(() => undefined);
  redisServer.resume();
  await fleet?.close();
  fleet = undefined;
});

async function setUp(server: RedisServer): Promise<[CheckoutFleet, Instance, Instance]> {
  runs += 1;
  fleet = await createCheckoutFleet({
    redisUrl: server.url,
    keyPrefix: `outage-${process.pid}-${runs}:`,
    store: { commandTimeoutMs: COMMAND_TIMEOUT_MS },
    // Retried every 100 ms or so at first, as the service retries a webhook answered 503.
    webhookRetryBaseDelayMs: 100,
    handler: { statusPollIntervalMs: 200 },
  });
  fleet.orders.set('cart-1', { amount: PRICE, currency: 'THB', referenceId: 'order-1' });
  fleet.orders.set('cart-2', { amount: PRICE, currency: 'THB', referenceId: 'order-2' });
  return [fleet, fleet.instances[0]!, fleet.instances[1]!];
}

/** An answer of a store that could not answer: 503, retryable, in the service's error shape, no stack. */
function expectStoreRefusal(answer: { status: number; text: string; body: any; headers: Headers; ms: number }) {
  expect(answer.status).toBe(503);
  expect(answer.body).toMatchObject({ code: 503, error: { errorCode: 'UPSTREAM_UNAVAILABLE', retryable: true } });
  expect(answer.headers.get('retry-after')).toBe('2');
  expect(answer.text).not.toMatch(/\bat .*\.(ts|js)|Error:|ECONNREFUSED|redis/i);
  // Within a command timeout or so: nothing waits on a Redis that is not there.
  expect(answer.ms).toBeLessThan(COMMAND_TIMEOUT_MS * 3);
}

describe('when Redis is restarted under two instances', () => {
  redisTest('answers 503 while it is down, recovers when it is back, and reads again from the service what it forgot', async ({ redisServer }) => {
    const [shop, a, b] = await setUp(redisServer);
    shop.deliverWebhook = (request) => b.handler(request);
    const qr = await pay(shop, a, 'cart-1', QR, 'tab-a');
    expect(qr.status).toBe(201);

    await redisServer.stop();

    // Every route answers, quickly, 503 and retryable.
    expectStoreRefusal(await pay(shop, b, 'cart-2', await cardOf(shop), 'tab-c'));
    expectStoreRefusal(await readStatus(a, qr.body.chargeId, qr.body.statusToken));
    expectStoreRefusal(await readStatus(b, qr.body.chargeId, qr.body.statusToken, 10));
    // The QR is paid meanwhile: its webhook is answered 503, so the service sends it again.
    await scanAndPay(shop, qr.body.encodedImage.rawData);
    await vi.waitFor(() => expect(shop.logs.some((l) => l.path === '/api/checkout/webhooks' && l.status === 503)).toBe(true));
    expect(shop.logs.filter((l) => l.status >= 500).every((l) => l.status === 503 && l.errorCode === 'UPSTREAM_UNAVAILABLE')).toBe(true);
    // The log has what Redis did (its client's error, or the store's timeout); the shopper's answer did not.
    const logged = shop.logs.find((l) => l.status === 503)!.error;
    expect(String(logged)).toMatch(/Redis did not answer|closed|ECONNREFUSED|Timeout/i);
    expect(shop.events).toEqual([]);

    await redisServer.start();

    // Back by itself: node-redis reconnects, and the webhook's next delivery is handled.
    await vi.waitFor(() => expect(shop.events.map(({ event }) => event.name)).toContain('charge.succeeded'), { timeout: 10_000, interval: 100 });
    // The same attempt sent again (its answer lost in the outage) gets its charge back from the
    // service's idempotency key, not a second charge, though its replay and lock were wiped.
    const again = await pay(shop, b, 'cart-1', QR, 'tab-a');
    expect([again.status, again.body.chargeId]).toEqual([201, qr.body.chargeId]);
    expect(chargesOf(shop, 'order-1')).toHaveLength(1);
    // The status the empty Redis no longer held is read again from the service, on either instance,
    // and the payment the wipe left unsettled pays its order now. Instance a's client reconnects on
    // its own backoff, which its failed calls during the outage lengthened: asked once it answers.
    await vi.waitFor(() => a.store.get('reconnected?'), { timeout: 10_000, interval: 100 });
    expect((await readStatus(a, qr.body.chargeId, qr.body.statusToken)).body).toMatchObject({ chargeId: qr.body.chargeId, status: 'SUCCEEDED', outcome: 'paid' });

    // A new checkout after the restart is taken, paid and settled once, across both instances.
    const card = await pay(shop, a, 'cart-2', await cardOf(shop), 'tab-d');
    expect(card.status).toBe(201);
    await vi.waitFor(() =>
      expect(shop.orderEvents.map((e) => [e.type, e.referenceId])).toEqual([
        ['order.paid', 'order-1'],
        ['order.paid', 'order-2'],
      ]),
    );
    expect((await readStatus(b, card.body.chargeId, card.body.statusToken)).body).toMatchObject({ status: 'SUCCEEDED', outcome: 'paid' });
  });

  redisTest('wakes long-polls again after the restart, on channels subscribed before it and during it', async ({ redisServer }) => {
    const [shop, a, b] = await setUp(redisServer);
    const heardBefore: string[] = [];
    const heardDuring: string[] = [];
    a.store.subscribe('charge:before', (m) => heardBefore.push(m));
    await vi.waitFor(async () => {
      await b.store.publish('charge:before', 'ping');
      expect(heardBefore).toContain('ping');
    });
    await redisServer.stop();
    a.store.subscribe('charge:during', (m) => heardDuring.push(m));
    await expect(b.store.publish('charge:before', 'lost')).rejects.toBeInstanceOf(CheckoutStoreError);
    await redisServer.start();
    await vi.waitFor(
      async () => {
        await b.store.publish('charge:before', 'after').catch(() => undefined);
        await b.store.publish('charge:during', 'after').catch(() => undefined);
        expect(heardBefore).toContain('after');
        expect(heardDuring).toContain('after');
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(shop.instances).toHaveLength(2);
  });
});

describe('when Redis freezes', () => {
  redisTest('times a call out as a 503 instead of waiting, and goes on once Redis answers again', async ({ redisServer }) => {
    const [shop, a] = await setUp(redisServer);
    const qr = await pay(shop, a, 'cart-1', QR, 'tab-a');
    redisServer.pause();
    try {
      // The connection is up and the commands are sent: only the store's own timeout ends them.
      expectStoreRefusal(await readStatus(a, qr.body.chargeId, qr.body.statusToken));
      const started = performance.now();
      await expect(a.store.get('anything')).rejects.toBeInstanceOf(CheckoutStoreError);
      expect(performance.now() - started).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 20);
    } finally {
      redisServer.resume();
    }
    await vi.waitFor(async () => expect((await readStatus(a, qr.body.chargeId, qr.body.statusToken)).status).toBe(200), { timeout: 5_000 });
  });
});

describe('RedisCheckoutStore on a client that lost its server', () => {
  redisTest('fails fast with disableOfflineQueue, and at the command timeout without it', async ({ redisServer, connectRedis, redisStore }) => {
    const offline = await connectRedis(createClient({ url: redisServer.url, disableOfflineQueue: true }));
    const queued = await connectRedis(createClient({ url: redisServer.url }));
    const fast = redisStore({ client: offline, commandTimeoutMs: 1_000 });
    const slow = redisStore({ client: queued, commandTimeoutMs: 1_000 });
    await redisServer.stop();
    let started = performance.now();
    await expect(fast.set('k', 'v', 1_000)).rejects.toBeInstanceOf(CheckoutStoreError);
    expect(performance.now() - started).toBeLessThan(200);
    started = performance.now();
    await expect(slow.set('k', 'v', 1_000)).rejects.toBeInstanceOf(CheckoutStoreError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    await redisServer.start();
    // The queued SET was dropped at its timeout, not sent once Redis came back.
    await vi.waitFor(async () => expect(await slow.get('k')).toBeUndefined(), { timeout: 10_000, interval: 100 });
    expect(BASE).toContain('/api/checkout');
  });
});
