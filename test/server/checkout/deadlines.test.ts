import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHECKOUT_IDEMPOTENCY_HEADER, CHECKOUT_STATUS_TOKEN_HEADER } from '../../../src/core/constants.js';
import { ConfigurationError } from '../../../src/server/index.js';
import { SERVICE_DEADLINE_MS } from '../../../src/server/checkout/checkout-options.js';
import { createCheckoutHarness, SERVICE, type CheckoutHarness } from '../../support/checkout-harness.js';
import { createCheckoutHandler } from '../../../src/server/index.js';

/**
 * Every wait of the handler on the service has a deadline: a service that accepts a request and
 * never answers held `POST /charges` and a status long-poll for 30 s × 3 attempts (91 s) before.
 * The client here keeps its default 30 s attempt timeout and 3 attempts; only the handler's
 * `serviceDeadlineMs` bounds the calls.
 */

const DEADLINE_MS = 1_000;
/** Room for a busy machine; far below the 15 s or 91 s the answers took without these deadlines. */
const MARGIN_MS = 2_500;
const ORDERS = {
  'cart-hung': { amount: 25_000, currency: 'THB', referenceId: 'cart-hung' },
  'cart-other': { amount: 12_000, currency: 'THB', referenceId: 'cart-other' },
  'cart-qr': { amount: 5_000, currency: 'THB', referenceId: 'cart-qr' },
};

let harness: CheckoutHarness;
afterEach(() => harness.sandbox.close());

function newHarness(): CheckoutHarness {
  harness = createCheckoutHarness(ORDERS, { serviceDeadlineMs: DEADLINE_MS, rateLimit: false });
  return harness;
}

async function timed<T>(work: Promise<T>): Promise<{ value: T; tookMs: number }> {
  const started = Date.now();
  const value = await work;
  return { value, tookMs: Date.now() - started };
}

describe('POST /charges when the service makes the charge but never answers', () => {
  it('answers a retryable 503 UPSTREAM_UNAVAILABLE by the deadline, and a retry under the same key makes one charge', async () => {
    const h = newHarness();
    const cardTokenId = await h.service.tokenize('4111111111111111');
    const request = { body: { orderReference: 'cart-hung', paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' } }, headers: { [CHECKOUT_IDEMPOTENCY_HEADER]: 'attempt-1' } };
    h.sandbox.faults.add({ method: 'POST', path: '/api/v1/charges', kind: 'timeout', when: 'after', times: 100, referenceId: 'cart-hung' });

    const hung = timed(h.call('POST', '/charges', request));
    // Another shop's order goes through meanwhile.
    const other = await h.call('POST', '/charges', { body: { orderReference: 'cart-other', paymentMethod: { type: 'QR_PROMPT_PAY' } } });
    expect(other.status).toBe(201);

    const { value: failed, tookMs } = await hung;
    expect(tookMs).toBeLessThan(DEADLINE_MS + MARGIN_MS);
    expect(failed.status).toBe(503);
    expect(failed.body.error).toMatchObject({ errorCode: 'UPSTREAM_UNAVAILABLE', retryable: true });

    h.sandbox.faults.clear();
    const retried = await h.call('POST', '/charges', request);
    expect(retried.status).toBe(201);
    const charges = await h.service.request('GET', '/api/v1/charges?referenceId=cart-hung');
    expect(charges.body.data.map((c: { chargeId: string }) => c.chargeId)).toEqual([retried.body.chargeId]);
  });
});

describe('GET /charges/{id}/status?wait=2 when the service never answers', () => {
  it('answers the last known status (PENDING) by the wait plus a small margin', async () => {
    const h = newHarness();
    const created = await h.call('POST', '/charges', { body: { orderReference: 'cart-qr', paymentMethod: { type: 'QR_PROMPT_PAY' } } });
    expect(created.status).toBe(201);
    h.sandbox.faults.add({ method: 'GET', path: '/api/v1/charges/*', kind: 'timeout', when: 'before', times: 1_000 });

    const { value: answer, tookMs } = await timed(
      h.call('GET', `/charges/${created.body.chargeId}/status?wait=2`, { headers: { [CHECKOUT_STATUS_TOKEN_HEADER]: created.body.statusToken } }),
    );
    expect([answer.status, answer.body.status]).toEqual([200, 'PENDING']);
    expect(tookMs).toBeLessThan(2_000 + 1_000 + MARGIN_MS);
  });

  it('answers a read without a wait within the margin too', async () => {
    const h = newHarness();
    const created = await h.call('POST', '/charges', { body: { orderReference: 'cart-qr', paymentMethod: { type: 'QR_PROMPT_PAY' } } });
    h.sandbox.faults.add({ method: 'GET', path: '/api/v1/charges/*', kind: 'timeout', when: 'before', times: 1_000 });

    const { value: answer, tookMs } = await timed(h.call('GET', `/charges/${created.body.chargeId}/status`, { headers: { [CHECKOUT_STATUS_TOKEN_HEADER]: created.body.statusToken } }));
    expect([answer.status, answer.body.status]).toEqual([200, 'PENDING']);
    expect(tookMs).toBeLessThan(1_000 + MARGIN_MS);
  });
});

describe('serviceDeadlineMs', () => {
  const base = { service: SERVICE, resolveOrder: () => null };

  it('defaults to 15 s', () => {
    expect(SERVICE_DEADLINE_MS).toBe(15_000);
  });

  it.each([0, 50, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s', (serviceDeadlineMs) => {
    expect(() => createCheckoutHandler({ ...base, serviceDeadlineMs })).toThrow(ConfigurationError);
    expect(() => createCheckoutHandler({ ...base, serviceDeadlineMs })).toThrow(/serviceDeadlineMs/);
  });
});

describe('one deadline per shopper request (requestDeadlineMs)', () => {
  it('answers a second tab’s charge, whose service calls each answer in time but add up past it, by the request’s deadline; the retry gets the one charge made', async () => {
    const slow = { ms: 0 };
    const held = { calls: 0 };
    let sandboxFetch: (request: Request) => Promise<Response> = () => Promise.reject(new Error('not yet'));
    harness = createCheckoutHarness(ORDERS, { serviceDeadlineMs: 3_000, requestDeadlineMs: DEADLINE_MS, rateLimit: false }, {}, async (request) => {
      if (slow.ms > 0) {
        held.calls += 1;
        await new Promise((resolve) => setTimeout(resolve, slow.ms));
      }
      return sandboxFetch(request);
    });
    sandboxFetch = harness.sandbox.fetch;
    const qr = await harness.call('POST', '/charges', { body: { orderReference: 'cart-qr', paymentMethod: { type: 'QR_PROMPT_PAY' } }, headers: { [CHECKOUT_IDEMPOTENCY_HEADER]: 'tab-a' } });
    expect(qr.status).toBe(201);

    // Each call now takes 2.5 s, under serviceDeadlineMs (3 s): the second tab's charge reads the
    // open QR, then creates its own, 5 s in all without the request's deadline (1 s).
    slow.ms = 2_500;
    const cardTokenId = await harness.service.tokenize('4111111111111111');
    const request = { body: { orderReference: 'cart-qr', replace: true, paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' } }, headers: { [CHECKOUT_IDEMPOTENCY_HEADER]: 'tab-b' } };
    const { value: answer, tookMs } = await timed(harness.call('POST', '/charges', request));
    expect(tookMs).toBeLessThan(DEADLINE_MS + MARGIN_MS);
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatchObject({ errorCode: 'UPSTREAM_UNAVAILABLE', retryable: true });
    expect(answer.headers.get('retry-after')).toBe('1');

    // What was under way goes on: the card is charged once, and the retry under the same key learns it.
    await vi.waitFor(async () => expect((await harness.service.request('GET', '/api/v1/charges?referenceId=cart-qr')).body.totalCount).toBe(2), { timeout: 15_000 });
    slow.ms = 0;
    const retried = await harness.call('POST', '/charges', request);
    expect(retried.status).toBe(201);
    const charges = (await harness.service.request('GET', '/api/v1/charges?referenceId=cart-qr')).body.data as { chargeId: string }[];
    expect(charges.map((c) => c.chargeId).sort()).toEqual([qr.body.chargeId, retried.body.chargeId].sort());
    expect(held.calls).toBeGreaterThanOrEqual(2);
  });

  it('takes only a whole number of milliseconds, at least 100, saying what to set', () => {
    const options = { service: SERVICE, resolveOrder: () => null };
    for (const requestDeadlineMs of [0, 99, 1.5, Number.NaN]) expect(() => createCheckoutHandler({ ...options, requestDeadlineMs })).toThrow(/requestDeadlineMs must be a whole number/);
    expect(() => createCheckoutHandler({ ...options, requestDeadlineMs: 100 })).not.toThrow(ConfigurationError);
  });
});
