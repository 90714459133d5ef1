/**
 * However many shoppers wait on one payment, the service is asked about it once at a time, and a
 * PENDING answer serves every read for a second; a shopper who leaves does not cancel the read the
 * others wait on. Their long-polls are watched together: one poll per interval for the payment,
 * and each waiter woken only by news.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STATUS_READ_REUSE_MS } from '../../../src/server/checkout/checkout-options.js';
import { MemoryCheckoutStore } from '../../../src/server/index.js';
import { createCheckoutHarness, type CheckoutHarness } from '../../support/checkout-harness.js';

const ORDERS = { 'qr-cart': { amount: 12_345, currency: 'THB', referenceId: 'order-qr' } } as const;

let harness: CheckoutHarness | undefined;
afterEach(() => {
  vi.useRealTimers();
  harness?.sandbox.close();
});

/** The store's clock, moved by the tests: the reuse of a read is measured on it. */
let clock = Date.now();

function start() {
  clock = Date.now();
  const reads: string[] = [];
  let release: (() => void) | undefined;
  let gate: Promise<void> | undefined;
  harness = createCheckoutHarness(ORDERS, { rateLimit: false, store: new MemoryCheckoutStore({ now: () => clock }) }, {}, async (request) => {
    if (request.method === 'GET' && new URL(request.url).pathname.includes('/api/v1/charges/ch_')) {
      reads.push(new URL(request.url).pathname);
      await gate;
    }
    return harness!.sandbox.fetch(request);
  });
  return {
    reads,
    hold: () => (gate = new Promise((resolve) => (release = resolve))),
    release: () => release?.(),
  };
}

async function qrCharge(h: CheckoutHarness) {
  const created = await h.call('POST', '/charges', { body: { orderReference: 'qr-cart', paymentMethod: { type: 'QR_PROMPT_PAY' } }, headers: { 'idempotency-key': crypto.randomUUID() } });
  expect(created.status).toBe(201);
  return created.body as { chargeId: string; statusToken: string };
}

describe('status reads of one payment', () => {
  it('share the read under way, and a PENDING answer serves the next reads for a second', async () => {
    const upstream = start();
    const { chargeId, statusToken } = await qrCharge(harness!);
    void upstream.hold();
    const asks = Array.from({ length: 50 }, () => harness!.call('GET', `/charges/${chargeId}/status`, { headers: { 'x-satang-status-token': statusToken } }));
    // The first ask reached the service and is held there; an ask that comes after its answer is
    // served that answer for a second, so the count below holds either way.
    await vi.waitFor(() => expect(upstream.reads).toHaveLength(1), { timeout: 10_000 });
    upstream.release();
    const answers = await Promise.all(asks);
    expect(answers.every((a) => a.status === 200 && a.body.status === 'PENDING')).toBe(true);
    expect(upstream.reads).toHaveLength(1);

    // Within the second, answered without asking the service; past it, asked again.
    await harness!.call('GET', `/charges/${chargeId}/status`, { headers: { 'x-satang-status-token': statusToken } });
    expect(upstream.reads).toHaveLength(1);
    clock += STATUS_READ_REUSE_MS + 1;
    await harness!.call('GET', `/charges/${chargeId}/status`, { headers: { 'x-satang-status-token': statusToken } });
    expect(upstream.reads).toHaveLength(2);
  });

  it('answer at once for a payment that succeeded meanwhile: a webhook\'s final status is not held back by a PENDING read', async () => {
    start();
    const { chargeId, statusToken } = await qrCharge(harness!);
    expect((await harness!.call('GET', `/charges/${chargeId}/status`, { headers: { 'x-satang-status-token': statusToken } })).body.status).toBe('PENDING');
    harness!.sandbox.payments.settleCharge(chargeId, { status: 'SUCCEEDED' });
    await vi.waitFor(() => expect(harness!.events.some((e) => e.name === 'charge.succeeded')).toBe(true));
    const after = await harness!.call('GET', `/charges/${chargeId}/status`, { headers: { 'x-satang-status-token': statusToken } });
    expect(after.body.status).toBe('SUCCEEDED');
  });

  it('lets a shopper who leaves go without cancelling the read the others wait on', async () => {
    const upstream = start();
    const { chargeId, statusToken } = await qrCharge(harness!);
    void upstream.hold();
    const leaving = new AbortController();
    const left = harness!.handler(new Request(`https://shop.example/api/checkout/charges/${chargeId}/status`, { headers: { 'x-satang-status-token': statusToken }, signal: leaving.signal })).catch((error: unknown) => error);
    const staying = harness!.call('GET', `/charges/${chargeId}/status`, { headers: { 'x-satang-status-token': statusToken } });
    // The read is at the service, held; had the leaving shopper's abort cancelled it, the staying
    // one would have to read again (2 reads).
    await vi.waitFor(() => expect(upstream.reads).toHaveLength(1), { timeout: 10_000 });
    leaving.abort();
    await left;
    upstream.release();
    expect((await staying).body.status).toBe('PENDING');
    expect(upstream.reads).toHaveLength(1);
  });

  it('are watched together while they wait: the store and the service are asked per payment, not per waiter, and one webhook ends every wait', async () => {
    let storeReads = 0;
    class CountingStore extends MemoryCheckoutStore {
      override get(key: string) {
        storeReads += 1;
        return super.get(key);
      }
    }
    const reads: string[] = [];
    harness = createCheckoutHarness(ORDERS, { rateLimit: false, store: new CountingStore(), statusPollIntervalMs: 100 }, {}, (request) => {
      if (request.method === 'GET' && new URL(request.url).pathname.includes('/api/v1/charges/ch_')) reads.push(new URL(request.url).pathname);
      return harness!.sandbox.fetch(request);
    });
    const { chargeId, statusToken } = await qrCharge(harness);
    const waiters = 100;
    const waits = Array.from({ length: waiters }, () => harness!.call('GET', `/charges/${chargeId}/status?wait=10`, { headers: { 'x-satang-status-token': statusToken } }));
    // Every waiter makes its first read; then ten poll intervals pass with nothing new.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const storeReadsBefore = storeReads;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // Each poll of the payment reads the store a few times; a poll per waiter would be 1,000 polls.
    expect(storeReads - storeReadsBefore).toBeLessThan(waiters);
    expect(reads.length).toBeLessThanOrEqual(3);

    const started = Date.now();
    harness.sandbox.payments.settleCharge(chargeId, { status: 'SUCCEEDED' });
    const answers = await Promise.all(waits);
    expect(answers.map((answer) => answer.body.status)).toEqual(Array.from({ length: waiters }, () => 'SUCCEEDED'));
    expect(answers.filter((answer) => answer.body.outcome === 'paid')).toHaveLength(waiters);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
