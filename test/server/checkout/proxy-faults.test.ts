import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHECKOUT_IDEMPOTENCY_HEADER, CHECKOUT_ORDER_TOKEN_HEADER, CHECKOUT_STATUS_TOKEN_HEADER } from '../../../src/core/constants.js';
import { listenSandbox, SANDBOX_DEFAULTS, type RunningSandbox } from '../../../src/sandbox/index.js';
import { SANDBOX_FAULT_KINDS, type SandboxFaultInput, type SandboxFaultKind } from '../../../src/sandbox/faults/fault-rules.js';
import { createCheckoutHandler, ServiceClient, toNodeListener, type CheckoutLogEntry, type ResolvedOrder } from '../../../src/server/index.js';
import { FUTURE_EXPIRY_YEAR } from '../../support/sandbox-client.js';

/**
 * Real faults on real sockets between the checkout handler (the merchant's proxy, behind
 * `toNodeListener`) and the sandbox (behind `listenSandbox`): whatever the service does wrong,
 * the handler retries with one idempotency key, answers a retryable error when the faults outlast
 * its retries, and a retry from the browser ends with exactly one charge per order.
 */

const MAX_RETRIES = 2;
const ATTEMPTS = MAX_RETRIES + 1;
/**
 * Long enough for a loaded machine to answer a charge, short enough that a status read whose every
 * attempt times out (three of them, with their pauses) fails well inside the status answer's margin
 * (`STATUS_ANSWER_MARGIN_MS`, 750 ms), past which it would be answered PENDING instead of 503.
 */
const ATTEMPT_TIMEOUT_MS = 150;
const OTP_CARD = '4953261730509988';
const CARD = '4111111111111111';

let sandbox: RunningSandbox;
let proxy: Server;
let proxyUrl: string;
/** A client of the same service, for reading the ledger back. */
let ledger: ServiceClient;
/** The shop's orders: an order stops being for sale once its charge.succeeded webhook arrives, as in the demo. */
const orders = new Map<string, ResolvedOrder & { paidBy?: string }>();
let orderCount = 0;
/** The handler's log lines: the faults below are expected, so they go here rather than to the console. */
const logged: CheckoutLogEntry[] = [];
/** The order tokens the shop renders into its pages. */
let orderToken: (orderReference: string) => Promise<string>;

beforeAll(async () => {
  let handler: (request: Request) => Promise<Response> = () => Promise.resolve(new Response(null, { status: 503 }));
  const listener = toNodeListener((request) => handler(request));
  proxy = createServer(listener);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/checkout`;
  sandbox = await listenSandbox({
    port: 0,
    host: '127.0.0.1',
    webhook: { url: `${proxyUrl}/webhooks`, webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64, retryBaseDelayMs: 5 },
  });
  const service = { baseUrl: sandbox.url, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey };
  ledger = new ServiceClient(service);
  const checkout = createCheckoutHandler({
    service: new ServiceClient({ ...service, timeoutMs: ATTEMPT_TIMEOUT_MS, maxRetries: MAX_RETRIES, retryBaseDelayMs: 5 }),
    statusTokenSecret: SANDBOX_DEFAULTS.apiKey,
    resolveOrder: (reference) => {
      const order = orders.get(reference);
      return order && !order.paidBy ? order : null;
    },
    basePath: '/api/checkout',
    publicUrl: new URL(proxyUrl).origin,
    webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64,
    onEvent: (event) => {
      if (event.name !== 'charge.succeeded' || !event.payload.referenceId) return;
      const order = orders.get(event.payload.referenceId);
      if (order) order.paidBy ??= event.payload.chargeId;
    },
    rateLimit: false,
    log: (entry) => logged.push(entry),
  });
  handler = checkout;
  orderToken = (reference) => checkout.orderToken(reference);
});

afterAll(async () => {
  await sandbox.close();
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
});

beforeEach(() => {
  sandbox.sandbox.faults.clear();
});

function newOrder(): string {
  orderCount += 1;
  const reference = `order-${orderCount}-${crypto.randomUUID()}`;
  orders.set(reference, { amount: 25_000, currency: 'THB', referenceId: reference });
  return reference;
}

async function tokenize(pan: string): Promise<string> {
  const response = await fetch(`${sandbox.url}/client/v1/card-tokens`, {
    method: 'POST',
    headers: { authorization: `Basic ${btoa(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.publishableKey}`)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ pan, expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee' }),
  });
  return ((await response.json()) as { id: string }).id;
}

/** The browser's `POST /charges`, with the attempt's key. */
async function pay(orderReference: string, cardTokenId: string, attemptKey: string) {
  const response = await fetch(`${proxyUrl}/charges`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CHECKOUT_IDEMPOTENCY_HEADER]: attemptKey, [CHECKOUT_ORDER_TOKEN_HEADER]: await orderToken(orderReference) },
    body: JSON.stringify({ orderReference, amount: orders.get(orderReference)?.amount, currency: orders.get(orderReference)?.currency, paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' }, returnUrl: `${new URL(proxyUrl).origin}/return` }),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

async function status(chargeId: string, statusToken: string) {
  const response = await fetch(`${proxyUrl}/charges/${chargeId}/status`, { headers: { [CHECKOUT_STATUS_TOKEN_HEADER]: statusToken } });
  return { status: response.status, body: await response.json() };
}

/** What the service holds for an order: its charges and its transactions. */
async function ledgerOf(referenceId: string) {
  const charges = await ledger.charges.list({ referenceId });
  // The service filters transactions by reference too; the client does not offer that filter.
  const response = await fetch(`${sandbox.url}/api/v1/transactions?referenceId=${encodeURIComponent(referenceId)}`, {
    headers: { authorization: `Basic ${btoa(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.apiKey}`)}` },
  });
  const transactions = ((await response.json()) as { data: unknown[] }).data;
  return { charges: charges.data, transactions };
}

/** A rule that spoils `times` requests; `when` defaults to after processing, the case that could duplicate. */
function fault(kind: SandboxFaultKind, times: number, extra: Partial<SandboxFaultInput> = {}): SandboxFaultInput {
  return {
    method: 'POST',
    path: '/api/v1/charges',
    kind,
    times,
    when: 'after',
    ...(kind === 'status' ? { status: 502 } : {}),
    ...(kind === 'rate-limit' ? { retryAfterSeconds: 0 } : {}),
    // Slower than an attempt may take: the client gives up on it.
    ...(kind === 'slow-body' ? { delayMs: ATTEMPT_TIMEOUT_MS * 4 } : {}),
    ...extra,
  };
}

/** The idempotency keys of the requests the rules spoiled. */
function spoiledKeys(): (string | null)[] {
  return sandbox.sandbox.faults.list().flatMap((rule) => rule.hits.map((hit) => hit.idempotencyKey));
}

describe('faults on POST /api/v1/charges, after the service made the charge', () => {
  it.each(SANDBOX_FAULT_KINDS)('%s twice: the handler retries with one key and answers the one charge', async (kind) => {
    const order = newOrder();
    sandbox.sandbox.faults.add(fault(kind, MAX_RETRIES));
    const answer = await pay(order, await tokenize(CARD), `attempt-${order}`);

    expect(answer.status).toBe(201);
    expect(spoiledKeys()).toEqual(Array(MAX_RETRIES).fill(`checkout-attempt-${order}`));
    const { charges, transactions } = await ledgerOf(order);
    expect(charges.map((c) => c.chargeId)).toEqual([answer.body.chargeId]);
    expect(transactions.length).toBeLessThanOrEqual(1);
  });

  it.each(SANDBOX_FAULT_KINDS)('%s on every attempt: a retryable 503, and the browser retry makes no second charge', async (kind) => {
    const order = newOrder();
    const rule = sandbox.sandbox.faults.add(fault(kind, ATTEMPTS));
    const cardTokenId = await tokenize(CARD);
    const failed = await pay(order, cardTokenId, `attempt-${order}`);

    expect(failed.status).toBe(503);
    expect(failed.body.error).toMatchObject({ errorCode: 'UPSTREAM_UNAVAILABLE', retryable: true });
    expect(failed.headers.get('retry-after')).toMatch(/^\d+$/);
    // The merchant's log says what failed upstream, without any of the request's data.
    expect(logged.filter((entry) => entry.path.endsWith('/charges')).at(-1)).toMatchObject({ method: 'POST', path: '/api/checkout/charges', status: 503, errorCode: 'UPSTREAM_UNAVAILABLE', error: expect.any(Error) });
    expect(sandbox.sandbox.faults.get(rule.faultId)!.remaining).toBe(0);
    expect(spoiledKeys()).toEqual(Array(ATTEMPTS).fill(`checkout-attempt-${order}`));
    // The service did the work every time it was asked: one charge, whose answer was lost.
    expect((await ledgerOf(order)).charges).toHaveLength(1);

    // The order may be paid by now (its webhook came): the retry of the same attempt still learns its charge.
    const retried = await pay(order, cardTokenId, `attempt-${order}`);
    expect(retried.status).toBe(201);
    const { charges, transactions } = await ledgerOf(order);
    expect(charges.map((c) => c.chargeId)).toEqual([retried.body.chargeId]);
    expect(transactions.length).toBeLessThanOrEqual(1);
    expect((await status(retried.body.chargeId, retried.body.statusToken)).body.status).toBe('SUCCEEDED');
  });

  it('a new attempt for an order its lost charge already paid is refused, not charged again', async () => {
    const order = newOrder();
    sandbox.sandbox.faults.add(fault('reset', ATTEMPTS));
    expect((await pay(order, await tokenize(CARD), 'lost')).status).toBe(503);
    await expect.poll(() => orders.get(order)!.paidBy).toBeDefined();

    // The lost charge's webhook settled it as the order's payment: the new attempt hears the order is paid.
    const other = await pay(order, await tokenize(CARD), 'another');
    expect([other.status, other.body.error.errorCode]).toEqual([409, 'ORDER_ALREADY_PAID']);
    expect((await ledgerOf(order)).charges).toHaveLength(1);
  });
});

describe('faults on POST /api/v1/charges, before the service did anything', () => {
  it('an attempt that never reached the service is not charged once another attempt has paid the order', async () => {
    const order = newOrder();
    sandbox.sandbox.faults.add(fault('reset', ATTEMPTS, { when: 'before' }));
    const cardTokenId = await tokenize(CARD);
    expect((await pay(order, cardTokenId, `first-${order}`)).status).toBe(503);
    // The shopper pays in another tab, and the order is paid.
    const other = await pay(order, await tokenize(CARD), `second-${order}`);
    expect(other.status).toBe(201);
    await expect.poll(() => orders.get(order)!.paidBy).toBe(other.body.chargeId);

    const late = await pay(order, cardTokenId, `first-${order}`);
    expect([late.status, late.body.error.errorCode]).toEqual([409, 'ORDER_ALREADY_PAID']);
    expect((await ledgerOf(order)).charges.map((c) => c.chargeId)).toEqual([other.body.chargeId]);
  });


  it.each(SANDBOX_FAULT_KINDS.filter((kind) => kind !== 'slow-body' && kind !== 'truncated-body'))(
    '%s on every attempt: nothing is charged until the browser retries',
    async (kind) => {
      const order = newOrder();
      sandbox.sandbox.faults.add(fault(kind, ATTEMPTS, { when: 'before', ...(kind === 'timeout' ? { delayMs: ATTEMPT_TIMEOUT_MS * 4 } : {}) }));
      const cardTokenId = await tokenize(CARD);
      const failed = await pay(order, cardTokenId, `before-${order}`);
      expect(failed.status).toBe(503);
      expect(failed.body.error.retryable).toBe(true);
      // A late answer (timeout with a delay) may still make the charge; every other fault makes none.
      if (kind !== 'timeout') expect((await ledgerOf(order)).charges).toHaveLength(0);

      const retried = await pay(order, cardTokenId, `before-${order}`);
      expect(retried.status).toBe(201);
      expect((await ledgerOf(order)).charges.map((c) => c.chargeId)).toEqual([retried.body.chargeId]);
    },
  );
});

describe('faults on GET /api/v1/charges/{id}, the read behind the status long-poll', () => {
  async function pendingCharge() {
    const order = newOrder();
    const answer = await pay(order, await tokenize(OTP_CARD), `pending-${order}`);
    expect(answer.status).toBe(201);
    expect(answer.body.actionRequired).toBe('REDIRECT');
    return answer.body as { chargeId: string; statusToken: string };
  }

  it.each(SANDBOX_FAULT_KINDS)('%s twice: the status is read on the third attempt', async (kind) => {
    const { chargeId, statusToken } = await pendingCharge();
    sandbox.sandbox.faults.add(fault(kind, MAX_RETRIES, { method: 'GET', path: '/api/v1/charges/*' }));
    const answer = await status(chargeId, statusToken);
    expect(answer).toEqual({ status: 200, body: { chargeId, status: 'PENDING', failureCode: null } });
    expect(spoiledKeys()).toEqual(Array(MAX_RETRIES).fill(null));
  });

  it.each(SANDBOX_FAULT_KINDS)('%s on every attempt: a retryable 503 the poller keeps following', async (kind) => {
    const { chargeId, statusToken } = await pendingCharge();
    sandbox.sandbox.faults.add(fault(kind, ATTEMPTS, { method: 'GET', path: '/api/v1/charges/*' }));
    const answer = await status(chargeId, statusToken);
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatchObject({ errorCode: 'UPSTREAM_UNAVAILABLE', retryable: true });
    expect((await status(chargeId, statusToken)).body.status).toBe('PENDING');
  });
});
